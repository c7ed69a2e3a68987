//! The one loop that serves HTTP, for every server of the project: a [`WebUi`]'s page on
//! 127.0.0.1, and the inbox server (this machine's on a Unix socket, a team's on TCP). Hyper
//! serves each connection an [`axum::Router`] answers; this keeps the count of connections,
//! and of their time, bounded, so that no client can make a server stop serving.
//!
//! - **A cap on connections** ([`Bounds::connections`]: for a server open to strangers, below
//!   the open-files limit, so that it never runs out of descriptors).
//! - **Hyper's header-read timeout**: a connection that has not sent a whole request head
//!   within [`Bounds::head_timeout`] of being opened, or of its last response (an idle
//!   kept-alive one, a half-sent one), is closed.
//! - **At the cap, the newcomer wins**: the connection silent longest with no request in
//!   progress (nothing read from it; a request is in progress once its body has arrived) is
//!   closed to make room, so that idle or half-sent connections from strangers,
//!   however many, cannot keep a person out; one with a request in progress (a long poll, an
//!   open event stream) is never closed for another. When every connection has a request in
//!   progress, the newcomer is turned away at once, and retries.
//! - **Out of descriptors**, the connection silent longest makes room and accepting goes on:
//!   the loop ends only when its owner stops it.
//!
//! What is read of a request's body, and for how long, is for the router's layers to bound.
//!
//! [`WebUi`]: crate::ui::WebUi

use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::ConnectInfo;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{Notify, watch};
use tower::ServiceExt;

/// How long a connection to a server open to strangers may take to send a request's head,
/// counted from its opening or from its last response.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a server that stops lets the requests in progress end: a long poll cut short asks
/// again (another server, or this one restarted).
const CLOSING: Duration = Duration::from_secs(2);
/// Descriptors kept for the rest of the process (a database's connections, its files, the
/// runtime's own) below the open-files limit.
const RESERVED_FILES: u64 = 96;
/// The most connections served at once, however high the open-files limit.
const MOST_CONNECTIONS: u64 = 16_384;
/// How long accepting pauses after it failed (no descriptor to be had), rather than spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(20);

/// Where a server accepts its connections: a TCP listener, a Unix socket's.
pub trait Accept: Send {
    /// A connection accepted.
    type Connection: AsyncRead + AsyncWrite + Unpin + Send + 'static;
    /// Where a connection came from, given to the router's handlers as
    /// [`ConnectInfo`]`<Peer>`.
    type Peer: Clone + Send + Sync + 'static;

    /// The next connection, and where it came from.
    fn accept(
        &self,
    ) -> impl Future<Output = std::io::Result<(Self::Connection, Self::Peer)>> + Send;
}

impl Accept for tokio::net::TcpListener {
    type Connection = tokio::net::TcpStream;
    type Peer = std::net::SocketAddr;

    async fn accept(&self) -> std::io::Result<(tokio::net::TcpStream, std::net::SocketAddr)> {
        tokio::net::TcpListener::accept(self).await
    }
}

/// How much a server serves at once, and how long a connection may stay silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The most connections open at once.
    pub connections: usize,
    /// How long a connection may take to send a request's head, counted from its opening or
    /// from its last response.
    pub head_timeout: Duration,
}

impl Bounds {
    /// The bounds of a server open to strangers: as many connections as the open-files limit
    /// allows (see [`connection_cap`]), ten seconds for a request's head.
    pub fn open_to_strangers() -> Bounds {
        Bounds {
            connections: connection_cap(),
            head_timeout: HEAD_TIMEOUT,
        }
    }
}

/// How many connections a server open to strangers serves at once, from the open-files limit.
pub fn connection_cap() -> usize {
    let files = open_files_limit();
    usize::try_from(
        files
            .saturating_sub(RESERVED_FILES)
            .clamp(16, MOST_CONNECTIONS),
    )
    .unwrap_or(1024)
}

/// The process's open-files limit (1,024 when it cannot be read).
pub fn open_files_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 1024,
        rlim_max: 1024,
    };
    // SAFETY: getrlimit fills the struct given; on failure it is left at the default above.
    unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    limit.rlim_cur
}

/// Serves `app` on `listener`, within `bounds`, until `stopped` resolves;
/// then lets the requests in progress end, a while (each connection is told to close once
/// its response is sent). The listener is dropped as soon as `stopped` resolves, so that its
/// address (a socket file) is free for another server at once.
pub async fn serve<L: Accept>(
    listener: L,
    app: axum::Router,
    bounds: Bounds,
    stopped: impl Future<Output = ()>,
) {
    let registry = Registry(Arc::new(Mutex::new(Connections {
        cap: bounds.connections.max(1),
        next: 0,
        open: HashMap::new(),
        waiting: BTreeSet::new(),
    })));
    let (stop, stopping) = watch::channel(false);
    tokio::pin!(stopped);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stopped => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            // Out of descriptors (or another passing error): the connection idle longest
            // makes room, and accepting goes on once it is closed; with none idle, after a
            // moment rather than spin.
            Err(_) => {
                if registry.shed() {
                    tokio::task::yield_now().await;
                } else {
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                }
                continue;
            }
        };
        if !registry.make_room() {
            drop(stream);
            continue;
        }
        let (registry, app, stopping) = (registry.clone(), app.clone(), stopping.clone());
        let head_timeout = bounds.head_timeout;
        tokio::spawn(connection(
            stream,
            peer,
            head_timeout,
            registry,
            app,
            stopping,
        ));
        // The connection reads what it was sent before the next is accepted: on a runtime of
        // one thread, a burst of newcomers would otherwise shed it before its request, sent
        // at once, was read.
        tokio::task::yield_now().await;
    }
    drop(listener);
    let _ = stop.send(true);
    // The connections end as their requests do; the server waits for the last, a while.
    drop(stopping);
    let _ = tokio::time::timeout(CLOSING, stop.closed()).await;
}

/// Serves one connection until it closes, is closed for a newcomer, or the server stops.
async fn connection<S, P>(
    stream: S,
    peer: P,
    head_timeout: Duration,
    registry: Registry,
    app: axum::Router,
    mut stopping: watch::Receiver<bool>,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    P: Clone + Send + Sync + 'static,
{
    let (id, close) = registry.open();
    let busy = registry.clone();
    let service = tower::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer.clone()));
        // In progress once its body has arrived whole: until then a stranger's trickled
        // body could hold the connection for nothing, and so keep a person out at the cap.
        let progress = Progress::default();
        let request = if request.body().is_end_stream() {
            progress.begin(&busy, id);
            request.map(Body::new)
        } else {
            let arriving = (busy.clone(), id, progress.clone());
            request.map(|body| {
                Body::new(Arriving {
                    body,
                    then: Some(arriving),
                })
            })
        };
        let response = app.clone().oneshot(request);
        async move {
            let response = response.await.unwrap_or_else(|never| match never {});
            // In progress until the body is sent: an event stream is a request in progress
            // for as long as it is open.
            Ok::<_, Infallible>(response.map(|body| Holding::body(body, progress)))
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(head_timeout);
    let heard = Heard {
        stream,
        registry: registry.clone(),
        id,
    };
    let served = http.serve_connection(TokioIo::new(heard), TowerToHyperService::new(service));
    tokio::pin!(served);
    loop {
        tokio::select! {
            _ = served.as_mut() => break,
            () = close.notified() => break,
            changed = stopping.changed() => {
                if changed.is_err() || *stopping.borrow() {
                    // Nothing in progress (idle, a head or a body still arriving): closed now,
                    // rather than waited for.
                    if registry.idle(id) {
                        break;
                    }
                    served.as_mut().graceful_shutdown();
                    let _ = served.as_mut().await;
                    break;
                }
            }
        }
    }
    registry.closed(id);
}

/// The open connections, and those with no request in progress, silent longest first: the
/// ones to close when a newcomer needs room.
struct Connections {
    cap: usize,
    /// Counts connections (their ids) and waits (their order).
    next: u64,
    open: HashMap<u64, Open>,
    waiting: BTreeSet<(u64, u64)>,
}

/// An open connection: since when it waits with no request in progress (`None` while it has
/// one), and what tells it to close.
struct Open {
    since: Option<u64>,
    close: Arc<Notify>,
}

impl Connections {
    fn tick(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    fn stop_waiting(&mut self, id: u64) {
        if let Some(since) = self.open.get_mut(&id).and_then(|open| open.since.take()) {
            self.waiting.remove(&(since, id));
        }
    }

    /// Connection `id` waits with no request in progress, as the newest: the connections
    /// idle or silent longest go first.
    fn wait_anew(&mut self, id: u64) {
        self.stop_waiting(id);
        let since = self.tick();
        if let Some(open) = self.open.get_mut(&id) {
            open.since = Some(since);
            self.waiting.insert((since, id));
        }
    }
}

/// The registry, shared by the accepting loop and every connection's task.
#[derive(Clone)]
struct Registry(Arc<Mutex<Connections>>);

impl Registry {
    fn lock(&self) -> MutexGuard<'_, Connections> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes room for one more connection: true when there is room (the connection that has
    /// waited longest was told to close, if there was none), false when every connection has
    /// a request in progress.
    fn make_room(&self) -> bool {
        let room = {
            let connections = self.lock();
            connections.open.len() < connections.cap
        };
        room || self.shed()
    }

    /// Tells the connection that has waited longest with no request in progress to close:
    /// false when every connection has a request in progress.
    fn shed(&self) -> bool {
        let mut connections = self.lock();
        let Some((_, id)) = connections.waiting.pop_first() else {
            return false;
        };
        if let Some(open) = connections.open.get_mut(&id) {
            open.since = None;
            open.close.notify_one();
        }
        true
    }

    /// A new connection, waiting for its first request: its id, and what tells it to close.
    fn open(&self) -> (u64, Arc<Notify>) {
        let mut connections = self.lock();
        let id = connections.tick();
        let close = Arc::new(Notify::new());
        let open = Open {
            since: Some(id),
            close: close.clone(),
        };
        connections.open.insert(id, open);
        connections.waiting.insert((id, id));
        (id, close)
    }

    /// Connection `id` sent something: if it has no request in progress, it is now the one
    /// that waited least, so that a client still sending (a slow upload, a head over a slow
    /// link) is closed for a newcomer after those that went silent.
    fn heard(&self, id: u64) {
        let mut connections = self.lock();
        if connections
            .open
            .get(&id)
            .is_some_and(|open| open.since.is_some())
        {
            connections.wait_anew(id);
        }
    }

    /// Whether connection `id` has no request in progress.
    fn idle(&self, id: u64) -> bool {
        self.lock()
            .open
            .get(&id)
            .is_some_and(|open| open.since.is_some())
    }

    fn closed(&self, id: u64) {
        let mut connections = self.lock();
        connections.stop_waiting(id);
        connections.open.remove(&id);
    }

    /// Connection `id` has a request in progress until the guard is dropped: it is not to be
    /// closed for a newcomer meanwhile.
    fn busy(&self, id: u64) -> Busy {
        self.lock().stop_waiting(id);
        Busy {
            registry: self.clone(),
            id,
        }
    }
}

/// A connection's stream, which tells the registry each time something is read from it.
struct Heard<S> {
    stream: S,
    registry: Registry,
    id: u64,
}

impl<S: AsyncRead + Unpin> AsyncRead for Heard<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.registry.heard(self.id);
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Heard<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, data)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// A request's progress: once its body has arrived, the mark that keeps its connection from
/// being closed for another, held until its response is sent.
#[derive(Clone, Default)]
struct Progress(Arc<Mutex<Option<Busy>>>);

impl Progress {
    fn begin(&self, registry: &Registry, id: u64) {
        let mut busy = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if busy.is_none() {
            *busy = Some(registry.busy(id));
        }
    }
}

/// A request's body as it arrives: its request is in progress once it has arrived whole.
struct Arriving {
    body: Incoming,
    then: Option<(Registry, u64, Progress)>,
}

impl HttpBody for Arriving {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        let ended = matches!(polled, Poll::Ready(None)) || self.body.is_end_stream();
        if ended && let Some((registry, id, progress)) = self.then.take() {
            progress.begin(&registry, id);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A request in progress on a connection; dropped when its response is sent.
struct Busy {
    registry: Registry,
    id: u64,
}

impl Drop for Busy {
    /// Waiting again, as the newest: the connections idle longest go first.
    fn drop(&mut self) {
        self.registry.lock().wait_anew(self.id);
    }
}

/// A response's body that holds something until it is sent: a connection's busy mark, an
/// agent's place among the open requests. An event stream holds it for as long as it streams;
/// a body dropped unsent (its connection closed) lets it go then.
pub struct Holding<T> {
    body: Body,
    _held: T,
}

impl<T: Send + Unpin + 'static> Holding<T> {
    /// `body` as a body that holds `held`.
    pub fn body(body: Body, held: T) -> Body {
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
