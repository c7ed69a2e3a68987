//! Wegent's `interactive_form_question` (its skill description documents the response).
//!
//! One question: `{"answer": ["<value>", ...]}` for a choice, `{"answer": "<text>"}` for text. A
//! batch: `{"answers": {"<id>": ...}}`. Choices answer with the options' values (a typed answer
//! as one more), text with the text (`""` when left empty). The form hands the answers to the
//! agent as they are, so the model reads the same JSON. The form documents no dismissal.

use serde_json::{Map, Value as Json, json};

use super::{Asked, Native, Said};
use crate::model::*;
use crate::result;

pub(super) fn reply(asked: &Asked) -> Native {
    let Some(answers) = asked.answers else {
        return Native::none();
    };
    let values: Vec<(&Question, Json)> = asked
        .request
        .questions
        .iter()
        .map(|question| {
            (
                question,
                value(question, super::answer_to(answers, question)),
            )
        })
        .collect();
    let native = match values.as_slice() {
        [(_, single)] => json!({ "answer": single }),
        many => {
            let by_id: Map<String, Json> = many
                .iter()
                .map(|(q, v)| (q.id.clone(), v.clone()))
                .collect();
            json!({ "answers": by_id })
        }
    };
    Native::json(native)
}

fn value(question: &Question, answer: Option<&Answer>) -> Json {
    let choice = !question.kind.options().is_empty();
    let nothing = matches!(super::said(question, answer), Said::Nothing);
    match answer.map(|a| &a.value) {
        _ if nothing && choice => json!([]),
        _ if nothing => json!(""),
        Some(Value::Text(value)) if choice => json!([value]),
        Some(value) => result::value(value),
        None => Json::Null,
    }
}
