//! elelem's `interview` tool, whose name the general tool shares.
//!
//! Its plugin returns `{answer: ...}` for one question and `{answers: [...]}`, in question order,
//! for a batch: the chosen option's string, the chosen strings of a multi-select, the text typed.
//! It has no cancel, so a cancelled request has no result of its shape.

use serde_json::{Value as Json, json};

use super::{Asked, Native};
use crate::result;

pub(super) fn reply(asked: &Asked) -> Native {
    let Some(answers) = asked.answers else {
        return Native::none();
    };
    let values: Vec<Json> = asked
        .request
        .questions
        .iter()
        .map(|q| super::answer_to(answers, q).map_or(Json::Null, |a| result::value(&a.value)))
        .collect();
    let value = match values.as_slice() {
        [single] => json!({ "answer": single }),
        _ => json!({ "answers": values }),
    };
    Native { text: None, value }
}
