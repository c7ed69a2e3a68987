//! Why a request to a team inbox got no answer that can be used, as a type: the asker tries
//! again whatever the kind (the server may be restarting), and says the sentence each carries.
//! A refusal is not among them: the server answered, and [`super::remote::Outcome::Refused`]
//! says what.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Why a request to a team inbox (over TCP, or its Unix socket) has no usable answer.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReachError {
    /// No runtime could be made to send the request over a Unix socket on.
    NoRuntime(std::io::Error),
    /// The request or its answer failed on the way (refused or reset connection, TLS, HTTP,
    /// an answer that is not UTF-8), in the words of the library that carried it.
    Transport(String),
    /// Nothing listens where the request was sent (no socket file, or none accepting): the
    /// server is not running, and may be started later.
    NoServer(std::io::Error),
    /// The answer was longer than any the server may send (`limit` bytes): it is not read.
    TooLarge { limit: usize },
    /// No answer came within the connection's time.
    NoAnswer { within: Duration },
    /// Over the Unix socket at `socket`: why, as one of the others says it.
    Socket {
        socket: PathBuf,
        why: Box<ReachError>,
    },
    /// A success whose body is not JSON (a proxy's page, a cut answer).
    Unreadable(serde_json::Error),
    /// An answer neither success nor refusal: the server (or a proxy before it) failed.
    Status(u16),
    /// The server failed at it, in its own words (the calls a server asks through its own
    /// store).
    #[cfg(feature = "team-server")]
    Failed(String),
}

impl ReachError {
    /// `why`, over the Unix socket at `socket`.
    pub fn on_socket(socket: impl Into<PathBuf>, why: ReachError) -> ReachError {
        ReachError::Socket {
            socket: socket.into(),
            why: Box::new(why),
        }
    }
}

impl ReachError {
    /// Whether nothing listens where the request was sent (over a socket or not).
    pub fn no_server(&self) -> bool {
        match self {
            ReachError::NoServer(_) => true,
            ReachError::Socket { why, .. } => why.no_server(),
            _ => false,
        }
    }
}

impl fmt::Display for ReachError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReachError::NoRuntime(error) => write!(f, "no runtime for the request: {error}"),
            ReachError::Transport(why) => f.write_str(why),
            ReachError::NoServer(error) => error.fmt(f),
            #[cfg(feature = "team-server")]
            ReachError::Failed(why) => f.write_str(why),
            ReachError::TooLarge { limit } => write!(f, "a response over {limit} bytes"),
            ReachError::NoAnswer { within } => {
                write!(f, "no answer within {} s", within.as_secs())
            }
            ReachError::Socket { socket, why } => write!(f, "{}: {why}", socket.display()),
            ReachError::Unreadable(error) => write!(f, "an unreadable answer ({error})"),
            ReachError::Status(status) => write!(f, "status {status}"),
        }
    }
}

// No `source`: the cause is in the sentence already, and a reporter would say it twice.
impl std::error::Error for ReachError {}
