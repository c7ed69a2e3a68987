//! Reading a request (a file, or standard input) without trusting its size or its bytes: what
//! cannot be read still gets a result the agent can parse, never an empty stdout.

use std::io::{BufRead, Read};

use interview_host::ask::Status;
use interview_host::{Error, Given};
use serde_json::{Value as Json, json};

/// Reads the request at `source` (`-` for standard input), at most `limit` bytes of UTF-8. Reading
/// stops at the limit, so an endless input costs no more than the limit. `Err` says why it
/// cannot be a request.
pub fn read(source: &str, limit: usize) -> Result<String, String> {
    let reader: Box<dyn Read> = if source == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(source)
            .map_err(|e| format!("cannot read the request from {source}: {e}"))?;
        Box::new(file)
    };
    let what = if source == "-" {
        "standard input"
    } else {
        source
    };
    let mut bytes = Vec::new();
    reader
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the request from {what}: {e}"))?;
    if bytes.len() > limit {
        return Err(format!(
            "the request from {what} is more than {limit} bytes, the limit; ask fewer or shorter \
             questions"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "the request from {what} is not UTF-8 text (an invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The `invalid` result of a tool call whose request could not be read: the shape and words of
/// the plugin's own invalid results, so that a caller handles both alike.
pub fn unreadable(message: &str) -> Json {
    invalid(
        "",
        message,
        format!(
            "The request is invalid, so nothing was asked: the arguments: {message}. Fix the \
             arguments and call the tool again."
        ),
    )
}

/// The `invalid` result of a tool call whose `--journal` cannot be used: nothing was asked.
pub fn unusable_journal(message: &str) -> Json {
    invalid(
        "--journal",
        message,
        format!("Nothing was asked: {message}."),
    )
}

fn invalid(path: &str, message: &str, text: String) -> Json {
    json!({
        "status": "invalid",
        "answers": [],
        "error": { "path": path, "message": message },
        "text": text,
    })
}

/// A plugin error in one line for a person or an agent (without the wasm backtrace), and what
/// the person had given before it: nothing, for an error outside a call.
pub fn failure(error: Error) -> (String, Vec<Given>) {
    match error {
        Error::Trap {
            function,
            source,
            given,
        } => (
            format!("the plugin failed in `{function}`: {}", source.root_cause()),
            given,
        ),
        other => (other.chain(), Vec::new()),
    }
}

/// A call's result JSON, or what failed: the plugin, or a result that is not JSON.
pub fn read_result(result: Result<String, Error>) -> Result<Json, (String, Vec<Given>)> {
    let text = result.map_err(failure)?;
    serde_json::from_str(&text).map_err(|error| {
        let failure = format!("the plugin's result is not JSON: {error}");
        (failure, Vec::new())
    })
}

/// What stderr says when replaying the person's replies saved a result (`failure` is
/// [`interview_host::Session::recovered_from`]).
pub fn recovered(failure: &str) -> String {
    format!(
        "the plugin failed after the answers were given ({}); they were played back into a \
         fresh instance with larger limits",
        failure
    )
}

/// The result of a tool call the plugin failed: status `failed`, what the person had given
/// (so that the agent does not ask again), and the failure. Never an empty stdout.
pub fn failed(message: &str, given: &[Given]) -> Json {
    let answers: Vec<Json> = given.iter().map(Given::to_json).collect();
    let said: Vec<String> = given
        .iter()
        .map(|g| format!("{:?}={}", g.prompt, g.answer))
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
    json!({
        "status": "failed",
        "answers": answers,
        "error": { "path": "", "message": message },
        "text": text,
    })
}

/// The reply to an elicitation the plugin failed: `cancel`, as the server must not take
/// unchecked content for accepted, with what the person gave under `_meta`; a JSON-RPC
/// response when the request was a JSON-RPC request with an id.
pub fn failed_elicitation(request: &str, message: &str, given: &[Given]) -> Json {
    let answers: Vec<Json> = given.iter().map(Given::to_json).collect();
    let reply = json!({
        "action": "cancel",
        "_meta": { "interview/failure": { "message": message, "given": answers } },
    });
    let id = serde_json::from_str::<Json>(request)
        .ok()
        .filter(|r| r.get("jsonrpc").is_some())
        .and_then(|r| r.get("id").cloned());
    match id {
        Some(id) => json!({ "jsonrpc": "2.0", "id": id, "result": reply }),
        None => reply,
    }
}

/// The reply to an MCP elicitation whose request could not be read: a JSON-RPC parse error,
/// whose id is null as JSON-RPC has it when the request's id cannot be known.
pub fn unreadable_elicitation(message: &str) -> Json {
    json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32700, "message": message } })
}

/// The plugin's `invalid` result for a tool call, judged without asking anyone; `None` for a
/// call the plugin would ask (or that cannot be judged here: asking it says why).
pub fn judged_invalid(
    plugin: &interview_host::Plugin,
    tool: &str,
    arguments: &str,
) -> Option<Json> {
    // Boxed as the command's other people are, so that the plugin is linked once a run (see
    // `people::nobody`, which this file, shared with the fuzz targets, cannot reach).
    let nobody: Box<dyn interview_host::ui::Ui> = Box::new(interview_host::ui::NoPerson(
        interview_host::ui::Absence::NoTerminal,
    ));
    let result = plugin
        .session(nobody)
        .and_then(|mut session| session.call(tool, arguments))
        .ok()
        .filter(|result| result.status == Status::Invalid)?;
    serde_json::from_str(&result.json).ok()
}

/// One line of a stream of requests (`serve`), read within a size limit.
pub enum Line {
    /// A line of UTF-8 text, without its line break.
    Text(String),
    /// A line that cannot be a request; the reason, as [`read`] gives it.
    Unreadable(String),
}

/// Reads the next line of `input`, keeping at most `limit` bytes of it: the rest of a longer
/// line is read and dropped, so memory stays bounded whatever the input. `None` at the end.
pub fn next_line(input: &mut impl BufRead, limit: usize) -> std::io::Result<Option<Line>> {
    Ok(next_raw_line(input, limit, |_| {})?.map(|line| line.into_line(limit)))
}

/// A line as read, before it is judged: its first bytes and its whole length.
pub struct RawLine {
    /// At most `limit + 1` bytes from the start of the line, without its line break (`\n` or
    /// `\r\n`): one byte past the limit tells a line at the limit from a longer one.
    pub bytes: Vec<u8>,
    /// The length of the whole line, the dropped part included.
    pub length: usize,
}

impl RawLine {
    pub fn too_long(&self, limit: usize) -> bool {
        self.length > limit
    }

    /// The line as text, or why it cannot be a request.
    pub fn into_line(self, limit: usize) -> Line {
        if self.too_long(limit) {
            return Line::Unreadable(format!(
                "the request line is {} bytes, more than the limit of {limit}; ask fewer or \
                 shorter questions",
                self.length
            ));
        }
        match String::from_utf8(self.bytes) {
            Ok(text) => Line::Text(text),
            Err(e) => Line::Unreadable(format!(
                "the request line is not UTF-8 text (an invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            )),
        }
    }
}

/// Reads the next line of `input` as [`next_line`] does, and shows `seen` every byte of it
/// (the dropped ones too), in order, so that a caller can look through a line too long to keep.
pub fn next_raw_line(
    input: &mut impl BufRead,
    limit: usize,
    mut seen: impl FnMut(&[u8]),
) -> std::io::Result<Option<RawLine>> {
    let mut kept = Vec::new();
    let mut length = 0usize;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            if length == 0 {
                return Ok(None);
            }
            break;
        }
        let (chunk, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], true),
            None => (available, false),
        };
        seen(chunk);
        let room = (limit + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        length += chunk.len();
        let used = chunk.len() + usize::from(ends);
        input.consume(used);
        if ends {
            break;
        }
    }
    if kept.last() == Some(&b'\r') && length <= limit {
        kept.pop();
        length -= 1;
    }
    Ok(Some(RawLine {
        bytes: kept,
        length,
    }))
}
