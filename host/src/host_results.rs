//! The results a host gives when no plugin call could give one (a request it could not read,
//! a journal it could not use, a plugin that failed or could not start), worded by the
//! built-in plugin, so that no host writes result text of its own. A host whose own plugin is
//! at hand and working may ask it instead ([`Session::failed`] and the others); these serve
//! where there is none, or where the plugin at hand is the one that failed.

use std::sync::Mutex;

use serde_json::json;

use crate::ask::{CallResult, ElicitEnding, Elicitation, Status};
use crate::ui::{Absence, NoPerson};
use crate::{Error, Given, Limits, Plugin, Session};

/// A session of the built-in plugin with nobody to ask, under the default limits, made the
/// first time one is needed.
static AUTHOR: Mutex<Option<Session<NoPerson>>> = Mutex::new(None);

/// How much memory the plugin takes to word a result, for each byte of the text it words:
/// the answers are copied in, parsed, listed, written again into the text for the model, and
/// escaped (about 15 bytes each, measured with three answers of 8 MiB).
pub(crate) const MEMORY_PER_BYTE: usize = 16;
/// The most a plugin's memory can be (a 32-bit address space).
pub(crate) const MOST_MEMORY: usize = 4 << 30;

/// The `invalid` result of a tool call whose request could not be read (`source` empty), or
/// that needs something of the host's that cannot be used (`source` names it).
pub fn unreadable(source: &str, message: &str) -> CallResult {
    worded(source.len() + message.len(), |plugin| {
        plugin.unreadable(source, message)
    })
    .unwrap_or_else(|error| unworded(message, &error))
}

/// The `failed` result of a tool call that failed (`message`), with what the person had
/// `given`, so that the agent does not ask again.
///
/// ```
/// use interview_host::ask::Status;
/// use interview_host::{Given, host_results};
///
/// let given = Given {
///     position: 1,
///     header: None,
///     prompt: "Ship it?".into(),
///     answer: serde_json::json!(true),
///     note: None,
/// };
/// let result = host_results::failed("the plugin ran out of memory", &[given]);
/// assert_eq!(result.status, Status::Failed);
/// let json: serde_json::Value = serde_json::from_str(&result.json).unwrap();
/// assert_eq!(json["answers"][0]["answer"], true);
/// assert!(json["text"].as_str().unwrap().contains("were not checked"));
/// ```
pub fn failed(message: &str, given: &[Given]) -> CallResult {
    worded(message.len() + size(given), |plugin| {
        plugin.failed(message, given)
    })
    .unwrap_or_else(|error| unworded(message, &error))
}

/// The reply to an elicitation whose request could not be read: a JSON-RPC parse error.
pub fn unreadable_elicitation(message: &str) -> Elicitation {
    worded(message.len(), |plugin| {
        plugin.unreadable_elicitation(message)
    })
    .unwrap_or_else(|_| cancel())
}

/// The reply to the elicitation `request` that failed (`message`), with what the person had
/// `given`: `cancel`, never unchecked content.
pub fn failed_elicitation(request: &str, message: &str, given: &[Given]) -> Elicitation {
    let bytes = request.len() + message.len() + size(given);
    worded(bytes, |plugin| {
        plugin.failed_elicitation(request, message, given)
    })
    .unwrap_or_else(|_| cancel())
}

/// Words a result about `bytes` of text with the built-in plugin: in the shared session when
/// the default limits suffice, else in one of its own whose limits grow with the text, so
/// that a failure carrying long answers is worded with every answer.
fn worded<R>(
    bytes: usize,
    word: impl FnOnce(&mut Session<NoPerson>) -> Result<R, Error>,
) -> Result<R, Error> {
    let usual = Limits::default();
    let memory = (usual.memory_bytes())
        .saturating_add(bytes.saturating_mul(MEMORY_PER_BYTE))
        .min(MOST_MEMORY);
    if memory > usual.memory_bytes() {
        let growth = memory as f64 / usual.memory_bytes() as f64;
        let limits = (usual.clone())
            .with_memory_bytes(memory)
            .with_compute(usual.compute().mul_f64(growth));
        let plugin = Plugin::builder().limits(limits).build()?;
        return word(&mut plugin.session(NoPerson(Absence::NoTerminal))?);
    }
    let mut author = AUTHOR
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let session = match author.take() {
        Some(session) => session,
        None => Plugin::load()?.session(NoPerson(Absence::NoTerminal))?,
    };
    word(author.insert(session))
}

/// The bytes of text the person gave.
fn size(given: &[Given]) -> usize {
    (given.iter())
        .map(|g| {
            let optional = |text: &Option<String>| text.as_ref().map_or(0, String::len);
            g.prompt.len() + g.answer.to_string().len() + optional(&g.header) + optional(&g.note)
        })
        .sum()
}

/// Only should the built-in plugin itself not start (its memory refused): the message,
/// and why it could not be worded.
fn unworded(message: &str, error: &Error) -> CallResult {
    let message = format!(
        "{message} (the built-in plugin could not word this result: {})",
        error.chain()
    );
    let result = json!({
        "status": "failed",
        "answers": [],
        "error": { "path": "", "message": message },
        "text": message,
    });
    CallResult {
        status: Status::Failed,
        json: interview_text::json::to_string(&result, false),
    }
}

fn cancel() -> Elicitation {
    Elicitation {
        ending: ElicitEnding::Failed,
        reply: r#"{"action":"cancel"}"#.into(),
    }
}
