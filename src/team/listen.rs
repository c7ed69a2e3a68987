//! Where the inbox server listens: a TCP address (a team's), or a Unix socket (this machine's
//! inbox, and a team's behind a proxy on the same machine). The serving itself, with its bounds
//! on connections and their time, is the host's one loop ([`interview_host::serving`]).

use std::net::SocketAddr;

use interview_host::serving::Accept;

use super::socket_file::{BindError, Unbound};
use tokio::io::{AsyncRead, AsyncWrite};

pub use interview_host::serving::connection_cap;

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

/// Listens where `listen` says: `HOST:PORT`, or `unix:PATH` for a Unix socket (see
/// [`super::socket_file`]); with the address to tell people.
pub async fn bind(listen: &str) -> Result<(Listener, String), BindError> {
    let cannot = |error| BindError {
        listen: listen.to_owned(),
        why: Unbound::Failed(error),
    };
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

/// A connection accepted by a [`Listener`], whichever kind.
pub trait Connection: AsyncRead + AsyncWrite + Unpin + Send {}

impl<S: AsyncRead + AsyncWrite + Unpin + Send> Connection for S {}

impl Accept for Listener {
    type Connection = Box<dyn Connection>;
    type Peer = Peer;

    /// The next connection: on TCP, the server's own; on a socket, a process's of this machine.
    async fn accept(&self) -> std::io::Result<(Box<dyn Connection>, Peer)> {
        match self {
            Listener::Network(listener) => {
                let (stream, address) = listener.accept().await?;
                Ok((Box::new(stream), Peer::Network(address)))
            }
            Listener::Socket { listener, .. } => {
                let (stream, _) = listener.accept().await?;
                Ok((Box::new(stream), Peer::Socket))
            }
        }
    }
}
