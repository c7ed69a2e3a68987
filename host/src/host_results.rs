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
    .unwrap_or_else(|error| unworded(message, &[], &error))
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
    .unwrap_or_else(|error| unworded(message, given, &error))
}

/// The reply to an elicitation whose request could not be read: a JSON-RPC parse error.
pub fn unreadable_elicitation(message: &str) -> Elicitation {
    worded(message.len(), |plugin| {
        plugin.unreadable_elicitation(message)
    })
    .unwrap_or_else(|_| Elicitation {
        ending: ElicitEnding::Invalid,
        reply: printed(&json!({
            "jsonrpc": "2.0", "id": null, "error": { "code": -32700, "message": message },
        })),
    })
}

/// The reply to the elicitation `request` that failed (`message`), with what the person had
/// `given`: `cancel`, never unchecked content.
pub fn failed_elicitation(request: &str, message: &str, given: &[Given]) -> Elicitation {
    let bytes = request.len() + message.len() + size(given);
    worded(bytes, |plugin| {
        plugin.failed_elicitation(request, message, given)
    })
    .unwrap_or_else(|error| unworded_elicitation(request, message, given, &error))
}

/// Words a result about `bytes` of text with the built-in plugin: in the shared session when
/// the default limits suffice, else in one of its own whose limits grow with the text, so
/// that a failure carrying long answers is worded with every answer.
fn worded<R>(
    bytes: usize,
    word: impl FnOnce(&mut Session<NoPerson>) -> Result<R, Error>,
) -> Result<R, Error> {
    let usual = Limits::default();
    let needed = bytes.saturating_mul(MEMORY_PER_BYTE);
    // The shared session's memory holds what a call left in it: text that needs more than
    // half of it is worded in a session of its own.
    if needed > usual.memory_bytes() / 2 {
        let memory = usual.memory_bytes().saturating_add(needed).min(MOST_MEMORY);
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
            g.prompt.len() + json_length(&g.answer) + optional(&g.header) + optional(&g.note)
        })
        .sum()
}

/// The length of `value` written as JSON, counted as it is written rather than kept: an
/// answer may be a pasted log of megabytes, and it is written out again to be worded.
fn json_length(value: &serde_json::Value) -> usize {
    struct Counted(usize);
    impl std::io::Write for Counted {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counted = Counted(0);
    // Writing a JSON value to a sink that never fails cannot fail.
    let _ = serde_json::to_writer(&mut counted, value);
    counted.0
}

/// Should the built-in plugin be unable to word a result (its memory refused, text beyond
/// what a plugin's memory can hold), the result still carries what failed and every answer
/// the person gave, with nothing worded but the message.
fn unworded(message: &str, given: &[Given], error: &Error) -> CallResult {
    let message = unworded_message(message, error);
    let result = json!({
        "status": "failed",
        "answers": given.iter().map(Given::to_json).collect::<Vec<_>>(),
        "error": { "path": "", "message": message },
        "text": message,
    });
    CallResult {
        status: Status::Failed,
        json: printed(&result),
    }
}

/// The elicitation's reply when the plugin cannot word it: `cancel`, with the failure and the
/// answers under `_meta`, under the request's JSON-RPC id when it has one.
fn unworded_elicitation(
    request: &str,
    message: &str,
    given: &[Given],
    error: &Error,
) -> Elicitation {
    let reply = json!({
        "action": "cancel",
        "_meta": { "interview/failure": {
            "message": unworded_message(message, error),
            "given": given.iter().map(Given::to_json).collect::<Vec<_>>(),
        } },
    });
    let reply = interview_text::json::answering(request, reply);
    Elicitation {
        ending: ElicitEnding::Failed,
        reply: printed(&reply),
    }
}

fn unworded_message(message: &str, error: &Error) -> String {
    format!(
        "{message} (the built-in plugin could not word this result: {})",
        error.summary()
    )
}

/// JSON as a host prints it: invisible and control characters escaped.
fn printed(value: &serde_json::Value) -> String {
    interview_text::json::to_string(value, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answers_length_is_counted_as_it_would_be_written() {
        for value in [
            json!("a \"quoted\" line\n"),
            json!(["Lint", "Unit tests"]),
            json!(3.5),
            json!(null),
        ] {
            assert_eq!(json_length(&value), value.to_string().len(), "{value}");
        }
    }

    fn given() -> Vec<Given> {
        vec![Given {
            position: 1,
            header: None,
            prompt: "Paste the log".into(),
            answer: json!("x".repeat(1000)),
            note: None,
        }]
    }

    #[test]
    fn a_result_the_plugin_cannot_word_still_carries_every_answer() {
        let error = Error::Precompiled("no such processor".into());
        let result = unworded(
            "the plugin failed in `call`: out of memory",
            &given(),
            &error,
        );
        assert_eq!(result.status, Status::Failed);
        let json: serde_json::Value = serde_json::from_str(&result.json).unwrap();
        assert_eq!(json["answers"], json!([given()[0].to_json()]));
        let message = json["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("the plugin failed in `call`: out of memory"));
        assert!(message.contains("no such processor"), "{message}");
    }

    #[test]
    fn an_elicitation_the_plugin_cannot_word_keeps_its_id_and_answers() {
        let error = Error::Precompiled("no such processor".into());
        let request = r#"{"jsonrpc": "2.0", "id": 9, "method": "elicitation/create"}"#;
        let reply = unworded_elicitation(request, "out of memory", &given(), &error);
        assert_eq!(reply.ending, ElicitEnding::Failed);
        let json: serde_json::Value = serde_json::from_str(&reply.reply).unwrap();
        assert_eq!(json["id"], 9);
        assert_eq!(json["result"]["action"], "cancel");
        let failure = &json["result"]["_meta"]["interview/failure"];
        assert_eq!(failure["given"], json!([given()[0].to_json()]));
    }
}
