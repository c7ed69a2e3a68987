//! The team inbox in one SQLite file (WAL): the default store, nothing to install.
//!
//! One connection writes, behind a mutex (SQLite writes one transaction at a time anyway), and
//! a few others read, each seeing what was committed (WAL): a read never waits on a write's
//! commit. Writes are committed in groups (see [`Writer`]). Several servers on one file are safe
//! (WAL and a busy timeout), though PostgreSQL is the store for more than one machine.

use std::collections::HashMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::{Value as Json, json};

use super::pool::Pool;
use super::*;

/// The layout this version writes; a newer one is refused, not guessed at.
const LAYOUT: i64 = 3;

/// The store in an SQLite file.
pub struct Sqlite {
    /// Declared (and so closed) before the writer: the last connection to close checkpoints
    /// the WAL into the file and removes it, which a read-only one cannot do. A server stopped
    /// leaves one whole file, to copy as it is.
    readers: Readers,
    writer: Mutex<Writer>,
    /// Signalled when a group of writes is committed (or failed).
    committed: Condvar,
    /// Writers waiting for the writing connection: while there are some, a write leaves its
    /// group open for them to join.
    queued: AtomicUsize,
}

/// The writing connection, and the group of writes open on it.
///
/// Group commit: each write runs in a savepoint of the group's one transaction, and the last
/// writer of a burst (the one that finds nobody queued behind it) commits the group, once, for
/// all of them; each returns only when the commit that holds its work is on disk. Durability is
/// a commit's, `synchronous=FULL`, as before; what is saved is the disk's flush for each.
struct Writer {
    db: Connection,
    /// The group open now, and how many writes it holds.
    open: Option<(u64, usize)>,
    /// The number the next group gets.
    next: u64,
    /// Every group up to this one has been committed or has failed.
    settled: u64,
    /// The groups that failed, why, and how many of their writers are still to be told.
    failed: HashMap<u64, (StoreError, usize)>,
}

/// The most writes in one group: a burst longer than this is committed in several.
const MOST_IN_A_GROUP: usize = 64;
/// How long a write waits for the group it joined to be committed before it commits it itself
/// (a writer that joined after it and then died would otherwise leave it waiting).
const COMMIT_LATE: Duration = Duration::from_millis(200);
/// The reading connections open at once, at most.
const READERS: usize = 4;

/// Connections that only read, opened as needed, up to [`READERS`].
struct Readers {
    path: PathBuf,
    pool: Pool<Connection>,
}

/// A reading connection, put back when dropped.
struct Reading<'a> {
    readers: &'a Readers,
    db: Option<Connection>,
}

impl std::ops::Deref for Reading<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.db
            .as_ref()
            .expect("a reading connection is held until dropped")
    }
}

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        if let Some(db) = self.db.take() {
            self.readers.pool.put_back(db);
        }
    }
}

impl Readers {
    fn new(path: &Path) -> Readers {
        Readers {
            path: path.to_owned(),
            pool: Pool::new(READERS),
        }
    }

    /// A reading connection: an idle one, a new one while fewer than [`READERS`] are open, or
    /// the first put back.
    fn take(&self) -> Result<Reading<'_>, StoreError> {
        let db = self.pool.take(|| {
            Connection::open_with_flags(&self.path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .and_then(|db| db.busy_timeout(Duration::from_secs(10)).map(|()| db))
                .inspect(|db| db.set_prepared_statement_cache_capacity(MOST_PREPARED))
                .map_err(|e| {
                    let path = self.path.display();
                    StoreError::Unreachable(format!(
                        "cannot read the team inbox's database {path}: {e}"
                    ))
                })
        })?;
        Ok(Reading {
            readers: self,
            db: Some(db),
        })
    }
}

/// The team inbox's mark in an SQLite file's header (`PRAGMA application_id`): "intv".
const APPLICATION_ID: i32 = 0x696e_7476;

/// What a file at the database's path is, read from its first bytes without opening it.
#[derive(Debug, PartialEq)]
enum Found {
    /// Nothing there.
    Nothing,
    /// An empty file, or an SQLite database with no table: nobody's yet.
    Empty,
    /// A team inbox's database.
    Ours,
    /// Something else, and what it is.
    Foreign(String),
}

/// Identifies the file at `path` before anything touches it: its header says whether it is an
/// SQLite database and whose (its application id); one written before the id was set is known
/// by its tables, read without writing.
fn identify(path: &Path) -> Result<Found, StoreError> {
    use std::io::Read;
    let shown = path.display();
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Nothing),
        Err(e) => return Err(StoreError::Unreachable(format!("cannot read {shown}: {e}"))),
    };
    if !meta.is_file() {
        return Ok(Found::Foreign("not a regular file".into()));
    }
    let mut header = [0u8; 100];
    let read = std::fs::File::open(path)
        .and_then(|mut file| file.read(&mut header))
        .map_err(|e| StoreError::Unreachable(format!("cannot read {shown}: {e}")))?;
    if read == 0 {
        return Ok(Found::Empty);
    }
    if read < 100 || &header[..16] != b"SQLite format 3\0" {
        return Ok(Found::Foreign("not an SQLite database".into()));
    }
    let id = i32::from_be_bytes([header[68], header[69], header[70], header[71]]);
    if id == APPLICATION_ID {
        return Ok(Found::Ours);
    }
    if id != 0 {
        return Ok(Found::Foreign(format!(
            "another program's SQLite database (application id {id:#x})"
        )));
    }
    let db = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| StoreError::Unreachable(format!("cannot open {shown}: {e}")))?;
    let tables: Vec<String> = db
        .prepare_cached("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut query| {
            query
                .query_map([], |row| row.get(0))?
                .collect::<rusqlite::Result<_>>()
        })
        .map_err(|e| StoreError::Unreachable(format!("cannot read {shown}: {e}")))?;
    // Written by an interview from before the application id.
    let ours = ["tokens", "questions", "steps", "audit"];
    Ok(match tables.is_empty() {
        true => Found::Empty,
        false if ours.iter().all(|t| tables.iter().any(|found| found == t)) => Found::Ours,
        false => Found::Foreign("another program's SQLite database".into()),
    })
}

impl Sqlite {
    /// Opens the database at `path` as `access` allows, once it is known to be a team inbox's:
    /// created (readable by this user only) for `Create` where there is none, or where the
    /// file is empty; read only, changing nothing, for `Read`.
    pub fn open(path: &Path, access: Access) -> Result<Sqlite, StoreError> {
        let shown = path.display();
        match (identify(path)?, access) {
            (Found::Ours, _) | (Found::Nothing | Found::Empty, Access::Create) => {}
            (Found::Nothing, _) => return Err(missing(&shown.to_string())),
            (Found::Empty, _) => {
                return Err(StoreError::Missing(format!(
                    "{shown} holds no team inbox yet: `interview inbox token add --db {shown} …` \
                     makes it one"
                )));
            }
            (Found::Foreign(what), _) => {
                return Err(StoreError::Foreign(format!(
                    "{shown} is {what}, not a team inbox's database: it is left as it was; give \
                     the inbox a file of its own"
                )));
            }
        }
        if access == Access::Read {
            return Sqlite::read_only(path);
        }
        let db = Connection::open(path).map_err(|e| {
            StoreError::Unreachable(format!(
                "cannot open the team inbox's database {shown}: {e}"
            ))
        })?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| StoreError::Unreachable(format!("cannot make {shown} private: {e}")))?;
        let layout: i64 = db
            .busy_timeout(Duration::from_secs(10))
            .and_then(|()| db.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|()| db.pragma_update(None, "synchronous", "FULL"))
            // An erased secret's bytes are overwritten, not left in a free page.
            .and_then(|()| db.pragma_update(None, "secure_delete", "ON"))
            .and_then(|()| db.pragma_query_value(None, "user_version", |row| row.get(0)))
            .map_err(|e| {
                StoreError::Unreachable(format!(
                    "cannot use the team inbox's database {shown}: {e}"
                ))
            })?;
        if layout > LAYOUT {
            return Err(StoreError::Layout(format!(
                "the team inbox's database {shown} was written by a newer interview (layout \
                 {layout}); use that version"
            )));
        }
        // Each layout from the one found, in one transaction: a database is at one layout.
        // A database at this layout is left alone (its DDL would wait on other servers' work);
        // an older one is brought up in one immediate transaction, its layout read again inside
        // it, so that two servers opening one file at once bring it up once.
        if layout < LAYOUT {
            let mut db = db;
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate);
            tx.and_then(|tx| {
                let layout: i64 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
                if layout < 1 {
                    tx.execute_batch(include_str!("sqlite.sql"))?;
                }
                if layout < 2 {
                    tx.execute_batch(include_str!("sqlite-2.sql"))?;
                }
                if layout < 3 {
                    tx.execute_batch(include_str!("sqlite-3.sql"))?;
                }
                tx.pragma_update(None, "user_version", LAYOUT)?;
                tx.pragma_update(None, "application_id", APPLICATION_ID)?;
                tx.commit()
            })
            .map_err(|e| {
                StoreError::Unreachable(format!(
                    "cannot use the team inbox's database {shown}: {e}"
                ))
            })?;
            return Ok(Sqlite::of(db, path));
        }
        Ok(Sqlite::of(db, path))
    }

    /// The store whose writing connection is `db`, on the file at `path`.
    fn of(db: Connection, path: &Path) -> Sqlite {
        db.set_prepared_statement_cache_capacity(MOST_PREPARED);
        Sqlite {
            writer: Mutex::new(Writer {
                db,
                open: None,
                next: 1,
                settled: 0,
                failed: HashMap::new(),
            }),
            committed: Condvar::new(),
            queued: AtomicUsize::new(0),
            readers: Readers::new(path),
        }
    }

    /// The database at `path`, known to be a team inbox's, for reading only: nothing is
    /// written to it, its layout included, which must be this version's.
    fn read_only(path: &Path) -> Result<Sqlite, StoreError> {
        let shown = path.display();
        let db = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| {
                StoreError::Unreachable(format!(
                    "cannot open the team inbox's database {shown}: {e}"
                ))
            })?;
        let layout: i64 = db
            .busy_timeout(Duration::from_secs(10))
            .and_then(|()| db.pragma_query_value(None, "user_version", |row| row.get(0)))
            .map_err(|e| {
                StoreError::Unreachable(format!(
                    "cannot read the team inbox's database {shown}: {e}"
                ))
            })?;
        if layout != LAYOUT {
            return Err(StoreError::Layout(format!(
                "the team inbox's database {shown} is at layout {layout}, and this version reads \
                 layout {LAYOUT}: `interview inbox serve` of this version brings it up (or use \
                 the version that wrote it)"
            )));
        }
        Ok(Sqlite::of(db, path))
    }

    /// A connection to read with: it sees what was committed.
    fn read(&self) -> Result<Reading<'_>, StoreError> {
        self.readers.take()
    }

    fn writer(&self) -> MutexGuard<'_, Writer> {
        self.writer.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `work` as one write, all of it or nothing, in an immediate transaction (the write
    /// lock taken at once, so that two servers never both read and then both write) shared
    /// with the writes around it (see [`Writer`]): its value once that transaction is
    /// committed, or why not.
    fn write<T>(
        &self,
        work: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        self.queued.fetch_add(1, Ordering::SeqCst);
        let mut writer = self.writer();
        self.queued.fetch_sub(1, Ordering::SeqCst);
        if writer.open.is_none() {
            writer
                .db
                .execute_batch("BEGIN IMMEDIATE")
                .map_err(db_error)?;
            let group = writer.next;
            writer.next += 1;
            writer.open = Some((group, 0));
        }
        let Some((group, writes)) = writer.open.as_mut() else {
            unreachable!("a group was opened above")
        };
        let group = *group;
        *writes += 1;
        // A savepoint, so that a write that fails (or panics) takes back only its own work.
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let savepoint = writer.db.savepoint()?;
            let value = work(&savepoint)?;
            savepoint.commit().map(|()| value)
        }));
        let value = match done {
            Ok(value) => value,
            // Its savepoint was taken back as it unwound; the others' work is committed, so
            // that no group is left open holding the file's write lock.
            Err(panic) => {
                if let Some((_, writes)) = writer.open.as_mut() {
                    *writes -= 1;
                }
                self.commit(&mut writer);
                drop(writer);
                std::panic::resume_unwind(panic);
            }
        };
        if let Err(e) = &value
            && writer.db.is_autocommit()
        {
            // Some failures (a full disk, an I/O error) take back the whole transaction, not
            // only the savepoint: the group has failed, all of it, and is settled so at once
            // (a write joining it would run outside any transaction).
            self.settle(&mut writer, Some(db_error(e)));
        }
        let full = writer
            .open
            .is_some_and(|(_, writes)| writes >= MOST_IN_A_GROUP);
        if full || self.queued.load(Ordering::SeqCst) == 0 {
            self.commit(&mut writer);
        }
        // Until the group holding this write is committed: by a writer that joined it after
        // this one, or by this one if none does in time.
        while writer.settled < group {
            let (waited, timeout) = (self.committed.wait_timeout(writer, COMMIT_LATE))
                .unwrap_or_else(|e| e.into_inner());
            writer = waited;
            if timeout.timed_out() && writer.open.is_some_and(|(open, _)| open == group) {
                self.commit(&mut writer);
            }
        }
        if let Some((why, untold)) = writer.failed.get_mut(&group) {
            let why = why.clone();
            *untold -= 1;
            if *untold == 0 {
                writer.failed.remove(&group);
            }
            return Err(why);
        }
        value.map_err(db_error)
    }

    /// Commits the open group (rolled back if its commit fails), and tells its writers.
    fn commit(&self, writer: &mut Writer) {
        if writer.open.is_none() {
            return;
        }
        let failed = writer.db.execute_batch("COMMIT").err().map(|e| {
            let _ = writer.db.execute_batch("ROLLBACK");
            db_error(e)
        });
        self.settle(writer, failed);
    }

    /// Ends the open group, as committed or as failed for the reason given, and tells its
    /// writers.
    fn settle(&self, writer: &mut Writer, failed: Option<StoreError>) {
        let Some((group, writes)) = writer.open.take() else {
            return;
        };
        if let Some(why) = failed {
            writer.failed.insert(group, (why, writes));
        }
        writer.settled = group;
        self.committed.notify_all();
    }
}

/// Statements through the connection's cache of prepared ones: each of the store's statements
/// is compiled once a connection, not at every call.
trait Cached {
    fn cached_execute(&self, sql: &str, params: impl rusqlite::Params) -> rusqlite::Result<usize>;
    fn cached_row<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        read: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T>;
}

impl Cached for Connection {
    fn cached_execute(&self, sql: &str, params: impl rusqlite::Params) -> rusqlite::Result<usize> {
        self.prepare_cached(sql)?.execute(params)
    }

    fn cached_row<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        read: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        self.prepare_cached(sql)?.query_row(params, read)
    }
}

/// The most statements a connection keeps prepared (the store's own are a few dozen).
const MOST_PREPARED: usize = 64;

/// A row of [`OPEN_STEPS`].
fn open_step(row: &rusqlite::Row<'_>) -> rusqlite::Result<OpenQuestion> {
    Ok(OpenQuestion {
        question: row.get(0)?,
        agent: row.get(1)?,
        from: raw_json(row.get(2)?),
        folder: row.get(3)?,
        to: row.get(4)?,
        asked_at: row.get(5)?,
        seq: row.get(6)?,
        kind: row.get(7)?,
        view: raw_json(row.get(8)?),
        again_of: row.get(9)?,
        resumed: row.get(10)?,
        earlier_ended_at: row.get(11)?,
        seen_at: row.get(12)?,
    })
}

fn db_error(error: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(format!("the team inbox's database: {error}"))
}

fn audit(
    tx: &Connection,
    event: &str,
    actor: &str,
    address: Option<&str>,
    at: Option<Posted>,
    detail: &Json,
) -> rusqlite::Result<()> {
    tx.cached_execute(
        "INSERT INTO audit (at, event, actor, address, question, seq, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            now_ms(),
            event,
            actor,
            address,
            at.map(|a| a.question),
            at.map(|a| a.seq),
            detail.to_string()
        ],
    )
    .map(drop)
}

/// Puts up `post`'s view as the next step of `question`, or finds the same view put up after
/// the asker's last step (a retry whose first try was kept, or an asker resuming): its step,
/// and any reply, is the one to wait on.
fn put_step(
    tx: &Connection,
    agent: &str,
    question: i64,
    post: &StepPost,
    address: &str,
) -> rusqlite::Result<Posted> {
    let view = post.view.to_string();
    let same: Option<i64> = tx
        .cached_row(
            "SELECT seq FROM steps WHERE question = ?1 AND seq > ?2 AND view = ?3
             ORDER BY seq LIMIT 1",
            params![question, post.after.unwrap_or(0), view],
            |row| row.get(0),
        )
        .optional()?;
    if let Some(seq) = same {
        return Ok(Posted { question, seq });
    }
    let seq: i64 = tx.cached_row(
        "SELECT coalesce(max(seq), 0) + 1 FROM steps WHERE question = ?1",
        params![question],
        |row| row.get(0),
    )?;
    tx.cached_execute(
        "INSERT INTO steps (question, seq, kind, view, asked_at, secret)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![question, seq, post.kind, view, now_ms(), post.secret],
    )?;
    let at = Posted { question, seq };
    audit(
        tx,
        "step",
        agent,
        Some(address),
        Some(at),
        &step_detail(post),
    )?;
    Ok(at)
}

/// Opens the question of `post`'s run, the first step of which it is: as another run of the
/// request when there was an earlier one, with what the person answered to that one played
/// back when it stopped without its answer within the retry window.
fn open_question(
    tx: &Connection,
    agent: &str,
    post: &StepPost,
    address: &str,
    now: i64,
) -> rusqlite::Result<i64> {
    let earlier: Option<Earlier> = tx
        .cached_row(EARLIER, params![agent, post.key], |row| {
            Ok(Earlier {
                question: row.get(0)?,
                not_taken: row.get(1)?,
                status: row.get(2)?,
                closed_at: row.get(3)?,
                patience: row.get(4)?,
            })
        })
        .optional()?;
    let (after_ms, escalate_to) = deadline_columns(post);
    let deadline_at = after_ms.map(|after| now.saturating_add(after));
    let again_of = (earlier.as_ref())
        .filter(|e| e.stopped())
        .map(|e| e.question);
    tx.cached_execute(
        "INSERT INTO questions (key, run, agent, asker, folder, addressed, asked_at, seen_at,
            deadline_at, patience, escalate_to, again_of)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9, ?10, ?11)",
        params![
            post.key,
            post.run,
            agent,
            post.from.to_string(),
            post.folder,
            post.to,
            now,
            deadline_at,
            after_ms,
            escalate_to,
            again_of,
        ],
    )?;
    let question = tx.last_insert_rowid();
    let at = Some(Posted { question, seq: 0 });
    audit(
        tx,
        "asked",
        agent,
        Some(address),
        at,
        &asked_detail(post, again_of),
    )?;
    if let Some(earlier) = earlier.filter(|e| e.resumable(now))
        && tx.cached_execute(TAKE_OVER, params![earlier.question, question])? == 1
    {
        let played = tx.cached_execute(PLAY_BACK, params![question, earlier.question, 0])?;
        if played > 0 {
            tx.cached_execute(RESUMED_FROM, params![question, earlier.question, true])?;
            let detail = json!({"from": earlier.question, "steps": played});
            audit(tx, "resumed", agent, Some(address), at, &detail)?;
        }
    }
    queue_notices(tx, question, "asked", post.to.as_deref(), now)?;
    Ok(question)
}

/// Hands what the person answered to `closed`, which just closed without its answer, to the
/// open question of a later run of the same request asked meanwhile (see `LATER_RUN`): its
/// first step is answered as `closed`'s was, and the rest played back after it, so that the
/// person goes on from where they were. The step answered, if any.
fn hand_on(tx: &Connection, actor: &str, closed: i64) -> rusqlite::Result<Option<Posted>> {
    let later: Option<i64> = tx
        .cached_row(LATER_RUN, params![closed], |row| row.get(0))
        .optional()?;
    let Some(later) = later else {
        return Ok(None);
    };
    if tx.cached_execute(ANSWER_FIRST, params![later, closed])? == 0
        || tx.cached_execute(TAKE_OVER, params![closed, later])? == 0
    {
        return Ok(None);
    }
    let played = tx.cached_execute(PLAY_BACK, params![later, closed, 1])?;
    tx.cached_execute(RESUMED_FROM, params![later, closed, true])?;
    let at = Posted {
        question: later,
        seq: 1,
    };
    let detail = json!({"from": closed, "steps": played + 1});
    audit(tx, "resumed", actor, None, Some(at), &detail)?;
    Ok(Some(at))
}

/// Queues a notice of `event` on each webhook of `to` (`None`: of the questions for anyone).
fn queue_notices(
    tx: &Connection,
    question: i64,
    event: &str,
    to: Option<&str>,
    now: i64,
) -> rusqlite::Result<()> {
    tx.cached_execute(
        "INSERT INTO notices (question, url, event, created_at, next_at)
         SELECT ?1, url, ?2, ?3, ?3 FROM hooks WHERE addressed IS ?4",
        params![question, event, now, to],
    )
    .map(drop)
}

impl Store for Sqlite {
    fn add_token(&self, hash: &str, holder: &Holder) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.cached_execute(
                "INSERT INTO tokens (name, kind, groups, hash, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    holder.name,
                    holder.kind.as_str(),
                    holder.groups.join(","),
                    hash,
                    now_ms()
                ],
            )?;
            audit(
                tx,
                "token-added",
                "admin",
                None,
                None,
                &token_detail(holder),
            )
        })
    }

    fn tokens(&self) -> Result<Vec<TokenEntry>, StoreError> {
        let db = self.read()?;
        let mut query = db
            .prepare_cached(
                "SELECT name, kind, groups, hash, created_at, revoked_at FROM tokens ORDER BY id",
            )
            .map_err(db_error)?;
        let rows = query
            .query_map([], |row| {
                Ok(TokenEntry {
                    holder: Holder {
                        name: row.get(0)?,
                        kind: Kind::parse(&row.get::<_, String>(1)?).unwrap_or(Kind::Agent),
                        groups: groups_of(&row.get::<_, String>(2)?),
                    },
                    hash_prefix: row.get::<_, String>(3)?.chars().take(8).collect(),
                    created_at: row.get(4)?,
                    revoked_at: row.get(5)?,
                })
            })
            .map_err(db_error)?;
        rows.collect::<rusqlite::Result<_>>().map_err(db_error)
    }

    fn revoke(&self, name: &str) -> Result<usize, StoreError> {
        self.write(|tx| {
            let count = tx.cached_execute(
                "UPDATE tokens SET revoked_at = ?2 WHERE name = ?1 AND revoked_at IS NULL",
                params![name, now_ms()],
            )?;
            if count > 0 {
                let detail = json!({"name": name, "tokens": count});
                audit(tx, "token-revoked", "admin", None, None, &detail)?;
            }
            Ok(count)
        })
    }

    fn holder(&self, hash: &str) -> Result<Option<Holder>, StoreError> {
        let db = self.read()?;
        db.cached_row(
            "SELECT name, kind, groups FROM tokens WHERE hash = ?1 AND revoked_at IS NULL",
            params![hash],
            |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                ))
            },
        )
        .optional()
        .map_err(db_error)
        .map(|row| {
            row.and_then(|(name, kind, groups)| {
                Some(Holder {
                    name,
                    kind: Kind::parse(&kind)?,
                    groups: groups_of(&groups),
                })
            })
        })
    }

    fn post_step(&self, agent: &str, post: &StepPost, address: &str) -> Result<Posted, StoreError> {
        self.write(|tx| {
            let now = now_ms();
            let open: Option<i64> = tx
                .cached_row(OPEN_RUN, params![agent, post.key, post.run], |row| {
                    row.get(0)
                })
                .optional()?;
            let question = match open {
                Some(id) => {
                    tx.cached_execute(
                        "UPDATE questions SET seen_at = ?2 WHERE id = ?1",
                        params![id, now],
                    )?;
                    if let Some(after) = post.after {
                        tx.cached_execute(ERASE_SECRETS, params![id, after])?;
                    }
                    id
                }
                None => open_question(tx, agent, post, address, now)?,
            };
            put_step(tx, agent, question, post, address)
        })
    }

    fn reply(&self, agent: &str, at: Posted) -> Result<ReplyState, StoreError> {
        let db = self.read()?;
        let state = db
            .cached_row(
                "SELECT s.reply, s.answered_by, q.expired_at IS NOT NULL, q.closed_at IS NOT NULL
                 FROM steps s JOIN questions q ON q.id = s.question
                 WHERE s.question = ?1 AND s.seq = ?2 AND q.agent = ?3",
                params![at.question, at.seq, agent],
                |row| {
                    let reply: Option<String> = row.get(0)?;
                    Ok(match reply {
                        Some(reply) => ReplyState::Replied {
                            reply: parse_json(&reply),
                            by: row.get::<_, Option<String>>(1)?.unwrap_or_default(),
                        },
                        None if row.get(2)? => ReplyState::Expired,
                        None if row.get(3)? => ReplyState::Withdrawn,
                        None => ReplyState::Waiting,
                    })
                },
            )
            .optional()
            .map_err(db_error)?;
        Ok(state.unwrap_or(ReplyState::Unknown))
    }

    fn seen(&self, questions: &[i64], now: i64) -> Result<(), StoreError> {
        let questions = serde_json::to_string(questions).map_err(db_error)?;
        self.write(|tx| {
            tx.cached_execute(
                "UPDATE questions SET seen_at = ?2
                 WHERE id IN (SELECT value FROM json_each(?1)) AND closed_at IS NULL",
                params![questions, now],
            )
            .map(drop)
        })
    }

    fn settled(&self, steps: &[Posted]) -> Result<Vec<Posted>, StoreError> {
        let steps: Vec<[i64; 2]> = steps.iter().map(|at| [at.question, at.seq]).collect();
        let steps = serde_json::to_string(&steps).map_err(db_error)?;
        let db = self.read()?;
        let mut statement = db
            .prepare_cached(
                "SELECT s.question, s.seq FROM json_each(?1) w
                 JOIN steps s ON s.question = w.value ->> 0 AND s.seq = w.value ->> 1
                 JOIN questions q ON q.id = s.question
                 WHERE s.reply IS NOT NULL OR q.expired_at IS NOT NULL
                    OR q.closed_at IS NOT NULL",
            )
            .map_err(db_error)?;
        let rows = statement
            .query_map(params![steps], |row| {
                Ok(Posted {
                    question: row.get(0)?,
                    seq: row.get(1)?,
                })
            })
            .map_err(db_error)?;
        rows.collect::<Result<_, _>>().map_err(db_error)
    }

    fn answer(
        &self,
        person: &Holder,
        at: Posted,
        reply: &Json,
        address: &str,
        fits: &dyn Fn(&str) -> bool,
    ) -> Result<Answered, StoreError> {
        self.write(|tx| {
            let question: Option<(Option<String>, Option<Closed>, i64)> = tx
                .cached_row(
                    "SELECT addressed, closed_at IS NOT NULL, expired_at IS NOT NULL, status,
                        (SELECT max(seq) FROM steps WHERE question = id)
                     FROM questions WHERE id = ?1",
                    params![at.question],
                    |row| {
                        let status: Option<String> = row.get(3)?;
                        let closed = Closed::of_row(row.get(1)?, row.get(2)?, status.as_deref());
                        Ok((row.get(0)?, closed, row.get(4)?))
                    },
                )
                .optional()?;
            let Some((to, closed, last)) = question else {
                return Ok(Answered::Unknown);
            };
            let ended = closed.is_some();
            if !person.may_answer(to.as_deref()) || at.seq > last || at.seq < 1 {
                return Ok(Answered::Unknown);
            }
            let current = !ended && at.seq == last;
            let step: Option<(String, bool)> = if current {
                tx.cached_row(STEP_KIND, params![at.question, at.seq], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })
                .optional()?
            } else {
                None
            };
            if let Some(refused) = unfit(step.as_ref(), fits) {
                return Ok(refused);
            }
            // The one write that decides: only the current step, unanswered, takes a reply.
            let taken = step.is_some()
                && tx.cached_execute(
                    TAKE_REPLY,
                    params![
                        at.question,
                        at.seq,
                        reply.to_string(),
                        person.name,
                        now_ms()
                    ],
                )? == 1;
            if let Some((_, secret)) = step
                && taken
            {
                let detail = reply_detail(reply, secret);
                audit(
                    tx,
                    "answered",
                    &person.name,
                    Some(address),
                    Some(at),
                    &detail,
                )?;
                return Ok(Answered::Accepted);
            }
            let first: (Option<String>, Option<i64>) = tx.cached_row(
                "SELECT answered_by, answered_at FROM steps WHERE question = ?1 AND seq = ?2",
                params![at.question, at.seq],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )?;
            Ok(match first {
                (Some(by), Some(at)) => Answered::Taken { by, at },
                _ => Answered::Gone(closed),
            })
        })
    }

    fn finish(
        &self,
        agent: &str,
        question: i64,
        status: &str,
        address: &str,
    ) -> Result<Option<Posted>, StoreError> {
        self.write(|tx| {
            let closed = tx.cached_execute(
                "UPDATE questions SET closed_at = ?3, status = ?4
                 WHERE id = ?1 AND agent = ?2 AND closed_at IS NULL",
                params![question, agent, now_ms(), status],
            )?;
            if closed == 0 {
                return Ok(None);
            }
            tx.cached_execute(ERASE_SECRETS, params![question, i64::MAX])?;
            let at = Posted { question, seq: 0 };
            let detail = json!({"status": status});
            audit(tx, "finished", agent, Some(address), Some(at), &detail)?;
            match Closed::of(Some(status)) {
                Closed::Finished => Ok(None),
                _ => hand_on(tx, agent, question),
            }
        })
    }

    fn open_questions(&self, person: &Holder) -> Result<Vec<OpenQuestion>, StoreError> {
        let db = self.read()?;
        let mut query = db
            .prepare_cached(&format!("{OPEN_STEPS} ORDER BY q.asked_at, q.id"))
            .map_err(db_error)?;
        let rows = query.query_map([], open_step).map_err(db_error)?;
        let all: Vec<OpenQuestion> = rows.collect::<rusqlite::Result<_>>().map_err(db_error)?;
        Ok(all
            .into_iter()
            .filter(|q| person.may_answer(q.to.as_deref()))
            .collect())
    }

    fn waiting_step(
        &self,
        person: &Holder,
        question: i64,
    ) -> Result<Option<OpenQuestion>, StoreError> {
        let db = self.read()?;
        db.cached_row(
            &format!("{OPEN_STEPS} AND q.id = ?1"),
            params![question],
            open_step,
        )
        .optional()
        .map(|open| open.filter(|q| person.may_answer(q.to.as_deref())))
        .map_err(db_error)
    }

    fn progress(&self, person: &Holder, question: i64) -> Result<Option<Progress>, StoreError> {
        let db = self.read()?;
        db.cached_row(
            "SELECT q.addressed, q.closed_at IS NOT NULL, q.expired_at IS NOT NULL, q.status,
                s.seq, s.reply IS NOT NULL
             FROM questions q JOIN steps s ON s.question = q.id
             WHERE q.id = ?1 ORDER BY s.seq DESC LIMIT 1",
            params![question],
            |row| {
                let to: Option<String> = row.get(0)?;
                let status: Option<String> = row.get(3)?;
                let progress = Progress {
                    closed: Closed::of_row(row.get(1)?, row.get(2)?, status.as_deref()),
                    seq: row.get(4)?,
                    answered: row.get(5)?,
                };
                Ok(person.may_answer(to.as_deref()).then_some(progress))
            },
        )
        .optional()
        .map(Option::flatten)
        .map_err(db_error)
    }

    fn audit(&self, since: i64) -> Result<Vec<AuditEntry>, StoreError> {
        let db = self.read()?;
        let mut query = db
            .prepare_cached(
                "SELECT at, event, actor, address, question, seq, detail FROM audit
                 WHERE at >= ?1 ORDER BY id",
            )
            .map_err(db_error)?;
        let rows = query
            .query_map(params![since], |row| {
                Ok(AuditEntry {
                    at: row.get(0)?,
                    event: row.get(1)?,
                    actor: row.get(2)?,
                    address: row.get(3)?,
                    question: row.get(4)?,
                    seq: row.get(5)?,
                    detail: parse_json(&row.get::<_, String>(6)?),
                })
            })
            .map_err(db_error)?;
        rows.collect::<rusqlite::Result<_>>().map_err(db_error)
    }

    fn sweep(&self, now: i64, silent_since: Option<i64>) -> Result<(), StoreError> {
        // Read first: most sweeps find nothing due, and take no write lock.
        let (due, silent): (bool, bool) = self
            .read()?
            .cached_row(
                &format!(
                    "SELECT EXISTS (SELECT 1 FROM questions WHERE {DUE}),
                        EXISTS (SELECT 1 FROM questions WHERE closed_at IS NULL AND seen_at < ?2)"
                ),
                params![now, silent_since.unwrap_or(i64::MIN)],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .map_err(db_error)?;
        if silent && let Some(since) = silent_since {
            self.write(|tx| {
                let gone = tx
                    .prepare_cached(WITHDRAW_SILENT)?
                    .query_map(params![now, since], |row| row.get::<_, i64>(0))?
                    .collect::<rusqlite::Result<Vec<i64>>>()?;
                for question in gone {
                    let at = Some(Posted { question, seq: 0 });
                    audit(tx, "withdrawn", "server", None, at, &silent_detail())?;
                    hand_on(tx, "server", question)?;
                }
                Ok(())
            })?;
        }
        if !due {
            return Ok(());
        }
        self.write(|tx| {
            let mut query = tx.prepare_cached(&format!(
                "SELECT id, addressed, escalate_to, escalated_at IS NULL, patience FROM questions
                 WHERE {DUE}"
            ))?;
            let due = query
                .query_map(params![now], |row| {
                    Ok(Due {
                        question: row.get(0)?,
                        to: row.get(1)?,
                        escalate_to: row.get(2)?,
                        not_escalated: row.get(3)?,
                        patience: row.get(4)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<Due>>>()?;
            for due in due {
                let at = Some(Posted {
                    question: due.question,
                    seq: 0,
                });
                match due.next() {
                    Some(next) => {
                        tx.cached_execute(
                            "UPDATE questions SET addressed = ?2, escalated_at = ?3,
                                deadline_at = ?4
                             WHERE id = ?1",
                            params![due.question, next, now, due.next_deadline(now)],
                        )?;
                        audit(tx, "escalated", "server", None, at, &due.escalated_detail())?;
                        queue_notices(tx, due.question, "escalated", Some(next), now)?;
                    }
                    None => {
                        tx.cached_execute(
                            "UPDATE questions SET expired_at = ?2, closed_at = ?2,
                                status = 'expired'
                             WHERE id = ?1",
                            params![due.question, now],
                        )?;
                        audit(tx, "expired", "server", None, at, &due.expired_detail())?;
                        hand_on(tx, "server", due.question)?;
                    }
                }
            }
            Ok(())
        })
    }

    fn purge(&self, before: i64) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.cached_execute(ERASE_CLOSED_SECRETS, [])?;
            for sql in PURGE {
                tx.cached_execute(sql, params![before])?;
            }
            Ok(())
        })
    }

    fn add_hook(&self, hook: &Hook) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.cached_execute(
                "INSERT INTO hooks (addressed, url, created_at) VALUES (?1, ?2, ?3)",
                params![hook.addressed, hook.url, hook.created_at],
            )?;
            audit(tx, "hook-added", "admin", None, None, &hook_detail(hook))
        })
    }

    fn hooks(&self) -> Result<Vec<Hook>, StoreError> {
        let db = self.read()?;
        let mut query = db
            .prepare_cached("SELECT addressed, url, created_at FROM hooks ORDER BY id")
            .map_err(db_error)?;
        let rows = query
            .query_map([], |row| {
                Ok(Hook {
                    addressed: row.get(0)?,
                    url: row.get(1)?,
                    created_at: row.get(2)?,
                })
            })
            .map_err(db_error)?;
        rows.collect::<rusqlite::Result<_>>().map_err(db_error)
    }

    fn remove_hook(&self, url: &str) -> Result<usize, StoreError> {
        self.write(|tx| {
            let count = tx.cached_execute("DELETE FROM hooks WHERE url = ?1", params![url])?;
            // A hook removed (its URL leaked, say) is told nothing more.
            tx.cached_execute(REMOVED_HOOK_NOTICES, params![url, now_ms()])?;
            if count > 0 {
                let detail = json!({"url": shown_url(url), "hooks": count});
                audit(tx, "hook-removed", "admin", None, None, &detail)?;
            }
            Ok(count)
        })
    }

    fn claim_notices(&self, now: i64, limit: i64) -> Result<Vec<Notice>, StoreError> {
        let due: bool = self
            .read()?
            .cached_row(
                "SELECT EXISTS (SELECT 1 FROM notices
                 WHERE sent_at IS NULL AND given_up_at IS NULL AND next_at <= ?1)",
                params![now],
                |row| row.get(0),
            )
            .map_err(db_error)?;
        if !due {
            return Ok(Vec::new());
        }
        self.write(|tx| {
            tx.cached_execute(STALE_NOTICES, params![now])?;
            let mut query = tx.prepare_cached(
                "SELECT n.id, n.url, n.event, n.tries, q.id, q.agent, q.folder, q.addressed,
                    (SELECT view FROM steps WHERE question = q.id ORDER BY seq DESC LIMIT 1)
                 FROM notices n JOIN questions q ON q.id = n.question
                 WHERE n.sent_at IS NULL AND n.given_up_at IS NULL AND n.next_at <= ?1
                 ORDER BY n.id LIMIT ?2",
            )?;
            let notices = query
                .query_map(params![now, limit], |row| {
                    Ok(Notice {
                        id: row.get(0)?,
                        url: row.get(1)?,
                        event: row.get(2)?,
                        tries: row.get(3)?,
                        question: row.get(4)?,
                        agent: row.get(5)?,
                        folder: row.get(6)?,
                        to: row.get(7)?,
                        view: row
                            .get::<_, Option<String>>(8)?
                            .map_or(Json::Null, |v| parse_json(&v)),
                    })
                })?
                .collect::<rusqlite::Result<Vec<Notice>>>()?;
            for notice in &notices {
                tx.cached_execute(
                    "UPDATE notices SET tries = tries + 1, next_at = ?2 WHERE id = ?1",
                    params![notice.id, now + NOTICE_LEASE],
                )?;
            }
            Ok(notices)
        })
    }

    fn notice_sent(
        &self,
        notice: &Notice,
        sent: Result<u16, NotifyError>,
    ) -> Result<(), StoreError> {
        self.write(|tx| {
            let (sql, at, event) = notice_fate(notice, &sent);
            let kept = tx.cached_execute(&sql, params![notice.id, at, notice.tries + 1])? == 1;
            if let (true, Some(event)) = (kept, event) {
                let question = Some(Posted {
                    question: notice.question,
                    seq: 0,
                });
                let detail = notice_detail(notice, &sent);
                audit(tx, event, "server", None, question, &detail)?;
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_at_once_are_committed_in_groups_each_its_own_and_on_disk_when_it_returns() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("team.sqlite3");
        let store = Sqlite::open(&path, Access::Create).unwrap();
        let (threads, each) = (16, 40);
        let kept = std::thread::scope(|scope| {
            let writers: Vec<_> = (0..threads)
                .map(|t| {
                    let (store, path) = (&store, &path);
                    scope.spawn(move || {
                        // Another process's view of the file: only what was committed.
                        let other = Connection::open(path).unwrap();
                        let mut kept = 0;
                        for n in 0..each {
                            let actor = format!("{t}-{n}");
                            let written = store.write(|db| {
                                audit(db, "test", &actor, None, None, &json!({}))?;
                                // Every fifth fails after writing: none of it may be kept.
                                match n % 5 {
                                    0 => Err(rusqlite::Error::QueryReturnedNoRows),
                                    _ => Ok(()),
                                }
                            });
                            let seen: i64 = other
                                .query_row(
                                    "SELECT count(*) FROM audit WHERE actor = ?1",
                                    [&actor],
                                    |row| row.get(0),
                                )
                                .unwrap();
                            assert_eq!(seen, i64::from(written.is_ok()), "{actor}: {written:?}");
                            kept += usize::from(written.is_ok());
                        }
                        kept
                    })
                })
                .collect();
            writers
                .into_iter()
                .map(|w| w.join().unwrap())
                .sum::<usize>()
        });
        assert_eq!(kept, threads * each * 4 / 5);
        let groups = store.writer().next - 1;
        // Writers that came together shared commits (each group is one flush to disk).
        assert!(groups < (threads * each) as u64, "{groups} groups");
        assert!(store.writer().open.is_none(), "a group was left open");
    }

    #[test]
    fn a_write_that_fails_or_panics_leaves_no_group_open_and_the_next_starts_anew() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("team.sqlite3");
        let store = Sqlite::open(&path, Access::Create).unwrap();
        let wrote =
            |actor: &str| store.write(|db| audit(db, "test", actor, None, None, &json!({})));
        wrote("first").unwrap();
        // A full disk, as SQLite sees it: the write fails (and may take back the whole
        // transaction, not only its savepoint).
        let pages: i64 = (store.writer().db)
            .query_row("PRAGMA page_count", [], |row| row.get(0))
            .unwrap();
        (store.writer().db)
            .pragma_update(None, "max_page_count", pages + 1)
            .unwrap();
        let big = "x".repeat(1 << 20);
        let full = store.write(|db| audit(db, "test", &big, None, None, &json!({})));
        assert!(full.is_err());
        (store.writer().db)
            .pragma_update(None, "max_page_count", 1 << 30)
            .unwrap();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            store.write(|db| -> rusqlite::Result<()> {
                audit(db, "test", "panicked", None, None, &json!({}))?;
                panic!("a write's own bug")
            })
        }));
        assert!(panicked.is_err());
        assert!(store.writer().open.is_none(), "a group was left open");
        wrote("after").unwrap();
        let other = Connection::open(&path).unwrap();
        let kept: Vec<String> = other
            .prepare("SELECT actor FROM audit WHERE event = 'test' ORDER BY id")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(kept, ["first", "after"]);
    }

    #[test]
    fn a_store_let_go_leaves_one_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("team.sqlite3");
        let store = Sqlite::open(&path, Access::Create).unwrap();
        store
            .write(|db| audit(db, "test", "kept", None, None, &json!({})))
            .unwrap();
        assert!(
            store.tokens().unwrap().is_empty(),
            "read on a reading connection"
        );
        drop(store);
        assert!(
            !dir.path().join("team.sqlite3-wal").exists(),
            "the WAL was left beside the file"
        );
        let copy = dir.path().join("copy.sqlite3");
        std::fs::copy(&path, &copy).unwrap();
        let count: i64 = Connection::open(&copy)
            .unwrap()
            .query_row(
                "SELECT count(*) FROM audit WHERE actor = 'kept'",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(count, 1, "a copy of the file alone lacks what was written");
    }

    #[test]
    fn what_was_answered_outlives_the_process_in_a_file_of_its_owners() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("team.sqlite3");
        let at = {
            let store = Sqlite::open(&path, Access::Create).unwrap();
            let at = store
                .post_step(
                    "ci",
                    &crate::team::store::tests::post("k", "Name?", None, None),
                    "a",
                )
                .unwrap();
            let ann = crate::team::store::tests::person("ann", &[]);
            store
                .answer(
                    &ann,
                    at,
                    &json!({"submitted": "Ada"}),
                    "b",
                    &crate::team::store::tests::any_kind,
                )
                .unwrap();
            at
        };
        let store = Sqlite::open(&path, Access::Write).unwrap();
        assert!(matches!(
            store.reply("ci", at).unwrap(),
            ReplyState::Replied { .. }
        ));
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn a_database_of_layout_1_is_brought_to_this_layout_and_its_open_questions_closed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("team.sqlite3");
        let old = Connection::open(&path).unwrap();
        old.execute_batch(include_str!("sqlite.sql")).unwrap();
        old.execute(
            "INSERT INTO questions (key, agent, asker, asked_at) VALUES ('k', 'ci', '{}', 1)",
            [],
        )
        .unwrap();
        old.pragma_update(None, "user_version", 1).unwrap();
        drop(old);
        let store = Sqlite::open(&path, Access::Write).unwrap();
        // The question layout 1 left open for a later run is closed: this run's is new.
        let post = crate::team::store::tests::post("k", "Name?", None, None);
        let at = store.post_step("ci", &post, "a").unwrap();
        assert_eq!(
            at,
            Posted {
                question: 2,
                seq: 1
            }
        );
        let ann = crate::team::store::tests::person("ann", &[]);
        assert_eq!(store.open_questions(&ann).unwrap()[0].again_of, Some(1));
        store.sweep(now_ms(), None).unwrap();
        assert!(store.hooks().unwrap().is_empty());
        drop(store);
        // Opened again at its layout: nothing to do, and nothing lost.
        let store = Sqlite::open(&path, Access::Write).unwrap();
        assert_eq!(store.reply("ci", at).unwrap(), ReplyState::Waiting);
    }

    #[test]
    fn a_database_of_a_newer_layout_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("team.sqlite3");
        Connection::open(&path)
            .unwrap()
            .pragma_update(None, "user_version", 9)
            .unwrap();
        let error = Sqlite::open(&path, Access::Create).err().unwrap();
        assert!(matches!(error, StoreError::Layout(_)), "{error:?}");
        assert!(
            error.to_string().contains("newer interview (layout 9)"),
            "{error}"
        );
    }
}
