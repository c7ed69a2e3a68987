//! Accepting the team inbox's connections as a server that strangers can reach must: hyper
//! serves each one, and this keeps the count of them and of their time bounded.
//!
//! - **A cap on connections**, below the open-files limit, so that the server never runs out of
//!   descriptors (the database's connections and files need some too).
//! - **Hyper's header-read timeout**: a connection that has not sent a whole request head within
//!   [`HEAD_TIMEOUT`] of being opened, or of its last response (an idle kept-alive one, a
//!   half-sent one), is closed.
//! - **At the cap, the newcomer wins**: the connection that has waited longest with no request
//!   in progress is closed to make room, so that idle or half-sent connections from strangers,
//!   however many, cannot keep a person out; one with a request in progress (an asker's long
//!   poll, an open event stream) is never closed for another. When every connection has a
//!   request in progress, the newcomer is turned away at once, and retries.
//!
//! What is read of a request's body, and for how long, is bounded by the router's layers (see
//! [`super::server`]), after the token is checked.

use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::sync::{Notify, watch};
use tower::ServiceExt;

/// How long a connection may take to send a request's head, counted from its opening or from
/// its last response.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a server that stops lets the requests in progress end: an asker's long poll cut
/// short asks again (another server, or this one restarted).
const CLOSING: Duration = Duration::from_secs(2);
/// Descriptors kept for the rest of the server (the database's connections, its files, the
/// runtime's own) below the open-files limit.
const RESERVED_FILES: u64 = 96;
/// The most connections served at once, however high the open-files limit.
const MOST_CONNECTIONS: u64 = 16_384;

/// The open connections, and those with no request in progress, longest waiting first: the
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
        let mut connections = self.lock();
        if connections.open.len() < connections.cap {
            return true;
        }
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

/// A request in progress on a connection; dropped when its response is sent.
struct Busy {
    registry: Registry,
    id: u64,
}

impl Drop for Busy {
    /// Waiting again, as the newest: the connections idle longest go first.
    fn drop(&mut self) {
        let mut connections = self.registry.lock();
        let since = connections.tick();
        if let Some(open) = connections.open.get_mut(&self.id) {
            open.since = Some(since);
            connections.waiting.insert((since, self.id));
        }
    }
}

/// How many connections to serve at once, from the open-files limit.
pub fn connection_cap() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 1024,
        rlim_max: 1024,
    };
    // SAFETY: getrlimit fills the struct given; on failure it is left at the default above.
    unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    let files: u64 = limit.rlim_cur;
    usize::try_from(
        files
            .saturating_sub(RESERVED_FILES)
            .clamp(16, MOST_CONNECTIONS),
    )
    .unwrap_or(1024)
}

/// Where the server listens: a TCP address, or a Unix socket (`unix:PATH`) for those who
/// reach it through a file.
pub enum Listener {
    Network(tokio::net::TcpListener),
    /// With its file, removed when the listener is dropped.
    Socket {
        listener: tokio::net::UnixListener,
        _file: super::socket_file::SocketFile,
    },
}

/// Where a request came from, as the audit says it: a TCP peer's address, or a Unix socket
/// (`unix`), whose peers have none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    Network(SocketAddr),
    Socket,
}

impl std::fmt::Display for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Peer::Network(address) => address.fmt(f),
            Peer::Socket => f.write_str("unix"),
        }
    }
}

impl Listener {
    /// The next connection: on TCP, the server's own; on a socket, a process's of this machine.
    async fn accept(&self) -> std::io::Result<(Accepted, Peer)> {
        match self {
            Listener::Network(listener) => {
                let (stream, address) = listener.accept().await?;
                Ok((Accepted::Network(stream), Peer::Network(address)))
            }
            Listener::Socket { listener, .. } => {
                let (stream, _) = listener.accept().await?;
                Ok((Accepted::Socket(stream), Peer::Socket))
            }
        }
    }
}

/// Listens where `listen` says: `HOST:PORT`, or `unix:PATH` for a Unix socket (see
/// [`super::socket_file`]); with the address to tell people.
pub async fn bind(listen: &str) -> Result<(Listener, String), String> {
    let cannot = |e: std::io::Error| format!("cannot listen on {listen}: {e}");
    let Some(path) = super::unix_http::socket_of(listen) else {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(cannot)?;
        let address = listener.local_addr().map_err(cannot)?;
        return Ok((Listener::Network(listener), format!("http://{address}")));
    };
    let (listener, file) = super::socket_file::bind(path, listen)?;
    Ok((
        Listener::Socket {
            listener,
            _file: file,
        },
        listen.to_owned(),
    ))
}

/// A connection accepted by a [`Listener`].
enum Accepted {
    Network(tokio::net::TcpStream),
    Socket(tokio::net::UnixStream),
}

/// Serves `app` on `listener` until `stopped` resolves, then lets the requests in progress
/// end (each connection is told to close once its response is sent).
pub async fn serve(
    listener: Listener,
    app: axum::Router,
    stopped: impl std::future::Future<Output = ()>,
) {
    let registry = Registry(Arc::new(Mutex::new(Connections {
        cap: connection_cap(),
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
        let (stream, address) = match accepted {
            Ok(accepted) => accepted,
            // Out of descriptors (or another passing error): the oldest idle connection makes
            // room, and accepting goes on after a moment rather than spin.
            Err(_) => {
                registry.make_room();
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        if !registry.make_room() {
            drop(stream);
            continue;
        }
        let (registry, app, stopping) = (registry.clone(), app.clone(), stopping.clone());
        match stream {
            Accepted::Network(stream) => {
                tokio::spawn(connection(stream, address, registry, app, stopping))
            }
            Accepted::Socket(stream) => {
                tokio::spawn(connection(stream, address, registry, app, stopping))
            }
        };
    }
    // Nothing more is accepted: the address (a socket file) is let go at once, for another
    // server to take.
    drop(listener);
    let _ = stop.send(true);
    // The connections end as their requests do; the server waits for the last, a while.
    drop(stopping);
    let _ = tokio::time::timeout(CLOSING, stop.closed()).await;
}

/// Serves one connection until it closes, is closed for a newcomer, or the server stops.
async fn connection<S>(
    stream: S,
    address: Peer,
    registry: Registry,
    app: axum::Router,
    mut stopping: watch::Receiver<bool>,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (id, close) = registry.open();
    let busy = registry.clone();
    let service = tower::service_fn(move |mut request: hyper::Request<Incoming>| {
        let guard = busy.busy(id);
        request.extensions_mut().insert(ConnectInfo(address));
        let response = app.clone().oneshot(request.map(axum::body::Body::new));
        async move {
            let response = response.await.unwrap_or_else(|never| match never {});
            // Busy until the body is sent: an event stream (MCP's) is a request in progress
            // for as long as it is open.
            Ok::<_, Infallible>(response.map(|body| super::holding::Holding::body(body, guard)))
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT);
    let served = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
    tokio::pin!(served);
    loop {
        tokio::select! {
            _ = served.as_mut() => break,
            () = close.notified() => break,
            changed = stopping.changed() => {
                if changed.is_err() || *stopping.borrow() {
                    served.as_mut().graceful_shutdown();
                    let _ = served.as_mut().await;
                    break;
                }
            }
        }
    }
    registry.closed(id);
}
