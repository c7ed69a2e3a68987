//! What a reply answered, in the words the person saw: the [`Given`] record of an answer, which
//! a failed plugin's result carries, a resumed request shows, and a team's asker passes on to
//! whoever takes its question over halfway.

use serde_json::{Value as Json, json};

use super::{
    ConfirmReply, Frame, MultiSelectReply, MultiSelectRequest, NumberReply, SelectReply,
    SelectRequest, TextReply,
};
use crate::given::Given;

/// What a select reply answered to `frame`'s question; `None` for a way out.
pub fn select(frame: &Frame, request: &SelectRequest, reply: &SelectReply) -> Option<Given> {
    let note = match reply {
        SelectReply::Picked(pick) => pick.note.as_ref(),
        _ => None,
    };
    given(frame, select_answer(request, reply), note)
}

/// What a multi-select reply answered; `None` for a way out.
pub fn multi_select(
    frame: &Frame,
    request: &MultiSelectRequest,
    reply: &MultiSelectReply,
) -> Option<Given> {
    let note = match reply {
        MultiSelectReply::Picked(pick) => pick.note.as_ref(),
        MultiSelectReply::Nav(_) => None,
    };
    given(frame, multi_select_answer(request, reply), note)
}

/// What a text reply answered, as typed (a secret too: the caller decides who may see it);
/// `None` for a way out.
pub fn text(frame: &Frame, reply: &TextReply) -> Option<Given> {
    given(frame, text_answer(reply), None)
}

/// What a confirm reply answered; `None` for a way out.
pub fn confirm(frame: &Frame, reply: &ConfirmReply) -> Option<Given> {
    given(frame, confirm_answer(reply), None)
}

/// What a number reply answered, as typed; `None` for a way out.
pub fn number(frame: &Frame, reply: &NumberReply) -> Option<Given> {
    given(frame, number_answer(reply), None)
}

/// What the person said to `frame`'s question, when `answer` is an answer (not a way out).
pub(crate) fn given(frame: &Frame, answer: Option<Json>, note: Option<&String>) -> Option<Given> {
    Some(Given {
        position: frame.position,
        header: frame.header.clone(),
        prompt: frame.prompt.clone(),
        answer: answer?,
        note: note.cloned(),
    })
}

/// A select reply in words: the picked option's label, or the typed text.
fn select_answer(request: &SelectRequest, reply: &SelectReply) -> Option<Json> {
    match reply {
        SelectReply::Picked(pick) => {
            let option = request.options.get(pick.index as usize)?;
            Some(json!(option.label))
        }
        SelectReply::Other(text) => Some(json!(text)),
        SelectReply::Discuss | SelectReply::Nav(_) => None,
    }
}

/// A multi-select reply in words: the picked labels, then the typed text.
fn multi_select_answer(request: &MultiSelectRequest, reply: &MultiSelectReply) -> Option<Json> {
    let MultiSelectReply::Picked(pick) = reply else {
        return None;
    };
    let labels = pick
        .picked
        .iter()
        .filter_map(|&i| request.options.get(i as usize))
        .map(|o| json!(o.label))
        .chain(pick.other.iter().map(|t| json!(t)));
    Some(Json::Array(labels.collect()))
}

fn text_answer(reply: &TextReply) -> Option<Json> {
    match reply {
        TextReply::Submitted(text) => Some(json!(text)),
        TextReply::Nav(_) => None,
    }
}

fn confirm_answer(reply: &ConfirmReply) -> Option<Json> {
    match reply {
        ConfirmReply::Answered(yes) => Some(json!(yes)),
        ConfirmReply::Nav(_) => None,
    }
}

fn number_answer(reply: &NumberReply) -> Option<Json> {
    match reply {
        NumberReply::Entered(typed) => Some(json!(typed)),
        NumberReply::Nav(_) => None,
    }
}
