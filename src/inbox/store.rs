//! The inbox's memory: every question asked through it and, once given, its answer, in an
//! SQLite database in the inbox's folder, so that closing the inbox, or the agent dying,
//! loses nothing. The answers of a question under way are kept apart, in its journal
//! (see [`Store::journal`]), as `interview ask --journal` keeps them.
//!
//! Several inboxes of one user share the database (WAL, and a busy timeout for the moments two
//! write at once).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value as Json;

use super::wire::Ask;

/// A question the inbox holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Held {
    pub key: String,
    pub ask: Ask,
}

/// The database, open.
pub struct Store {
    db: Connection,
    journals: PathBuf,
}

/// How long delivered answers are kept, for the record, before they are forgotten.
const KEPT_DAYS: i64 = 30;
/// How long an answer nobody took waits for its request to be asked again: an agent that
/// died comes back within minutes or hours; a day later the answer may no longer hold, and
/// handing it over silently would put words in the person's mouth.
const UNCLAIMED_HOURS: i64 = 24;
/// The layout of the database this version writes; a newer one is refused, not guessed at.
const LAYOUT: i64 = 1;

impl Store {
    /// Opens (or creates, readable by this user only) the database in `dir`.
    pub fn open(dir: &Path) -> Result<Store, String> {
        let path = dir.join("inbox.sqlite3");
        let shown = path.display();
        let db = Connection::open(&path)
            .map_err(|e| format!("cannot open the inbox's database {shown}: {e}"))?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| format!("cannot make {shown} private: {e}"))?;
        let layout: i64 = db
            .busy_timeout(Duration::from_secs(10))
            .and_then(|()| db.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|()| db.pragma_query_value(None, "user_version", |row| row.get(0)))
            .map_err(|e| format!("cannot use the inbox's database {shown}: {e}"))?;
        if layout > LAYOUT {
            return Err(format!(
                "the inbox's database {shown} was written by a newer interview (layout \
                 {layout}); use that version, or set INTERVIEW_INBOX to another folder"
            ));
        }
        db.execute_batch(&format!(
            "CREATE TABLE IF NOT EXISTS questions (
                key TEXT PRIMARY KEY,
                ask TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('pending', 'answered', 'delivered')),
                result TEXT,
                asked_at INTEGER NOT NULL
                    DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)),
                answered_at INTEGER,
                delivered_at INTEGER
            );
            PRAGMA user_version = {LAYOUT};"
        ))
        .map_err(|e| format!("cannot use the inbox's database {shown}: {e}"))?;
        let journals = dir.join("journals");
        super::place::private_dir(&journals)?;
        let store = Store { db, journals };
        store.forget_old()?;
        Ok(store)
    }

    /// Keeps `ask` as a pending question, unless it is held already.
    pub fn hold(&self, held: &Held) -> Result<(), String> {
        let ask = serde_json::to_string(&held.ask).map_err(|e| e.to_string())?;
        self.db
            .execute(
                "INSERT INTO questions (key, ask, state) VALUES (?1, ?2, 'pending')
                 ON CONFLICT (key) DO UPDATE SET ask = excluded.ask,
                     state = iif(questions.state = 'delivered', 'pending', questions.state),
                     result = iif(questions.state = 'delivered', NULL, questions.result),
                     asked_at = iif(questions.state = 'delivered', excluded.asked_at,
                         questions.asked_at)",
                params![held.key, ask],
            )
            .map(drop)
            .map_err(db_error)
    }

    /// The questions nobody has answered yet, oldest first.
    pub fn pending(&self) -> Result<Vec<Held>, String> {
        let mut query = self
            .db
            .prepare(
                "SELECT key, ask FROM questions WHERE state = 'pending' ORDER BY asked_at, rowid",
            )
            .map_err(db_error)?;
        let rows = query
            .query_map([], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
            })
            .map_err(db_error)?;
        let mut held = Vec::new();
        for row in rows {
            let (key, ask) = row.map_err(db_error)?;
            // A row this version cannot read is left for the version that wrote it.
            if let Ok(ask) = serde_json::from_str(&ask) {
                held.push(Held { key, ask });
            }
        }
        Ok(held)
    }

    /// Keeps the person's answer to `key`, not yet handed to anyone.
    pub fn answered(&self, key: &str, result: &Json) -> Result<(), String> {
        self.db
            .execute(
                "UPDATE questions SET state = 'answered', result = ?2, answered_at = unixepoch()
                 WHERE key = ?1",
                params![key, result.to_string()],
            )
            .map(drop)
            .map_err(db_error)
    }

    /// Whether `key` has been answered (in any inbox that shares the database).
    pub fn is_answered(&self, key: &str) -> Result<bool, String> {
        self.db
            .query_row(
                "SELECT state != 'pending' FROM questions WHERE key = ?1",
                params![key],
                |row| row.get(0),
            )
            .optional()
            .map(|answered| answered.unwrap_or(false))
            .map_err(db_error)
    }

    /// The answer to `key` that nobody has been handed yet, if there is one; taking it marks
    /// it handed, so that it is given once.
    pub fn take_answer(&self, key: &str) -> Result<Option<Json>, String> {
        let result: Option<String> = self
            .db
            .query_row(
                "UPDATE questions SET state = 'delivered', delivered_at = unixepoch()
                 WHERE key = ?1 AND state = 'answered' AND answered_at >= unixepoch() - ?2 * 3600
                 RETURNING result",
                params![key, UNCLAIMED_HOURS],
                |row| row.get(0),
            )
            .optional()
            .map_err(db_error)?;
        Ok(result.and_then(|r| serde_json::from_str(&r).ok()))
    }

    /// The answer to `key` reached its asker.
    pub fn delivered(&self, key: &str) -> Result<(), String> {
        self.db
            .execute(
                "UPDATE questions SET state = 'delivered', delivered_at = unixepoch()
                 WHERE key = ?1 AND state = 'answered'",
                params![key],
            )
            .map(drop)
            .map_err(db_error)
    }

    /// The asker took `key` back before anything was answered: nothing to keep.
    pub fn withdraw(&self, key: &str) -> Result<(), String> {
        self.db
            .execute(
                "DELETE FROM questions WHERE key = ?1 AND state = 'pending'",
                params![key],
            )
            .map(drop)
            .map_err(db_error)
    }

    /// Where the answers to `key` are kept while the person gives them.
    pub fn journal(&self, key: &str) -> PathBuf {
        journal_path(self.journals.parent().unwrap_or(&self.journals), key)
    }

    fn forget_old(&self) -> Result<(), String> {
        self.db
            .execute(
                "DELETE FROM questions WHERE
                     (state = 'delivered' AND answered_at < unixepoch() - ?1 * 86400)
                     OR (state = 'answered' AND answered_at < unixepoch() - ?2 * 3600)",
                params![KEPT_DAYS, UNCLAIMED_HOURS],
            )
            .map(drop)
            .map_err(db_error)
    }
}

/// Where the answers to `key` are kept while the person gives them, in the inbox folder
/// `data`.
pub fn journal_path(data: &Path, key: &str) -> PathBuf {
    data.join("journals").join(format!("{key}.journal"))
}

fn db_error(error: rusqlite::Error) -> String {
    format!("the inbox's database: {error}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::wire::{Call, From};

    fn held(question: &str) -> Held {
        let ask = Ask {
            from: From {
                command: "ask".into(),
                ..From::default()
            },
            call: Call::Tool {
                tool: "interview".into(),
                arguments: format!(r#"{{"question":"{question}"}}"#),
                skip_response: None,
            },
        };
        Held {
            key: ask.key(),
            ask,
        }
    }

    #[test]
    fn an_answer_outlives_the_store_and_is_handed_once() {
        let dir = tempfile::tempdir().unwrap();
        let (deploy, name) = (held("Deploy?"), held("Name?"));
        {
            let store = Store::open(dir.path()).unwrap();
            store.hold(&deploy).unwrap();
            store.hold(&name).unwrap();
            store
                .answered(&deploy.key, &serde_json::json!({"status": "answered"}))
                .unwrap();
        }
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.pending().unwrap(), std::slice::from_ref(&name));
        assert_eq!(
            store.take_answer(&deploy.key).unwrap(),
            Some(serde_json::json!({"status": "answered"}))
        );
        assert_eq!(store.take_answer(&deploy.key).unwrap(), None);
        // Asked again after it was handed: a new question, after the one that waited.
        store.hold(&deploy).unwrap();
        assert_eq!(store.pending().unwrap(), [name.clone(), deploy.clone()]);
        store.withdraw(&name.key).unwrap();
        assert_eq!(store.pending().unwrap(), [deploy]);
    }

    #[test]
    fn an_answer_nobody_took_for_a_day_is_not_handed_over() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let drop_table = held("Drop the production database?");
        store.hold(&drop_table).unwrap();
        store
            .answered(&drop_table.key, &serde_json::json!({"answer": true}))
            .unwrap();
        store
            .db
            .execute(
                "UPDATE questions SET answered_at = answered_at - 25 * 3600",
                [],
            )
            .unwrap();
        assert_eq!(store.take_answer(&drop_table.key).unwrap(), None);
    }

    #[test]
    fn a_database_of_a_newer_layout_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("inbox.sqlite3");
        Connection::open(&path)
            .unwrap()
            .pragma_update(None, "user_version", 9)
            .unwrap();
        let error = Store::open(dir.path()).err().unwrap();
        assert!(
            error.contains("written by a newer interview (layout 9)"),
            "{error}"
        );
    }

    #[test]
    fn the_database_is_readable_by_its_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        Store::open(dir.path()).unwrap();
        let meta = std::fs::metadata(dir.path().join("inbox.sqlite3")).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }
}
