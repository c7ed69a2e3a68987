//! The results a host gives when no call could give one: a request it could not read, a
//! journal it could not use, a plugin that failed or could not run. They are worded here, as
//! every other result is, so that the command, the Python and JavaScript packages and the MCP
//! servers answer alike and none of them writes result text of its own.

use serde_json::{Value as Json, json};

use crate::model::*;
use crate::quoted::Quoted;
use crate::{json_text, result, tool};

/// The `invalid` result of a call whose request could not be read (`source` empty), or that
/// needs something of its host's that cannot be used (`source` names it).
pub fn unreadable(source: &str, message: &str) -> CallResult {
    let error = RequestError {
        path: source.to_owned(),
        message: message.to_owned(),
    };
    let mut refused = result::invalid(&error);
    // The agent cannot mend its host's options by changing its arguments.
    if !source.is_empty() {
        refused["text"] = format!("Nothing was asked: {message}.").into();
    }
    tool::call_result(&refused)
}

/// The `failed` result: what failed, and what the person had given (unchecked), so that the
/// agent does not ask again.
pub fn failed(message: &str, given: &[Given]) -> CallResult {
    let said: Vec<String> = given
        .iter()
        .map(|g| format!("{}={}", Quoted(&g.prompt), g.answer))
        .collect();
    let text = if said.is_empty() {
        format!("The question tool failed before the user answered: {message}.")
    } else {
        format!(
            "The question tool failed after the user answered, so their answers were not \
             checked: {message}. What the user gave: {}.",
            said.join(", ")
        )
    };
    tool::call_result(&json!({
        "status": "failed",
        "answers": given.iter().map(listed).collect::<Vec<_>>(),
        "error": { "path": "", "message": message },
        "text": text,
    }))
}

/// The reply to an elicitation whose request could not be read: a JSON-RPC parse error, its id
/// null as JSON-RPC has it when the request's cannot be known.
pub fn unreadable_elicitation(message: &str) -> Elicitation {
    let reply =
        json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32700, "message": message } });
    Elicitation {
        ending: ElicitEnding::Invalid,
        reply: json_text::to_string(&reply, false),
    }
}

/// The reply to an elicitation `request` that failed: `cancel`, as the server must not take
/// unchecked content for accepted, with what the person gave under `_meta`; a JSON-RPC response
/// when the request was a JSON-RPC request with an id.
pub fn failed_elicitation(request: &str, message: &str, given: &[Given]) -> Elicitation {
    let reply = json!({
        "action": "cancel",
        "_meta": { "interview/failure": {
            "message": message,
            "given": given.iter().map(listed).collect::<Vec<_>>(),
        } },
    });
    let reply = json_text::answering(request, reply);
    Elicitation {
        ending: ElicitEnding::Failed,
        reply: json_text::to_string(&reply, false),
    }
}

/// A given answer as results list it: `{"position", "question", "answer", "header", "note"}`,
/// without empty fields; an answer that is not JSON is kept as the text it is.
fn listed(given: &Given) -> Json {
    let answer: Json =
        serde_json::from_str(&given.answer).unwrap_or_else(|_| given.answer.clone().into());
    let mut listed =
        json!({ "position": given.position, "question": given.prompt, "answer": answer });
    if let Some(header) = &given.header {
        listed["header"] = header.as_str().into();
    }
    if let Some(note) = &given.note {
        listed["note"] = note.as_str().into();
    }
    listed
}
