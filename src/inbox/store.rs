//! The inbox's memory: every run that asks through it (one asking process's request), how it
//! ended, and the answers of a run under way in its journal (see [`Store::journal`]), in an
//! SQLite database in the inbox's folder, so that closing the inbox loses nothing.
//!
//! It also holds the rule of an answer's lifetime (see [`crate::inbox`]): a run's answer goes
//! to that run only; what the person typed to a run that went away is kept for
//! [`RETRY_WINDOW_MS`], for a retry of the same request to take over ([`Store::take_over`]), and
//! then forgotten.
//!
//! Several inboxes of one user share the database (WAL, and a busy timeout for the moments two
//! write at once).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

use super::RETRY_WINDOW_MS;
use super::wire::Ask;
use crate::store_error::StoreError;

/// A run the inbox holds: one process's request.
#[derive(Debug, Clone, PartialEq)]
pub struct Held {
    /// The run's identity ([`Ask::run`]): its journal is named by it.
    pub run: String,
    /// The request's identity ([`Ask::key`]), shared by every run of the same request.
    pub key: String,
    pub ask: Ask,
}

impl Held {
    pub fn new(ask: Ask) -> Held {
        Held {
            run: ask.run(),
            key: ask.key(),
            ask,
        }
    }
}

/// How a run ended without its answer reaching it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Its asker took it back (Ctrl-C, a cancelled call): the answers so far went to it.
    Withdrawn,
    /// Its asker went away without a word (killed, its connection closed).
    Gone,
}

impl Ending {
    fn state(self) -> &'static str {
        match self {
            Ending::Withdrawn => "withdrawn",
            Ending::Gone => "gone",
        }
    }
}

/// An earlier run of a request, as a new run of it finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Earlier {
    pub run: String,
    /// When it stopped (ms since the epoch).
    pub ended_at: i64,
    /// Whether what the person typed to it may be taken over: it ended without its answer
    /// within [`RETRY_WINDOW_MS`], and no run took it over yet.
    pub resumable: bool,
    /// The person had given the whole answer: only no one received it.
    pub completed: bool,
}

/// The database, open.
pub struct Store {
    db: Connection,
    journals: PathBuf,
}

/// How long the record of a run is kept once it ended.
const KEPT_MS: i64 = 30 * 24 * 3600 * 1000;
/// The layout of the database this version writes; a newer one is refused, not guessed at.
const LAYOUT: i64 = 2;

impl Store {
    /// Opens (or creates, readable by this user only) the database in `dir`.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        let path = dir.join("inbox.sqlite3");
        let shown = path.display();
        let db = Connection::open(&path).map_err(|e| {
            StoreError::Unreachable(format!("cannot open the inbox's database {shown}: {e}"))
        })?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| StoreError::Unreachable(format!("cannot make {shown} private: {e}")))?;
        let layout: i64 = db
            .busy_timeout(Duration::from_secs(10))
            .and_then(|()| db.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|()| db.pragma_query_value(None, "user_version", |row| row.get(0)))
            .map_err(|e| {
                StoreError::Unreachable(format!("cannot use the inbox's database {shown}: {e}"))
            })?;
        if layout > LAYOUT {
            return Err(StoreError::Layout(format!(
                "the inbox's database {shown} was written by a newer interview (layout \
                 {layout}); use that version, or set INTERVIEW_INBOX to another folder"
            )));
        }
        // Layout 1 kept answers nobody took, to hand to the next run of the same request: a
        // rule this version does not have. Its rows are let go with it. A database at this
        // layout is left alone: its DDL would take the write lock at every open.
        if layout < LAYOUT {
            migrate(&db).map_err(|e| {
                StoreError::Unreachable(format!("cannot use the inbox's database {shown}: {e}"))
            })?;
        }
        let journals = dir.join("journals");
        super::place::private_dir(&journals).map_err(StoreError::Unreachable)?;
        let store = Store { db, journals };
        store.forget_old(now_ms())?;
        Ok(store)
    }

    /// Keeps `held` as a run under way, unless it is held already.
    pub fn hold(&self, held: &Held) -> Result<(), StoreError> {
        let ask = serde_json::to_string(&held.ask).map_err(db_error)?;
        self.db
            .execute(
                "INSERT INTO runs (run, key, ask, state, asked_at) VALUES (?1, ?2, ?3, 'asking', ?4)
                 ON CONFLICT (run) DO NOTHING",
                params![held.run, held.key, ask, now_ms()],
            )
            .map(drop)
            .map_err(db_error)
    }

    /// The runs under way (their askers may still wait, in another inbox or for the next one),
    /// oldest first.
    pub fn asking(&self) -> Result<Vec<Held>, StoreError> {
        let mut query = self
            .db
            .prepare("SELECT ask FROM runs WHERE state = 'asking' ORDER BY asked_at, rowid")
            .map_err(db_error)?;
        let rows = query
            .query_map([], |row| row.get::<_, String>(0))
            .map_err(db_error)?;
        let mut held = Vec::new();
        for ask in rows {
            // A row this version cannot read is left for the version that wrote it.
            if let Ok(ask) = serde_json::from_str(&ask.map_err(db_error)?) {
                held.push(Held::new(ask));
            }
        }
        Ok(held)
    }

    /// The answer of `run` reached its asker.
    pub fn delivered(&self, run: &str) -> Result<(), StoreError> {
        self.end(run, "delivered", false)
    }

    /// `run` ended without its answer reaching it; `completed`: the person had given all of
    /// it. A run that ended already (delivered by another inbox) stays as it is.
    pub fn ended(&self, run: &str, how: Ending, completed: bool) -> Result<(), StoreError> {
        self.end(run, how.state(), completed)
    }

    fn end(&self, run: &str, state: &str, completed: bool) -> Result<(), StoreError> {
        self.db
            .execute(
                "UPDATE runs SET state = ?2, completed = ?3, ended_at = ?4
                 WHERE run = ?1 AND state = 'asking'",
                params![run, state, completed, now_ms()],
            )
            .map(drop)
            .map_err(db_error)
    }

    /// Whether `run` is over (delivered or let go by another inbox that shares the database).
    pub fn is_over(&self, run: &str) -> Result<bool, StoreError> {
        self.db
            .query_row(
                "SELECT state != 'asking' FROM runs WHERE run = ?1",
                params![run],
                |row| row.get(0),
            )
            .optional()
            .map(|over| over.unwrap_or(false))
            .map_err(db_error)
    }

    /// The last run of the request `key` before `run` that ended without its answer, if any.
    pub fn earlier(&self, key: &str, run: &str) -> Result<Option<Earlier>, StoreError> {
        let since = now_ms() - RETRY_WINDOW_MS;
        self.db
            .query_row(
                "SELECT run, ended_at, state IN ('withdrawn', 'gone') AND ended_at >= ?3, completed
                 FROM runs
                 WHERE key = ?1 AND run != ?2 AND state IN ('withdrawn', 'gone', 'taken')
                 ORDER BY ended_at DESC LIMIT 1",
                params![key, run, since],
                |row| {
                    Ok(Earlier {
                        run: row.get(0)?,
                        ended_at: row.get(1)?,
                        resumable: row.get(2)?,
                        completed: row.get(3)?,
                    })
                },
            )
            .optional()
            .map_err(db_error)
    }

    /// Gives what the person typed to `earlier` to `run`, its retry: its journal becomes
    /// `run`'s. Once only, and only within [`RETRY_WINDOW_MS`] of its end; false when it was
    /// not given (too late, taken by another run, or no journal).
    pub fn take_over(&self, earlier: &str, run: &str) -> Result<bool, StoreError> {
        let since = now_ms() - RETRY_WINDOW_MS;
        let taken = self
            .db
            .execute(
                "UPDATE runs SET state = 'taken'
                 WHERE run = ?1 AND state IN ('withdrawn', 'gone') AND ended_at >= ?2",
                params![earlier, since],
            )
            .map_err(db_error)?
            == 1;
        Ok(taken && std::fs::rename(self.journal(earlier), self.journal(run)).is_ok())
    }

    /// Where the answers of `run` are kept while the person gives them.
    pub fn journal(&self, run: &str) -> PathBuf {
        journal_path(self.journals.parent().unwrap_or(&self.journals), run)
    }

    /// Forgets the runs that ended long ago, and the journals nobody may take over any more:
    /// those of runs that got their answer, were taken over, or ended more than
    /// [`RETRY_WINDOW_MS`] ago, and any of no run this database knows.
    pub fn forget_old(&self, now: i64) -> Result<(), StoreError> {
        self.db
            .execute(
                "DELETE FROM runs WHERE ended_at < ?1",
                params![now - KEPT_MS],
            )
            .map_err(db_error)?;
        let Ok(entries) = std::fs::read_dir(&self.journals) else {
            return Ok(());
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Some(run) = path
                .file_name()
                .and_then(|name| name.to_str())
                .and_then(|name| name.strip_suffix(".journal"))
            else {
                continue;
            };
            let keep: bool = self
                .db
                .query_row(
                    "SELECT state = 'asking'
                         OR (state IN ('withdrawn', 'gone') AND ended_at >= ?2)
                     FROM runs WHERE run = ?1",
                    params![run, now - RETRY_WINDOW_MS],
                    |row| row.get(0),
                )
                .optional()
                .map_err(db_error)?
                .unwrap_or(false);
            if !keep {
                let _ = std::fs::remove_file(&path);
            }
        }
        Ok(())
    }
}

/// Brings the database to [`LAYOUT`] in one transaction; every statement holds when run again,
/// so two inboxes opening it at once bring it up alike.
fn migrate(db: &Connection) -> rusqlite::Result<()> {
    db.execute_batch(&format!(
        "BEGIN IMMEDIATE;
        DROP TABLE IF EXISTS questions;
        CREATE TABLE IF NOT EXISTS runs (
            run TEXT PRIMARY KEY,
            key TEXT NOT NULL,
            ask TEXT NOT NULL,
            state TEXT NOT NULL
                CHECK (state IN ('asking', 'delivered', 'withdrawn', 'gone', 'taken')),
            completed INTEGER NOT NULL DEFAULT 0,
            asked_at INTEGER NOT NULL,
            ended_at INTEGER
        );
        CREATE INDEX IF NOT EXISTS runs_of_a_request ON runs (key, ended_at);
        PRAGMA user_version = {LAYOUT};
        COMMIT;"
    ))
}

/// Where the answers of `run` are kept while the person gives them, in the inbox folder
/// `data`.
pub fn journal_path(data: &Path, run: &str) -> PathBuf {
    data.join("journals").join(format!("{run}.journal"))
}

pub use crate::clock::now_ms;

fn db_error(error: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(format!("the inbox's database: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::wire::{Call, From};

    fn held(question: &str, pid: u32) -> Held {
        Held::new(Ask {
            from: From {
                command: "ask".into(),
                pid,
                ..From::default()
            },
            call: Call::Tool {
                tool: "interview".into(),
                arguments: format!(r#"{{"question":"{question}"}}"#),
                skip_response: None,
            },
        })
    }

    /// Moves the end of every run back by `ms`, as if that much time had passed.
    fn age(store: &Store, ms: i64) {
        store
            .db
            .execute("UPDATE runs SET ended_at = ended_at - ?1", params![ms])
            .unwrap();
    }

    #[test]
    fn a_run_under_way_outlives_the_store_and_a_delivered_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let (deploy, name) = (held("Deploy?", 1), held("Name?", 1));
        {
            let store = Store::open(dir.path()).unwrap();
            store.hold(&deploy).unwrap();
            store.hold(&name).unwrap();
            store.delivered(&deploy.run).unwrap();
        }
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.asking().unwrap(), std::slice::from_ref(&name));
        assert!(store.is_over(&deploy.run).unwrap());
        assert!(!store.is_over(&name.run).unwrap());
    }

    #[test]
    fn a_retry_takes_over_what_was_typed_once_and_only_within_the_window() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let (first, retry, third) = (held("Drop?", 1), held("Drop?", 2), held("Drop?", 3));
        store.hold(&first).unwrap();
        std::fs::write(store.journal(&first.run), "typed").unwrap();
        store.ended(&first.run, Ending::Gone, true).unwrap();

        let earlier = store.earlier(&retry.key, &retry.run).unwrap().unwrap();
        assert_eq!(earlier.run, first.run);
        assert!(earlier.resumable && earlier.completed);
        assert!(store.take_over(&first.run, &retry.run).unwrap());
        assert_eq!(
            std::fs::read_to_string(store.journal(&retry.run)).unwrap(),
            "typed"
        );
        // Once: the third run finds it, but cannot take it.
        let earlier = store.earlier(&third.key, &third.run).unwrap().unwrap();
        assert!(!earlier.resumable);
        assert!(!store.take_over(&first.run, &third.run).unwrap());

        // Past the window, what was typed is neither given nor kept.
        let late = held("Late?", 4);
        store.hold(&late).unwrap();
        std::fs::write(store.journal(&late.run), "typed").unwrap();
        store.ended(&late.run, Ending::Withdrawn, false).unwrap();
        age(&store, RETRY_WINDOW_MS + 1);
        let again = held("Late?", 5);
        assert!(
            !store
                .earlier(&again.key, &again.run)
                .unwrap()
                .unwrap()
                .resumable
        );
        assert!(!store.take_over(&late.run, &again.run).unwrap());
        store.forget_old(now_ms()).unwrap();
        assert!(!store.journal(&late.run).exists());
    }

    #[test]
    fn a_run_delivered_elsewhere_is_not_ended_again() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let run = held("Deploy?", 1);
        store.hold(&run).unwrap();
        store.delivered(&run.run).unwrap();
        store.ended(&run.run, Ending::Gone, true).unwrap();
        assert_eq!(store.earlier(&run.key, "another").unwrap(), None);
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
            matches!(&error, StoreError::Layout(why) if why.contains("written by a newer interview (layout 9)")),
            "{error}"
        );
    }

    #[test]
    fn answers_a_layout_1_database_kept_for_nobody_are_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("inbox.sqlite3");
        let old = Connection::open(&path).unwrap();
        old.execute_batch(
            "CREATE TABLE questions (key TEXT PRIMARY KEY, ask TEXT NOT NULL, state TEXT NOT NULL,
                 result TEXT, asked_at INTEGER NOT NULL DEFAULT 0, answered_at INTEGER,
                 delivered_at INTEGER);
             INSERT INTO questions (key, ask, state, result) VALUES ('k', '{}', 'answered', '{}');
             PRAGMA user_version = 1;",
        )
        .unwrap();
        drop(old);
        let store = Store::open(dir.path()).unwrap();
        let tables: i64 = store
            .db
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = 'questions'",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(tables, 0);
        assert!(store.asking().unwrap().is_empty());
    }

    #[test]
    fn the_database_is_readable_by_its_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        Store::open(dir.path()).unwrap();
        let meta = std::fs::metadata(dir.path().join("inbox.sqlite3")).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }
}
