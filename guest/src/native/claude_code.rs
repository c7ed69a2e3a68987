//! Claude Code's `AskUserQuestion`.
//!
//! Its result (`AskUserQuestionOutput` in `sdk-tools.d.ts` of `@anthropic-ai/claude-agent-sdk`)
//! is `{questions, answers, annotations?}`: the questions as the tool read them, and `answers`
//! keyed by question text, one string each; a multi-select's labels are joined with `", "`, a
//! label holding `", "` or `"` written as a JSON string (a single select's label, or a typed
//! answer, is kept as it is). What the model reads is made by the
//! tool's `mapToolResultToToolResultBlockParam` (Claude Code 2.1.330, bundled in the SDK's
//! platform package): `"<question>"="<answer>"` per answered question, joined with `", "`, in
//! `Your questions have been answered: ... You can now continue with these answers in mind.`
//! when every answer is one of the options, or else in `The user answered: ... Read the answers
//! carefully ...`; `The user did not answer the questions.` when none was. A dismissed question
//! is a rejected tool use, which the model reads as Claude Code's rejection message.
//!
//! Its dialog (`Vse` in the same build) always adds `annotations`, keyed by question text: the
//! `preview` of the single option picked, and the person's `notes`. The model reads them after
//! the answer, as `selected preview:\n<preview>` and `notes: <notes>`, and a note makes the
//! answers read carefully.

use serde_json::{Map, Value as Json, json};

use super::{Asked, Native, Said};
use crate::model::*;

const REJECTED: &str = "The user doesn't want to proceed with this tool use. The tool use was \
    rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what \
    you are doing and wait for the user to tell you how to proceed.";

pub(super) fn reply(asked: &Asked) -> Native {
    let Some(answers) = asked.answers else {
        return Native::text(REJECTED);
    };
    let mut by_question = Map::new();
    let mut annotations = Map::new();
    let mut pairs = Vec::new();
    let mut only_options = true;
    for (question, said) in asked.said(answers) {
        let Some(answer) = answer_string(&said) else {
            continue;
        };
        let note = match said {
            Said::Picked { note, .. } => note,
            _ => None,
        };
        // An answer the person wrote rather than picked makes the model read it more carefully.
        only_options &= note.is_none()
            && matches!(
                said,
                Said::Picked { typed: None, .. } | Said::YesNo(_) | Said::Number(_)
            );
        let mut pair = format!("\"{}\"=\"{answer}\"", question.prompt);
        let mut annotation = Map::new();
        if let Some(preview) = picked_preview(question, &said) {
            pair.push_str(&format!(" selected preview:\n{preview}"));
            annotation.insert("preview".into(), preview.into());
        }
        if let Some(note) = note {
            pair.push_str(&format!(" notes: {note}"));
            annotation.insert("notes".into(), note.into());
        }
        if !annotation.is_empty() {
            annotations.insert(question.prompt.clone(), annotation.into());
        }
        pairs.push(pair);
        by_question.insert(question.prompt.clone(), answer.into());
    }
    let said = pairs.join(", ");
    let text = if said.is_empty() {
        "The user did not answer the questions.".to_string()
    } else if only_options {
        format!(
            "Your questions have been answered: {said}. You can now continue with these answers \
             in mind."
        )
    } else {
        format!(
            "The user answered: {said}. Read the answers carefully \u{2014} they may request \
             clarification, changes, or that you not proceed \u{2014} and follow what they \
             actually say."
        )
    };
    let questions: Vec<Json> = asked.request.questions.iter().map(question).collect();
    Native {
        text: Some(text),
        value: json!({
            "questions": questions,
            "answers": by_question,
            "annotations": annotations,
        }),
    }
}

/// The preview of the one option picked, which the dialog keeps beside the answer.
fn picked_preview<'a>(question: &'a Question, said: &Said) -> Option<&'a str> {
    let Said::Picked {
        labels,
        typed: None,
        multi: false,
        ..
    } = said
    else {
        return None;
    };
    let [label] = labels.as_slice() else {
        return None;
    };
    question
        .kind
        .options()
        .iter()
        .find(|o| o.label == *label)?
        .preview
        .as_deref()
}

/// One answer as Claude Code stores it: a label or a typed text as it is, or a multi-select's
/// parts joined, each holding `", "` or `"` written as a JSON string (`yNn` in Claude Code
/// 2.1.332's bundle, called only on a multi-select's array of answers).
fn answer_string(said: &Said) -> Option<String> {
    match said {
        Said::Picked { multi: true, .. } => {
            let parts: Vec<String> = said
                .parts()
                .into_iter()
                .map(|part| {
                    if part.contains(", ") || part.contains('"') {
                        Json::from(part).to_string()
                    } else {
                        part
                    }
                })
                .collect();
            Some(parts.join(", "))
        }
        other => other.joined(),
    }
}

/// A question as the tool's input schema reads it (unknown fields dropped, `multiSelect`
/// defaulted), which is what its result echoes.
fn question(question: &Question) -> Json {
    let options: Vec<Json> = question
        .kind
        .options()
        .iter()
        .map(|o| {
            let mut option = json!({
                "label": o.label,
                "description": o.description.clone().unwrap_or_default(),
            });
            if let Some(preview) = &o.preview {
                option["preview"] = preview.as_str().into();
            }
            option
        })
        .collect();
    json!({
        "question": question.prompt,
        "header": question.header.clone().unwrap_or_default(),
        "options": options,
        "multiSelect": matches!(question.kind, QuestionKind::MultiSelect(_)),
    })
}
