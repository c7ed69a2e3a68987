//! Whose each MCP session is.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use super::SESSION_IDLE;

/// Which agent opened each session, and when each was last used: a session is its agent's
/// alone, so that another agent's token, even with the session's id in hand, neither reads its
/// streams nor calls in it.
#[derive(Default)]
pub(super) struct Owners(Mutex<HashMap<String, Owner>>);

/// A session's agent, and when the session was last used.
type Owner = (String, Instant);

impl Owners {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Owner>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
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

    /// Session `id` was opened by `agent`; the sessions rmcp has let go for their idleness
    /// are forgotten.
    pub(super) fn opened(&self, id: &str, agent: &str) {
        let mut owners = self.lock();
        owners.retain(|_, (_, used)| used.elapsed() < SESSION_IDLE);
        owners.insert(id.to_owned(), (agent.to_owned(), Instant::now()));
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
