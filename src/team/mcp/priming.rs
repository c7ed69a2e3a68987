//! Priming events only for the clients that know them.
//!
//! A priming event (an `id` and a `retry`, and no data) opens each event stream so that a
//! client can resume it from the start; MCP brought it in with 2025-11-25. rmcp sends it to
//! every client, and a client of an older revision reads every event's data as a message:
//! Gemini CLI 0.61's MCP library fails on the empty one and drops the server. So, as the
//! TypeScript SDK's own server does, streams of a request that does not name 2025-11-25 or later
//! (`MCP-Protocol-Version`) are sent without them.

use std::pin::Pin;
use std::task::{Context, Poll, ready};

use axum::body::{Body, Bytes, HttpBody};
use axum::http::HeaderMap;
use hyper::body::{Frame, SizeHint};

/// The first revision that has priming events.
const PRIMING_SINCE: &str = "2025-11-25";

/// Whether the client of a request with these headers knows priming events.
pub(super) fn understood(headers: &HeaderMap) -> bool {
    let version = headers.get("mcp-protocol-version");
    // Revisions are dates, so they compare as text.
    version
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v >= PRIMING_SINCE)
}

/// An event stream's body without its priming events; everything else as it comes.
pub(super) struct WithoutPriming {
    body: Body,
    /// What has come of an event not yet ended.
    pending: Vec<u8>,
}

impl WithoutPriming {
    pub(super) fn new(body: Body) -> WithoutPriming {
        WithoutPriming {
            body,
            pending: Vec::new(),
        }
    }

    /// The events ended so far, priming events left out; the rest waits for its end.
    fn ended_events(&mut self) -> Vec<u8> {
        let Some(end) = self.pending.windows(2).rposition(|w| w == b"\n\n") else {
            return Vec::new();
        };
        let rest = self.pending.split_off(end + 2);
        let ended = std::mem::replace(&mut self.pending, rest);
        kept(&ended)
    }
}

/// `events` (each ended by a blank line) without the priming ones.
fn kept(events: &[u8]) -> Vec<u8> {
    let mut kept = Vec::with_capacity(events.len());
    for event in events
        .split_inclusive(|&b| b == b'\n')
        .collect::<Vec<_>>()
        .split(|line| *line == b"\n")
    {
        if event.is_empty() || is_priming(event) {
            continue;
        }
        event.iter().for_each(|line| kept.extend_from_slice(line));
        kept.push(b'\n');
    }
    kept
}

/// An event with an `id` or a `retry` and no data: a priming event (comments, the streams'
/// keep-alives, are kept).
fn is_priming(lines: &[&[u8]]) -> bool {
    let field = |name: &[u8]| lines.iter().any(|line| line.starts_with(name));
    let data = lines.iter().any(|line| {
        line.strip_prefix(b"data:")
            .is_some_and(|value| !value.trim_ascii().is_empty())
    });
    (field(b"id:") || field(b"retry:")) && !data
}

impl HttpBody for WithoutPriming {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        loop {
            match ready!(Pin::new(&mut self.body).poll_frame(cx)) {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => {
                        self.pending.extend_from_slice(&data);
                        let events = self.ended_events();
                        if !events.is_empty() {
                            return Poll::Ready(Some(Ok(Frame::data(events.into()))));
                        }
                    }
                    Err(frame) => return Poll::Ready(Some(Ok(frame))),
                },
                Some(Err(error)) => return Poll::Ready(Some(Err(error))),
                None if self.pending.is_empty() => return Poll::Ready(None),
                // An unended last event goes as it came.
                None => {
                    let rest = std::mem::take(&mut self.pending);
                    return Poll::Ready(Some(Ok(Frame::data(rest.into()))));
                }
            }
        }
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priming_events_are_left_out_and_messages_and_keep_alives_kept() {
        let stream = b"data: \nid: 0\nretry: 1000\n\n:\n\ndata: {\"id\":1}\nid: 1/0\n\n";
        assert_eq!(kept(stream), b":\n\ndata: {\"id\":1}\nid: 1/0\n\n".to_vec());
    }

    #[test]
    fn only_a_request_naming_2025_11_25_or_later_is_sent_them() {
        let with = |version: &str| {
            let mut headers = HeaderMap::new();
            headers.insert("mcp-protocol-version", version.parse().unwrap());
            understood(&headers)
        };
        assert!(with("2025-11-25") && with("2026-07-28"));
        assert!(!with("2025-06-18") && !with("2025-03-26"));
        assert!(!understood(&HeaderMap::new()));
    }
}
