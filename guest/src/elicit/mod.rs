//! MCP elicitation (`elicitation/create`, form mode): a server's form asked as a batch, and
//! the reply to send back: `{action: "accept", content}` when the person submits,
//! `{action: "decline"}` when they refuse, `{action: "cancel"}` when they dismiss it.
//!
//! The form is asked under its own policy: the server's message (and who sent it) is the
//! context of every question, a skipped field is left out rather than answered with the
//! session's skip response, the person may decline at any question, and every form ends with
//! the review, where it is submitted, changed or declined as a whole (the specification asks
//! clients to let people review and change their answers before sending).

pub mod form;

use serde_json::{Map, Value as Json, json};

use crate::flow::{self, Ending, Policy};
use crate::judge::Leeway;
use crate::limits::MAX_REQUEST_BYTES;
use crate::model::*;
use crate::quoted::Quoted;
use crate::request::fields::describe;
use crate::request::read_json;
use crate::result;
use crate::ui::Ui;
pub use form::Form;

/// The JSON-RPC method of an elicitation request.
const METHOD: &str = "elicitation/create";

/// How the request came, and so how the reply goes back.
#[derive(Debug, Clone, PartialEq)]
enum Envelope {
    /// The request's `params` alone: the reply is the `ElicitResult` alone.
    Params,
    /// A whole JSON-RPC request: the reply is the JSON-RPC response, with its `id`.
    JsonRpc { id: Json },
}

/// Why a request cannot be answered, as a JSON-RPC error.
struct Refusal {
    code: i64,
    error: RequestError,
}

impl Refusal {
    /// Invalid params (-32602): the form is not one this can ask.
    fn invalid(error: RequestError) -> Self {
        Refusal {
            code: -32602,
            error,
        }
    }
}

/// Answers the elicitation `request` (JSON), asking through `ui`; `requester` names the server.
pub fn elicit(request: &str, requester: Option<&str>, ui: &mut impl Ui) -> Elicitation {
    let (envelope, form) = read(request);
    let mut form = match form {
        Ok(form) => form,
        Err(refusal) => {
            return Elicitation {
                ending: ElicitEnding::Invalid,
                reply: crate::json_text::to_string(&error_reply(&envelope, &refusal), false),
            };
        }
    };
    let context = match requester.map(str::trim).filter(|r| !r.is_empty()) {
        Some(requester) => format!("{requester} asks: {}", form.message),
        None => form.message.clone(),
    };
    let policy = Policy {
        leeway: Leeway {
            skip_text: None,
            declinable: true,
        },
        context: Some(&context),
        always_review: true,
    };
    let (ending, result) = match flow::run(&mut form.questions, &[], &policy, ui) {
        Ending::Answered(answers) => (
            ElicitEnding::Accepted,
            json!({ "action": "accept", "content": content(&form, &answers) }),
        ),
        Ending::Declined => (ElicitEnding::Declined, json!({ "action": "decline" })),
        Ending::Cancelled(_) => (ElicitEnding::Cancelled, json!({ "action": "cancel" })),
        Ending::Unavailable(_) | Ending::TimedOut(_) => {
            (ElicitEnding::Unavailable, json!({ "action": "cancel" }))
        }
    };
    let reply = match envelope {
        Envelope::Params => result,
        Envelope::JsonRpc { id } => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
    };
    Elicitation {
        ending,
        reply: crate::json_text::to_string(&reply, false),
    }
}

/// Reads the request: its envelope (how to reply), and its form or why it has none. A request
/// that cannot be read as JSON is answered as JSON-RPC answers one: an error with `id` null.
fn read(request: &str) -> (Envelope, Result<Form, Refusal>) {
    let unknown = Envelope::JsonRpc { id: Json::Null };
    if request.len() > MAX_REQUEST_BYTES {
        let error = RequestError::at(
            "",
            format!(
                "the request is {} bytes, more than the limit of {MAX_REQUEST_BYTES}",
                request.len()
            ),
        );
        return (unknown, Err(Refusal::invalid(error)));
    }
    let json = match read_json(request, "the request is") {
        Ok(json) => json,
        Err(error) => {
            let refusal = Refusal {
                code: -32700,
                error,
            };
            return (unknown, Err(refusal));
        }
    };
    let Some(object) = json.as_object().filter(|o| is_json_rpc(o)) else {
        let form = form::read(&json, "").map_err(Refusal::invalid);
        return (Envelope::Params, form);
    };
    let envelope = match object.get("id") {
        // Without an id (the 2026-07-28 flow hands over a request that is not a JSON-RPC
        // message of its own), the reply is the plain result.
        None => Envelope::Params,
        Some(id @ (Json::String(_) | Json::Number(_))) => Envelope::JsonRpc { id: id.clone() },
        Some(other) => {
            let error = RequestError::at(
                "id",
                format!(
                    "is {}; a request id is a string or a number",
                    describe(other)
                ),
            );
            let refusal = Refusal {
                code: -32600,
                error,
            };
            return (unknown, Err(refusal));
        }
    };
    let form = match (object.get("method"), object.get("params")) {
        (Some(method), Some(params)) if method == METHOD => {
            form::read(params, "params").map_err(Refusal::invalid)
        }
        (Some(method), None) if method == METHOD => {
            Err(Refusal::invalid(RequestError::at("params", "is missing")))
        }
        (other, _) => {
            let said = other.map_or("no method".to_string(), |m| format!("method {m}"));
            let error = RequestError::at(
                "method",
                format!(
                    "is not {} ({said}): this answers elicitation requests only",
                    Quoted(METHOD)
                ),
            );
            Err(Refusal {
                code: -32601,
                error,
            })
        }
    };
    (envelope, form)
}

/// Whether an object is a JSON-RPC request rather than the `params` alone.
fn is_json_rpc(object: &Map<String, Json>) -> bool {
    ["jsonrpc", "method", "params"]
        .iter()
        .any(|key| object.contains_key(*key))
}

/// The submitted form: every answered field by its property name, an unanswered one left
/// out, except a required array, which is sent empty.
fn content(form: &Form, answers: &[Answer]) -> Json {
    let mut content = Map::new();
    for (question, required) in form.questions.iter().zip(&form.required) {
        let value = answers
            .iter()
            .find(|a| a.id == question.id)
            .map(|a| &a.value)
            .filter(|v| **v != Value::None);
        match (value, &question.kind) {
            (Some(value), _) => {
                content.insert(question.id.clone(), result::value(value));
            }
            (None, QuestionKind::MultiSelect(_)) if *required => {
                content.insert(question.id.clone(), Json::Array(Vec::new()));
            }
            (None, _) => {}
        }
    }
    content.into()
}

/// The reply to a request that cannot be answered: a JSON-RPC error, naming the place.
fn error_reply(envelope: &Envelope, refusal: &Refusal) -> Json {
    let RequestError { path, message } = &refusal.error;
    let text = if path.is_empty() {
        message.clone()
    } else {
        format!("{path} {message}")
    };
    let error = json!({
        "code": refusal.code,
        "message": text,
        "data": { "path": path },
    });
    match envelope {
        Envelope::Params => json!({ "error": error }),
        Envelope::JsonRpc { id } => json!({ "jsonrpc": "2.0", "id": id, "error": error }),
    }
}
