//! `interview inbox --team URL`: a person answers a team inbox's questions in this terminal,
//! with the arrow-key widgets of `interview ask`, as the team's page answers them. The oldest
//! open question first, one at a time: its current widget is read from the server, drawn here,
//! and the reply posted; the asker's plugin judges it, and its next widget (the same one with
//! an error, the next question of the batch, the review) comes the same way.
//!
//! Nothing is sent that the person did not choose: a question answered by someone else, or
//! withdrawn, while it is on the screen is taken off it, and what was typed to it is not sent;
//! Ctrl-C leaves the question open for the team and closes the inbox.

use std::io::{IsTerminal, Write};
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use interview_host::ui::web_wire;
use interview_host::ui::{StatusLine, StopReason, Ui, UiMode, is_foreground};
use interview_host::{Exit, Plugin, PluginLines};
use interview_text::sanitize;
use serde_json::{Value as Json, json};

use super::http_relay::HttpRelay;
use super::remote::{HEED_STOP, Outcome};
use crate::inbox::screen::{self, GRACE, Quiet, discard_typed_ahead, tilde};

/// How often the open questions are listed while none is being answered.
const LOOK_AGAIN: Duration = Duration::from_millis(500);
/// The longest wait between two tries while the server cannot be reached.
const LAST_RETRY: Duration = Duration::from_secs(5);

/// Answers the questions of the team inbox at `url` in this terminal, with the person's token
/// from `INTERVIEW_INBOX_TOKEN`, until Ctrl-C, SIGTERM or SIGHUP.
pub fn run(url: &str, numbered: bool, plugin: &Plugin) -> Result<Exit, (Exit, String)> {
    let quit = Arc::new(AtomicBool::new(false));
    let current: Arc<Mutex<Option<Arc<AtomicBool>>>> = Arc::default();
    screen::stop_on_signals(quit.clone(), current.clone())?;
    let token = std::env::var("INTERVIEW_INBOX_TOKEN").map_err(|_| {
        (
            Exit::Invalid,
            format!(
                "inbox --team {url} needs your person's token in INTERVIEW_INBOX_TOKEN \
                 (`interview inbox token add --person NAME` on the server makes one)"
            ),
        )
    })?;
    let stdin = std::io::stdin();
    if !stdin.is_terminal() || !is_foreground(stdin.as_fd()) {
        return Err((
            Exit::Unavailable,
            format!(
                "the inbox needs a terminal of its own: run `interview inbox --team` in the \
                 foreground of a terminal (a tmux pane, a second window), or answer on the \
                 team's page at {url}"
            ),
        ));
    }
    let server = HttpRelay::new(url, &token);
    let never = || false;
    let me = match server.request("GET", "/api/whoami", None, &never) {
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
        Outcome::Refused(why, _) => return Err((Exit::Invalid, why)),
        Outcome::Unreachable(why) => {
            return Err((Exit::Failed, format!("cannot reach {url}: {why}")));
        }
        Outcome::Busy(_) | Outcome::Stopped => {
            return Err((Exit::Failed, format!("{url} is too busy to answer")));
        }
    };
    let mut screen_out = std::io::stderr();
    let _ = writeln!(
        screen_out,
        "interview inbox: answering the questions of the team inbox at {} as {}.\n\
         Ctrl-C closes it; a question you leave stays open for the team.",
        sanitize::line(url),
        sanitize::line(me["name"].as_str().unwrap_or("?")),
    );
    let desk = Desk {
        server,
        plugin,
        numbered,
        quit,
        current,
        quiet: Quiet::of_stdin(),
        waiting: StatusLine::default(),
    };
    desk.run();
    let _ = writeln!(std::io::stderr(), "\ninterview inbox: closed.");
    Ok(Exit::Answered)
}

/// The person's terminal and the server they answer for.
struct Desk<'p> {
    server: HttpRelay,
    /// Draws the widgets in numbered lines where arrow keys are not read.
    plugin: &'p Plugin,
    /// Numbered lists and one answer a line (`--numbered`).
    numbered: bool,
    /// Set by the signals that close the inbox.
    quit: Arc<AtomicBool>,
    /// The stop flag of the widget on the screen, for the signals to stop it.
    current: Arc<Mutex<Option<Arc<AtomicBool>>>>,
    quiet: Quiet,
    /// The line under the keys saying who else waits.
    waiting: StatusLine,
}

/// A question as the server lists it.
struct Listed {
    question: i64,
    agent: String,
    client: Option<String>,
    folder: Option<String>,
}

/// What became of one question here.
enum Left {
    /// It ended (sent, withdrawn, expired, or answered by someone else): said on the screen.
    Ended,
    /// The inbox closes.
    Closing,
}

impl Desk<'_> {
    fn run(&self) {
        let mut idle = false;
        let mut retry = Duration::ZERO;
        while !self.quit.load(Ordering::SeqCst) {
            let open = match self.open_questions() {
                Ok(open) => {
                    retry = Duration::ZERO;
                    open
                }
                Err(why) => {
                    retry = (retry * 2).clamp(LOOK_AGAIN, LAST_RETRY);
                    let _ = writeln!(std::io::stderr(), "✖ {why}; trying again");
                    self.pause(retry);
                    continue;
                }
            };
            let Some((first, rest)) = open.split_first() else {
                if !idle {
                    let _ = writeln!(std::io::stderr(), "\nWaiting for questions…");
                    idle = true;
                }
                self.quiet.hush();
                self.pause(LOOK_AGAIN);
                continue;
            };
            idle = false;
            self.waiting.set(screen::waiting_line(rest.iter().map(who)));
            if let Left::Closing = self.answer(first) {
                break;
            }
        }
    }

    /// Sleeps `span`, or less when the inbox closes.
    fn pause(&self, span: Duration) {
        let until = Instant::now() + span;
        while !self.quit.load(Ordering::SeqCst) && Instant::now() < until {
            std::thread::sleep(HEED_STOP.min(until - Instant::now()));
        }
    }

    /// The questions open to this person, oldest first.
    fn open_questions(&self) -> Result<Vec<Listed>, String> {
        let listing = match self.get("/api/questions") {
            Outcome::Answered(listing) => listing,
            Outcome::Refused(why, _) | Outcome::Unreachable(why) => return Err(why),
            Outcome::Busy(_) | Outcome::Stopped => return Ok(Vec::new()),
        };
        let mut open: Vec<(i64, Listed)> = (listing["questions"].as_array())
            .into_iter()
            .flatten()
            .filter_map(|q| {
                let listed = Listed {
                    question: q["question"].as_i64()?,
                    agent: q["agent"].as_str()?.to_owned(),
                    client: q["from"]["client"].as_str().map(str::to_owned),
                    folder: q["folder"].as_str().map(str::to_owned),
                };
                Some((q["asked_at"].as_i64().unwrap_or(0), listed))
            })
            .collect();
        open.sort_by_key(|(asked_at, listed)| (*asked_at, listed.question));
        Ok(open.into_iter().map(|(_, listed)| listed).collect())
    }

    fn get(&self, path: &str) -> Outcome {
        self.server
            .request("GET", path, None, &|| self.quit.load(Ordering::SeqCst))
    }

    /// Answers `listed` for as long as it asks this person something: each widget it puts up,
    /// drawn by one UI, as a request is in `interview ask` (each answer collapses to a line,
    /// the review to the answers given), until it ends.
    fn answer(&self, listed: &Listed) -> Left {
        let who = who(listed);
        let mut person = None;
        let (left, told) = self.steps(listed, &who, &mut person);
        if let Some(mut person) = person {
            person.ui.ui().finished();
        }
        if let Some(told) = told {
            let _ = writeln!(std::io::stderr().lock(), "{told}");
        }
        left
    }

    /// [`Desk::answer`]'s steps, drawn by `person` (made at the first); what became of the
    /// question, and what to tell of it once the UI is done.
    fn steps(
        &self,
        listed: &Listed,
        who: &str,
        person: &mut Option<Person>,
    ) -> (Left, Option<String>) {
        let question = listed.question;
        let mut after = 0;
        let mut replied = false;
        loop {
            if self.quit.load(Ordering::SeqCst) {
                return (Left::Closing, None);
            }
            let view = match self.get(&format!("/q/{question}/view?after={after}")) {
                Outcome::Answered(view) => view,
                Outcome::Stopped => return (Left::Closing, None),
                // Answered, withdrawn or gone since it was listed.
                Outcome::Refused(_, Some(404)) => return (Left::Ended, None),
                Outcome::Refused(why, _) | Outcome::Unreachable(why) => {
                    let _ = writeln!(std::io::stderr(), "✖ {why}; trying again");
                    self.pause(LOOK_AGAIN);
                    continue;
                }
                Outcome::Busy(later) => {
                    self.pause(later.unwrap_or(LOOK_AGAIN));
                    continue;
                }
            };
            let seq = view["seq"].as_i64().unwrap_or(0);
            let kind = view["kind"].as_str().unwrap_or_default().to_owned();
            match kind.as_str() {
                "done" => {
                    let told = person
                        .is_some()
                        .then(|| ended(who, view["ending"].as_str(), replied));
                    return (Left::Ended, told);
                }
                // The asker's plugin judges the reply; its next widget, or the end, follows.
                "waiting" => {
                    after = seq;
                    continue;
                }
                _ => {}
            }
            if person.is_none() {
                announce(who, listed);
                match self.person() {
                    Some(found) => *person = Some(found),
                    None => return (Left::Closing, None),
                }
            }
            let Some(drawing) = person.as_mut() else {
                return (Left::Closing, None);
            };
            match self.draw(drawing, question, seq, &kind, &view) {
                Drawn::Replied(reply) => match self.post(question, seq, reply) {
                    Posted::Taken => {
                        replied = true;
                        after = seq;
                    }
                    // The widget is read again: shown anew, with what is wrong.
                    Posted::Refused(why) => {
                        let _ = writeln!(std::io::stderr(), "✖ {why}");
                    }
                    Posted::Gone(why) => return (Left::Ended, Some(format!("✖ {why}"))),
                },
                Drawn::MovedOn => {
                    // That UI was stopped: the next step, if any is this person's, gets another.
                    if let Some(mut stopped) = person.take() {
                        stopped.ui.ui().finished();
                    }
                    let _ = writeln!(
                        std::io::stderr(),
                        "✖ This question was answered elsewhere or withdrawn meanwhile: what \
                         you typed to it was not sent."
                    );
                }
                Drawn::Closing => return (Left::Closing, None),
                Drawn::Unreadable(why) => {
                    let told = format!(
                        "✖ {who}'s question cannot be shown here ({}): answer it on the page",
                        sanitize::line(&why)
                    );
                    return (Left::Ended, Some(told));
                }
            }
        }
    }

    /// The person at this terminal, for one question: the arrow-key widgets, or, where they
    /// cannot be drawn (`--numbered`, `TERM=dumb`), the plugin's numbered line mode; `None`
    /// (said) when neither can be had.
    fn person(&self) -> Option<Person> {
        // Keys meant for the question before (a double Enter) are not this one's.
        std::thread::sleep(GRACE);
        discard_typed_ahead();
        self.quiet.speak();
        let mut ui = crate::people::in_inbox(self.numbered, self.waiting.clone());
        let stop = crate::people::stop_flag();
        let drawn = match ui.mode() {
            UiMode::Widgets => Drawer::Keys(ui),
            UiMode::Lines => match PluginLines::new(self.plugin, ui) {
                Ok(lines) => Drawer::Lines(Box::new(lines)),
                Err(error) => {
                    let _ = writeln!(std::io::stderr(), "✖ {}", error.chain());
                    return None;
                }
            },
            UiMode::Unavailable(_) => {
                let _ = writeln!(std::io::stderr(), "✖ nobody can be asked on this terminal");
                return None;
            }
        };
        Some(Person { ui: drawn, stop })
    }

    /// Draws the widget of step `seq` until the person replies, or the step moves on without
    /// them (another person's answer, a withdrawal), or the inbox closes.
    fn draw(&self, person: &mut Person, question: i64, seq: i64, kind: &str, view: &Json) -> Drawn {
        let mut widget = serde_json::Map::new();
        for part in ["frame", "request"] {
            if let Some(value) = view.get(part) {
                widget.insert(part.into(), value.clone());
            }
        }
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = person.stop.clone();
        let moved_on = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        self.watch(
            question,
            seq,
            person.stop.clone(),
            moved_on.clone(),
            done.clone(),
        );
        let reply = web_wire::answer(kind, &Json::Object(widget), person.ui.ui());
        done.store(true, Ordering::SeqCst);
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let ui = person.ui.ui();
        let cut_off = ui.stop_reason().is_some_and(StopReason::cut_off);
        match reply {
            Err(why) => Drawn::Unreadable(why),
            // The plugin could not draw it: the cancel it gave is nobody's.
            _ if let Some(failure) = person.ui.failure() => Drawn::Unreadable(failure),
            _ if self.quit.load(Ordering::SeqCst) => Drawn::Closing,
            _ if moved_on.load(Ordering::SeqCst) => Drawn::MovedOn,
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

    /// Posts the person's reply to step `seq`.
    fn post(&self, question: i64, seq: i64, reply: Json) -> Posted {
        let body = json!({ "seq": seq, "reply": reply });
        let never = || false;
        let path = format!("/q/{question}/reply");
        let mut retry = Duration::ZERO;
        loop {
            match self.server.request("POST", &path, Some(&body), &never) {
                Outcome::Answered(_) => return Posted::Taken,
                Outcome::Refused(why, Some(409 | 404)) => return Posted::Gone(why),
                Outcome::Refused(why, _) => return Posted::Refused(why),
                // Sent again until it is taken: the server takes one answer a step, so a
                // reply that arrived before its answer was lost is told apart (409).
                Outcome::Unreachable(why) if retry < LAST_RETRY => {
                    let _ = writeln!(std::io::stderr(), "✖ {why}; sending again");
                    retry = (retry * 2).clamp(LOOK_AGAIN, LAST_RETRY);
                    std::thread::sleep(retry);
                }
                Outcome::Busy(later) => std::thread::sleep(later.unwrap_or(LOOK_AGAIN)),
                Outcome::Unreachable(why) => {
                    return Posted::Gone(format!("your answer could not be sent: {why}"));
                }
                Outcome::Stopped => return Posted::Gone("the inbox closed".into()),
            }
        }
    }
}

/// How a question this person was shown ended, in words.
fn ended(who: &str, ending: Option<&str>, replied: bool) -> String {
    match (ending, replied) {
        (Some("sent"), true) => format!("✔ Sent to {who}"),
        (Some("sent"), false) => format!("✖ {who}'s question was answered by someone else."),
        (Some("withdrawn"), _) => format!("✖ {who} withdrew this question."),
        (Some("expired"), _) => format!("✖ {who}'s question expired unanswered."),
        _ => format!("✖ {who}'s question ended."),
    }
}

/// The person at this terminal, answering one question: its widgets' UI and what stops it.
struct Person {
    ui: Drawer,
    stop: Option<Arc<AtomicBool>>,
}

/// What draws a question's widgets here.
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
}

/// Who asks, in a few words fit for a terminal: the agent's token name, with its client.
fn who(listed: &Listed) -> String {
    let agent = sanitize::line(&listed.agent);
    match listed.client.as_deref().map(sanitize::line) {
        Some(client) if client != agent => format!("{agent} ({client})"),
        _ => agent,
    }
}

/// Says who asks, above the question, and rings.
fn announce(who: &str, listed: &Listed) {
    screen::ring(who);
    let mut line = format!("── {who} asks");
    if let Some(folder) = &listed.folder {
        line.push_str(&format!(" · in {}", sanitize::line(&tilde(folder))));
    }
    let _ = writeln!(std::io::stderr().lock(), "\n{line}");
}
