//! The team inbox: questions from agents on many machines, answered by the right person from
//! anywhere, over HTTP.
//!
//! The asking side keeps the plugin: `--inbox URL` makes [`remote::RemoteUi`] the UI, which
//! puts each widget up on the server and hands back the reply a person gave there, for the
//! plugin to judge. The server ([`server`]) is a durable relay of those widgets: it never runs
//! the plugin, keeps every step, answer and token in its [`store`], and answers each step
//! exactly once, escalates or expires questions at their deadline, and tells people by webhook
//! ([`notify`]). Its own commands (`inbox serve|token|hook|audit`) are read in [`admin`].
//! A person answers on its page, or in a terminal ([`answering`], `interview inbox --team`),
//! where each widget is drawn from its view as the page draws it.
//!
//! The asking side is the `team` feature; the server and its commands are `team-server`; both
//! are in the default build. PostgreSQL is the `postgres` feature, for a team's server machine.

#[cfg(feature = "team-server")]
pub mod admin;
pub mod answering;
mod backoff;
#[cfg(feature = "team-server")]
mod holders;
mod http_relay;
#[cfg(feature = "team-server")]
mod listen;
#[cfg(feature = "team-server")]
mod mcp;
#[cfg(feature = "team-server")]
mod notify;
#[cfg(feature = "team-server")]
pub mod own;
#[cfg(feature = "team-server")]
mod page;
mod reach_error;
pub mod remote;
#[cfg(feature = "team-server")]
mod server;
#[cfg(feature = "team-server")]
mod socket_file;
#[cfg(feature = "team-server")]
pub mod store;
#[cfg(feature = "team-server")]
mod token;
mod unix_http;

pub use unix_http::is_address;
#[cfg(feature = "team-server")]
mod waiting;

/// The longest body the server takes: a widget of the plugin's longest request, as the local
/// inbox allows, or a person's reply to one. An asker reads a response this long and its
/// envelope (see [`remote`]), so that no answer the server took is one its asker cannot read.
pub const BODY_LIMIT: usize = 17 << 20;

/// How long a question waits for a person before its asker is told nobody answered, and whom
/// it goes to first when nobody did.
#[derive(Clone, Debug, PartialEq)]
pub struct Deadline {
    /// From when it is asked, in ms.
    pub after_ms: i64,
    /// Whom the question goes to at the deadline, for as long again, before it expires.
    pub escalate_to: Option<String>,
}
