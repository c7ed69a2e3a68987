//! Who holds each token, remembered for a moment: every request of the HTTP API names its
//! token, and looking it up each time was a read and a thread's hand-off per request. A token
//! revoked (`interview inbox token revoke`, which writes the database, not to the servers) is
//! refused within [`REMEMBERED`].

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::store::Holder;

/// How long a token's holder is remembered: how late a revocation may be heard.
pub(super) const REMEMBERED: Duration = Duration::from_secs(1);

/// The most tokens remembered at once; more, and all are forgotten (a team has tens).
const MOST: usize = 4096;

/// Token hashes and their holders, each with when it was read.
#[derive(Default)]
pub(super) struct Holders(Mutex<HashMap<String, (Holder, Instant)>>);

impl Holders {
    /// The holder of the token whose hash is `hash`, read less than [`REMEMBERED`] ago.
    pub(super) fn get(&self, hash: &str) -> Option<Holder> {
        let remembered = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (holder, read) = remembered.get(hash)?;
        (read.elapsed() < REMEMBERED).then(|| holder.clone())
    }

    /// `holder` holds the token whose hash is `hash`, as just read. (A token nobody holds is
    /// not remembered: it is looked up each time, and refused.)
    pub(super) fn keep(&self, hash: String, holder: Holder) {
        let mut remembered = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if remembered.len() >= MOST {
            remembered.clear();
        }
        remembered.insert(hash, (holder, Instant::now()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::team::store::Kind;

    #[test]
    fn a_holder_is_remembered_for_a_moment_only() {
        let holders = Holders::default();
        let ann = Holder {
            name: "ann".into(),
            kind: Kind::Person,
            groups: vec![],
        };
        assert!(holders.get("h").is_none());
        holders.keep("h".into(), ann.clone());
        assert_eq!(holders.get("h"), Some(ann.clone()));
        assert!(holders.get("other").is_none());
        holders.0.lock().unwrap().get_mut("h").unwrap().1 -= REMEMBERED;
        assert!(holders.get("h").is_none(), "remembered past its moment");
    }
}
