//! A response's body that holds something until it is sent: a connection's busy mark, an
//! agent's place among the open requests. An event stream holds it for as long as it streams;
//! a body dropped unsent (its connection closed) lets it go then.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes, HttpBody};
use hyper::body::{Frame, SizeHint};

/// `body`, holding `held` until it ends or is dropped.
pub(super) struct Holding<T> {
    body: Body,
    _held: T,
}

impl<T: Send + Unpin + 'static> Holding<T> {
    /// `body` as a body that holds `held`.
    pub(super) fn body(body: Body, held: T) -> Body {
        Body::new(Holding { body, _held: held })
    }
}

impl<T: Unpin> HttpBody for Holding<T> {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
