//! The team inbox in PostgreSQL (`--db postgres://…`): the store for several servers.
//!
//! Each call takes a connection from a small pool and does its work in one transaction. What
//! two servers could race on is decided by the database: a question's row is locked
//! (`FOR UPDATE`) while a step is put up or answered, so an answer is kept exactly once and
//! steps are numbered without gaps; an open question is unique per agent and key (a partial
//! unique index), so two servers creating it at once make one.

use std::collections::HashMap;

use ::postgres::types::ToSql;
use ::postgres::{Client, GenericClient, NoTls, Row, Statement, Transaction};
use serde_json::{Value as Json, json};

use super::pgenv;
use super::pool::Pool;
use super::*;

/// The layout this version writes; a newer one is refused, not guessed at.
const LAYOUT: i32 = 3;
/// Serialises the layout's creation among servers starting at once (an advisory lock's key).
const MIGRATING: i64 = 0x696e_7465_7276_6965;
/// The channel on which each answered step is told of, as `question:seq` (see
/// [`Store::tell_answered`]).
const ANSWERED: &str = "interview_answered";
/// How long a lost listening connection waits before it connects again.
const LISTEN_AGAIN: std::time::Duration = std::time::Duration::from_secs(1);
/// Connections open at once, at most: the server's blocking threads (hundreds, under many
/// waiting askers) take turns on them rather than exhaust the database's connections.
const CONNECTIONS: usize = 24;

/// The store in a PostgreSQL database.
pub struct Postgres {
    config: ::postgres::Config,
    pool: Pool<Conn>,
}

/// A pooled connection, and the statements prepared on it by their text: each statement is
/// parsed once a connection, and a call is then one round trip to the database, not two.
struct Conn {
    client: Client,
    prepared: HashMap<String, Statement>,
}

/// The most statements a connection keeps prepared (the store's own are a few dozen).
const MOST_PREPARED: usize = 128;

/// A transaction, or a connection outside one, that prepares each statement once (see
/// [`Conn`]).
struct Db<'a, C> {
    db: &'a mut C,
    prepared: &'a mut HashMap<String, Statement>,
}

/// The work of one store call, in a transaction.
type Tx<'a, 't> = Db<'a, Transaction<'t>>;

type Params<'p> = &'p [&'p (dyn ToSql + Sync)];

impl<C: GenericClient> Db<'_, C> {
    fn statement(&mut self, sql: &str) -> Result<Statement, ::postgres::Error> {
        if let Some(statement) = self.prepared.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.db.prepare(sql)?;
        if self.prepared.len() >= MOST_PREPARED {
            self.prepared.clear();
        }
        self.prepared.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }

    fn execute(&mut self, sql: &str, params: Params<'_>) -> Result<u64, ::postgres::Error> {
        let statement = self.statement(sql)?;
        self.db.execute(&statement, params)
    }

    fn query(&mut self, sql: &str, params: Params<'_>) -> Result<Vec<Row>, ::postgres::Error> {
        let statement = self.statement(sql)?;
        self.db.query(&statement, params)
    }

    fn query_one(&mut self, sql: &str, params: Params<'_>) -> Result<Row, ::postgres::Error> {
        let statement = self.statement(sql)?;
        self.db.query_one(&statement, params)
    }

    fn query_opt(
        &mut self,
        sql: &str,
        params: Params<'_>,
    ) -> Result<Option<Row>, ::postgres::Error> {
        let statement = self.statement(sql)?;
        self.db.query_opt(&statement, params)
    }
}

/// SQL shared with the SQLite store, in PostgreSQL's placeholders (`?1` is `$1`).
fn pg(sql: &str) -> String {
    sql.replace('?', "$")
}

/// A row of [`OPEN_STEPS`].
fn open_step(row: &Row) -> OpenQuestion {
    OpenQuestion {
        question: row.get(0),
        agent: row.get(1),
        from: raw_json(row.get(2)),
        folder: row.get(3),
        to: row.get(4),
        asked_at: row.get(5),
        seq: row.get(6),
        kind: row.get(7),
        view: raw_json(row.get(8)),
        again_of: row.get(9),
        resumed: row.get(10),
        earlier_ended_at: row.get(11),
        seen_at: row.get(12),
    }
}

fn db_error(error: ::postgres::Error) -> StoreError {
    // The error's own text is "db error" for what the server refused: its message says why.
    StoreError::Failed(match error.as_db_error() {
        Some(refused) => format!(
            "the team inbox's database (PostgreSQL): {}: {}",
            refused.code().code(),
            refused.message()
        ),
        None => format!("the team inbox's database (PostgreSQL): {error}"),
    })
}

impl Postgres {
    /// Connects to `url` (completed as libpq would from the environment, see [`pgenv`]) and,
    /// as `access` allows, creates the tables in an empty database or brings a team inbox's
    /// up to this layout. A database with tables of another program's is left as it was.
    pub fn open(url: &str, access: Access) -> Result<Postgres, StoreError> {
        let store = Postgres {
            config: pgenv::config(url, &|name| std::env::var(name).ok())
                .map_err(|e| StoreError::Unreachable(e.to_string()))?,
            pool: Pool::new(CONNECTIONS),
        };
        let mut client = store.take()?;
        let mut tx = client.client.transaction().map_err(db_error)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATING])
            .map_err(db_error)?;
        // Read before anything is written: a database at this layout is left alone. Its DDL
        // would lock the tables that another server, running, is using: a server restarted
        // mid-run that took the questions' table lock to create an index already there made
        // that server's answers wait behind it, and one of them fail as a deadlock.
        let layout: Option<i32> = tx
            .query_one("SELECT to_regclass('interview_layout') IS NOT NULL", &[])
            .map_err(db_error)?
            .get::<_, bool>(0)
            .then(|| tx.query_one("SELECT max(layout) FROM interview_layout", &[]))
            .transpose()
            .map_err(db_error)?
            .and_then(|row| row.get(0));
        if layout.is_none() {
            // Not a team inbox's: only an empty database is made one, and only on purpose.
            let tables: i64 = tx
                .query_one(
                    "SELECT count(*) FROM information_schema.tables
                     WHERE table_schema = current_schema()",
                    &[],
                )
                .map_err(db_error)?
                .get(0);
            if tables > 0 {
                return Err(StoreError::Foreign(
                    "that PostgreSQL database holds another program's tables, not a team \
                     inbox's: it is left as it was; give the inbox a database of its own"
                        .into(),
                ));
            }
            if access != Access::Create {
                return Err(missing("that PostgreSQL database"));
            }
        }
        match layout {
            Some(layout) if layout != LAYOUT && access == Access::Read => {
                return Err(StoreError::Layout(format!(
                    "the team inbox's database is at layout {layout}, and this version reads \
                     layout {LAYOUT}: `interview inbox serve` of this version brings it up (or \
                     use the version that wrote it)"
                )));
            }
            Some(layout) if layout > LAYOUT => {
                return Err(StoreError::Layout(format!(
                    "the team inbox's database was written by a newer interview (layout \
                     {layout}); use that version"
                )));
            }
            Some(LAYOUT) => {}
            found => {
                // Each layout from the one found.
                let layouts = [
                    include_str!("postgres.sql"),
                    include_str!("postgres-2.sql"),
                    include_str!("postgres-3.sql"),
                ];
                let from = found.unwrap_or(0) as usize;
                for layout in &layouts[from..] {
                    tx.batch_execute(layout).map_err(db_error)?;
                }
                tx.batch_execute("DELETE FROM interview_layout")
                    .map_err(db_error)?;
                tx.execute("INSERT INTO interview_layout VALUES ($1)", &[&LAYOUT])
                    .map_err(db_error)?;
            }
        }
        tx.commit().map_err(db_error)?;
        store.put_back(client, false);
        Ok(store)
    }

    fn connect(&self) -> Result<Client, StoreError> {
        self.config.connect(NoTls).map_err(|e| {
            // The URL may hold a password: it is not repeated.
            StoreError::Unreachable(format!(
                "cannot connect to the team inbox's PostgreSQL database: {e}"
            ))
        })
    }

    /// A connection: an idle one, a new one while fewer than [`CONNECTIONS`] are open, else
    /// the next one put back.
    fn take(&self) -> Result<Conn, StoreError> {
        self.pool.take(|| {
            self.connect().map(|client| Conn {
                client,
                prepared: HashMap::new(),
            })
        })
    }

    /// Gives `conn` back to the pool; a closed one (the database restarted) is let go. After a
    /// failure its prepared statements are let go too: one may be what failed (a table
    /// changed under it).
    fn put_back(&self, mut conn: Conn, failed: bool) {
        if failed {
            conn.prepared.clear();
        }
        if conn.client.is_closed() {
            self.pool.let_go();
        } else {
            self.pool.put_back(conn);
        }
    }

    /// Runs `work` in a transaction on a pooled connection, committed when it succeeds.
    fn run<T>(
        &self,
        work: impl FnOnce(&mut Tx<'_, '_>) -> Result<T, ::postgres::Error>,
    ) -> Result<T, StoreError> {
        let mut conn = self.take()?;
        let Conn { client, prepared } = &mut conn;
        let result = (|| {
            let mut tx = client.transaction()?;
            let value = work(&mut Db {
                db: &mut tx,
                prepared,
            })?;
            tx.commit()?;
            Ok(value)
        })();
        self.put_back(conn, result.is_err());
        result.map_err(db_error)
    }

    /// Runs `work`, one statement that only reads, on a pooled connection outside any
    /// transaction (which would cost two round trips more).
    fn read<T>(
        &self,
        work: impl FnOnce(&mut Db<'_, Client>) -> Result<T, ::postgres::Error>,
    ) -> Result<T, StoreError> {
        let mut conn = self.take()?;
        let Conn { client, prepared } = &mut conn;
        let result = work(&mut Db {
            db: client,
            prepared,
        });
        self.put_back(conn, result.is_err());
        result.map_err(db_error)
    }
}

/// Tells `answered` of every step the database says was answered ([`ANSWERED`]), on a
/// connection of its own, connecting again whenever it is lost; for the process's life.
fn listen(config: &::postgres::Config, answered: &dyn Fn(Posted)) {
    use ::postgres::fallible_iterator::FallibleIterator;
    loop {
        if let Ok(mut client) = config.connect(NoTls)
            && client.batch_execute(&format!("LISTEN {ANSWERED}")).is_ok()
        {
            let mut notifications = client.notifications();
            let mut news = notifications.blocking_iter();
            // None or an error: the connection is lost.
            while let Ok(Some(notification)) = news.next() {
                let step = notification.payload().split_once(':');
                let step = step.and_then(|(q, s)| Some((q.parse().ok()?, s.parse().ok()?)));
                if let Some((question, seq)) = step {
                    answered(Posted { question, seq });
                }
            }
        }
        std::thread::sleep(LISTEN_AGAIN);
    }
}

fn audit(
    tx: &mut Tx<'_, '_>,
    event: &str,
    actor: &str,
    address: Option<&str>,
    at: Option<Posted>,
    detail: &Json,
) -> Result<(), ::postgres::Error> {
    tx.execute(
        "INSERT INTO audit (at, event, actor, address, question, seq, detail)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        &[
            &now_ms(),
            &event,
            &actor,
            &address,
            &at.map(|a| a.question),
            &at.map(|a| a.seq),
            &detail.to_string(),
        ],
    )
    .map(drop)
}

/// Puts up `post`'s view as the next step of `question` (whose row the caller has locked), or
/// finds the same view put up after the asker's last step (a retry whose first try was kept,
/// or an asker resuming): its step, and any reply, is the one to wait on.
fn put_step(
    tx: &mut Tx<'_, '_>,
    agent: &str,
    question: i64,
    post: &StepPost,
    address: &str,
) -> Result<Posted, ::postgres::Error> {
    let view = post.view.to_string();
    let same = tx.query_opt(
        "SELECT seq FROM steps WHERE question = $1 AND seq > $2 AND view = $3
         ORDER BY seq LIMIT 1",
        &[&question, &post.after.unwrap_or(0), &view],
    )?;
    if let Some(row) = same {
        return Ok(Posted {
            question,
            seq: row.get(0),
        });
    }
    let seq: i64 = tx
        .query_one(
            "SELECT coalesce(max(seq), 0) + 1 FROM steps WHERE question = $1",
            &[&question],
        )?
        .get(0);
    tx.execute(
        "INSERT INTO steps (question, seq, kind, view, asked_at, secret)
         VALUES ($1, $2, $3, $4, $5, $6)",
        &[&question, &seq, &post.kind, &view, &now_ms(), &post.secret],
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

/// Opens the question of `post`'s run, the first step of which it is (see the SQLite store's
/// `open_question`); `None` when another server opened it at the same moment.
fn open_question(
    tx: &mut Tx<'_, '_>,
    agent: &str,
    post: &StepPost,
    address: &str,
    now: i64,
) -> Result<Option<i64>, ::postgres::Error> {
    let earlier = tx
        .query_opt(&pg(EARLIER), &[&agent, &post.key])?
        .map(|row| Earlier {
            question: row.get(0),
            not_taken: row.get(1),
            status: row.get(2),
            closed_at: row.get(3),
            patience: row.get(4),
        });
    let (after_ms, escalate_to) = deadline_columns(post);
    let deadline_at = after_ms.map(|after| now.saturating_add(after));
    let again_of = (earlier.as_ref())
        .filter(|e| e.stopped())
        .map(|e| e.question);
    let created = tx.query_opt(
        "INSERT INTO questions (key, run, agent, asker, folder, addressed, asked_at, seen_at,
            deadline_at, patience, escalate_to, again_of)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10, $11)
         ON CONFLICT (agent, key, run) WHERE closed_at IS NULL DO NOTHING
         RETURNING id",
        &[
            &post.key,
            &post.run,
            &agent,
            &post.from.to_string(),
            &post.folder,
            &post.to,
            &now,
            &deadline_at,
            &after_ms,
            &escalate_to,
            &again_of,
        ],
    )?;
    let Some(question) = created.map(|row| row.get::<_, i64>(0)) else {
        return Ok(None);
    };
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
        && tx.execute(&pg(TAKE_OVER), &[&earlier.question, &question])? == 1
    {
        let played = tx.execute(&pg(PLAY_BACK), &[&question, &earlier.question, &0_i64])?;
        if played > 0 {
            tx.execute(&pg(RESUMED_FROM), &[&question, &earlier.question, &true])?;
            let detail = json!({"from": earlier.question, "steps": played});
            audit(tx, "resumed", agent, Some(address), at, &detail)?;
        }
    }
    queue_notices(tx, question, "asked", post.to.as_deref(), now)?;
    Ok(Some(question))
}

/// Hands what the person answered to `closed` on to a later run's open question (see the
/// SQLite store's `hand_on`); the step answered, of which every server listening is told.
fn hand_on(
    tx: &mut Tx<'_, '_>,
    actor: &str,
    closed: i64,
) -> Result<Option<Posted>, ::postgres::Error> {
    let Some(later) = tx.query_opt(&pg(LATER_RUN), &[&closed])? else {
        return Ok(None);
    };
    let later: i64 = later.get(0);
    if tx.execute(&pg(ANSWER_FIRST), &[&later, &closed])? == 0
        || tx.execute(&pg(TAKE_OVER), &[&closed, &later])? == 0
    {
        return Ok(None);
    }
    let played = tx.execute(&pg(PLAY_BACK), &[&later, &closed, &1_i64])?;
    tx.execute(&pg(RESUMED_FROM), &[&later, &closed, &true])?;
    let at = Posted {
        question: later,
        seq: 1,
    };
    let detail = json!({"from": closed, "steps": played + 1});
    audit(tx, "resumed", actor, None, Some(at), &detail)?;
    let news = format!("{later}:1");
    tx.execute("SELECT pg_notify($1, $2)", &[&ANSWERED, &news])?;
    Ok(Some(at))
}

/// Queues a notice of `event` on each webhook of `to` (`None`: of the questions for anyone).
fn queue_notices(
    tx: &mut Tx<'_, '_>,
    question: i64,
    event: &str,
    to: Option<&str>,
    now: i64,
) -> Result<(), ::postgres::Error> {
    tx.execute(
        "INSERT INTO notices (question, url, event, created_at, next_at)
         SELECT $1, url, $2, $3, $3 FROM hooks WHERE addressed IS NOT DISTINCT FROM $4",
        &[&question, &event, &now, &to],
    )
    .map(drop)
}

impl Store for Postgres {
    fn add_token(&self, hash: &str, holder: &Holder) -> Result<(), StoreError> {
        self.run(|tx| {
            tx.execute(
                "INSERT INTO tokens (name, kind, groups, hash, created_at)
                 VALUES ($1, $2, $3, $4, $5)",
                &[
                    &holder.name,
                    &holder.kind.as_str(),
                    &holder.groups.join(","),
                    &hash,
                    &now_ms(),
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
        self.read(|tx| {
            let rows = tx.query(
                "SELECT name, kind, groups, hash, created_at, revoked_at FROM tokens ORDER BY id",
                &[],
            )?;
            Ok(rows
                .iter()
                .map(|row| TokenEntry {
                    holder: Holder {
                        name: row.get(0),
                        kind: Kind::parse(row.get(1)).unwrap_or(Kind::Agent),
                        groups: groups_of(row.get(2)),
                    },
                    hash_prefix: row.get::<_, &str>(3).chars().take(8).collect(),
                    created_at: row.get(4),
                    revoked_at: row.get(5),
                })
                .collect())
        })
    }

    fn revoke(&self, name: &str) -> Result<usize, StoreError> {
        self.run(|tx| {
            let count = tx.execute(
                "UPDATE tokens SET revoked_at = $2 WHERE name = $1 AND revoked_at IS NULL",
                &[&name, &now_ms()],
            )?;
            if count > 0 {
                let detail = json!({"name": name, "tokens": count});
                audit(tx, "token-revoked", "admin", None, None, &detail)?;
            }
            Ok(usize::try_from(count).unwrap_or(usize::MAX))
        })
    }

    fn holder(&self, hash: &str) -> Result<Option<Holder>, StoreError> {
        self.read(|tx| {
            let row = tx.query_opt(
                "SELECT name, kind, groups FROM tokens WHERE hash = $1 AND revoked_at IS NULL",
                &[&hash],
            )?;
            Ok(row.and_then(|row| {
                Some(Holder {
                    name: row.get(0),
                    kind: Kind::parse(row.get(1))?,
                    groups: groups_of(row.get(2)),
                })
            }))
        })
    }

    fn post_step(&self, agent: &str, post: &StepPost, address: &str) -> Result<Posted, StoreError> {
        self.run(|tx| {
            let now = now_ms();
            // Locked until the step is in: two posts of one question are numbered in turn.
            let locked = format!("{} FOR UPDATE", pg(OPEN_RUN));
            let open = tx.query_opt(&locked, &[&agent, &post.key, &post.run])?;
            let question = match open {
                Some(row) => {
                    let id: i64 = row.get(0);
                    tx.execute(
                        "UPDATE questions SET seen_at = $2 WHERE id = $1",
                        &[&id, &now],
                    )?;
                    if let Some(after) = post.after {
                        tx.execute(&pg(ERASE_SECRETS), &[&id, &after])?;
                    }
                    id
                }
                None => match open_question(tx, agent, post, address, now)? {
                    Some(id) => id,
                    // Another server opened it at the same moment: that one it is.
                    None => tx
                        .query_one(&locked, &[&agent, &post.key, &post.run])?
                        .get(0),
                },
            };
            put_step(tx, agent, question, post, address)
        })
    }

    fn reply(&self, agent: &str, at: Posted) -> Result<ReplyState, StoreError> {
        self.read(|tx| {
            let row = tx.query_opt(
                "SELECT s.reply, s.answered_by, q.expired_at IS NOT NULL, q.closed_at IS NOT NULL
                 FROM steps s JOIN questions q ON q.id = s.question
                 WHERE s.question = $1 AND s.seq = $2 AND q.agent = $3",
                &[&at.question, &at.seq, &agent],
            )?;
            Ok(match row {
                None => ReplyState::Unknown,
                Some(row) => match row.get::<_, Option<&str>>(0) {
                    Some(reply) => ReplyState::Replied {
                        reply: parse_json(reply),
                        by: row.get::<_, Option<String>>(1).unwrap_or_default(),
                    },
                    None if row.get::<_, bool>(2) => ReplyState::Expired,
                    None if row.get::<_, bool>(3) => ReplyState::Withdrawn,
                    None => ReplyState::Waiting,
                },
            })
        })
    }

    fn seen(&self, questions: &[i64], now: i64) -> Result<(), StoreError> {
        self.run(|tx| {
            tx.execute(
                "UPDATE questions SET seen_at = $2
                 WHERE id = ANY($1) AND closed_at IS NULL",
                &[&questions, &now],
            )
            .map(drop)
        })
    }

    fn tell_answered(&self, answered: Box<dyn Fn(Posted) + Send>) -> bool {
        let config = self.config.clone();
        let listening = std::thread::Builder::new().name("interview-listen".into());
        (listening.spawn(move || listen(&config, &*answered))).is_ok()
    }

    fn settled(&self, steps: &[Posted]) -> Result<Vec<Posted>, StoreError> {
        let questions: Vec<i64> = steps.iter().map(|at| at.question).collect();
        let seqs: Vec<i64> = steps.iter().map(|at| at.seq).collect();
        self.read(|tx| {
            let rows = tx.query(
                "SELECT s.question, s.seq FROM unnest($1::bigint[], $2::bigint[]) AS w(question, seq)
                 JOIN steps s ON s.question = w.question AND s.seq = w.seq
                 JOIN questions q ON q.id = s.question
                 WHERE s.reply IS NOT NULL OR q.expired_at IS NOT NULL
                    OR q.closed_at IS NOT NULL",
                &[&questions, &seqs],
            )?;
            Ok(rows
                .iter()
                .map(|row| Posted {
                    question: row.get(0),
                    seq: row.get(1),
                })
                .collect())
        })
    }

    fn answer(
        &self,
        person: &Holder,
        at: Posted,
        reply: &Json,
        address: &str,
        fits: &dyn Fn(&str) -> bool,
    ) -> Result<Answered, StoreError> {
        self.run(|tx| {
            // The question's row locked: this answer, the asker's next step and another
            // server's answer to the same step take their turns.
            let question = tx.query_opt(
                "SELECT addressed, closed_at IS NOT NULL, expired_at IS NOT NULL, status
                 FROM questions WHERE id = $1 FOR UPDATE",
                &[&at.question],
            )?;
            let Some(question) = question else {
                return Ok(Answered::Unknown);
            };
            let to: Option<String> = question.get(0);
            let closed = Closed::of_row(question.get(1), question.get(2), question.get(3));
            let ended = closed.is_some();
            let last: Option<i64> = tx
                .query_one(
                    "SELECT max(seq) FROM steps WHERE question = $1",
                    &[&at.question],
                )?
                .get(0);
            let last = last.unwrap_or(0);
            if !person.may_answer(to.as_deref()) || at.seq > last || at.seq < 1 {
                return Ok(Answered::Unknown);
            }
            let current = !ended && at.seq == last;
            let step: Option<(String, bool)> = if current {
                let row = tx.query_opt(&pg(STEP_KIND), &[&at.question, &at.seq])?;
                row.map(|row| (row.get(0), row.get(1)))
            } else {
                None
            };
            if let Some(refused) = unfit(step.as_ref(), fits) {
                return Ok(refused);
            }
            // The one write that decides: only the current step, unanswered, takes a reply.
            let taken = step.is_some()
                && tx.execute(
                    &pg(TAKE_REPLY),
                    &[
                        &at.question,
                        &at.seq,
                        &reply.to_string(),
                        &person.name,
                        &now_ms(),
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
                // Sent when the answer is committed, to every server listening.
                let news = format!("{}:{}", at.question, at.seq);
                tx.execute("SELECT pg_notify($1, $2)", &[&ANSWERED, &news])?;
                return Ok(Answered::Accepted);
            }
            let first = tx.query_one(
                "SELECT answered_by, answered_at FROM steps WHERE question = $1 AND seq = $2",
                &[&at.question, &at.seq],
            )?;
            Ok(match (first.get(0), first.get(1)) {
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
        self.run(|tx| {
            let closed = tx.execute(
                "UPDATE questions SET closed_at = $3, status = $4
                 WHERE id = $1 AND agent = $2 AND closed_at IS NULL",
                &[&question, &agent, &now_ms(), &status],
            )?;
            if closed == 0 {
                return Ok(None);
            }
            tx.execute(&pg(ERASE_SECRETS), &[&question, &i64::MAX])?;
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
        let rows =
            self.read(|tx| tx.query(&format!("{OPEN_STEPS} ORDER BY q.asked_at, q.id"), &[]))?;
        Ok(rows
            .iter()
            .map(open_step)
            .filter(|q| person.may_answer(q.to.as_deref()))
            .collect())
    }

    fn waiting_step(
        &self,
        person: &Holder,
        question: i64,
    ) -> Result<Option<OpenQuestion>, StoreError> {
        let sql = pg(&format!("{OPEN_STEPS} AND q.id = ?1"));
        let row = self.read(|tx| tx.query_opt(&sql, &[&question]))?;
        Ok(row
            .as_ref()
            .map(open_step)
            .filter(|q| person.may_answer(q.to.as_deref())))
    }

    fn progress(&self, person: &Holder, question: i64) -> Result<Option<Progress>, StoreError> {
        let row = self.read(|tx| {
            tx.query_opt(
                "SELECT q.addressed, q.closed_at IS NOT NULL, q.expired_at IS NOT NULL, q.status,
                    s.seq, s.reply IS NOT NULL
                 FROM questions q JOIN steps s ON s.question = q.id
                 WHERE q.id = $1 ORDER BY s.seq DESC LIMIT 1",
                &[&question],
            )
        })?;
        Ok(row
            .filter(|row| person.may_answer(row.get::<_, Option<&str>>(0)))
            .map(|row| Progress {
                closed: Closed::of_row(row.get(1), row.get(2), row.get(3)),
                seq: row.get(4),
                answered: row.get(5),
            }))
    }

    fn audit(&self, since: i64) -> Result<Vec<AuditEntry>, StoreError> {
        let rows = self.read(|tx| {
            tx.query(
                "SELECT at, event, actor, address, question, seq, detail FROM audit
                 WHERE at >= $1 ORDER BY id",
                &[&since],
            )
        })?;
        Ok(rows
            .iter()
            .map(|row| AuditEntry {
                at: row.get(0),
                event: row.get(1),
                actor: row.get(2),
                address: row.get(3),
                question: row.get(4),
                seq: row.get(5),
                detail: parse_json(row.get(6)),
            })
            .collect())
    }

    fn sweep(&self, now: i64, silent_since: Option<i64>) -> Result<(), StoreError> {
        self.run(|tx| {
            if let Some(since) = silent_since {
                for row in tx.query(&pg(WITHDRAW_SILENT), &[&now, &since])? {
                    let at = Some(Posted {
                        question: row.get(0),
                        seq: 0,
                    });
                    audit(tx, "withdrawn", "server", None, at, &silent_detail())?;
                    hand_on(tx, "server", row.get(0))?;
                }
            }
            // Rows another server is sweeping are skipped: it escalates or expires them.
            let rows = tx.query(
                &pg(&format!(
                    "SELECT id, addressed, escalate_to, escalated_at IS NULL, patience
                     FROM questions WHERE {DUE} FOR UPDATE SKIP LOCKED"
                )),
                &[&now],
            )?;
            for row in rows {
                let due = Due {
                    question: row.get(0),
                    to: row.get(1),
                    escalate_to: row.get(2),
                    not_escalated: row.get(3),
                    patience: row.get(4),
                };
                let at = Some(Posted {
                    question: due.question,
                    seq: 0,
                });
                match due.next() {
                    Some(next) => {
                        tx.execute(
                            "UPDATE questions SET addressed = $2, escalated_at = $3,
                                deadline_at = $4
                             WHERE id = $1",
                            &[&due.question, &next, &now, &due.next_deadline(now)],
                        )?;
                        audit(tx, "escalated", "server", None, at, &due.escalated_detail())?;
                        queue_notices(tx, due.question, "escalated", Some(next), now)?;
                    }
                    None => {
                        tx.execute(
                            "UPDATE questions SET expired_at = $2, closed_at = $2,
                                status = 'expired'
                             WHERE id = $1",
                            &[&due.question, &now],
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
        self.run(|tx| {
            tx.execute(ERASE_CLOSED_SECRETS, &[])?;
            for sql in PURGE {
                tx.execute(&pg(sql), &[&before])?;
            }
            Ok(())
        })
    }

    fn add_hook(&self, hook: &Hook) -> Result<(), StoreError> {
        self.run(|tx| {
            tx.execute(
                "INSERT INTO hooks (addressed, url, created_at) VALUES ($1, $2, $3)",
                &[&hook.addressed, &hook.url, &hook.created_at],
            )?;
            audit(tx, "hook-added", "admin", None, None, &hook_detail(hook))
        })
    }

    fn hooks(&self) -> Result<Vec<Hook>, StoreError> {
        let rows = self.read(|tx| {
            tx.query(
                "SELECT addressed, url, created_at FROM hooks ORDER BY id",
                &[],
            )
        })?;
        Ok(rows
            .iter()
            .map(|row| Hook {
                addressed: row.get(0),
                url: row.get(1),
                created_at: row.get(2),
            })
            .collect())
    }

    fn remove_hook(&self, url: &str) -> Result<usize, StoreError> {
        self.run(|tx| {
            let count = tx.execute("DELETE FROM hooks WHERE url = $1", &[&url])?;
            // A hook removed (its URL leaked, say) is told nothing more.
            tx.execute(&pg(REMOVED_HOOK_NOTICES), &[&url, &now_ms()])?;
            if count > 0 {
                let detail = json!({"url": shown_url(url), "hooks": count});
                audit(tx, "hook-removed", "admin", None, None, &detail)?;
            }
            Ok(usize::try_from(count).unwrap_or(usize::MAX))
        })
    }

    fn claim_notices(&self, now: i64, limit: i64) -> Result<Vec<Notice>, StoreError> {
        self.run(|tx| {
            tx.execute(&pg(STALE_NOTICES), &[&now])?;
            let rows = tx.query(
                "SELECT n.id, n.url, n.event, n.tries, q.id, q.agent, q.folder, q.addressed,
                    (SELECT view FROM steps WHERE question = q.id ORDER BY seq DESC LIMIT 1)
                 FROM notices n JOIN questions q ON q.id = n.question
                 WHERE n.sent_at IS NULL AND n.given_up_at IS NULL AND n.next_at <= $1
                 ORDER BY n.id LIMIT $2
                 FOR UPDATE OF n SKIP LOCKED",
                &[&now, &limit],
            )?;
            let notices: Vec<Notice> = rows
                .iter()
                .map(|row| Notice {
                    id: row.get(0),
                    url: row.get(1),
                    event: row.get(2),
                    tries: row.get(3),
                    question: row.get(4),
                    agent: row.get(5),
                    folder: row.get(6),
                    to: row.get(7),
                    view: row.get::<_, Option<&str>>(8).map_or(Json::Null, parse_json),
                })
                .collect();
            for notice in &notices {
                tx.execute(
                    "UPDATE notices SET tries = tries + 1, next_at = $2 WHERE id = $1",
                    &[&notice.id, &(now + NOTICE_LEASE)],
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
        self.run(|tx| {
            let (sql, at, event) = notice_fate(notice, &sent);
            let kept = tx.execute(&pg(&sql), &[&notice.id, &at, &(notice.tries + 1)])? == 1;
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
