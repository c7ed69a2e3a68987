//! Just enough HTTP/1.1 for the page: a request read from the bytes a connection has sent so far
//! (its head parsed by httparse), and a response that closes the connection after it.
//!
//! Every connection carries one request: the page asks a few times a minute, so keeping
//! connections alive would save nothing and leave idle sockets to watch.

use std::io::{self, Write};
use std::net::TcpStream;
use std::time::Instant;

/// The most a request's head may weigh: a browser's is under 2 KB.
pub(super) const MAX_HEAD_BYTES: usize = 16 * 1024;
/// The most a request's body may weigh: a note or a pasted text, not a file.
pub(super) const MAX_BODY_BYTES: usize = 1 << 20;
const MAX_HEADERS: usize = 32;

/// A request, read whole.
pub(super) struct Request {
    pub(super) method: String,
    /// The path and query, as sent.
    pub(super) target: String,
    headers: Vec<(String, String)>,
    pub(super) body: Vec<u8>,
}

impl Request {
    /// A header's value (names compare without case); `None` when absent or not text.
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the bytes received so far amount to.
pub(super) enum Reading {
    /// More bytes are needed.
    Partial,
    Complete(Request),
    /// Not a request this server takes: answered with this, then closed.
    Refused(Response),
}

/// Reads `received` as one request.
pub(super) fn read(received: &[u8]) -> Reading {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut head = httparse::Request::new(&mut headers);
    let head_len = match head.parse(received) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) if received.len() > MAX_HEAD_BYTES => {
            return Reading::Refused(Response::text(431, "The request's head is too long."));
        }
        Ok(httparse::Status::Partial) => return Reading::Partial,
        Err(httparse::Error::TooManyHeaders) => {
            return Reading::Refused(Response::text(431, "Too many headers."));
        }
        Err(_) => return Reading::Refused(Response::text(400, "Not an HTTP request.")),
    };
    let header = |name: &str| {
        head.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| h.value)
    };
    if header("Transfer-Encoding").is_some() {
        return Reading::Refused(Response::text(411, "Send the body with a Content-Length."));
    }
    let length = |v: &[u8]| std::str::from_utf8(v).ok()?.trim().parse::<usize>().ok();
    let body_len = match header("Content-Length").map(length) {
        None => 0,
        Some(Some(len)) if len <= MAX_BODY_BYTES => len,
        Some(Some(_)) => return Reading::Refused(Response::text(413, "The body is too long.")),
        Some(None) => return Reading::Refused(Response::text(400, "A bad Content-Length.")),
    };
    if received.len() < head_len + body_len {
        return Reading::Partial;
    }
    let headers = head
        .headers
        .iter()
        .filter_map(|h| {
            Some((
                h.name.to_string(),
                std::str::from_utf8(h.value).ok()?.to_string(),
            ))
        })
        .collect();
    Reading::Complete(Request {
        method: head.method.unwrap_or_default().to_string(),
        target: head.path.unwrap_or_default().to_string(),
        headers,
        body: received[head_len..head_len + body_len].to_vec(),
    })
}

/// A response: its status, headers and body.
pub(super) struct Response {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

impl Response {
    pub(super) fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            headers: vec![("Content-Type", content_type.to_string())],
            body: body.into(),
        }
    }

    pub(super) fn text(status: u16, body: &str) -> Response {
        Response::new(status, "text/plain; charset=utf-8", body)
    }

    pub(super) fn body(&self) -> &[u8] {
        &self.body
    }

    pub(super) fn with(mut self, name: &'static str, value: impl Into<String>) -> Response {
        self.headers.push((name, value.into()));
        self
    }

    fn bytes(&self) -> Vec<u8> {
        let mut out = format!("HTTP/1.1 {} {}\r\n", self.status, reason(self.status));
        for (name, value) in &self.headers {
            out += &format!("{name}: {value}\r\n");
        }
        out += &format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.body.len()
        );
        let mut bytes = out.into_bytes();
        bytes.extend_from_slice(&self.body);
        bytes
    }

    /// Writes the response and closes the connection, giving up at `deadline`: a client that
    /// reads slowly holds a thread no longer than that.
    pub(super) fn send(&self, mut stream: TcpStream, deadline: Instant) -> io::Result<()> {
        let bytes = self.bytes();
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let left = deadline
                .checked_duration_since(Instant::now())
                .filter(|left| !left.is_zero())
                .ok_or_else(|| {
                    io::Error::new(io::ErrorKind::TimedOut, "the client reads too slowly")
                })?;
            stream.set_write_timeout(Some(left))?;
            match stream.write(rest) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        stream.shutdown(std::net::Shutdown::Write)
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete(bytes: &[u8]) -> Request {
        match read(bytes) {
            Reading::Complete(request) => request,
            Reading::Partial => panic!("partial"),
            Reading::Refused(r) => panic!("refused with {}", r.status),
        }
    }

    fn refused(bytes: &[u8]) -> u16 {
        match read(bytes) {
            Reading::Refused(response) => response.status,
            _ => panic!("taken"),
        }
    }

    #[test]
    fn a_request_is_read_once_its_body_is_all_there() {
        let sent = b"POST /t/reply HTTP/1.1\r\nHost: x\r\ncontent-length: 4\r\n\r\n{\"a\"";
        assert!(matches!(read(&sent[..sent.len() - 1]), Reading::Partial));
        let request = complete(sent);
        assert_eq!(
            (request.method.as_str(), request.target.as_str()),
            ("POST", "/t/reply")
        );
        assert_eq!(request.header("Content-Length"), Some("4"));
        assert_eq!(request.body, b"{\"a\"");
    }

    #[test]
    fn oversized_or_unframed_requests_are_refused() {
        let mut long = b"GET / HTTP/1.1\r\nX: ".to_vec();
        long.resize(MAX_HEAD_BYTES + 1, b'a');
        assert_eq!(refused(&long), 431);
        let big = format!(
            "POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            MAX_BODY_BYTES + 1
        );
        assert_eq!(refused(big.as_bytes()), 413);
        assert_eq!(
            refused(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            411
        );
        assert_eq!(refused(b"\x16\x03\x01 not http\r\n\r\n"), 400);
    }
}
