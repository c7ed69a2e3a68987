//! Reading a request (a file, or standard input) without trusting its size or its bytes: what
//! cannot be read still gets a result the agent can parse, never an empty stdout.

use std::io::Read;

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
    json!({
        "status": "invalid",
        "answers": [],
        "error": { "path": "", "message": message },
        "text": format!(
            "The request is invalid, so nothing was asked: the arguments: {message}. Fix the \
             arguments and call the tool again."
        ),
    })
}

/// The reply to an MCP elicitation whose request could not be read: a JSON-RPC parse error,
/// whose id is null as JSON-RPC has it when the request's id cannot be known.
pub fn unreadable_elicitation(message: &str) -> Json {
    json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32700, "message": message } })
}
