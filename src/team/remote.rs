//! The asking side of the team inbox: a [`Ui`] whose every widget is put up on the server
//! (`--inbox URL`) as the question's current step, and whose reply is the one a person gave
//! there. The plugin stays here and judges every reply, so a refused one comes back as the
//! next step with its error.
//!
//! Nothing is lost: a server that is down or restarting is retried with backoff, a step is put
//! up again after a restart as the same step (the server matches it by the request's key and
//! the view), and an asker that restarts finds its steps, and the replies given, again.
//!
//! How the steps travel is a [`Relay`]'s: HTTP from the asking process (`--inbox URL`), or
//! the server's own store for the calls it takes over MCP itself (`/mcp`), where the server is
//! the asker.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use interview_host::Given;
use interview_host::ui::answered;
use interview_host::ui::web_wire::WidgetRelay;
use interview_host::ui::{
    Absence, ConfirmReply, ConfirmRequest, Frame, MultiSelectReply, MultiSelectRequest, Nav,
    NumberReply, NumberRequest, ReviewReply, ReviewRequest, SelectReply, SelectRequest, StopReason,
    TextReply, TextRequest, Ui, UiMode,
};
use serde_json::{Value as Json, json};

use super::Deadline;
use super::backoff::{Backoff, LONGEST};
use super::reach_error::ReachError;
use crate::inbox::{Ask, Call, From};
use crate::random::NoRandomness;

/// How long a long poll asks the server to wait.
pub(super) const POLL_SECONDS: u64 = 20;
/// The first pause before trying again a server that could not be reached.
const FIRST_RETRY: Duration = Duration::from_millis(200);
/// How long a finished question's closing is retried while the server is down; a withdrawn
/// one's, after a stop.
const FINISH_PATIENCE: Duration = Duration::from_secs(10);
const WITHDRAW_PATIENCE: Duration = Duration::from_secs(2);
/// How often a wait looks at the stop flag: Ctrl-C is heard within this, and hundreds of
/// askers waiting on one machine wake it a few thousand times a second, not tens of thousands.
pub(super) const HEED_STOP: Duration = Duration::from_millis(200);

/// Whom an asker's questions are for, and how long they wait.
#[derive(Clone, Debug, Default)]
pub struct Addressed {
    /// Whom the questions are for (`--to`): a person or a group; `None` for anyone.
    pub to: Option<String>,
    /// How long each question waits for a person (`--deadline`), and whom it goes to at the
    /// deadline (`--escalate-to`); `None`: as long as the asker waits.
    pub deadline: Option<Deadline>,
}

/// What an asker says to the team inbox, whichever way it reaches it (see [`Relay`]).
pub enum Said<'a> {
    /// Whether its token is taken, and whether anyone answers for the names it asks `to`
    /// and escalates to.
    Whoami {
        to: Option<&'a str>,
        escalate_to: Option<&'a str>,
    },
    /// The next step of a question: the body `POST /api/steps` takes.
    Step(&'a Json),
    /// The reply to a step, waited for up to [`POLL_SECONDS`].
    Reply { question: i64, seq: i64 },
    /// The question is closed: `finished` (the plugin is done) or `withdrawn`.
    Finish { question: i64, status: &'a str },
}

/// What the team inbox answered one thing said.
pub enum Outcome {
    /// Its answer.
    Answered(Json),
    /// It will not take it (a bad token, a refused body): saying it again would not help. Why,
    /// and the status the inbox answered.
    Refused(String, Option<u16>),
    /// It holds as many of this agent's askers as it takes: asked again after the time it
    /// said, if it said one.
    Busy(Option<Duration>),
    /// It could not be reached, or failed; why.
    Unreachable(ReachError),
    /// The asker was told to stop before an answer came.
    Stopped,
}

/// How a [`RemoteUi`] reaches the team inbox: over HTTP from the asking process
/// ([`super::http_relay::HttpRelay`]), or, for the calls the server itself takes over MCP,
/// straight to the server's store.
pub trait Relay: Send {
    /// Says `said` once; gives up with [`Outcome::Stopped`] as soon as `stopped` is true.
    fn once(&self, said: &Said<'_>, stopped: &dyn Fn() -> bool) -> Outcome;
    /// The inbox, as messages name it (`the team inbox at URL`).
    fn name(&self) -> &str;
}

/// The team inbox a command asks through (`--inbox`): a [`RemoteUi`] for each request.
pub struct Team {
    /// This process's run (see [`Asker::run`]).
    run: String,
    url: String,
    token: String,
    addressed: Addressed,
    stop: Arc<AtomicBool>,
    /// How messages name the inbox, where not `the team inbox at URL`.
    name: Option<String>,
}

impl Team {
    /// The team inbox at `url`, for questions addressed `to` (anyone when `None`) that wait
    /// until `deadline` if given, with the agent's token from `INTERVIEW_INBOX_TOKEN`;
    /// requests stop when `stop` is set.
    pub fn new(
        url: String,
        to: Option<String>,
        deadline: Option<Deadline>,
        stop: Arc<AtomicBool>,
    ) -> Result<Team, TeamError> {
        let Ok(token) = std::env::var("INTERVIEW_INBOX_TOKEN") else {
            return Err(TeamError::NoToken { url });
        };
        Team::with_token(url, token, to, deadline, stop)
    }

    /// [`Team::new`], with the agent's `token` given.
    pub fn with_token(
        url: String,
        token: String,
        to: Option<String>,
        deadline: Option<Deadline>,
        stop: Arc<AtomicBool>,
    ) -> Result<Team, TeamError> {
        Ok(Team {
            // Drawn once, the same for every request this process asks, so that the servers
            // tell its questions from another process's asking the same.
            run: crate::random::hex::<16>().map_err(TeamError::NoRandomness)?,
            url,
            token,
            addressed: Addressed { to, deadline },
            stop,
            name: None,
        })
    }

    /// The same, named `name` in what its askers say on stderr.
    #[cfg_attr(
        not(feature = "team-server"),
        expect(dead_code, reason = "this machine's inbox names itself")
    )]
    pub fn named(self, name: &str) -> Team {
        Team {
            name: Some(name.to_owned()),
            ..self
        }
    }

    /// The UI of `call`, asked by `command` for `client` (an MCP client's name; for an
    /// elicitation, from `server`): its identity is the request's, as the local inbox's, so
    /// the same request asked again finds it.
    pub fn ui_for(
        &self,
        command: &str,
        call: Call,
        client: Option<String>,
        server: Option<String>,
    ) -> RemoteUi {
        self.ui_in_run(command, call, client, server, self.run.clone())
    }

    /// The UI of `call` as a part of `run` (see [`Asker::run`]).
    fn ui_in_run(
        &self,
        command: &str,
        call: Call,
        client: Option<String>,
        server: Option<String>,
        run: String,
    ) -> RemoteUi {
        let ask = Ask {
            from: From::here(command, client, server),
            call,
        };
        let mut relay = super::http_relay::HttpRelay::new(&self.url, &self.token);
        if let Some(name) = &self.name {
            relay = relay.named(name);
        }
        let asker = Asker::of(&ask, run, self.addressed.clone());
        RemoteUi::new(Box::new(relay), asker, self.stop.clone())
    }
}

/// Why a command cannot ask through the team inbox it was given: it fails before anything is
/// asked.
#[derive(Debug)]
pub enum TeamError {
    /// `INTERVIEW_INBOX_TOKEN` is not set: the agent has no token for the inbox at `url`.
    NoToken { url: String },
    /// No run could be drawn for this process's requests.
    NoRandomness(NoRandomness),
}

impl std::fmt::Display for TeamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TeamError::NoToken { url } => write!(
                f,
                "--inbox {url} needs the agent's token in INTERVIEW_INBOX_TOKEN \
                 (`interview inbox token add --agent NAME` makes one; an MCP client passes its \
                 servers only the environment their configuration names: put it in the \
                 server's `env`)"
            ),
            TeamError::NoRandomness(why) => why.fmt(f),
        }
    }
}

impl std::error::Error for TeamError {}

/// `interview mcp --inbox`: each call its own question, withdrawn on its own, and a run of its
/// own: the same call made again while the last one's question is still being closed is asked
/// afresh, never handed that question's answer (a retry of a withdrawn call is still shown
/// what was answered, as another run's).
#[cfg(feature = "mcp")]
impl crate::mcp::TeamRoute for Team {
    fn ui(
        &self,
        call: Call,
        client: Option<String>,
        _: &rmcp::model::Extensions,
        stop: Arc<AtomicBool>,
    ) -> Result<Box<dyn Ui + Send>, crate::mcp::RouteError> {
        let mut ui = self.ui_in_run("mcp", call, client, None, crate::random::hex::<16>()?);
        // From the first call on, a signal is passed on to the calls.
        static WATCHING: std::sync::Once = std::sync::Once::new();
        WATCHING.call_once(|| watch_signals(self.stop.clone()));
        ui.stop = stop;
        Ok(Box::new(ui))
    }
}

/// Ctrl-C, SIGTERM and SIGHUP set the process's flag, which no call of `interview mcp --inbox`
/// reads (each has its own, which its client's cancel sets): passed on to every call under
/// way, which withdraws its question, and the process ends as the signal would have ended it,
/// once they are withdrawn (or given up on).
#[cfg(feature = "mcp")]
fn watch_signals(process: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        while !process.load(Ordering::SeqCst) {
            std::thread::sleep(HEED_STOP);
        }
        crate::mcp::calls::withdraw_all(WITHDRAW_PATIENCE + HEED_STOP);
        std::process::exit(interview_host::Exit::Interrupted as i32);
    });
}

/// Who asks, as the team inbox keeps it.
pub struct Asker {
    /// The request's identity (`Ask::key`): the same request asked again finds its question.
    pub key: String,
    /// The asking run: a retry of the request from another run is a new question, shown what
    /// the person answered the run that went away.
    pub run: String,
    /// Who asks (an [`From`], as JSON).
    pub from: Json,
    pub addressed: Addressed,
}

impl Asker {
    /// Who asks `ask`, in `run`, of whom `addressed` says.
    pub fn of(ask: &Ask, run: String, addressed: Addressed) -> Asker {
        Asker {
            key: ask.key(),
            run,
            from: serde_json::to_value(&ask.from).unwrap_or_default(),
            addressed,
        }
    }
}

/// A request asked through the team inbox (see the module documentation).
pub struct RemoteUi {
    relay: Box<dyn Relay>,
    asker: Asker,
    folder: Option<String>,
    /// The question and step last put up in this run.
    question: Option<i64>,
    seq: Option<i64>,
    stop: Arc<AtomicBool>,
    stopped: Option<StopReason>,
    /// The question's deadline passed unanswered: it stays on the server, expired, so that the
    /// same request asked again waits again where it stopped.
    timed_out: bool,
    /// A question the plugin is done with and its closing status (`finished`, `withdrawn`),
    /// told to the inbox once the result is out: when this UI is dropped, or before its next
    /// question is put up. The agent does not wait for the list to be tidied.
    closing: Option<(i64, &'static str)>,
    /// What the person answered so far, in words (a secret never): each step after the first
    /// carries it, for a person who takes the question over halfway to see.
    kept: Vec<Given>,
}

/// Why saying something to the inbox gave up.
enum Failed {
    /// The inbox will not take it: why, and its status, when it answered one.
    Refused(String, Option<u16>),
    /// Asked to stop (Ctrl-C, a signal).
    Stopped,
}

impl RemoteUi {
    /// A UI asking `asker`'s questions through `relay`, stopping when `stop` is set.
    pub fn new(relay: Box<dyn Relay>, asker: Asker, stop: Arc<AtomicBool>) -> RemoteUi {
        let folder = asker.from["folder"].as_str().map(str::to_owned);
        RemoteUi {
            relay,
            asker,
            folder,
            question: None,
            seq: None,
            stop,
            stopped: None,
            timed_out: false,
            closing: None,
            kept: Vec::new(),
        }
    }

    /// Notes what a reply answered, replacing an earlier answer to the same question.
    fn keep(&mut self, given: Option<Given>) {
        if let Some(given) = given {
            self.kept.retain(|kept| kept.position != given.position);
            self.kept.push(given);
            self.kept.sort_by_key(|kept| kept.position);
        }
    }

    /// Takes the question the plugin is done with off the team's list (see `closing`).
    fn close(&mut self) {
        let Some((question, status)) = self.closing.take() else {
            return;
        };
        // Only to take it off the list: a server that stays down is not waited for long, the
        // result is the agent's already (and a silent run's question is withdrawn by the
        // servers all the same). A person who pressed Ctrl-C is not kept waiting on a server
        // that is down.
        // A signal after the result cuts a finishing close short; a withdrawal is made because
        // of one, and has its own short patience.
        let (patience, stop) = match status {
            "withdrawn" => (WITHDRAW_PATIENCE, None),
            _ => (FINISH_PATIENCE, Some(&*self.stop)),
        };
        let give_up = Instant::now() + patience;
        let _ = self.say(&Said::Finish { question, status }, Some(give_up), stop);
    }

    /// Says `said` until the inbox answers: one that is down, restarting or failing is tried
    /// again with backoff, until `give_up` if given, and a busy one when it says; a refusal is
    /// final. Stops when `stop` is set (or never, given none).
    fn say(
        &self,
        said: &Said<'_>,
        give_up: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> Result<Json, Failed> {
        // A request is given up when `give_up` comes, not only between tries: one that hangs
        // is not waited on for its connection's whole timeout.
        let stopped = || {
            stop.is_some_and(|stop| stop.load(Ordering::SeqCst))
                || give_up.is_some_and(|limit| Instant::now() >= limit)
        };
        let mut backoff = Backoff::from(FIRST_RETRY);
        let mut said_so = false;
        loop {
            let (wait, why) = match self.relay.once(said, &stopped) {
                Outcome::Answered(json) => return Ok(json),
                Outcome::Refused(why, status) => return Err(Failed::Refused(why, status)),
                Outcome::Stopped => return Err(Failed::Stopped),
                // Not a failure, and not said: asked again when the inbox says.
                Outcome::Busy(after) => {
                    (Some(after.unwrap_or(backoff.current()).min(LONGEST)), None)
                }
                Outcome::Unreachable(why) => (None, Some(why)),
            };
            if let Some(why) = why.filter(|_| !said_so) {
                let name = self.relay.name();
                crate::stderr::warn(&match why.no_server() {
                    true => format!("{name} is not open; waiting for it to be opened"),
                    false => format!(
                        "{name} cannot be reached ({}); trying again",
                        interview_text::sanitize::line(&why.to_string())
                    ),
                });
                said_so = true;
            }
            let until = Instant::now() + wait.unwrap_or_else(|| backoff.failed());
            if give_up.is_some_and(|limit| until > limit) {
                let why = format!("{} could not be reached in time", self.relay.name());
                return Err(Failed::Refused(why, None));
            }
            // Slept in slices, so that Ctrl-C is heard within one.
            while let Some(left) = until.checked_duration_since(Instant::now()) {
                if stopped() {
                    return Err(Failed::Stopped);
                }
                std::thread::sleep(left.min(HEED_STOP));
            }
        }
    }

    /// Puts up `view` as the next step and waits for its reply; `None` when nobody answered
    /// before the question's deadline (and its escalation's).
    fn ask(&mut self, kind: &str, view: &Json) -> Result<Option<Json>, Failed> {
        self.close();
        let addressed = &self.asker.addressed;
        let deadline = (addressed.deadline.as_ref())
            .map(|d| json!({ "after_ms": d.after_ms, "escalate_to": d.escalate_to }));
        let mut body = json!({
            "key": self.asker.key, "run": self.asker.run, "from": self.asker.from,
            "folder": self.folder, "to": addressed.to, "kind": kind, "view": view,
            "after": self.seq, "deadline": deadline,
        });
        // Put in the body's own copy of the view: a view may be megabytes.
        if !self.kept.is_empty() && kind != "review" {
            body["view"]["kept"] = self.kept.iter().map(Given::to_json).collect();
        }
        let posted = self.say(&Said::Step(&body), None, Some(&self.stop))?;
        let (Some(question), Some(seq)) = (posted["question"].as_i64(), posted["seq"].as_i64())
        else {
            let why = format!("{} answered a step with {posted}", self.relay.name());
            return Err(Failed::Refused(why, None));
        };
        if self.question.is_some_and(|q| q != question) {
            let why = format!(
                "{} lost this question (its database was replaced?)",
                self.relay.name()
            );
            return Err(Failed::Refused(why, None));
        }
        self.question = Some(question);
        self.seq = Some(seq);
        loop {
            let state = self.say(&Said::Reply { question, seq }, None, Some(&self.stop))?;
            match state["state"].as_str() {
                Some("replied") => return Ok(Some(state["reply"].clone())),
                Some("expired") => return Ok(None),
                // Withdrawn while this run still waited (cut off from the servers for longer
                // than they wait to hear from an asker): asked again, as a new question.
                Some("withdrawn") => {
                    (self.question, self.seq) = (None, None);
                    return self.ask(kind, view);
                }
                _ => {}
            }
        }
    }
}

impl WidgetRelay for RemoteUi {
    /// Asks with a widget until its reply reads as one of `kind`; a reply that doesn't is put
    /// up again with an error. A failure leaves the request with `leave(Nav::Cancel)`, a
    /// deadline passed with `leave(Nav::TimeUp)`.
    fn relay<R>(
        &mut self,
        kind: &str,
        mut view: Json,
        read: fn(&Json) -> Option<R>,
        leave: fn(Nav) -> R,
    ) -> R {
        let cancel = leave(Nav::Cancel);
        if self.stopped.is_some() {
            return cancel;
        }
        loop {
            match self.ask(kind, &view) {
                Ok(None) => {
                    self.timed_out = true;
                    return leave(Nav::TimeUp);
                }
                Ok(Some(reply)) => match read(&reply) {
                    Some(read) => return read,
                    None => {
                        view["frame"]["error"] =
                            "That reply can't answer this question; answer again.".into();
                    }
                },
                Err(Failed::Stopped) => {
                    self.stopped = Some(StopReason::Interrupted);
                    return cancel;
                }
                Err(Failed::Refused(why, _)) => {
                    crate::stderr::warn(&why);
                    self.stopped = Some(StopReason::Ended);
                    return cancel;
                }
            }
        }
    }
}

impl Ui for RemoteUi {
    /// A token the server does not take, or an addressee nobody answers for, means nobody can
    /// be asked: `inbox-refused` or `unknown-addressee` (the server's refusal of a `to` is its
    /// one 400 here), said on stderr too.
    fn mode(&mut self) -> UiMode {
        // The addressees are checked too, so that a question for nobody is not asked at all.
        let addressed = &self.asker.addressed;
        let whoami = Said::Whoami {
            to: addressed.to.as_deref(),
            escalate_to: (addressed.deadline.as_ref()).and_then(|d| d.escalate_to.as_deref()),
        };
        match self.say(&whoami, None, Some(&self.stop)) {
            Ok(_) => UiMode::Widgets,
            Err(Failed::Refused(why, status)) => {
                crate::stderr::warn(&why);
                UiMode::Unavailable(match status {
                    Some(400) => Absence::UnknownAddressee,
                    _ => Absence::InboxRefused,
                })
            }
            // Interrupted before the server was heard: the request is cancelled (exit 130),
            // as anywhere a signal cuts a question off; nobody was found missing.
            Err(Failed::Stopped) => {
                self.stopped = Some(StopReason::Interrupted);
                UiMode::Widgets
            }
        }
    }

    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        let reply = self.relay_select(frame, request);
        self.keep(answered::select(frame, request, &reply));
        reply
    }

    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply {
        let reply = self.relay_multi_select(frame, request);
        self.keep(answered::multi_select(frame, request, &reply));
        reply
    }

    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        // A secret typed before (the person went back to it) is not put in the view: every
        // view is kept, and shown to whoever answers. It is typed again.
        let unsaid;
        let request = match request.secret && request.initial.is_some() {
            true => {
                unsaid = TextRequest {
                    initial: None,
                    ..request.clone()
                };
                &unsaid
            }
            false => request,
        };
        let reply = self.relay_text(frame, request);
        // A secret is said to nobody.
        if !request.secret {
            self.keep(answered::text(frame, &reply));
        }
        reply
    }

    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        let reply = self.relay_confirm(frame, request);
        self.keep(answered::confirm(frame, &reply));
        reply
    }

    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        let reply = self.relay_number(frame, request);
        self.keep(answered::number(frame, &reply));
        reply
    }

    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        self.relay_review(request)
    }

    /// The plugin is done: the question leaves the team's list once the result is out (see
    /// `closing`). One this run stopped waiting for (Ctrl-C, a signal, a cancelled MCP call)
    /// is withdrawn, so that nobody answers it for nothing, and a retry of the request within
    /// the window is shown what was answered.
    fn finished(&mut self) {
        let status = match self.stopped {
            None if !self.timed_out => "finished",
            Some(StopReason::Interrupted) => "withdrawn",
            // Expired, or the server refused this run: nothing to close.
            _ => return,
        };
        // Called after every attempt of a call: a replay after a failure asks nothing, and
        // keeps the close its first attempt left.
        if let Some(question) = self.question.take() {
            self.closing = Some((question, status));
        }
    }

    fn stop_reason(&self) -> Option<StopReason> {
        self.stopped
    }
}

impl Drop for RemoteUi {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// A team inbox that answers every step at once, and writes down each close it is told.
    struct Closes(Arc<Mutex<Vec<String>>>);

    impl Relay for Closes {
        fn once(&self, said: &Said<'_>, _: &dyn Fn() -> bool) -> Outcome {
            Outcome::Answered(match said {
                Said::Step(_) => json!({ "question": 7, "seq": 1 }),
                Said::Reply { .. } => json!({ "state": "replied", "reply": { "answered": true } }),
                Said::Finish { question, status } => {
                    self.0.lock().unwrap().push(format!("{question} {status}"));
                    json!({})
                }
                Said::Whoami { .. } => json!({}),
            })
        }

        fn name(&self) -> &str {
            "the test's inbox"
        }
    }

    #[test]
    fn a_question_is_closed_once_after_the_result_even_when_a_replay_finishes_again() {
        let closes = Arc::new(Mutex::new(Vec::new()));
        let asker = Asker {
            key: "key".into(),
            run: "run".into(),
            from: json!({}),
            addressed: Addressed::default(),
        };
        let relay = Box::new(Closes(closes.clone()));
        let mut ui = RemoteUi::new(relay, asker, Arc::default());
        let reply = ui.confirm(&frame(1, "Ship it?"), &ConfirmRequest { initial: None });
        assert_eq!(reply, ConfirmReply::Answered(true));
        // The first attempt's end, then a replay's (after the plugin failed), which asked
        // nothing: the question is still to be closed, and not yet.
        ui.finished();
        ui.finished();
        assert!(
            closes.lock().unwrap().is_empty(),
            "closed before the result"
        );
        drop(ui);
        assert_eq!(*closes.lock().unwrap(), ["7 finished"]);
    }

    /// Question `position` of a batch of three.
    fn frame(position: u32, prompt: &str) -> Frame {
        Frame {
            position,
            total: 3,
            header: None,
            place: None,
            prompt: prompt.into(),
            required: true,
            mark_optional: false,
            hint: None,
            error: None,
            context: None,
            declinable: false,
        }
    }

    /// A team inbox that writes down each step put up, and answers a text with its own text
    /// (what is typed to a secret, `hunter2`, to the other `hello`), anything else with yes.
    struct Steps(Arc<Mutex<Vec<Json>>>);

    impl Relay for Steps {
        fn once(&self, said: &Said<'_>, _: &dyn Fn() -> bool) -> Outcome {
            let mut steps = self.0.lock().unwrap();
            Outcome::Answered(match said {
                Said::Step(body) => {
                    steps.push((*body).clone());
                    json!({ "question": 7, "seq": steps.len() })
                }
                Said::Reply { .. } => {
                    let last = &steps.last().unwrap()["view"];
                    let reply = match last["frame"]["prompt"].as_str() {
                        Some("Password?") => json!({ "submitted": "hunter2" }),
                        Some("Name?") => json!({ "submitted": "hello" }),
                        _ => json!({ "answered": true }),
                    };
                    json!({ "state": "replied", "reply": reply })
                }
                Said::Finish { .. } | Said::Whoami { .. } => json!({}),
            })
        }

        fn name(&self) -> &str {
            "the test's inbox"
        }
    }

    #[test]
    fn each_step_carries_the_answers_so_far_and_never_a_secret() {
        let steps = Arc::new(Mutex::new(Vec::new()));
        let asker = Asker {
            key: "key".into(),
            run: "run".into(),
            from: json!({}),
            addressed: Addressed::default(),
        };
        let mut ui = RemoteUi::new(Box::new(Steps(steps.clone())), asker, Arc::default());
        let text = |secret: bool, initial: Option<&str>| TextRequest {
            multiline: false,
            placeholder: None,
            initial: initial.map(str::to_owned),
            secret,
            min_length: None,
            max_length: None,
        };
        ui.text(&frame(1, "Name?"), &text(false, None));
        // Gone back to: the secret typed before is not put in the view again.
        ui.text(&frame(2, "Password?"), &text(true, Some("hunter2")));
        ui.confirm(&frame(3, "Ship it?"), &ConfirmRequest { initial: None });
        let steps = steps.lock().unwrap();
        let kept = |step: usize| steps[step]["view"]["kept"].clone();
        assert_eq!(kept(0), Json::Null, "nothing answered before the first");
        let name = json!([{ "position": 1, "question": "Name?", "answer": "hello" }]);
        assert_eq!(kept(1), name);
        assert_eq!(
            kept(2),
            name,
            "the secret is kept from no one but the person"
        );
        assert!(
            !steps
                .iter()
                .any(|step| step.to_string().contains("hunter2")),
            "{steps:?}"
        );
    }
}
