//! `interview inbox --team URL`: a person answers a team inbox's questions in this terminal,
//! with the arrow-key widgets of `interview ask`, as the team's page answers them. The oldest
//! open question first, one at a time: its current widget is read from the server, drawn here,
//! and the reply posted; the asker's plugin judges it, and its next widget (the same one with
//! an error, the next question of the batch, the review) comes the same way.
//!
//! Nothing is sent that the person did not choose: a question answered by someone else, or
//! withdrawn, while it is on the screen is taken off it, and what was typed to it is not sent;
//! Ctrl-C leaves the question open for the team and closes the inbox.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::io::{IsTerminal, Write};
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use interview_host::ui::web_wire;
use interview_host::ui::{StatusLine, StopReason, Ui, UiMode, is_foreground};
use interview_host::{Exit, Given, Plugin, PluginLines};
use interview_text::sanitize;
use serde_json::{Value as Json, json};

use super::backoff::Backoff;
use super::http_relay::HttpRelay;
use super::remote::{HEED_STOP, Outcome};
use crate::inbox::screen::{self, GRACE, Quiet, discard_typed_ahead};
use crate::inbox::told::{self, Fate};

/// How often the open questions are listed while none is being answered, and the first pause
/// before trying again a server that could not be reached.
const LOOK_AGAIN: Duration = Duration::from_millis(500);
/// How often the line saying who else waits is brought up to date.
const WAITING_LINE: Duration = Duration::from_secs(2);
/// How long a reply is sent again while the server cannot be reached.
const SENDING: Duration = Duration::from_secs(30);
/// How long this machine's inbox waits for the server it has just started (or another inbox
/// serves) to answer.
const SERVING: Duration = Duration::from_secs(5);

/// Whose inbox a terminal answers.
pub enum Inbox<'a> {
    /// A team's, at its URL, with the person's token from `INTERVIEW_INBOX_TOKEN`.
    Team { url: &'a str },
    /// This machine's own, served on its socket at `url`, with the place's person token: its
    /// questions are all this person's, and are said as this machine's inbox says them. One
    /// terminal at a time asks each, as claimed in the folder `claims`.
    #[cfg_attr(
        not(feature = "team-server"),
        expect(dead_code, reason = "only a build that serves it answers it")
    )]
    Own {
        url: &'a str,
        token: String,
        claims: std::path::PathBuf,
    },
}

/// Where the person answers.
pub enum Desktop {
    /// This terminal: a UI made for each widget; `numbered`: numbered lists and one answer a
    /// line (`--numbered`), even where arrow keys work.
    Terminal { numbered: bool },
    /// One page in a browser for the inbox's lifetime (`interview inbox --web`), which says
    /// how each question ended and waits there for the next.
    #[cfg(feature = "web")]
    #[cfg_attr(
        not(feature = "team-server"),
        expect(dead_code, reason = "only this machine's inbox has a page")
    )]
    Page(Arc<Mutex<interview_host::ui::WebUi>>),
}

impl Desktop {
    fn is_terminal(&self) -> bool {
        matches!(self, Desktop::Terminal { .. })
    }
}

/// Answers the questions of `inbox` on `desktop` until Ctrl-C, SIGTERM or SIGHUP.
pub fn run(inbox: Inbox<'_>, desktop: Desktop, plugin: &Plugin) -> Result<Exit, (Exit, String)> {
    let quit = Arc::new(AtomicBool::new(false));
    let current: Arc<Mutex<Option<Arc<AtomicBool>>>> = Arc::default();
    screen::stop_on_signals(quit.clone(), current.clone())?;
    let (url, token, claims) = match inbox {
        Inbox::Team { url } => {
            let token = std::env::var("INTERVIEW_INBOX_TOKEN").map_err(|_| {
                (
                    Exit::Invalid,
                    format!(
                        "inbox --team {url} needs your person's token in INTERVIEW_INBOX_TOKEN \
                         (`interview inbox token add --person NAME` on the server makes one)"
                    ),
                )
            })?;
            (url, token, None)
        }
        Inbox::Own { url, token, claims } => (url, token, Some(claims)),
    };
    let own = claims.is_some();
    let stdin = std::io::stdin();
    if desktop.is_terminal() && (!stdin.is_terminal() || !is_foreground(stdin.as_fd())) {
        let (command, elsewhere) = match own {
            true => ("interview inbox", String::new()),
            false => (
                "interview inbox --team",
                format!(", or answer on the team's page at {url}"),
            ),
        };
        return Err((
            Exit::Unavailable,
            format!(
                "the inbox needs a terminal of its own: run `{command}` in the foreground of a \
                 terminal (a tmux pane, a second window){elsewhere}"
            ),
        ));
    }
    let server = HttpRelay::new(url, &token);
    let closing = || quit.load(Ordering::SeqCst);
    // This machine's inbox may have just started serving it, on a thread of this process's.
    let patience = Instant::now() + if own { SERVING } else { Duration::ZERO };
    let whoami = loop {
        match server.request("GET", "/api/whoami", None, &closing) {
            Outcome::Unreachable(_) if Instant::now() < patience && !closing() => {
                std::thread::sleep(Duration::from_millis(50));
            }
            outcome => break outcome,
        }
    };
    let me = match whoami {
        // Closed (Ctrl-C, a signal) before it could begin.
        _ if closing() => {
            let _ = writeln!(std::io::stderr(), "interview inbox: closed.");
            return Ok(Exit::Answered);
        }
        Outcome::Answered(me) if me["kind"] == "person" => me,
        Outcome::Answered(me) => {
            return Err((
                Exit::Invalid,
                format!(
                    "INTERVIEW_INBOX_TOKEN is the token of {}, an agent: answering takes a \
                     person's token",
                    sanitize::line(me["name"].as_str().unwrap_or("?"))
                ),
            ));
        }
        Outcome::Refused(why, _) => return Err((Exit::Invalid, sanitize::line(&why))),
        Outcome::Unreachable(why) => {
            let why = sanitize::line(&why.to_string());
            return Err((Exit::Failed, format!("cannot reach {url}: {why}")));
        }
        Outcome::Busy(_) | Outcome::Stopped => {
            return Err((Exit::Failed, format!("{url} is too busy to answer")));
        }
    };
    let mut screen_out = std::io::stderr();
    let _ = match own {
        true => writeln!(
            screen_out,
            "interview inbox: the questions of your agents on this machine are asked here.\n\
             Ctrl-C closes it; unanswered questions stay pending for the next inbox."
        ),
        false => writeln!(
            screen_out,
            "interview inbox: answering the questions of the team inbox at {} as {}.\n\
             Ctrl-C closes it; a question you leave stays open for the team.",
            sanitize::line(url),
            sanitize::line(me["name"].as_str().unwrap_or("?")),
        ),
    };
    let desk = Desk {
        claims,
        me: me["name"].as_str().unwrap_or_default().to_owned(),
        server,
        plugin,
        desktop,
        quit,
        current,
        quiet: Quiet::of_stdin(),
        waiting: StatusLine::default(),
        passed: RefCell::default(),
        elsewhere: RefCell::default(),
    };
    let ended = desk.run();
    let _ = writeln!(std::io::stderr(), "\ninterview inbox: closed.");
    ended
        .map(|()| Exit::Answered)
        .map_err(|why| (Exit::Failed, why.to_string()))
}

/// The person's terminal and the server they answer for.
struct Desk<'p> {
    /// In this machine's own inbox (see [`Inbox::Own`]), where its terminals claim the
    /// question each asks; `None` in a team's.
    claims: Option<std::path::PathBuf>,
    /// This person's name, as the server knows them.
    me: String,
    server: HttpRelay,
    /// Draws the widgets in numbered lines where arrow keys are not read.
    plugin: &'p Plugin,
    /// Where the person answers.
    desktop: Desktop,
    /// Set by the signals that close the inbox.
    quit: Arc<AtomicBool>,
    /// The stop flag of the widget on the screen, for the signals to stop it.
    current: Arc<Mutex<Option<Arc<AtomicBool>>>>,
    quiet: Quiet,
    /// The line under the keys saying who else waits.
    waiting: StatusLine,
    /// Questions passed over until their step changes, with that step: one whose view this
    /// terminal cannot draw is not announced again and again.
    passed: RefCell<HashMap<i64, i64>>,
    /// Questions someone else answered a step of while it was on this screen: they come after
    /// the others, so that two people do not race for each step of one batch.
    elsewhere: RefCell<HashSet<i64>>,
}

/// A question one terminal of this machine's inbox asks, which the others leave alone: a lock
/// on a file of its own, let go (and the file removed) when it is done with here, or when the
/// terminal's process ends.
struct Claim {
    path: std::path::PathBuf,
    _file: std::fs::File,
}

impl Claim {
    /// `question`'s claim in `dir`, unless another terminal holds it.
    fn take(dir: &std::path::Path, question: i64) -> Option<Claim> {
        use std::os::fd::AsRawFd;
        let path = dir.join(format!("asking-{question}.lock"));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .ok()?;
        // SAFETY: flock on a file this function opened and keeps.
        let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
        // Locked, but perhaps a file its last holder removed as this one opened it: the claim
        // is the file still at the path, else none (it is tried again).
        let same = |at: &std::fs::Metadata, held: &std::fs::Metadata| {
            use std::os::unix::fs::MetadataExt;
            (at.dev(), at.ino()) == (held.dev(), held.ino())
        };
        let locked = locked
            && matches!(
                (std::fs::metadata(&path), file.metadata()),
                (Ok(at), Ok(held)) if same(&at, &held)
            );
        // Not `then_some`: a claim made and dropped would remove the holder's file.
        match locked {
            true => Some(Claim { path, _file: file }),
            false => None,
        }
    }
}

/// Whether another terminal holds `question`'s claim in `dir` (`None`: a team's inbox, whose
/// terminals claim nothing): it is not waiting for this one. A look that takes a claim
/// being made at that moment away makes its terminal try again.
fn claimed_elsewhere(dir: Option<&std::path::Path>, question: i64) -> bool {
    use std::os::fd::AsRawFd;
    let Some(dir) = dir else {
        return false;
    };
    let Ok(file) = std::fs::File::open(dir.join(format!("asking-{question}.lock"))) else {
        return false;
    };
    // SAFETY: flock on a file this function opened; closing it lets go.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) != 0 }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A question as the server lists it.
struct Listed {
    question: i64,
    /// Its current step.
    seq: i64,
    folder: Option<String>,
    /// Another run of a request asked before, whose answers were played back (`resumed`) or
    /// not.
    again: bool,
    resumed: bool,
    /// When the earlier run's question ended (ms since the epoch).
    earlier_ended_at: Option<i64>,
    /// Who asks, as the screen names them.
    who: String,
    /// The MCP server an elicitation comes from, through the client that asks it.
    for_server: Option<String>,
}

/// What became of one question here.
enum Left {
    /// It ended here (sent, withdrawn, expired, answered by someone else), as said on the
    /// screen.
    Ended,
    /// The inbox closes.
    Closing,
    /// The server will not hear this person any more (the token revoked): why.
    Refused(String),
}

/// Why the server gave no answer: the inbox closes, the failure may pass, or it is for good
/// (the token is no longer taken).
enum Failure {
    Closing,
    Passing(String),
    Fatal(String),
}

/// The server will not hear this person any more (their token was revoked, or is no
/// person's): its refusal, as it said it. The terminal closes on it, for there is nothing left
/// to answer here.
#[derive(Debug)]
struct Unheard(String);

impl std::fmt::Display for Unheard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unheard {}

/// The answer of a request, or why there is none.
fn answer_of(outcome: Outcome) -> Result<Json, Failure> {
    match outcome {
        Outcome::Answered(answer) => Ok(answer),
        Outcome::Stopped => Err(Failure::Closing),
        Outcome::Refused(why, Some(401 | 403)) => Err(Failure::Fatal(sanitize::line(&why))),
        Outcome::Refused(why, _) => Err(Failure::Passing(sanitize::line(&why))),
        Outcome::Unreachable(why) => Err(Failure::Passing(sanitize::line(&why.to_string()))),
        Outcome::Busy(_) => Err(Failure::Passing("the server is busy".into())),
    }
}

impl Desk<'_> {
    /// Answers question after question until the inbox closes; why, when the server stopped
    /// hearing this person.
    fn run(&self) -> Result<(), Unheard> {
        let answering = Arc::new(AtomicI64::new(0));
        self.watch_waiting(answering.clone());
        // Said at once, as an inbox opens, whether or not a question is there already.
        let _ = writeln!(std::io::stderr(), "\nWaiting for questions…");
        let mut idle = true;
        let mut backoff = Backoff::from(LOOK_AGAIN);
        while !self.quit.load(Ordering::SeqCst) {
            let open = match self.open_questions() {
                Ok(open) => {
                    backoff.answered();
                    open
                }
                Err(Failure::Closing) => break,
                Err(Failure::Fatal(why)) => return Err(Unheard(why)),
                Err(Failure::Passing(why)) => {
                    let _ = writeln!(std::io::stderr(), "✖ {why}; trying again");
                    self.pause(backoff.failed());
                    continue;
                }
            };
            let Some((first, _claim)) = self.first_free(&open) else {
                if !idle {
                    let _ = writeln!(std::io::stderr(), "\nWaiting for questions…");
                    idle = true;
                }
                self.quiet.hush();
                self.pause(LOOK_AGAIN);
                continue;
            };
            idle = false;
            let claims = self.claims.as_deref();
            let others: Vec<&Listed> = (open.iter())
                .filter(|other| {
                    other.question != first.question && !claimed_elsewhere(claims, other.question)
                })
                .collect();
            self.waiting
                .set(screen::waiting_line(others.iter().map(|o| who(o))));
            answering.store(first.question, Ordering::SeqCst);
            let left = self.answer(first, others.len());
            answering.store(0, Ordering::SeqCst);
            // The page says how the question ended (sent, withdrawn), and waits for the next.
            #[cfg(feature = "web")]
            if let Desktop::Page(page) = &self.desktop {
                interview_host::ui::Ui::finished(&mut page.clone());
            }
            match left {
                Left::Ended => {}
                Left::Closing => return Ok(()),
                Left::Refused(why) => return Err(Unheard(why)),
            }
        }
        Ok(())
    }

    /// Whether this is this machine's own inbox, rather than a team's.
    fn own(&self) -> bool {
        self.claims.is_some()
    }

    /// The first of `open` that no other terminal of this person's is on, with the claim that
    /// keeps the others off it (in this machine's inbox; a team's people may all see it).
    fn first_free<'a>(&self, open: &'a [Listed]) -> Option<(&'a Listed, Option<Claim>)> {
        open.iter().find_map(|listed| match &self.claims {
            None => Some((listed, None)),
            Some(dir) => Claim::take(dir, listed.question).map(|claim| (listed, Some(claim))),
        })
    }

    /// Sleeps `span`, or less when the inbox closes.
    fn pause(&self, span: Duration) {
        let until = Instant::now() + span;
        while !self.quit.load(Ordering::SeqCst) && Instant::now() < until {
            std::thread::sleep(HEED_STOP.min(until - Instant::now()));
        }
    }

    /// The questions open to this person that this terminal takes, oldest first (those
    /// someone else is answering last).
    fn open_questions(&self) -> Result<Vec<Listed>, Failure> {
        let listing = answer_of(self.get("/api/questions"))?;
        let passed = self.passed.borrow();
        let elsewhere = self.elsewhere.borrow();
        let mut open: Vec<((bool, i64, i64), Listed)> = listed(&listing, self.own())
            .filter(|(_, listed)| passed.get(&listed.question) != Some(&listed.seq))
            .map(|(asked_at, listed)| {
                let later = elsewhere.contains(&listed.question);
                ((later, asked_at, listed.question), listed)
            })
            .collect();
        open.sort_by_key(|(order, _)| *order);
        Ok(open.into_iter().map(|(_, listed)| listed).collect())
    }

    /// Keeps the line under the keys saying who else waits, as the list changes while a
    /// question is answered: everyone's but `answering`'s (none while it is 0).
    fn watch_waiting(&self, answering: Arc<AtomicI64>) {
        let (server, waiting, quit, claims) = (
            self.server.clone(),
            self.waiting.clone(),
            self.quit.clone(),
            self.claims.clone(),
        );
        let own = claims.is_some();
        std::thread::spawn(move || {
            while !quit.load(Ordering::SeqCst) {
                std::thread::sleep(WAITING_LINE);
                if answering.load(Ordering::SeqCst) == 0 {
                    continue; // no question on the screen: the main loop lists them
                }
                let stopped = || quit.load(Ordering::SeqCst);
                if let Outcome::Answered(listing) =
                    server.request("GET", "/api/questions", None, &stopped)
                {
                    let current = answering.load(Ordering::SeqCst);
                    let others: Vec<Listed> = listed(&listing, own)
                        .map(|(_, listed)| listed)
                        .filter(|listed| listed.question != current)
                        .filter(|listed| !claimed_elsewhere(claims.as_deref(), listed.question))
                        .collect();
                    waiting.set(screen::waiting_line(others.iter().map(who)));
                }
            }
        });
    }

    /// How `question` ended, if it did without an answer, once its view `seq` moved on while
    /// this person was on it; `None` when it goes on (someone else answered the step) or
    /// ended with its answer.
    fn ended_since(&self, question: i64, seq: i64) -> Option<Fate> {
        let Outcome::Answered(view) = self.get(&format!("/q/{question}/view?after={seq}")) else {
            return None;
        };
        let fate = fate(view["ending"].as_str(), false, false);
        (view["kind"] == "done" && !matches!(fate, Fate::AnsweredElsewhere)).then_some(fate)
    }

    fn get(&self, path: &str) -> Outcome {
        self.server
            .request("GET", path, None, &|| self.quit.load(Ordering::SeqCst))
    }

    /// Answers `listed` for as long as it asks this person something: each widget it puts up,
    /// each drawn by a UI of its own (the terminal is the person's between them: Ctrl-C is
    /// heard, and nothing typed while the asker judges a reply answers the next widget).
    fn answer(&self, listed: &Listed, behind: usize) -> Left {
        let question = listed.question;
        let who = who(listed);
        let mut after = 0;
        let mut announced = false;
        let mut replied = false;
        let mut judged = false;
        let mut backoff = Backoff::from(LOOK_AGAIN);
        loop {
            if self.quit.load(Ordering::SeqCst) {
                return Left::Closing;
            }
            let view = match self.get(&format!("/q/{question}/view?after={after}")) {
                // Answered, withdrawn or gone since it was listed: passed over until its step
                // changes, should a list still show it.
                Outcome::Refused(_, Some(404)) => {
                    self.passed.borrow_mut().insert(question, listed.seq);
                    return Left::Ended;
                }
                Outcome::Busy(later) => {
                    self.pause(later.unwrap_or_default().max(LOOK_AGAIN));
                    continue;
                }
                other => match answer_of(other) {
                    Ok(view) => view,
                    Err(Failure::Closing) => return Left::Closing,
                    Err(Failure::Fatal(why)) => return Left::Refused(why),
                    Err(Failure::Passing(why)) => {
                        let _ = writeln!(std::io::stderr(), "✖ {why}; trying again");
                        self.pause(backoff.failed());
                        continue;
                    }
                },
            };
            backoff.answered();
            let seq = view["seq"].as_i64().unwrap_or(0);
            let kind = view["kind"].as_str().unwrap_or_default().to_owned();
            match kind.as_str() {
                "done" => {
                    if announced {
                        let fate = fate(view["ending"].as_str(), replied, judged);
                        // What was played back from an earlier run was answered too.
                        say(&told::ended(&who, fate, replied || listed.resumed));
                    }
                    return Left::Ended;
                }
                // The asker's plugin judges the reply; its next widget, or the end, follows.
                "waiting" => {
                    after = seq;
                    judged = true;
                    continue;
                }
                _ => {}
            }
            judged = false;
            let widget = widget_of(&view);
            if let Err(why) = web_wire::checked_view(&kind, &widget) {
                // Said once: the question is passed over until its step changes.
                self.passed.borrow_mut().insert(question, seq / 2);
                say(&format!(
                    "✖ {who}'s question cannot be shown here ({}): answer it on the team's page",
                    sanitize::line(&why.to_string())
                ));
                return Left::Ended;
            }
            if !announced {
                announce(&who, listed, self.own(), behind);
            }
            let Some(mut person) = self.person(!announced, listed) else {
                return Left::Closing;
            };
            // Taken over halfway (another terminal, an inbox closed, a run that went away):
            // what was answered to it before is shown above its first widget here.
            let kept: Vec<Given> = (view["kept"].as_array().into_iter().flatten())
                .filter_map(Given::from_json)
                .collect();
            if !announced && !kept.is_empty() {
                person.ui.ui().resumed(&kept);
            }
            announced = true;
            let drawn = self.draw(&mut person, question, seq, &kind, &widget);
            // A page says how the question ended once it has (see `run`).
            if self.desktop.is_terminal() {
                person.ui.ui().finished();
            }
            drop(person);
            self.quiet.hush();
            match drawn {
                Drawn::Replied(reply) => match self.post(question, seq, reply) {
                    Posted::Taken => {
                        replied = true;
                        after = seq;
                    }
                    // The widget is read again: shown anew, with what is wrong.
                    Posted::Refused(why) => say(&format!("✖ {why}")),
                    Posted::Gone(why) => {
                        say(&format!("✖ {why}"));
                        return Left::Ended;
                    }
                    Posted::Fatal(why) => return Left::Refused(why),
                    Posted::Closing => return Left::Closing,
                },
                Drawn::MovedOn => {
                    // Said as the end of the question, when it ended: its asker withdrew it or
                    // went away while this person was on it.
                    if let Some(fate) = self.ended_since(question, seq) {
                        say(&told::ended(&who, fate, replied || listed.resumed));
                        return Left::Ended;
                    }
                    say(
                        "✖ This question was answered elsewhere or withdrawn meanwhile: what you \
                         typed to it was not sent.",
                    );
                    self.elsewhere.borrow_mut().insert(question);
                    return Left::Ended;
                }
                Drawn::Closing => return Left::Closing,
                Drawn::PageClosed => {
                    say(&format!(
                        "✖ The page was closed on {who}'s question: it waits for the next page."
                    ));
                    return Left::Ended;
                }
                Drawn::Unreadable(why) => {
                    self.passed.borrow_mut().insert(question, seq / 2);
                    say(&format!(
                        "✖ {who}'s question cannot be shown here ({}): answer it on the team's \
                         page",
                        sanitize::line(&why)
                    ));
                    return Left::Ended;
                }
            }
        }
    }

    /// The person at this terminal, for one widget: the arrow-key widgets, or, where they
    /// cannot be drawn (`--numbered`, `TERM=dumb`), the plugin's numbered line mode; `None`
    /// (said) when neither can be had. Keys typed before it are dropped: they were meant for
    /// what was on the screen before, or for nothing; before a question's first widget, also
    /// those pressed as it appears (a double Enter).
    fn person(&self, first: bool, listed: &Listed) -> Option<Person> {
        let numbered = match &self.desktop {
            Desktop::Terminal { numbered } => *numbered,
            // The page holds back the keys pressed as a question appears itself.
            #[cfg(feature = "web")]
            Desktop::Page(page) => {
                let mut ui = page.lock().unwrap_or_else(|e| e.into_inner());
                ui.set_asker(Some(who(listed)));
                let folder = listed.folder.as_deref();
                ui.set_folder(folder.map(|f| sanitize::line(&screen::tilde(f))));
                let stop = ui.stop_flag();
                drop(ui);
                return Some(Person {
                    ui: Drawer::Keys(Box::new(page.clone())),
                    stop: Some(stop),
                });
            }
        };
        let _ = listed;
        if first {
            std::thread::sleep(GRACE);
        }
        discard_typed_ahead();
        self.quiet.speak();
        let mut ui = crate::people::relaying(numbered, self.waiting.clone());
        let stop = crate::people::stop_flag();
        let drawn = match ui.mode() {
            UiMode::Widgets => Drawer::Keys(ui),
            UiMode::Lines => match PluginLines::new(self.plugin, ui) {
                Ok(lines) => Drawer::Lines(Box::new(lines)),
                Err(error) => {
                    say(&format!("✖ {}", error.chain()));
                    return None;
                }
            },
            UiMode::Unavailable(_) => {
                say("✖ nobody can be asked on this terminal");
                return None;
            }
        };
        Some(Person { ui: drawn, stop })
    }

    /// Draws the widget of step `seq` until the person replies, or the step moves on without
    /// them (another person's answer, a withdrawal), or the inbox closes.
    fn draw(&self, person: &mut Person, question: i64, seq: i64, kind: &str, view: &Json) -> Drawn {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = person.stop.clone();
        // A signal before the flag was there to be set: nothing is drawn.
        if self.quit.load(Ordering::SeqCst) {
            *self.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
            return Drawn::Closing;
        }
        let moved_on = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        self.watch(
            question,
            seq,
            person.stop.clone(),
            moved_on.clone(),
            done.clone(),
        );
        let reply = web_wire::answer(kind, view, person.ui.ui());
        done.store(true, Ordering::SeqCst);
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let cut_off = person
            .ui
            .ui()
            .stop_reason()
            .is_some_and(StopReason::cut_off);
        match reply {
            Err(why) => Drawn::Unreadable(why.to_string()),
            // The plugin could not draw it: the cancel it gave is nobody's.
            _ if let Some(failure) = person.ui.failure() => Drawn::Unreadable(failure),
            _ if self.quit.load(Ordering::SeqCst) => Drawn::Closing,
            _ if moved_on.load(Ordering::SeqCst) => Drawn::MovedOn,
            // A page closed on the question leaves it, and the inbox open.
            _ if cut_off && !self.desktop.is_terminal() => Drawn::PageClosed,
            // Ctrl-C read as a key: the inbox closes, the question stays open.
            _ if cut_off => Drawn::Closing,
            Ok(reply) => Drawn::Replied(reply),
        }
    }

    /// Stops the widget of step `seq` (through `stop`) when the question moves on without
    /// this person, until `done`.
    fn watch(
        &self,
        question: i64,
        seq: i64,
        stop: Option<Arc<AtomicBool>>,
        moved_on: Arc<AtomicBool>,
        done: Arc<AtomicBool>,
    ) {
        let server = self.server.clone();
        std::thread::spawn(move || {
            let path = format!("/q/{question}/view?after={seq}");
            while !done.load(Ordering::SeqCst) {
                let stopped = || done.load(Ordering::SeqCst);
                let changed = match server.request("GET", &path, None, &stopped) {
                    Outcome::Answered(view) => view["seq"].as_i64() != Some(seq),
                    Outcome::Refused(_, Some(404)) => true,
                    Outcome::Stopped => return,
                    _ => {
                        std::thread::sleep(LOOK_AGAIN);
                        false
                    }
                };
                if changed && !done.load(Ordering::SeqCst) {
                    moved_on.store(true, Ordering::SeqCst);
                    if let Some(stop) = &stop {
                        stop.store(true, Ordering::SeqCst);
                    }
                    return;
                }
            }
        });
    }

    /// Posts the person's reply to step `seq`, sent again while the server cannot be reached
    /// (for up to [`SENDING`]), and until the inbox closes.
    fn post(&self, question: i64, seq: i64, reply: Json) -> Posted {
        let body = json!({ "seq": seq, "reply": reply });
        let path = format!("/q/{question}/reply");
        let started = Instant::now();
        let mut backoff = Backoff::from(LOOK_AGAIN);
        let mut resent = false;
        loop {
            let closing = || self.quit.load(Ordering::SeqCst);
            let sent = self.server.send("POST", &path, Some(&body), &closing);
            // The server takes one answer a step: after a send whose response was lost, the
            // answer it took is this person's when it says so.
            if resent
                && let Some(Ok(answer)) = &sent
                && answer.status == 409
                && serde_json::from_str::<Json>(&answer.text)
                    .is_ok_and(|refused| refused["by"].as_str() == Some(&self.me))
            {
                return Posted::Taken;
            }
            match self.server.answered(sent) {
                Outcome::Answered(_) => return Posted::Taken,
                Outcome::Refused(why, Some(409 | 404)) => {
                    return Posted::Gone(sanitize::line(&why));
                }
                Outcome::Refused(why, Some(401 | 403)) => {
                    return Posted::Fatal(sanitize::line(&why));
                }
                Outcome::Refused(why, _) => return Posted::Refused(sanitize::line(&why)),
                Outcome::Stopped => return Posted::Closing,
                Outcome::Busy(later) => self.pause(later.unwrap_or_default().max(LOOK_AGAIN)),
                Outcome::Unreachable(why) if started.elapsed() < SENDING => {
                    say(&format!(
                        "✖ {}; sending again",
                        sanitize::line(&why.to_string())
                    ));
                    self.pause(backoff.failed());
                    resent = true;
                }
                Outcome::Unreachable(why) => {
                    let why = sanitize::line(&why.to_string());
                    return Posted::Gone(format!("your answer could not be sent: {why}"));
                }
            }
        }
    }
}

/// The widget of a view as the server sends it: its frame and its request, without what the
/// page shows around it.
fn widget_of(view: &Json) -> Json {
    let mut widget = serde_json::Map::new();
    for part in ["frame", "request"] {
        if let Some(value) = view.get(part) {
            widget.insert(part.into(), value.clone());
        }
    }
    Json::Object(widget)
}

/// The questions of a listing (`GET /api/questions`), each with when it was asked; `own`:
/// of this machine's inbox, whose askers are named by their client, not by the token.
fn listed(listing: &Json, own: bool) -> impl Iterator<Item = (i64, Listed)> + '_ {
    (listing["questions"].as_array().into_iter().flatten()).filter_map(move |q| {
        let from = &q["from"];
        let agent = q["agent"].as_str()?;
        let listed = Listed {
            who: match own {
                true => crate::inbox::told::who(
                    from["client"].as_str(),
                    from["server"].as_str(),
                    from["command"].as_str().unwrap_or("ask"),
                ),
                false => team_who(agent, from["client"].as_str()),
            },
            for_server: (from["server"].as_str())
                .filter(|_| from["client"].is_string())
                .map(str::to_owned),
            question: q["question"].as_i64()?,
            seq: q["seq"].as_i64()?,
            folder: q["folder"].as_str().map(str::to_owned),
            again: q["again_of"].is_i64(),
            resumed: q["resumed"] == true,
            earlier_ended_at: q["earlier_ended_at"].as_i64(),
        };
        Some((q["asked_at"].as_i64().unwrap_or(0), listed))
    })
}

/// Writes `line` on the terminal, between widgets.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// What became of a question this person was shown, from its view's `ending`: `replied`, they
/// gave it an answer; `judged`, its last answer was taken and its asker had not yet moved on.
fn fate(ending: Option<&str>, replied: bool, judged: bool) -> Fate {
    match ending {
        Some("sent") if replied => Fate::Sent,
        Some("sent") => Fate::AnsweredElsewhere,
        Some("withdrawn") => Fate::Withdrawn,
        Some("gone") => Fate::Gone { answered: judged },
        Some("expired") => Fate::Expired,
        _ => Fate::Ended,
    }
}

/// The person at this terminal, answering one widget: its UI and what stops it.
struct Person {
    ui: Drawer,
    stop: Option<Arc<AtomicBool>>,
}

/// What draws a widget here.
enum Drawer {
    /// The arrow-key widgets.
    Keys(Box<dyn Ui>),
    /// The plugin's numbered line mode.
    Lines(Box<PluginLines<Box<dyn Ui>>>),
}

impl Drawer {
    fn ui(&mut self) -> &mut dyn Ui {
        match self {
            Drawer::Keys(ui) => ui,
            Drawer::Lines(lines) => &mut **lines,
        }
    }

    /// Why the plugin could not draw the last widget, if it could not.
    fn failure(&self) -> Option<String> {
        match self {
            Drawer::Keys(_) => None,
            Drawer::Lines(lines) => lines.failure().map(|error| error.chain()),
        }
    }
}

/// What became of a widget drawn here.
enum Drawn {
    /// The person's reply, as the page posts it.
    Replied(Json),
    /// The step moved on without this person's reply.
    MovedOn,
    /// The inbox closes.
    Closing,
    /// The person closed the page on it: it stays open, for the next page (or inbox).
    PageClosed,
    /// The view is no widget this host can draw: why.
    Unreadable(String),
}

/// What the server did with a reply.
enum Posted {
    Taken,
    /// Not an answer to the widget: why; the widget is asked again.
    Refused(String),
    /// The question is no longer open to it: why.
    Gone(String),
    /// The server will not hear this person any more: why.
    Fatal(String),
    /// The inbox closes before the reply was taken.
    Closing,
}

/// Who asks a team's question, in a few words fit for a terminal: the agent's token name,
/// with its client.
fn team_who(agent: &str, client: Option<&str>) -> String {
    let agent = sanitize::line(agent);
    match client.map(sanitize::line) {
        Some(client) if client != agent => format!("{agent} ({client})"),
        _ => agent,
    }
}

fn who(listed: &Listed) -> String {
    listed.who.clone()
}

/// Says who asks, above the question, and rings. A request asked again by another run says
/// so, and whether the answers given to the earlier run are filled in.
/// `own`: in this machine's inbox, whose answers are all this person's; `behind`: how many
/// questions wait after it.
fn announce(who: &str, listed: &Listed, own: bool, behind: usize) {
    told::announce(&told::Asking {
        who,
        folder: listed.folder.as_deref(),
        for_server: listed.for_server.as_deref(),
        behind,
        again: listed.again.then_some(told::Again {
            ended_at: listed.earlier_ended_at,
            resumed: listed.resumed,
            yours: own,
        }),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_another_terminal_claimed_is_not_counted_as_waiting_for_this_one() {
        let dir = tempfile::tempdir().unwrap();
        let claims = Some(dir.path());
        assert!(!claimed_elsewhere(claims, 7), "nobody claimed it yet");
        let claim = Claim::take(dir.path(), 7).unwrap();
        assert!(claimed_elsewhere(claims, 7));
        assert!(Claim::take(dir.path(), 7).is_none(), "claimed twice");
        assert!(!claimed_elsewhere(claims, 8));
        // A team's terminals claim nothing: every question waits for each of them.
        assert!(!claimed_elsewhere(None, 7));
        drop(claim);
        assert!(!claimed_elsewhere(claims, 7));
        assert!(Claim::take(dir.path(), 7).is_some());
    }
}
