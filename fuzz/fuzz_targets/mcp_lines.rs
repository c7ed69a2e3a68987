//! The MCP server's line reader on any bytes, with a small limit so that lines past it are
//! fuzzed too: every line gets one verdict; a line is kept within the limit; a refusal is a
//! JSON-RPC error that carries an id; a request whose id can be read is answered under it; and
//! the scan that finds ids without parsing agrees with the parser.
#![no_main]

use interview_fuzz::input;
use interview_fuzz::mcp_lines::{self, INVALID_REQUEST, IdScan, PARSE_ERROR, Verdict};
use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;

const LIMIT: usize = 256;

fuzz_target!(|data: &[u8]| {
    let mut lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|last| last.is_empty()) {
        lines.pop();
    }
    let mut input = data;
    let mut raw_input = data;
    for line in &lines {
        let raw = input::next_raw_line(&mut raw_input, LIMIT, |_| {})
            .unwrap()
            .expect("a line for every line");
        assert!(
            raw.bytes.len() <= LIMIT + 1,
            "{} bytes kept",
            raw.bytes.len()
        );
        let stripped = line.strip_suffix(b"\r").filter(|_| line.len() <= LIMIT);
        assert_eq!(raw.length, stripped.unwrap_or(line).len());

        let verdict = mcp_lines::next(&mut input, LIMIT)
            .unwrap()
            .expect("a verdict for every line");
        let request_id = request_id(line);
        match &verdict {
            Verdict::Refused(refusal) => {
                let reply = refusal.reply();
                assert_eq!(reply["jsonrpc"], "2.0");
                let id = reply.get("id").expect("every error carries an id");
                assert!(id.is_null() || id.is_string() || id.is_number(), "{reply}");
                assert!(
                    [PARSE_ERROR, INVALID_REQUEST].contains(&refusal.code),
                    "{reply}"
                );
                if let Some(expected) = &request_id {
                    assert_eq!(id, expected, "answered under another id");
                }
            }
            Verdict::Batch(refusals) => {
                for refusal in refusals {
                    let reply = refusal.reply();
                    assert_eq!(reply["jsonrpc"], "2.0");
                    let id = &reply["id"];
                    assert!(id.is_null() || id.is_string() || id.is_number(), "{reply}");
                    assert_eq!(refusal.code, INVALID_REQUEST, "{reply}");
                }
            }
            Verdict::Message { message, id } => {
                assert_eq!(message["jsonrpc"], "2.0", "{message}");
                assert_eq!(id, &request_id, "{message}");
            }
            Verdict::Blank => {
                let text = String::from_utf8_lossy(line);
                assert!(
                    text.trim_start_matches('\u{feff}').trim().is_empty(),
                    "{text:?}"
                );
            }
        }
        if let Some(expected) = request_id.as_ref().filter(|_| scannable(line)) {
            let mut scan = IdScan::default();
            scan.feed(line);
            assert_eq!(
                scan.request_id(),
                Some(expected),
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
    }
    assert!(
        mcp_lines::next(&mut input, LIMIT).unwrap().is_none(),
        "past the last line"
    );
});

/// The id a line within the limit gives a request: a JSON object with a method and a string or
/// number id.
fn request_id(line: &[u8]) -> Option<Json> {
    if line.len() > LIMIT {
        return None;
    }
    let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
    let value: Json = serde_json::from_slice(line).ok()?;
    let object = value.as_object()?;
    object.get("method")?;
    object
        .get("id")
        .filter(|id| id.is_string() || id.is_number())
        .cloned()
}

/// A line whose one `"id"` is the top-level key, written without escapes: the scan, which
/// neither decodes escapes in every key nor resolves duplicates, must find exactly that one.
fn scannable(line: &[u8]) -> bool {
    let needle = b"\"id\"";
    let count = line.windows(needle.len()).filter(|w| w == needle).count();
    count == 1 && !line.windows(2).any(|w| w == b"\\u")
}
