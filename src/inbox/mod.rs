//! The inbox: one terminal (or several) where a person answers the questions of every agent of
//! theirs on this machine, whichever command asks (`interview mcp`, `ask`, `elicit`).
//!
//! An asker hands the whole request to the open inboxes over a Unix socket
//! ([`asker`], [`wire`]); the inbox runs the plugin on it with the person's terminal as the UI
//! ([`window`]) and hands the plugin's result back, so that the plugin decides everything here
//! as it does anywhere else. The inbox keeps every question and answer in its database
//! ([`store`]) and the answers of a question under way in a journal: closing the inbox, or the
//! agent dying, loses nothing typed.
//!
//! An answer belongs to the run that asked (one asking process's request): it goes to that run
//! only. A run whose asker goes away (it withdraws, or its connection closes: killed, its
//! process group interrupted) is withdrawn from every inbox, and the person told so. What they
//! typed to it is kept for [`RETRY_WINDOW_MS`]: a retry of the same request (the same call,
//! client and folder) in that time is asked as a new question, marked as asked again, with
//! those answers played back, and the person gives at least the last one again, for the new
//! run. Nothing a run did not wait for, an answer or a cancel, ever reaches another.

pub mod asker;
mod desk;
pub mod place;
pub mod route;
pub mod screen;
mod store;
pub mod told;
pub mod window;
pub mod wire;

pub use asker::Reached;

/// How long what a person typed to a run that went away is kept for a retry of the same
/// request to take over: long enough for an agent whose call timed out, or that was restarted,
/// to ask again; short enough that a later run is asked afresh, rather than given answers
/// meant for another moment.
pub const RETRY_WINDOW_MS: i64 = 10 * 60 * 1000;
pub use place::Place;
pub use route::Route;
pub use wire::{Ask, Call, From};

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

/// Hands `ask` to the open inboxes (see [`asker::ask`]); no inbox when the place cannot be
/// found (no home folder).
pub fn ask(ask: &Ask, wait: bool, stop: &std::sync::atomic::AtomicBool) -> Reached {
    match Place::find() {
        Ok(place) => asker::ask(&place, ask, wait, stop),
        Err(_) => Reached::NoInbox,
    }
}
