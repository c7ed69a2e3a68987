//! The team inbox's memory, behind one interface: who may ask and answer (tokens, kept
//! hashed), the questions with their steps (each widget the asker's plugin put up, and the
//! one reply it got), their deadlines, the webhooks to tell people by and the notices waiting
//! to go out on them, and the audit trail. SQLite by default ([`sqlite`]), PostgreSQL for
//! several servers (`postgres`, a feature of its own).
//!
//! Every method is blocking and does its work in one transaction, so that the server can run
//! any of them on a blocking thread, and several servers can share one database: nothing that
//! matters is kept in a server's memory.

#[cfg(feature = "postgres")]
mod pgenv;
mod pool;
#[cfg(feature = "postgres")]
pub mod postgres;
pub mod sqlite;
#[cfg(test)]
pub(crate) mod tests;

pub use super::notify::NotifyError;
pub use crate::store_error::StoreError;
use serde_json::Value as Json;
use serde_json::value::RawValue;

/// What a token lets its holder do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A person: sees the questions addressed to them and answers them.
    Person,
    /// An agent: asks, and reads the replies to its own questions only.
    Agent,
}

impl Kind {
    /// The word kept in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Person => "person",
            Kind::Agent => "agent",
        }
    }

    fn parse(word: &str) -> Option<Kind> {
        match word {
            "person" => Some(Kind::Person),
            "agent" => Some(Kind::Agent),
            _ => None,
        }
    }
}

/// An agent's token does not allow the addressee its question asks for: the server refuses
/// the question (403), saying whom the token may ask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAllowed {
    /// The agent's name.
    pub agent: String,
    /// Whom its token may ask (`--to`).
    pub allowed: Vec<String>,
    /// Whom the question asked for.
    pub to: String,
}

impl std::fmt::Display for NotAllowed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let NotAllowed { agent, allowed, to } = self;
        write!(
            f,
            "{agent}'s token asks only {}, not {to:?} (`inbox token add --agent {agent} --to ...`)",
            allowed.join(", ")
        )
    }
}

impl std::error::Error for NotAllowed {}

/// Who holds a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    pub kind: Kind,
    pub name: String,
    /// A person's groups (`--group`), to which questions may be addressed; an agent's
    /// addressees (`--to`): whom its questions may be for, the first when one names nobody
    /// (none: anyone). Kept in one column, as both are the names a token is tied to.
    pub groups: Vec<String>,
}

impl Holder {
    /// Whom this agent's question is for when it asks for `to`: `to` itself when its token
    /// allows it, its first addressee when it names nobody; `Err` with why when the token does
    /// not allow it.
    pub fn addressed(&self, to: Option<String>) -> Result<Option<String>, NotAllowed> {
        let allowed = &self.groups;
        match to {
            _ if allowed.is_empty() => Ok(to),
            None => Ok(allowed.first().cloned()),
            Some(to) if allowed.contains(&to) => Ok(Some(to)),
            Some(to) => Err(NotAllowed {
                agent: self.name.clone(),
                allowed: allowed.clone(),
                to,
            }),
        }
    }

    /// Whether this person may answer a question addressed to `to` (`None`: anyone).
    pub fn may_answer(&self, to: Option<&str>) -> bool {
        self.kind == Kind::Person
            && to.is_none_or(|to| to == self.name || self.groups.iter().any(|g| g == to))
    }
}

/// A token as `inbox token list` shows it: never the token itself, which is not kept.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenEntry {
    pub holder: Holder,
    /// The first characters of the token's hash, to tell two tokens of one name apart.
    pub hash_prefix: String,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
}

/// A widget an asker puts up: the question it belongs to and what to show.
#[derive(Clone, Debug, PartialEq)]
pub struct StepPost {
    /// The request's identity (`Ask::key`): a later run of the same request finds what the
    /// person answered to an earlier one that stopped without its answer.
    pub key: String,
    /// The asking run (a random id of the asking process): a question is one run's, and an
    /// answer goes to that run only.
    pub run: String,
    /// Who asks, as the asker describes itself (shown to people through the sanitizer).
    pub from: Json,
    /// The project folder, for the page's filter.
    pub folder: Option<String>,
    /// To whom the question is addressed (a person's name or a group); `None`: anyone.
    pub to: Option<String>,
    /// The widget's kind (`select`, `text`, ..., `review`).
    pub kind: String,
    /// The widget's frame and request, as the local web page gets them.
    pub view: Json,
    /// The step this asker last put up in this run; `None` for its first, which may find the
    /// step it put up before it (or the server) restarted. Posting after a step says the asker
    /// has its reply: a secret one is erased then.
    pub after: Option<i64>,
    /// The widget asks for a secret (a text question's `secret`): its reply is held only until
    /// the asker has it, and the audit says only that it was given.
    pub secret: bool,
    /// How long the question waits for a person; `None`: as long as its asker does.
    pub deadline: Option<Deadline>,
}

pub use super::Deadline;

/// Where a posted step sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Posted {
    pub question: i64,
    pub seq: i64,
}

/// What the asker of a step finds when it looks for its reply.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplyState {
    /// Nobody has answered yet.
    Waiting,
    /// The person's reply, and who gave it.
    Replied { reply: Json, by: String },
    /// Nobody answered the question before its deadline (and its escalation's): the asker's
    /// plugin ends the request as `unavailable`.
    Expired,
    /// The question was withdrawn while this asker still waited (it was silent longer than
    /// [`SILENCE_MS`], cut off from the servers): it asks again, as a new question.
    Withdrawn,
    /// No such step of this agent's.
    Unknown,
}

/// Why a question takes no more answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// Its asker's plugin finished it.
    Finished,
    /// Its asker withdrew it: it had what was answered so far.
    Withdrawn,
    /// Its asker went silent (killed, cut off) longer than the server's grace: nothing more
    /// reaches it, not even an answer it had been given.
    Gone,
    /// Nobody answered by its deadline: its asker was told so.
    Expired,
}

impl Closed {
    /// How a closed question's `status` column reads.
    fn of(status: Option<&str>) -> Closed {
        match status {
            Some("withdrawn") => Closed::Withdrawn,
            Some("gone") => Closed::Gone,
            Some("expired") => Closed::Expired,
            _ => Closed::Finished,
        }
    }

    /// Why a question whose row says this takes no more answers; `None` while it does. An
    /// expired question is closed too.
    fn of_row(closed: bool, expired: bool, status: Option<&str>) -> Option<Closed> {
        match (expired, closed) {
            (true, _) => Some(Closed::Expired),
            (false, true) => Some(Closed::of(status)),
            (false, false) => None,
        }
    }
}

/// How an answer was taken.
#[derive(Clone, Debug, PartialEq)]
pub enum Answered {
    /// Kept: the asker will get it.
    Accepted,
    /// Someone answered this step first: who, and when (ms since the epoch).
    Taken { by: String, at: i64 },
    /// The asker has moved on from this step; or the question is closed, and why.
    Gone(Option<Closed>),
    /// No such step, or not one this person may answer.
    Unknown,
    /// The reply does not read as a reply to the step's widget, of this kind.
    Unfit(String),
}

/// The open questions, each with its current step when that waits for an answer, as
/// [`OpenQuestion`]'s fields are read (both stores' SQL has it). Followed by an order, or by
/// the one question wanted.
pub(super) const OPEN_STEPS: &str = "SELECT q.id, q.agent, q.asker, q.folder, q.addressed, \
     q.asked_at, s.seq, s.kind, s.view, q.again_of, q.resumed,
     (SELECT coalesce(e.closed_at, e.expired_at) FROM questions e WHERE e.id = q.again_of),
     coalesce(q.seen_at, q.asked_at)
     FROM questions q JOIN steps s ON s.question = q.id
     WHERE q.closed_at IS NULL AND q.expired_at IS NULL AND s.reply IS NULL
       AND s.seq = (SELECT max(seq) FROM steps WHERE question = q.id)";

/// An open question as the page lists it: its current step.
#[derive(Clone, Debug)]
pub struct OpenQuestion {
    pub question: i64,
    pub agent: String,
    /// Who asks, and the step's view: kept as the JSON text they are stored as, since a list
    /// of hundreds of questions is written out far more often than any one is looked into.
    pub from: Box<RawValue>,
    pub folder: Option<String>,
    pub to: Option<String>,
    pub asked_at: i64,
    pub seq: i64,
    pub kind: String,
    pub view: Box<RawValue>,
    /// The question of an earlier run of the same request, if there was one: this is another
    /// run, asking again.
    pub again_of: Option<i64>,
    /// What the person answered to that run was played back into this one.
    pub resumed: bool,
    /// When that run's question ended (ms since the epoch).
    pub earlier_ended_at: Option<i64>,
    /// When its asker was last heard from (ms since the epoch).
    pub seen_at: i64,
}

/// Where a question stands, for a page showing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Its last step.
    pub seq: i64,
    /// That step has its reply (the asker's plugin is judging it, or finishing).
    pub answered: bool,
    /// It takes no more answers, and why.
    pub closed: Option<Closed>,
}

/// A webhook: where to tell whom a question is for that one waits.
#[derive(Clone, Debug, PartialEq)]
pub struct Hook {
    /// The person or group whose questions it tells of; `None`: the questions for anyone.
    pub addressed: Option<String>,
    pub url: String,
    pub created_at: i64,
}

/// A notice due on a webhook: a question was asked, or escalated, to those the hook is for.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub id: i64,
    pub url: String,
    /// `asked` or `escalated`.
    pub event: String,
    /// Tries before this one.
    pub tries: i64,
    pub question: i64,
    pub agent: String,
    pub folder: Option<String>,
    pub to: Option<String>,
    /// The question's current step, as the page gets it.
    pub view: Json,
}

/// One line of the audit trail.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditEntry {
    /// ms since the epoch.
    pub at: i64,
    /// `token-added`, `token-revoked`, `hook-added`, `hook-removed`, `asked`, `step`,
    /// `answered`, `escalated`, `expired`, `notified`, `notice-failed`, `finished`.
    pub event: String,
    /// Who did it (a token holder's name, or `admin` for the command line).
    pub actor: String,
    /// The client's address, for what came over HTTP.
    pub address: Option<String>,
    pub question: Option<i64>,
    pub seq: Option<i64>,
    /// What was asked or answered.
    pub detail: Json,
}

/// The team inbox's database (see the module documentation).
pub trait Store: Send + Sync {
    /// Keeps a new token's hash for `holder`.
    fn add_token(&self, hash: &str, holder: &Holder) -> Result<(), StoreError>;
    /// Every token, revoked ones too, oldest first.
    fn tokens(&self) -> Result<Vec<TokenEntry>, StoreError>;
    /// Revokes every live token of `name`; how many.
    fn revoke(&self, name: &str) -> Result<usize, StoreError>;
    /// Who holds the live token with this hash.
    fn holder(&self, hash: &str) -> Result<Option<Holder>, StoreError>;
    /// Puts up `post` for `agent`: a new step after the question's last, or the step of the
    /// same view it already put up after `post.after` (a retry of the post). A run's first
    /// post opens its question; when an earlier run of the same request stopped without its
    /// answer within the retry window, what the person answered to it is played back (every
    /// replied step but the last, which the person gives again for this run).
    fn post_step(&self, agent: &str, post: &StepPost, address: &str) -> Result<Posted, StoreError>;
    /// The reply to `agent`'s step, if any.
    fn reply(&self, agent: &str, at: Posted) -> Result<ReplyState, StoreError>;
    /// The askers of `questions` were heard from at `now` (each has a long poll open).
    fn seen(&self, questions: &[i64], now: i64) -> Result<(), StoreError>;
    /// Which of `steps` are no longer waiting: answered, or their question expired or closed.
    fn settled(&self, steps: &[Posted]) -> Result<Vec<Posted>, StoreError>;
    /// Tells `answered` of each step answered by any server on this store, as soon as the
    /// database says so, from a thread of the store's own for the rest of the process: false
    /// when the store cannot (SQLite). The servers read [`settled`](Store::settled) besides,
    /// for what such news leaves out (a lost connection, a question closed).
    fn tell_answered(&self, answered: Box<dyn Fn(Posted) + Send>) -> bool {
        let _ = answered;
        false
    }
    /// Keeps `person`'s reply to a step, unless someone answered it first: exactly once; and
    /// only when `fits` says it reads as a reply to a step of that kind (the step's widget).
    fn answer(
        &self,
        person: &Holder,
        at: Posted,
        reply: &Json,
        address: &str,
        fits: &dyn Fn(&str) -> bool,
    ) -> Result<Answered, StoreError>;
    /// `agent` is done with its question (`finished`: the plugin finished; `withdrawn`: it
    /// stopped waiting): it leaves the list. A withdrawn question hands what the person
    /// answered to a later run of the same request asked meanwhile and not yet begun, which
    /// goes on from there: the step of that run thereby answered.
    fn finish(
        &self,
        agent: &str,
        question: i64,
        status: &str,
        address: &str,
    ) -> Result<Option<Posted>, StoreError>;
    /// The open questions `person` may answer, oldest first, each with its current step.
    fn open_questions(&self, person: &Holder) -> Result<Vec<OpenQuestion>, StoreError>;
    /// Question `question` with its current step, if it is open, that step waits for an
    /// answer, and `person` may give it: one row, where [`Store::open_questions`] reads all.
    fn waiting_step(
        &self,
        person: &Holder,
        question: i64,
    ) -> Result<Option<OpenQuestion>, StoreError>;
    /// Where question `question` stands, if `person` may answer it.
    fn progress(&self, person: &Holder, question: i64) -> Result<Option<Progress>, StoreError>;
    /// The audit trail from `since` (ms since the epoch) on, oldest first.
    fn audit(&self, since: i64) -> Result<Vec<AuditEntry>, StoreError>;
    /// The questions whose deadline is past at `now`: each one with somebody to escalate to
    /// (not yet escalated) goes to them for as long again, and a notice is queued; the others
    /// expire. With `silent_since`, the questions whose asker was last heard from before it
    /// are withdrawn (it went away). Exactly once, whichever server sweeps.
    fn sweep(&self, now: i64, silent_since: Option<i64>) -> Result<(), StoreError>;
    /// Adds a webhook.
    fn add_hook(&self, hook: &Hook) -> Result<(), StoreError>;
    /// Every webhook, oldest first.
    fn hooks(&self) -> Result<Vec<Hook>, StoreError>;
    /// Erases the secret replies of closed questions (their askers have them, or never will),
    /// and forgets the questions closed before `before` (ms since the epoch), with their steps
    /// and notices, and the audit's lines from before it.
    fn purge(&self, before: i64) -> Result<(), StoreError>;
    /// Removes the webhooks at `url`; how many.
    fn remove_hook(&self, url: &str) -> Result<usize, StoreError>;
    /// At most `limit` notices due at `now`, each leased to this caller for [`NOTICE_LEASE`]
    /// ms (another server does not take it meanwhile), with its try counted.
    fn claim_notices(&self, now: i64, limit: i64) -> Result<Vec<Notice>, StoreError>;
    /// How sending `notice` went: the webhook's status, or why it got none. A failed notice
    /// is tried again later, [`NOTICE_TRIES`] times in all.
    fn notice_sent(
        &self,
        notice: &Notice,
        sent: Result<u16, NotifyError>,
    ) -> Result<(), StoreError>;
}

/// How long an asker may go unheard (no step put up, no poll begun) before its question is
/// withdrawn as gone: a long poll lasts at most 25 s, and an asker that cannot reach a server
/// retries every 5 s at most, so a live asker is heard from well within it. A server sweeps for
/// silence only once it has been up this long itself, so that a restart withdraws nothing.
pub const SILENCE_MS: i64 = 60_000;

/// The question of `run`, asked by `?1` for the request `?2`, while it is open (`?3` the run).
/// The same SQL for both stores (`?N` is `$N` in PostgreSQL's).
const OPEN_RUN: &str = "SELECT id FROM questions
     WHERE agent = ?1 AND key = ?2 AND run = ?3 AND closed_at IS NULL";

/// The last question of `?1`'s request `?2` that ended: whether it was taken over, its status,
/// when it closed, its deadline's length.
const EARLIER: &str = "SELECT id, taken_by IS NULL, status, closed_at, patience FROM questions
     WHERE agent = ?1 AND key = ?2 AND closed_at IS NOT NULL
     ORDER BY closed_at DESC, id DESC LIMIT 1";

/// The kind and secrecy of step `?2` of question `?1`.
const STEP_KIND: &str = "SELECT kind, secret FROM steps WHERE question = ?1 AND seq = ?2";

/// Keeps reply `?3` by `?4` at `?5` to step `?2` of question `?1`, unless it has one: the one
/// write that decides who answered.
const TAKE_REPLY: &str = "UPDATE steps SET reply = ?3, answered_by = ?4, answered_at = ?5
     WHERE question = ?1 AND seq = ?2 AND reply IS NULL";

/// The refusal of a reply that the current step's widget (`step`, its kind and secrecy) does
/// not read, as `fits` says.
fn unfit(step: Option<&(String, bool)>, fits: &dyn Fn(&str) -> bool) -> Option<Answered> {
    let (kind, _) = step?;
    (!fits(kind)).then(|| Answered::Unfit(kind.clone()))
}

/// Plays what the person answered to question `?2` into question `?1`, from after step `?3`:
/// every replied step but its last, which the person gives again for the new run.
const PLAY_BACK: &str = "INSERT INTO steps (question, seq, kind, view, asked_at, reply,
         answered_by, answered_at)
     SELECT ?1, seq, kind, view, asked_at, reply, answered_by, answered_at FROM steps
     WHERE question = ?2 AND reply IS NOT NULL AND seq > ?3
       AND seq < (SELECT max(seq) FROM steps WHERE question = ?2)";

/// The open question of a later run of closed question `?1`'s request, put up while `?1` was
/// still open, that takes over what the person answered to `?1`: only one its person has not
/// begun (its one step, unanswered, the same widget as `?1`'s first), and only when there is
/// something to play back (`?1`'s first step answered, and not its last).
const LATER_RUN: &str = "SELECT b.id FROM questions a
     JOIN questions b ON b.agent = a.agent AND b.key = a.key AND b.id > a.id
     WHERE a.id = ?1 AND a.taken_by IS NULL AND b.closed_at IS NULL
       AND (SELECT count(*) FROM steps WHERE question = b.id) = 1
       AND EXISTS (SELECT 1 FROM steps sa JOIN steps sb ON sb.question = b.id AND sb.seq = 1
                   WHERE sa.question = a.id AND sa.seq = 1 AND sa.reply IS NOT NULL
                     AND sb.reply IS NULL AND sb.view = sa.view
                     AND sa.seq < (SELECT max(seq) FROM steps WHERE question = a.id))
     ORDER BY b.id LIMIT 1";

/// Gives step 1 of question `?1` the reply of question `?2`'s first step, unless it has one.
const ANSWER_FIRST: &str = "UPDATE steps SET (reply, answered_by, answered_at) =
         (SELECT reply, answered_by, answered_at FROM steps WHERE question = ?2 AND seq = 1)
     WHERE question = ?1 AND seq = 1 AND reply IS NULL";

/// Marks question `?1` as another run of question `?2` that resumed from it (`?3`: true).
const RESUMED_FROM: &str = "UPDATE questions SET resumed = ?3, again_of = ?2 WHERE id = ?1";

/// Takes question `?1`'s answers over for question `?2`, unless another took them first.
const TAKE_OVER: &str = "UPDATE questions SET taken_by = ?2 WHERE id = ?1 AND taken_by IS NULL";

/// Erases the secret replies of question `?1` up to step `?2`: its asker has them.
const ERASE_SECRETS: &str = "UPDATE steps SET reply = NULL
     WHERE question = ?1 AND secret AND seq <= ?2 AND reply IS NOT NULL";

/// Erases the secret replies of every closed question.
const ERASE_CLOSED_SECRETS: &str = "UPDATE steps SET reply = NULL
     WHERE secret AND reply IS NOT NULL
       AND question IN (SELECT id FROM questions WHERE closed_at IS NOT NULL)";

/// What is forgotten of the questions closed before `?1`, in this order (what refers to a
/// question goes first), and of the audit from before it.
const PURGE: [&str; 4] = [
    "DELETE FROM notices WHERE question IN (SELECT id FROM questions WHERE closed_at < ?1)",
    "DELETE FROM steps WHERE question IN (SELECT id FROM questions WHERE closed_at < ?1)",
    "DELETE FROM questions WHERE closed_at < ?1",
    "DELETE FROM audit WHERE at < ?1",
];

/// What the audit keeps of a reply: a secret's only that it was given.
fn reply_detail(reply: &Json, secret: bool) -> Json {
    match secret {
        true => serde_json::json!({"secret": "given"}),
        false => reply.clone(),
    }
}

/// Withdraws the open questions whose asker was last heard from before `?2`, at `?1`; their
/// ids.
const WITHDRAW_SILENT: &str = "UPDATE questions SET closed_at = ?1, status = 'gone'
     WHERE closed_at IS NULL AND seen_at < ?2 RETURNING id";

/// An earlier question of a request, as a new run of it finds it.
struct Earlier {
    question: i64,
    not_taken: bool,
    status: Option<String>,
    closed_at: i64,
    patience: Option<i64>,
}

impl Earlier {
    /// Whether a new run of the request is another run of this one (`asks again`): only when
    /// this one stopped without its answer. One that ended with it is done with; a new run
    /// after it is a new request.
    fn stopped(&self) -> bool {
        Closed::of(self.status.as_deref()) != Closed::Finished
    }

    /// Whether what the person answered to it may be played back into a new run's question
    /// at `now`: only once, only for a run that stopped without its answer, within the retry
    /// window and no longer than the question's own deadline.
    fn resumable(&self, now: i64) -> bool {
        let window = (self.patience.unwrap_or(i64::MAX)).min(crate::inbox::RETRY_WINDOW_MS);
        self.not_taken && self.stopped() && self.closed_at >= now - window
    }
}

/// The questions whose deadline is past at `?1` and whose person has the turn (their last step
/// unanswered): a question whose asker is judging a reply is not taken from the person who
/// gave it.
const DUE: &str = "closed_at IS NULL AND expired_at IS NULL AND deadline_at <= ?1
       AND (SELECT s.reply IS NULL FROM steps s WHERE s.question = questions.id
            ORDER BY s.seq DESC LIMIT 1)";

/// The notices not to send any more at `?1`: their question ended, or its person answered its
/// current step (they are on it).
const STALE_NOTICES: &str = "UPDATE notices SET given_up_at = ?1
     WHERE sent_at IS NULL AND given_up_at IS NULL AND next_at <= ?1
       AND question IN (SELECT q.id FROM questions q
                        WHERE q.closed_at IS NOT NULL OR q.expired_at IS NOT NULL
                           OR (SELECT s.reply IS NOT NULL FROM steps s WHERE s.question = q.id
                               ORDER BY s.seq DESC LIMIT 1))";

/// Gives up the notices still due on the hook at `?1`, at `?2`.
const REMOVED_HOOK_NOTICES: &str = "UPDATE notices SET given_up_at = ?2
     WHERE url = ?1 AND sent_at IS NULL AND given_up_at IS NULL";

/// How long a claimed notice is left to its claimant before another server may send it.
pub const NOTICE_LEASE: i64 = 60_000;
/// How many times a notice is tried before it is given up (and the audit says so).
pub const NOTICE_TRIES: i64 = 5;

/// When a notice that failed its `tries`th try is tried again: 5 s, 30 s, 2 min, 10 min.
fn next_try(now: i64, tries: i64) -> i64 {
    now + match tries {
        ..=1 => 5_000,
        2 => 30_000,
        3 => 120_000,
        _ => 600_000,
    }
}

/// What the audit says of a notice sent, or given up.
fn notice_detail(notice: &Notice, sent: &Result<u16, NotifyError>) -> Json {
    let url = shown_url(&notice.url);
    match sent {
        Ok(status) => serde_json::json!({"url": url, "event": notice.event, "status": status}),
        Err(why) => {
            serde_json::json!({"url": url, "event": notice.event, "error": why.to_string()})
        }
    }
}

/// What becomes of a notice after a try: the update that records it (`?1` the notice, `?2`
/// the time it sets, `?3` the tries its claim counted, so that a claim whose lease ran out and
/// was taken by another server changes nothing), its time, and what the audit says, if
/// anything. A 2xx status is sent; anything else is tried again until the last try.
fn notice_fate(
    notice: &Notice,
    sent: &Result<u16, NotifyError>,
) -> (String, i64, Option<&'static str>) {
    let tries = notice.tries + 1;
    let now = now_ms();
    let (column, at, event) = match sent {
        Ok(200..=299) => ("sent_at", now, Some("notified")),
        _ if tries >= NOTICE_TRIES => ("given_up_at", now, Some("notice-failed")),
        _ => ("next_at", next_try(now, tries), None),
    };
    let sql = format!(
        "UPDATE notices SET {column} = ?2
         WHERE id = ?1 AND tries = ?3 AND sent_at IS NULL AND given_up_at IS NULL"
    );
    (sql, at, event)
}

/// A webhook's address as the audit keeps it: its scheme and host only, since the rest of a
/// chat's incoming-webhook URL is its secret.
pub fn shown_url(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    // A password in the URL (`user:secret@host`) is not kept either.
    let host = host.rsplit('@').next().unwrap_or_default();
    format!("{scheme}://{host}/…")
}

fn hook_detail(hook: &Hook) -> Json {
    serde_json::json!({"for": hook.addressed, "url": shown_url(&hook.url)})
}

/// A deadline as its columns: its length in ms, and whom it escalates to.
fn deadline_columns(post: &StepPost) -> (Option<i64>, Option<&str>) {
    match &post.deadline {
        Some(d) => (Some(d.after_ms), d.escalate_to.as_deref()),
        None => (None, None),
    }
}

/// A question whose deadline is past, as a sweep finds it.
struct Due {
    question: i64,
    to: Option<String>,
    escalate_to: Option<String>,
    not_escalated: bool,
    patience: Option<i64>,
}

impl Due {
    /// Whom it goes to now, if it escalates rather than expires.
    fn next(&self) -> Option<&str> {
        self.escalate_to.as_deref().filter(|_| self.not_escalated)
    }

    /// The deadline of the question escalated at `now`: as long again.
    fn next_deadline(&self, now: i64) -> i64 {
        now.saturating_add(self.patience.unwrap_or(0))
    }

    fn escalated_detail(&self) -> Json {
        serde_json::json!({"from": self.to, "to": self.next()})
    }

    fn expired_detail(&self) -> Json {
        serde_json::json!({"to": self.to})
    }
}

/// What a command may do to the database it is given. A database is first identified as a
/// team inbox's (or as empty, for `Create`): another program's, or a file that is no database,
/// is left exactly as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Create it when there is none (`inbox token add`, the first command of a set-up).
    Create,
    /// Use one that exists, bringing it up to this version's layout (`inbox serve`, the
    /// commands that change tokens and hooks).
    Write,
    /// Read one that exists, at this version's layout, changing nothing (`inbox audit`,
    /// `token list`, `hook list`).
    Read,
}

/// Why there is no database to use, in a sentence that says how to make one.
fn missing(shown: &str) -> StoreError {
    StoreError::Missing(format!(
        "there is no team inbox database at {shown} (a mistyped path?): `interview inbox token \
         add --db {shown} …` creates one"
    ))
}

/// Opens the store `db` names, as `access` allows: a `postgres://` (or `postgresql://`) URL,
/// else an SQLite file.
pub fn open(db: &str, access: Access) -> Result<Box<dyn Store>, StoreError> {
    if is_postgres(db) {
        #[cfg(feature = "postgres")]
        return Ok(Box::new(postgres::Postgres::open(db, access)?));
        #[cfg(not(feature = "postgres"))]
        return Err(StoreError::Unreachable(WITHOUT_POSTGRES.into()));
    }
    Ok(Box::new(sqlite::Sqlite::open(
        std::path::Path::new(db),
        access,
    )?))
}

/// Whether `db` names a PostgreSQL database rather than an SQLite file.
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// What a build without PostgreSQL says of a `postgres://` database.
pub const WITHOUT_POSTGRES: &str = "this interview was built without PostgreSQL: build it with the \
     postgres feature (cargo install --path . --features postgres), or give --db an SQLite file";

/// A token holder's groups, as kept: comma-separated.
fn groups_of(text: &str) -> Vec<String> {
    text.split(',')
        .filter(|g| !g.is_empty())
        .map(str::to_owned)
        .collect()
}

/// JSON kept as text; what no longer reads (written by hand?) is null rather than an error.
fn parse_json(text: &str) -> Json {
    serde_json::from_str(text).unwrap_or(Json::Null)
}

/// `text` as JSON kept as it is written (`null` should it not be JSON).
fn raw_json(text: String) -> Box<RawValue> {
    RawValue::from_string(text)
        .unwrap_or_else(|_| RawValue::from_string("null".to_owned()).expect("null is JSON"))
}

/// What the audit says of a token added.
fn token_detail(holder: &Holder) -> Json {
    serde_json::json!({"name": holder.name, "kind": holder.kind.as_str(), "groups": holder.groups})
}

/// What the audit says of a question asked (by another run of a request asked before, in
/// `again_of`), and of a step put up.
fn asked_detail(post: &StepPost, again_of: Option<i64>) -> Json {
    let deadline = post
        .deadline
        .as_ref()
        .map(|d| serde_json::json!({"after_ms": d.after_ms, "escalate_to": d.escalate_to}));
    serde_json::json!({
        "from": post.from, "to": post.to, "deadline": deadline, "run": post.run,
        "again_of": again_of,
    })
}

/// What the audit says of a question withdrawn because its asker went silent.
fn silent_detail() -> Json {
    serde_json::json!({"why": "the asker stopped waiting (nothing heard from it)"})
}

fn step_detail(post: &StepPost) -> Json {
    serde_json::json!({"kind": post.kind, "view": post.view, "secret": post.secret})
}

pub use crate::clock::now_ms;
