//! Reading requests (a file, standard input, a stream of lines) without trusting their size or
//! their bytes: reading stops at a limit, so an endless input costs no more than the limit, and
//! what cannot be a request says why, for the caller to answer with a result the agent can parse.

use std::fmt;
use std::io::{BufRead, Read};

/// Reads the request at `source` (`-` for standard input), at most `limit` bytes of UTF-8. Reading
/// stops at the limit, so an endless input costs no more than the limit. `Err` says why it
/// cannot be a request.
pub fn read(source: &str, limit: usize) -> Result<String, ReadError> {
    let reader: Box<dyn Read> = if source == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(source).map_err(|error| ReadError::Unread {
            from: source.to_owned(),
            error,
        })?;
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
        .map_err(|error| ReadError::Unread {
            from: what.to_owned(),
            error,
        })?;
    if bytes.len() > limit {
        return Err(ReadError::TooLong {
            from: what.to_owned(),
            limit,
        });
    }
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
        from: what.to_owned(),
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Why a request could not be read: each is answered as an invalid request is, with its
/// sentence, which names where the request came from (a file, or `standard input`).
#[derive(Debug)]
pub enum ReadError {
    /// The file does not open, or reading it (or standard input) failed.
    Unread { from: String, error: std::io::Error },
    /// There is more than the limit: reading stopped there.
    TooLong { from: String, limit: usize },
    /// It is not UTF-8 text: the first invalid byte is at `offset`.
    NotUtf8 { from: String, offset: usize },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Unread { from, error } => {
                write!(f, "cannot read the request from {from}: {error}")
            }
            ReadError::TooLong { from, limit } => write!(
                f,
                "the request from {from} is more than {limit} bytes, the limit; ask fewer or \
                 shorter questions"
            ),
            ReadError::NotUtf8 { from, offset } => write!(
                f,
                "the request from {from} is not UTF-8 text (an invalid byte at offset {offset})"
            ),
        }
    }
}

impl std::error::Error for ReadError {}

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
