//! This machine's inbox: one terminal (or several, or a page) where a person answers the
//! questions of every agent of theirs on this machine, whichever command asks (`interview
//! mcp`, `ask`, `elicit`, `serve`). It is served with the team inbox's server, on a socket
//! only this user can reach ([`crate::team::own`]); this module holds what its askers and its
//! terminals share: where it lives ([`place`]), whether a request goes there ([`route`]),
//! what a request is ([`request`]), and how the terminal says what happens ([`screen`],
//! [`told`]).
//!
//! An answer belongs to the run that asked (one asking process's request): it goes to that run
//! only. A run whose asker goes away (it withdraws, or is no longer heard from: killed, its
//! process group interrupted) is withdrawn, and the person told so. What they typed to it is
//! kept for [`RETRY_WINDOW_MS`]: a retry of the same request (the same call, client and
//! folder) in that time is asked as a new question, marked as asked again, with those answers
//! played back, and the person gives at least the last one again, for the new run. Nothing a
//! run did not wait for, an answer or a cancel, ever reaches another.

#[cfg(feature = "team-server")]
pub mod place;
pub mod request;
pub mod route;
#[cfg(feature = "team")]
pub mod screen;
#[cfg(feature = "team")]
pub mod told;

/// How long what a person typed to a run that went away is kept for a retry of the same
/// request to take over: long enough for an agent whose call timed out, or that was restarted,
/// to ask again; short enough that a later run is asked afresh, rather than given answers
/// meant for another moment.
#[cfg(feature = "team")]
pub const RETRY_WINDOW_MS: i64 = 10 * 60 * 1000;
#[cfg(feature = "team-server")]
pub use place::Place;
pub use request::Call;
#[cfg(feature = "team")]
pub use request::{Ask, From};
pub use route::Route;

#[cfg(feature = "team")]
impl From {
    /// Who asks, from this process: the folder it runs in and its id, with what the caller
    /// knows of the client.
    pub fn here(command: &str, client: Option<String>, server: Option<String>) -> From {
        From {
            client,
            folder: std::env::current_dir()
                .ok()
                .map(|dir| dir.to_string_lossy().into_owned()),
            server,
            command: command.to_string(),
            pid: std::process::id(),
        }
    }
}
