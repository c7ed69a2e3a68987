//! What a journal file's bytes hold, read without touching the file: the command decides from
//! this alone whether a file is a journal it may write to, so a file that is not one is never
//! cut or removed.

use serde::{Deserialize, Serialize};

use crate::ui::scripted::Step as Reply;

/// What the first line says; a new layout gets a new version.
pub(crate) const VERSION: u32 = 1;

/// The largest file taken for a journal. A person's replies to one request are far smaller
/// (the request itself is at most 8 MiB); a larger file is something else.
pub(crate) const MAX_BYTES: u64 = 64 << 20;

/// The first line: the plugin and the request the journal was written for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The layout's version.
    #[serde(rename = "interview-journal")]
    pub version: u32,
    /// SHA-256 of the plugin component.
    pub plugin: String,
    /// SHA-256 of the request: the export called and its arguments.
    pub request: String,
}

impl Header {
    /// The header of a journal of `request` to `plugin` (SHA-256s in hex).
    pub fn new(plugin: &str, request: &str) -> Header {
        Header {
            version: VERSION,
            plugin: plugin.into(),
            request: request.into(),
        }
    }

    /// The header as the journal writes it: one line.
    pub(crate) fn line(&self) -> Vec<u8> {
        line(self)
    }
}

/// One line after the header.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Entry {
    Reply(Reply),
    /// A secret was given here; it is asked again on resume.
    Secret,
}

impl Entry {
    pub(crate) fn of(reply: Option<&Reply>) -> Entry {
        match reply {
            Some(reply) => Entry::Reply(reply.clone()),
            None => Entry::Secret,
        }
    }

    pub(crate) fn line(&self) -> Vec<u8> {
        line(self)
    }
}

fn line(value: &impl Serialize) -> Vec<u8> {
    let mut line = serde_json::to_vec(value).expect("journal lines are plain data");
    line.push(b'\n');
    line
}

/// What a journal file holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Contents {
    /// Nothing: a new file, or an empty one made for the journal (`mktemp`).
    Empty,
    /// The start of a first line and nothing after it: a header torn by a crash, if it is the
    /// start of the header this request would write (known only once the request is).
    TornHeader(Vec<u8>),
    /// A header, and a reply per line after it (`None`: a secret, asked again).
    Written {
        /// The plugin and request it was written for.
        header: Header,
        /// The replies, in order.
        entries: Vec<Option<Reply>>,
        /// Bytes of complete lines; after them at most a line the journal was writing when the
        /// run was cut off, which is dropped.
        complete: usize,
    },
}

impl Contents {
    /// How many replies it holds, secrets included.
    pub fn replies(&self) -> usize {
        match self {
            Contents::Written { entries, .. } => entries.len(),
            Contents::Empty | Contents::TornHeader(_) => 0,
        }
    }
}

/// The bytes of a journal of `header` that holds `entries`, as the journal writes them.
pub fn encode(header: &Header, entries: &[Option<Reply>]) -> Vec<u8> {
    let mut bytes = header.line();
    for entry in entries {
        bytes.extend(Entry::of(entry.as_ref()).line());
    }
    bytes
}

/// What `bytes` hold, or why they are not a journal (in words that follow the file's name).
/// Only the last line may be incomplete, and only if it starts like a line the journal
/// writes: each line is flushed to the disk before the next is written.
pub fn read(bytes: &[u8]) -> Result<Contents, String> {
    if bytes.is_empty() {
        return Ok(Contents::Empty);
    }
    let not_a_journal = || "is not an interview journal".to_string();
    let Some(end) = bytes.iter().position(|&b| b == b'\n') else {
        return if could_begin(bytes, HEADER_START) {
            Ok(Contents::TornHeader(bytes.to_vec()))
        } else {
            Err(not_a_journal())
        };
    };
    let first = &bytes[..end];
    let header: Header = Some(first)
        .filter(|first| first.starts_with(HEADER_START))
        .and_then(|first| serde_json::from_slice(first).ok())
        .ok_or_else(not_a_journal)?;
    if header.version != VERSION {
        return Err(format!(
            "has version {} of the journal layout; this interview reads version {VERSION}",
            header.version
        ));
    }
    let mut entries = Vec::new();
    let mut start = end + 1;
    let mut number = 1;
    while start < bytes.len() {
        number += 1;
        let rest = &bytes[start..];
        let Some(end) = rest.iter().position(|&b| b == b'\n') else {
            if !ENTRY_STARTS.iter().any(|entry| could_begin(rest, entry)) {
                return Err(format!("has a damaged last line {number}"));
            }
            break;
        };
        let entry: Entry = std::str::from_utf8(&rest[..end])
            .map_err(|_| format!("has a damaged line {number}: not UTF-8"))
            .and_then(|line| {
                serde_json::from_str(line).map_err(|e| format!("has a damaged line {number}: {e}"))
            })?;
        entries.push(match entry {
            Entry::Reply(reply) => Some(reply),
            Entry::Secret => None,
        });
        start += end + 1;
    }
    Ok(Contents::Written {
        header,
        entries,
        complete: start.min(bytes.len()),
    })
}

/// How every header line starts (serde writes the fields in their order).
const HEADER_START: &[u8] = b"{\"interview-journal\":";
/// How every reply line starts.
const ENTRY_STARTS: &[&[u8]] = &[b"{\"reply\":", b"\"secret\""];

/// Whether `torn` is what a line that starts with `start` could be when cut off.
fn could_begin(torn: &[u8], start: &[u8]) -> bool {
    let n = torn.len().min(start.len());
    torn[..n] == start[..n]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::TextReply;

    fn text(answer: &str) -> Reply {
        Reply::Text(TextReply::Submitted(answer.into()))
    }

    fn journal(entries: &[Option<Reply>]) -> Vec<u8> {
        encode(&Header::new("p", "r"), entries)
    }

    #[test]
    fn what_the_journal_writes_reads_back() {
        let entries = [Some(text("one")), None, Some(text("two\nlines"))];
        let bytes = journal(&entries);
        assert_eq!(
            read(&bytes).unwrap(),
            Contents::Written {
                header: Header::new("p", "r"),
                entries: entries.to_vec(),
                complete: bytes.len(),
            }
        );
    }

    /// A file with no newline at all is a torn header only if it starts like one: a token
    /// written without a newline is not a journal, and is never cut.
    #[test]
    fn text_without_a_newline_is_not_taken_for_a_torn_line() {
        assert_eq!(
            read(b"ghp_TOKEN"),
            Err("is not an interview journal".into())
        );
        assert_eq!(
            read(b"{\"a\":1}"),
            Err("is not an interview journal".into())
        );
        assert_eq!(
            read(b"{\"interview-jour"),
            Ok(Contents::TornHeader(b"{\"interview-jour".to_vec()))
        );
        assert_eq!(read(b"{"), Ok(Contents::TornHeader(b"{".to_vec())));
    }

    /// After a header, an unfinished last line is dropped only if it starts like a reply.
    #[test]
    fn only_a_torn_reply_line_is_dropped() {
        let mut bytes = journal(&[Some(text("one"))]);
        let complete = bytes.len();
        bytes.extend(b"{\"reply\":{\"Text\":{\"Subm");
        assert_eq!(
            read(&bytes).unwrap(),
            Contents::Written {
                header: Header::new("p", "r"),
                entries: vec![Some(text("one"))],
                complete,
            }
        );
        let mut bytes = journal(&[Some(text("one"))]);
        bytes.extend(b"ghp_TOKEN");
        assert_eq!(read(&bytes), Err("has a damaged last line 3".into()));
    }

    #[test]
    fn a_first_line_that_is_json_but_no_header_is_not_a_journal() {
        assert_eq!(
            read(b"{\"name\": \"x\"}\n"),
            Err("is not an interview journal".into())
        );
        assert_eq!(read(b"\n"), Err("is not an interview journal".into()));
        let other = b"{\"interview-journal\":9,\"plugin\":\"p\",\"request\":\"r\"}\n";
        assert!(read(other).unwrap_err().contains("has version 9"));
    }

    #[test]
    fn a_damaged_line_in_the_middle_names_its_number() {
        let bytes = journal(&[Some(text("one")), Some(text("two"))]);
        let damaged = String::from_utf8(bytes)
            .unwrap()
            .replacen("one", "o\"ne", 1);
        let error = read(damaged.as_bytes()).unwrap_err();
        assert!(error.starts_with("has a damaged line 2"), "{error}");
    }
}
