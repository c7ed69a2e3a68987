//! The lines an MCP client sends, judged before the SDK reads them: a message in the shape of
//! JSON-RPC 2.0 goes on, and anything else is answered here with a JSON-RPC error under the id
//! the line had, so that no request waits forever for a reply the SDK would never send (it
//! drops lines that do not parse, and answers some malformed ones without their id).
//!
//! Pure: no stdin, no SDK types, so that the fuzz target runs it on any bytes. Each line costs at
//! most the request limit in memory and one pass over its bytes, however long or deeply nested.

use std::io::BufRead;

use serde_json::{Map, Value as Json, json};

use crate::input::{self, Line};

/// JSON-RPC's error for a line that is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's error for JSON that is not a request object.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's error for a request whose params its method cannot take.
pub const INVALID_PARAMS: i64 = -32602;

/// What to do with one line.
#[derive(Debug)]
pub enum Verdict {
    /// A JSON-RPC 2.0 request, notification or response, for the SDK to read. `id` is a
    /// request's id, to answer it by when the SDK finds the message unfit for its method.
    Message { message: Json, id: Option<Json> },
    /// Not a message: answered with this error.
    Refused(Refusal),
    /// A JSON-RPC batch, which MCP has not had since 2025-06-18: answered, as JSON-RPC 2.0
    /// answers a batch, with an array holding an error for each request in it, under its id
    /// (its notifications and responses get none; all of them, no array at all).
    Batch(Vec<Refusal>),
    /// Nothing but white space, as between messages.
    Blank,
}

/// A JSON-RPC error reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The request's id when it could be read, else null, as JSON-RPC has it.
    pub id: Json,
    pub code: i64,
    pub message: String,
}

impl Refusal {
    pub fn reply(&self) -> Json {
        json!({
            "jsonrpc": "2.0",
            "id": self.id,
            "error": { "code": self.code, "message": self.message },
        })
    }
}

/// Reads and judges the next line of `input`, keeping at most `limit` bytes of it; `None` at
/// the end of the input.
pub fn next(input: &mut impl BufRead, limit: usize) -> std::io::Result<Option<Verdict>> {
    let mut scan = IdScan::default();
    let Some(raw) = input::next_raw_line(input, limit, |bytes| scan.feed(bytes))? else {
        return Ok(None);
    };
    // A line too long to read may be a well-formed request; one that is not UTF-8 is not JSON.
    let (code, kind) = if raw.too_long(limit) {
        (INVALID_REQUEST, "Invalid Request")
    } else {
        (PARSE_ERROR, "Parse error")
    };
    let text = match raw.into_line(limit) {
        Line::Text(text) => text,
        Line::Unreadable(why) => {
            let refusal = scan.refusal(code, format!("{kind}: {why}"));
            return Ok(Some(Verdict::Refused(refusal)));
        }
    };
    // RFC 8259 lets a parser skip a byte order mark, and the SDK does.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if text.trim().is_empty() {
        return Ok(Some(Verdict::Blank));
    }
    Ok(Some(match serde_json::from_str::<Json>(text) {
        Ok(value) => judge(value),
        // Not JSON, or nested past serde_json's depth limit: the scan has looked for the id
        // without parsing.
        Err(error) => Verdict::Refused(scan.refusal(PARSE_ERROR, format!("Parse error: {error}"))),
    }))
}

/// A line that is JSON: a message when it has JSON-RPC 2.0's shape (the shapes the SDK tells
/// apart), else refused.
fn judge(value: Json) -> Verdict {
    let object = match value {
        Json::Object(object) => object,
        Json::Array(batch) if !batch.is_empty() => return Verdict::Batch(refused_batch(&batch)),
        _ => {
            return Verdict::Refused(Refusal {
                id: Json::Null,
                code: INVALID_REQUEST,
                message: "Invalid Request: a message is a JSON object".into(),
            });
        }
    };
    // Only a request is answered under its id: a response's id is the server's own, and
    // echoing it would answer the client's request that happens to share it.
    let id = object
        .get("id")
        .filter(|id| id.is_string() || id.is_number())
        .filter(|_| object.contains_key("method"))
        .cloned();
    match fault(&object) {
        None => Verdict::Message {
            message: Json::Object(object),
            id,
        },
        Some(fault) => Verdict::Refused(Refusal {
            id: id.unwrap_or(Json::Null),
            code: INVALID_REQUEST,
            message: format!("Invalid Request: {fault}"),
        }),
    }
}

/// The errors that answer a batch, as JSON-RPC 2.0 answers one: for each request in it, under
/// its id; for each member that is no message, under a null id; for a notification or a
/// response, none.
fn refused_batch(batch: &[Json]) -> Vec<Refusal> {
    batch
        .iter()
        .filter_map(|member| {
            let id = match member.as_object() {
                Some(object) if object.contains_key("method") => match object.get("id") {
                    Some(id) if id.is_string() || id.is_number() => id.clone(),
                    Some(_) => Json::Null,
                    None => return None,
                },
                Some(object) if object.contains_key("result") || object.contains_key("error") => {
                    return None;
                }
                _ => Json::Null,
            };
            Some(Refusal {
                id,
                code: INVALID_REQUEST,
                message: "Invalid Request: batches are not part of MCP since 2025-06-18; send \
                          each message on a line of its own"
                    .into(),
            })
        })
        .collect()
}

/// What keeps a JSON object from being a JSON-RPC 2.0 message.
fn fault(object: &Map<String, Json>) -> Option<String> {
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return Some(r#""jsonrpc" must be "2.0""#.into());
    }
    // A response may carry a null id (an error about a message whose id was unknown). A
    // fraction or an integer past 64 bits is a number JSON-RPC allows but rmcp cannot read.
    if let Some(id) = object.get("id")
        && !(id.is_string() || id.is_i64() || (id.is_null() && !object.contains_key("method")))
    {
        return Some("\"id\" must be a string or an integer".into());
    }
    if let Some(method) = object.get("method")
        && !method.is_string()
    {
        return Some("\"method\" must be a string".into());
    }
    if let Some(params) = object.get("params")
        && !params.is_object()
    {
        return Some("\"params\" must be an object".into());
    }
    let has = |key| object.contains_key(key);
    match (has("method"), has("result"), has("error")) {
        (true, false, false) | (false, true, false) | (false, false, true) => None,
        (false, false, false) => Some("neither \"method\", \"result\" nor \"error\"".into()),
        _ => Some("more than one of \"method\", \"result\" and \"error\"".into()),
    }
}

/// The longest top-level key the scan reads (`"method"`, or `"id"` spelled with escapes).
const KEY_BYTES: usize = 32;
/// The longest id the scan reads, quotes and escapes included; a longer one is not looked for.
const ID_BYTES: usize = 1024;

/// Looks for the top-level `"id"` (and whether there is a `"method"`) of a line that may be too
/// long to keep, not UTF-8 or not JSON, one byte at a time: constant memory, no recursion.
/// Leading white space, control characters and a byte order mark are passed over.
#[derive(Default)]
pub struct IdScan {
    state: ScanState,
    /// Nesting inside the top-level object (1 directly in it).
    depth: usize,
    /// Inside a string; just after its backslash.
    string: bool,
    escape: bool,
    /// What the bytes being kept are: a key or an id at depth 1, each as JSON.
    keeping: Keeping,
    kept: Vec<u8>,
    /// Directly in the top object: what comes next.
    next: Next,
    /// The key just read is `"id"`.
    at_id: bool,
    id: Option<Json>,
    method: bool,
}

#[derive(Default, PartialEq)]
enum ScanState {
    #[default]
    Start,
    Inside,
    /// Past the top object, or there was none.
    Done,
}

#[derive(Default, PartialEq)]
enum Keeping {
    #[default]
    Nothing,
    Key,
    /// An id string.
    Id,
    /// An id that is not a string (a number when it parses), kept until the byte after it.
    IdScalar,
}

#[derive(Default, PartialEq, Clone, Copy)]
enum Next {
    #[default]
    Key,
    Colon,
    Value,
    Comma,
}

impl IdScan {
    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }

    /// The id found, when the line was a request (it had a `"method"`): the id of anything
    /// else is not the client's to be answered by.
    pub fn request_id(&self) -> Option<&Json> {
        self.id.as_ref().filter(|_| self.method)
    }

    fn refusal(&self, code: i64, message: String) -> Refusal {
        Refusal {
            id: self.request_id().cloned().unwrap_or(Json::Null),
            code,
            message,
        }
    }

    fn byte(&mut self, b: u8) {
        match self.state {
            ScanState::Done => {}
            ScanState::Start => match b {
                b'{' => {
                    self.state = ScanState::Inside;
                    self.depth = 1;
                }
                // White space, control characters, and the bytes of a byte order mark.
                0..=0x20 | 0x7f | 0xef | 0xbb | 0xbf => {}
                _ => self.state = ScanState::Done,
            },
            ScanState::Inside if self.string => self.in_string(b),
            ScanState::Inside => {
                if self.keeping == Keeping::IdScalar {
                    if !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace() {
                        self.keep(b);
                        return;
                    }
                    self.found(self.kept_json().filter(Json::is_number));
                }
                self.structure(b);
            }
        }
    }

    fn in_string(&mut self, b: u8) {
        if self.keeping != Keeping::Nothing {
            self.keep(b);
        }
        if self.escape {
            self.escape = false;
        } else if b == b'\\' {
            self.escape = true;
        } else if b == b'"' {
            self.string = false;
            self.string_ended();
        }
    }

    fn structure(&mut self, b: u8) {
        let top = self.depth == 1;
        match b {
            b'"' => {
                self.string = true;
                if top && self.next == Next::Key {
                    self.start_keeping(Keeping::Key, b);
                } else if top && self.next == Next::Value && self.at_id {
                    self.start_keeping(Keeping::Id, b);
                }
            }
            b':' if top && self.next == Next::Colon => self.next = Next::Value,
            b',' if top => self.next = Next::Key,
            b'{' | b'[' => {
                if top && self.next == Next::Value {
                    self.next = Next::Comma;
                }
                self.depth += 1;
            }
            b'}' | b']' => {
                self.depth -= 1;
                if self.depth == 0 {
                    self.state = ScanState::Done;
                }
            }
            _ if b.is_ascii_whitespace() => {}
            _ if top && self.next == Next::Value => {
                self.next = Next::Comma;
                if self.at_id {
                    self.start_keeping(Keeping::IdScalar, b);
                }
            }
            _ => {}
        }
    }

    fn start_keeping(&mut self, what: Keeping, first: u8) {
        self.keeping = what;
        self.kept.clear();
        self.kept.push(first);
    }

    /// Keeps `b`, within the bounds; what outgrows them is not what the scan looks for.
    fn keep(&mut self, b: u8) {
        let bound = if self.keeping == Keeping::Key {
            KEY_BYTES
        } else {
            ID_BYTES
        };
        if self.kept.len() < bound {
            self.kept.push(b);
        } else {
            self.keeping = Keeping::Nothing;
            self.kept.clear();
        }
    }

    fn string_ended(&mut self) {
        let keeping = std::mem::take(&mut self.keeping);
        if self.depth != 1 {
            return;
        }
        match self.next {
            Next::Key => {
                let key = match keeping {
                    Keeping::Key => self.kept_json(),
                    _ => None,
                };
                self.at_id = key == Some(json!("id"));
                self.method |= key == Some(json!("method"));
                self.next = Next::Colon;
            }
            Next::Value => {
                self.next = Next::Comma;
                if self.at_id {
                    let id = (keeping == Keeping::Id).then(|| self.kept_json()).flatten();
                    self.found(id);
                }
            }
            Next::Colon | Next::Comma => {}
        }
    }

    fn kept_json(&self) -> Option<Json> {
        serde_json::from_slice(&self.kept).ok()
    }

    /// The first id read is the one kept.
    fn found(&mut self, id: Option<Json>) {
        self.keeping = Keeping::Nothing;
        self.kept.clear();
        self.at_id = false;
        if self.id.is_none() {
            self.id = id;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanned(line: &[u8]) -> Option<Json> {
        let mut scan = IdScan::default();
        // In pieces, as the reader sees a long line.
        for piece in line.chunks(3) {
            scan.feed(piece);
        }
        scan.request_id().cloned()
    }

    #[test]
    fn the_scan_finds_the_top_level_id_wherever_it_stands() {
        let cases: [(&[u8], Option<Json>); 9] = [
            (br#"{"method":"m","id":7}"#, Some(json!(7))),
            (
                br#"{"params":{"id":1,"s":"}\"{"},"id":"x\"y","method":"m"}"#,
                Some(json!("x\"y")),
            ),
            (
                b"\0\xef\xbb\xbf {\"m\\u0065thod\":\"m\",\"\\u0069d\":-2.5e1}",
                Some(json!(-25.0)),
            ),
            (
                b"{\"method\":\"m\",\"p\":\"\xff\",\"id\":3,",
                Some(json!(3)),
            ),
            // No method: a response, whose id is the server's own.
            (br#"{"id":1,"result":{}}"#, None),
            // Cut off inside the id: 12 could be the start of 123.
            (br#"{"method":"m","id":12"#, None),
            (br#"{"method":"m","id":{"a":1},"x":{"id":2}}"#, None),
            (br#"[{"method":"m","id":1}]"#, None),
            (br#"{"method":"m","id":null}"#, None),
        ];
        for (line, id) in cases {
            assert_eq!(scanned(line), id, "{}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn an_id_longer_than_the_bound_is_not_read() {
        let long = format!(r#"{{"method":"m","id":"{}"}}"#, "i".repeat(ID_BYTES));
        assert_eq!(scanned(long.as_bytes()), None);
    }

    #[test]
    fn deep_nesting_is_scanned_without_recursion() {
        let line = format!(
            r#"{{"method":"m","params":{}{},"id":4}}"#,
            "[".repeat(1_000_000),
            "]".repeat(1_000_000)
        );
        assert_eq!(scanned(line.as_bytes()), Some(json!(4)));
    }
}
