//! Whose each MCP session is, and how many one agent keeps.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use super::SESSION_IDLE;

/// Which agent opened each session, and when each was last used: a session is its agent's
/// alone, so that another agent's token, even with the session's id in hand, neither reads its
/// streams nor calls in it. One agent keeps at most so many, so that a token cannot fill the
/// server's memory with sessions.
pub(super) struct Owners {
    sessions: Mutex<HashMap<String, Owner>>,
    per_agent: usize,
}

/// A session's agent, and when the session was last used.
type Owner = (String, Instant);

impl Owners {
    /// Sessions, at most `per_agent` (at least 1) of them one agent's.
    pub(super) fn new(per_agent: usize) -> Owners {
        Owners {
            sessions: Mutex::default(),
            per_agent: per_agent.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Owner>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `agent` may use session `id` (and it is marked as used now).
    pub(super) fn owned_by(&self, id: &str, agent: &str) -> bool {
        match self.lock().get_mut(id) {
            Some((owner, used)) if owner == agent => {
                *used = Instant::now();
                true
            }
            _ => false,
        }
    }

    /// Session `id` was opened by `agent`: the session of its to let go, when it now has one
    /// more than it may (its least recently used). The sessions rmcp has let go for their
    /// idleness are forgotten.
    pub(super) fn opened(&self, id: &str, agent: &str) -> Option<String> {
        let mut owners = self.lock();
        owners.retain(|_, (_, used)| used.elapsed() < SESSION_IDLE);
        owners.insert(id.to_owned(), (agent.to_owned(), Instant::now()));
        let theirs = owners.iter().filter(|(_, (owner, _))| owner == agent);
        if theirs.clone().count() <= self.per_agent {
            return None;
        }
        let oldest = theirs.min_by_key(|(_, (_, used))| *used)?.0.clone();
        owners.remove(&oldest);
        Some(oldest)
    }

    pub(super) fn closed(&self, id: &str) {
        self.lock().remove(id);
    }
}

/// The session a request names (`Mcp-Session-Id`), or its response opens.
pub(super) fn session_of(headers: &axum::http::HeaderMap) -> Option<String> {
    let id = headers.get("mcp-session-id")?.to_str().ok()?;
    Some(id.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_is_its_agents_and_one_too_many_lets_the_least_used_go() {
        let owners = Owners::new(2);
        assert_eq!(owners.opened("a", "ci"), None);
        assert_eq!(owners.opened("b", "ci"), None);
        assert_eq!(owners.opened("x", "nightly"), None);
        assert!(owners.owned_by("a", "ci") && !owners.owned_by("a", "nightly"));
        // "a" was used just now: "b" is the one let go.
        assert_eq!(owners.opened("c", "ci").as_deref(), Some("b"));
        assert!(!owners.owned_by("b", "ci"));
        assert!(owners.owned_by("x", "nightly"));
    }
}
