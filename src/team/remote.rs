//! The asking side of the team inbox: a [`Ui`] whose every widget is put up on the server
//! (`--inbox URL`) as the question's current step, and whose reply is the one a person gave
//! there. The plugin stays here and judges every reply, so a refused one comes back as the
//! next step with its error.
//!
//! Nothing is lost: a server that is down or restarting is retried with backoff, a step is put
//! up again after a restart as the same step (the server matches it by the request's key and
//! the view), and an asker that restarts finds its steps, and the replies given, again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use interview_host::ui::web_wire as wire;
use interview_host::ui::{
    Absence, ConfirmReply, ConfirmRequest, Frame, MultiSelectReply, MultiSelectRequest, Nav,
    NumberReply, NumberRequest, ReviewReply, ReviewRequest, SelectReply, SelectRequest, StopReason,
    TextReply, TextRequest, Ui, UiMode,
};
use serde_json::{Value as Json, json};

use super::Deadline;
use crate::inbox::{Ask, Call, From};

/// How long a long poll asks the server to wait, and how long the connection may take beyond.
const POLL_SECONDS: u64 = 20;
const POLL_TIMEOUT: Duration = Duration::from_secs(POLL_SECONDS + 15);
/// The backoff between retries while the server cannot be reached: from the first to the last.
const FIRST_RETRY: Duration = Duration::from_millis(200);
const LAST_RETRY: Duration = Duration::from_secs(5);
/// How long a finished question's closing is retried while the server is down; a withdrawn
/// one's, after a stop.
const FINISH_PATIENCE: Duration = Duration::from_secs(10);
const WITHDRAW_PATIENCE: Duration = Duration::from_secs(2);
/// How often a wait looks at the stop flag: Ctrl-C is heard within this, and hundreds of
/// askers waiting on one machine wake it a few thousand times a second, not tens of thousands.
const HEED_STOP: Duration = Duration::from_millis(200);

/// Where and as whom to ask.
#[derive(Clone)]
pub struct Inbox {
    /// The server's address (`http://host:port`, or behind a proxy `https://…`).
    pub url: String,
    /// The agent's token (`INTERVIEW_INBOX_TOKEN`).
    pub token: String,
    /// Whom the questions are for (`--to`): a person or a group; `None` for anyone.
    pub to: Option<String>,
    /// How long each question waits for a person (`--deadline`), and whom it goes to at the
    /// deadline (`--escalate-to`); `None`: as long as this process waits.
    pub deadline: Option<Deadline>,
}

/// The team inbox a command asks through (`--inbox`): a [`RemoteUi`] for each request.
pub struct Team {
    inbox: Inbox,
    stop: Arc<AtomicBool>,
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
    ) -> Result<Team, String> {
        let token = std::env::var("INTERVIEW_INBOX_TOKEN").map_err(|_| {
            format!(
                "--inbox {url} needs the agent's token in INTERVIEW_INBOX_TOKEN \
                 (`interview inbox token add --agent NAME` makes one; an MCP client passes its \
                 servers only the environment their configuration names: put it in the \
                 server's `env`)"
            )
        })?;
        Ok(Team {
            inbox: Inbox {
                url,
                token,
                to,
                deadline,
            },
            stop,
        })
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
        let ask = Ask {
            from: From::here(command, client, server),
            call,
        };
        let from = serde_json::to_value(&ask.from).unwrap_or_default();
        RemoteUi::new(self.inbox.clone(), ask.key(), from, self.stop.clone())
    }
}

/// A request asked through the team inbox (see the module documentation).
pub struct RemoteUi {
    inbox: Inbox,
    agent: ureq::Agent,
    /// The request's identity (`Ask::key`), and who asks, as the server keeps them.
    key: String,
    from: Json,
    folder: Option<String>,
    /// The question and step last put up in this run.
    question: Option<i64>,
    seq: Option<i64>,
    stop: Arc<AtomicBool>,
    stopped: Option<StopReason>,
    /// The question's deadline passed unanswered: it stays on the server, expired, so that the
    /// same request asked again waits again where it stopped.
    timed_out: bool,
}

/// Why a call to the server gave up.
enum Failed {
    /// The server will not take it (a bad token, a refused body): retrying would not help.
    /// Its status, when it answered one.
    Refused(String, Option<u16>),
    /// Asked to stop (Ctrl-C, a signal).
    Stopped,
}

impl RemoteUi {
    /// A UI asking `key`'s questions in `inbox`, stopping when `stop` is set.
    pub fn new(inbox: Inbox, key: String, from: Json, stop: Arc<AtomicBool>) -> RemoteUi {
        let folder = from["folder"].as_str().map(str::to_owned);
        RemoteUi {
            agent: ureq::AgentBuilder::new()
                .timeout_connect(Duration::from_secs(10))
                .timeout(POLL_TIMEOUT)
                .build(),
            inbox: Inbox {
                url: inbox.url.trim_end_matches('/').to_owned(),
                ..inbox
            },
            key,
            from,
            folder,
            question: None,
            seq: None,
            stop,
            stopped: None,
            timed_out: false,
        }
    }

    /// Stops when `stop` is set instead (one call of several, withdrawn on its own).
    #[cfg(feature = "mcp")]
    pub fn stopping_on(self, stop: Arc<AtomicBool>) -> RemoteUi {
        RemoteUi { stop, ..self }
    }

    /// Calls the server until it answers: a server that is down, restarting or failing (5xx)
    /// is retried with backoff, until `give_up` if given, and a busy one (429) when it says; a
    /// refusal (other 4xx) is final. Stops when asked to.
    fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<&Json>,
        give_up: Option<Instant>,
    ) -> Result<Json, Failed> {
        self.call_heeding(method, path, body, give_up, Some(&self.stop))
    }

    /// [`RemoteUi::call`] once this run was stopped: to say so to the server, until
    /// `give_up`.
    fn finishing_call(
        &self,
        method: &str,
        path: &str,
        body: &Json,
        give_up: Instant,
    ) -> Result<Json, Failed> {
        self.call_heeding(method, path, Some(body), Some(give_up), None)
    }

    /// [`RemoteUi::call`], stopping when `stop` is set.
    fn call_heeding(
        &self,
        method: &str,
        path: &str,
        body: Option<&Json>,
        give_up: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> Result<Json, Failed> {
        let stopped = || stop.is_some_and(|stop| stop.load(Ordering::SeqCst));
        let url = format!("{}{path}", self.inbox.url);
        let mut pause = FIRST_RETRY;
        let mut said = false;
        loop {
            let mut wait = None;
            let why = match self.send(method, &url, body, &stopped)? {
                Ok(Answer {
                    status: 200..=299,
                    text,
                    ..
                }) => match serde_json::from_str(&text) {
                    Ok(json) => return Ok(json),
                    Err(e) => format!("an unreadable answer ({e})"),
                },
                // The server holds as many of this agent's askers as it takes: not a failure,
                // and not said; polled again when it says.
                Ok(Answer {
                    status: 429,
                    retry_after,
                    ..
                }) => {
                    wait = Some(retry_after.unwrap_or(pause).min(LAST_RETRY));
                    String::new()
                }
                Ok(Answer {
                    status: code @ 400..=499,
                    text,
                    ..
                }) => {
                    let error = serde_json::from_str::<Json>(&text)
                        .ok()
                        .and_then(|j| j["error"].as_str().map(str::to_owned))
                        .unwrap_or(text);
                    let why = format!(
                        "the team inbox at {} refused: {} ({code})",
                        self.inbox.url,
                        interview_text::sanitize::line(&error)
                    );
                    return Err(Failed::Refused(why, Some(code)));
                }
                Ok(Answer { status, .. }) => format!("status {status}"),
                Err(why) => why,
            };
            if !said && wait.is_none() {
                eprintln!(
                    "interview: the team inbox at {} cannot be reached ({}); trying again",
                    self.inbox.url,
                    interview_text::sanitize::line(&why)
                );
                said = true;
            }
            let until = Instant::now() + wait.unwrap_or(pause);
            if give_up.is_some_and(|limit| until > limit) {
                let why = format!(
                    "the team inbox at {} could not be reached in time",
                    self.inbox.url
                );
                return Err(Failed::Refused(why, None));
            }
            // Slept in slices, so that Ctrl-C is heard within one.
            while let Some(left) = until.checked_duration_since(Instant::now()) {
                if stopped() {
                    return Err(Failed::Stopped);
                }
                std::thread::sleep(left.min(HEED_STOP));
            }
            if wait.is_none() {
                pause = (pause * 2).min(LAST_RETRY);
            }
        }
    }

    /// One request, sent from a thread of its own so that Ctrl-C is heard during a long poll:
    /// its status and body, or why it got none.
    fn send(
        &self,
        method: &str,
        url: &str,
        body: Option<&Json>,
        stopped: &dyn Fn() -> bool,
    ) -> Result<Result<Answer, String>, Failed> {
        let request = self
            .agent
            .request(method, url)
            .set("authorization", &format!("Bearer {}", self.inbox.token));
        let body = body.cloned();
        let (sent, received) = mpsc::channel();
        std::thread::spawn(move || {
            let response = match body {
                Some(body) => request.send_json(body),
                None => request.call(),
            };
            let outcome = match response {
                Ok(response) | Err(ureq::Error::Status(_, response)) => {
                    let status = response.status();
                    let retry_after = (response.header("retry-after"))
                        .and_then(|seconds| seconds.trim().parse().ok())
                        .map(Duration::from_secs);
                    read_body(response).map(|text| Answer {
                        status,
                        text,
                        retry_after,
                    })
                }
                Err(error) => Err(error.to_string()),
            };
            let _ = sent.send(outcome);
        });
        loop {
            match received.recv_timeout(HEED_STOP) {
                Ok(outcome) => return Ok(outcome),
                Err(mpsc::RecvTimeoutError::Timeout) if !stopped() => {}
                // Stopped: the request is left to end on its own.
                Err(_) => return Err(Failed::Stopped),
            }
        }
    }

    /// Puts up `view` as the next step and waits for its reply; `None` when nobody answered
    /// before the question's deadline (and its escalation's).
    fn ask(&mut self, kind: &str, view: &Json) -> Result<Option<Json>, Failed> {
        let deadline = self
            .inbox
            .deadline
            .as_ref()
            .map(|d| json!({ "after_ms": d.after_ms, "escalate_to": d.escalate_to }));
        let body = json!({
            "key": self.key, "run": run(), "from": self.from, "folder": self.folder,
            "to": self.inbox.to, "kind": kind, "view": view, "after": self.seq,
            "deadline": deadline,
        });
        let posted = self.call("POST", "/api/steps", Some(&body), None)?;
        let (Some(question), Some(seq)) = (posted["question"].as_i64(), posted["seq"].as_i64())
        else {
            let why = format!(
                "the team inbox at {} answered a step with {posted}",
                self.inbox.url
            );
            return Err(Failed::Refused(why, None));
        };
        if self.question.is_some_and(|q| q != question) {
            let why = "the team inbox lost this question (its database was replaced?)";
            return Err(Failed::Refused(why.into(), None));
        }
        self.question = Some(question);
        self.seq = Some(seq);
        let path = format!("/api/steps/{question}/{seq}?wait={POLL_SECONDS}");
        loop {
            let state = self.call("GET", &path, None, None)?;
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

    /// Asks with a widget until its reply reads as one of `kind`; a reply that doesn't is put
    /// up again with an error. A failure leaves the request with `leave(Nav::Cancel)`, a
    /// deadline passed with `leave(Nav::TimeUp)`.
    fn widget<R>(
        &mut self,
        kind: &str,
        frame: &Frame,
        request: Json,
        read: fn(&Json) -> Option<R>,
        leave: fn(Nav) -> R,
    ) -> R {
        let mut view = json!({ "frame": wire::frame(frame), "request": request });
        self.answer(kind, &mut view, read, leave)
    }

    fn answer<R>(
        &mut self,
        kind: &str,
        view: &mut Json,
        read: fn(&Json) -> Option<R>,
        leave: fn(Nav) -> R,
    ) -> R {
        let cancel = leave(Nav::Cancel);
        if self.stopped.is_some() {
            return cancel;
        }
        loop {
            match self.ask(kind, view) {
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
                    eprintln!("interview: {why}");
                    self.stopped = Some(StopReason::Ended);
                    return cancel;
                }
            }
        }
    }
}

/// What an answer's envelope adds to it at most (`{"state": "replied", "by": …}`).
const ENVELOPE: usize = 64 << 10;

/// What the server answered a request.
struct Answer {
    status: u16,
    text: String,
    /// When it asked to be asked again (`Retry-After`, in seconds).
    retry_after: Option<Duration>,
}

/// A response's body, as long as any the server may send: a reply it took at its own limit
/// ([`super::BODY_LIMIT`]) comes whole (ureq's own `into_string` stops at 10 MB, which left
/// an asker retrying a longer answer forever).
fn read_body(response: ureq::Response) -> Result<String, String> {
    use std::io::Read;
    let limit = super::BODY_LIMIT + ENVELOPE;
    let mut text = String::new();
    let read = (response.into_reader().take(limit as u64 + 1)).read_to_string(&mut text);
    match read {
        Ok(length) if length > limit => Err(format!("a response over {limit} bytes")),
        Ok(_) => Ok(text),
        Err(error) => Err(error.to_string()),
    }
}

/// This process's run: a random id, the same for every request it asks, so that the servers
/// tell its questions from another process's asking the same.
fn run() -> &'static str {
    static RUN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        use std::hash::BuildHasher;
        // RandomState's keys come from the system's randomness.
        let random = std::collections::hash_map::RandomState::new();
        let (high, low) = (random.hash_one(std::process::id()), random.hash_one(0u8));
        format!("{high:016x}{low:016x}")
    })
}

/// `text` for a URL's query, every byte but unreserved ones as `%XX`.
fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

impl Ui for RemoteUi {
    /// A token the server does not take, or an addressee nobody answers for, means nobody can
    /// be asked: `inbox-refused` or `unknown-addressee` (the server's refusal of a `to` is its
    /// one 400 here), said on stderr too.
    fn mode(&mut self) -> UiMode {
        // The addressees are checked too, so that a question for nobody is not asked at all.
        let escalate_to = self
            .inbox
            .deadline
            .as_ref()
            .and_then(|d| d.escalate_to.as_ref());
        let query: Vec<String> = [("to", self.inbox.to.as_ref()), ("escalate_to", escalate_to)]
            .into_iter()
            .filter_map(|(name, value)| Some(format!("{name}={}", percent_encoded(value?))))
            .collect();
        let path = match query.is_empty() {
            true => "/api/whoami".to_owned(),
            false => format!("/api/whoami?{}", query.join("&")),
        };
        match self.call("GET", &path, None, None) {
            Ok(_) => UiMode::Widgets,
            Err(Failed::Refused(why, status)) => {
                eprintln!("interview: {why}");
                UiMode::Unavailable(match status {
                    Some(400) => Absence::UnknownAddressee,
                    _ => Absence::InboxRefused,
                })
            }
            Err(Failed::Stopped) => {
                self.stopped = Some(StopReason::Interrupted);
                UiMode::Unavailable(Absence::NoInbox)
            }
        }
    }

    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        let request = wire::select(request);
        self.widget(
            "select",
            frame,
            request,
            wire::select_reply,
            SelectReply::Nav,
        )
    }

    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply {
        let request = wire::multi_select(request);
        self.widget(
            "multi_select",
            frame,
            request,
            wire::multi_select_reply,
            MultiSelectReply::Nav,
        )
    }

    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        let request = wire::text(request);
        self.widget("text", frame, request, wire::text_reply, TextReply::Nav)
    }

    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        let request = wire::confirm(request);
        self.widget(
            "confirm",
            frame,
            request,
            wire::confirm_reply,
            ConfirmReply::Nav,
        )
    }

    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        let request = wire::number(request);
        self.widget(
            "number",
            frame,
            request,
            wire::number_reply,
            NumberReply::Nav,
        )
    }

    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        let mut view = json!({ "request": wire::review(request) });
        let leave = |nav| match nav {
            Nav::TimeUp => ReviewReply::TimeUp,
            _ => ReviewReply::Cancel,
        };
        self.answer("review", &mut view, wire::review_reply, leave)
    }

    /// The plugin is done: the question leaves the team's list. One this run stopped waiting
    /// for (Ctrl-C, a signal, a cancelled MCP call) is withdrawn, so that nobody answers it
    /// for nothing, and a retry of the request within the window is shown what was answered.
    fn finished(&mut self) {
        let status = match self.stopped {
            None if !self.timed_out => "finished",
            Some(StopReason::Interrupted) => "withdrawn",
            // Expired, or the server refused this run: nothing to close.
            _ => return,
        };
        if let Some(question) = self.question.take() {
            // Only to take it off the list: a server that stays down is not waited for long,
            // the result is the agent's already (and a silent run's question is withdrawn by
            // the servers all the same).
            let body = json!({ "status": status });
            let path = format!("/api/questions/{question}/finish");
            // A person who pressed Ctrl-C is not kept waiting on a server that is down.
            let patience = match status {
                "withdrawn" => WITHDRAW_PATIENCE,
                _ => FINISH_PATIENCE,
            };
            let give_up = Instant::now() + patience;
            let _ = self.finishing_call("POST", &path, &body, give_up);
        }
    }

    fn stop_reason(&self) -> Option<StopReason> {
        self.stopped
    }
}
