//! pi's `user_select` (the `@fgladisch/pi-user-select` package).
//!
//! One question with options. Its README gives the model's text, `User selected: <n>. <label>`,
//! `User wrote: <trimmed text>` or `User cancelled the selection` (a cancel is not an error), and
//! the `details` the runtime keeps: `question`, `options`, `answer`, `wasCustom`, `cancelled`.

use serde_json::{Value as Json, json};

use super::{Asked, Native, Said};
use crate::model::*;

pub(super) fn reply(asked: &Asked) -> Native {
    let [question] = asked.request.questions.as_slice() else {
        return Native::none();
    };
    let QuestionKind::Select(select) = &question.kind else {
        return Native::none();
    };
    let said = asked
        .answers
        .map(|answers| super::said(question, super::answer_to(answers, question)));
    let (text, answer, custom) = match said {
        Some(Said::Picked {
            typed: Some(typed), ..
        }) => {
            let typed = typed.trim();
            (
                format!("User wrote: {typed}"),
                Some(typed.to_string()),
                true,
            )
        }
        Some(Said::Picked { labels, .. }) if labels.len() == 1 => {
            let number = select.options.iter().position(|o| o.label == labels[0]);
            let number = number.map_or(0, |i| i + 1);
            (
                format!("User selected: {number}. {}", labels[0]),
                Some(labels[0].to_string()),
                false,
            )
        }
        _ => ("User cancelled the selection".to_string(), None, false),
    };
    let options: Vec<Json> = select
        .options
        .iter()
        .map(|o| match &o.description {
            Some(description) => json!({ "label": o.label, "description": description }),
            None => json!({ "label": o.label }),
        })
        .collect();
    Native {
        value: json!({
            "question": question.prompt,
            "options": options,
            "answer": answer,
            "wasCustom": custom,
            "cancelled": answer.is_none(),
        }),
        text: Some(text),
    }
}
