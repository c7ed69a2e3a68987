//! The inbox: one terminal (or several) where a person answers the questions of every agent of
//! theirs on this machine, whichever command asks (`interview mcp`, `ask`, `elicit`).
//!
//! An asker hands the whole request to the open inboxes over a Unix socket
//! ([`asker`], [`wire`]); the inbox runs the plugin on it with the person's terminal as the UI
//! ([`window`]) and hands the plugin's result back, so that the plugin decides everything here
//! as it does anywhere else. The inbox keeps every question and answer in its database
//! ([`store`]) and the answers of a question under way in a journal: closing the inbox, or the
//! agent dying, loses nothing typed.

pub mod asker;
mod desk;
pub mod place;
pub mod route;
mod store;
pub mod window;
pub mod wire;

pub use asker::Reached;
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
