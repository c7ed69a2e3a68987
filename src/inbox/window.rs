//! `interview inbox`: the terminal a person keeps open, where the questions of every agent of
//! theirs on this machine are asked, one after the other, with the widgets of `interview ask`.

use std::io::{IsTerminal, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use interview_host::{Error, Journal, JournalProblem, Plugin};

use interview_host::ui::{StatusLine, StopReason, Ui, is_foreground};

use super::desk::{After, Desk, Ended, Turn};
use super::place::{self, Place};
use super::screen::{self, GRACE, Quiet, discard_typed_ahead, stop_on_signals};
use super::store::Store;
use super::told::{self, Fate};
use super::wire::{Ask, Call};
use crate::people;
use crate::settled::Settled;
use interview_host::Exit;

/// What `interview inbox` was asked for.
pub struct Options {
    /// Numbered lists and one answer a line, even where arrow keys work.
    pub numbered: bool,
    /// Ask in a browser page instead of this terminal; open the browser when a question
    /// comes and no page shows it.
    #[cfg(feature = "web")]
    pub web: Option<bool>,
}

/// Where the inbox asks.
enum Desktop {
    /// This terminal, a UI made for each question, with a line saying who else waits; quiet
    /// in between.
    Terminal {
        numbered: bool,
        quiet: Quiet,
        waiting: StatusLine,
    },
    /// One page for the inbox's lifetime.
    #[cfg(feature = "web")]
    Page(Arc<Mutex<interview_host::ui::WebUi>>),
}

impl Desktop {
    fn new(options: &Options) -> Result<Desktop, (Exit, String)> {
        #[cfg(feature = "web")]
        if let Some(open) = options.web {
            // The inbox waits for its page as long as the person takes: a question is not
            // answered `unavailable` because nobody opened the page yet.
            let forever = std::time::Duration::from_secs(100 * 365 * 24 * 3600);
            let mut page = people::page_served(web_page(), open, forever).map_err(failed)?;
            page.stays_for_more(true);
            let _ = writeln!(
                std::io::stderr(),
                "interview inbox: the questions are at {}",
                page.url()
            );
            return Ok(Desktop::Page(Arc::new(Mutex::new(page))));
        }
        let stdin = std::io::stdin();
        if !stdin.is_terminal() || !is_foreground(stdin.as_fd()) {
            return Err((
                Exit::Unavailable,
                "the inbox needs a terminal of its own: run `interview inbox` in the foreground \
                 of a terminal (a tmux pane, a second window)"
                    .into(),
            ));
        }
        Ok(Desktop::Terminal {
            numbered: options.numbered,
            quiet: Quiet::of_stdin(),
            waiting: StatusLine::default(),
        })
    }

    /// Nothing typed shows while no question is asked.
    fn idle(&self) {
        match self {
            Desktop::Terminal { quiet, .. } => quiet.hush(),
            #[cfg(feature = "web")]
            Desktop::Page(_) => {}
        }
    }

    /// Keeps the line under the keys saying who else waits, while the inbox is open.
    fn watch(&self, desk: &Arc<Desk>) {
        match self {
            Desktop::Terminal { waiting, .. } => {
                let (desk, waiting) = (desk.clone(), waiting.clone());
                std::thread::spawn(move || {
                    loop {
                        waiting.set(screen::waiting_line(desk.waiting().iter().map(who)));
                        std::thread::sleep(std::time::Duration::from_millis(250));
                    }
                });
            }
            #[cfg(feature = "web")]
            Desktop::Page(_) => {}
        }
    }

    /// The person, for one question asked by `from`, and the flag that stops their UI.
    fn person(
        &self,
        #[cfg_attr(not(feature = "web"), expect(unused_variables, reason = "the page's"))]
        from: &super::From,
    ) -> (Box<dyn Ui>, Option<Arc<AtomicBool>>) {
        match self {
            Desktop::Terminal {
                numbered,
                quiet,
                waiting,
            } => {
                // Keys meant for the question before (a double Enter) are not this one's.
                std::thread::sleep(GRACE);
                discard_typed_ahead();
                quiet.speak();
                let person = people::in_inbox(*numbered, waiting.clone());
                (person, people::stop_flag())
            }
            #[cfg(feature = "web")]
            Desktop::Page(page) => {
                let mut ui = page.lock().unwrap_or_else(|e| e.into_inner());
                ui.set_asker(Some(who(from)));
                ui.set_folder(
                    from.folder
                        .as_deref()
                        .map(|f| interview_text::sanitize::line(&screen::tilde(f))),
                );
                let stop = ui.stop_flag();
                drop(ui);
                (Box::new(page.clone()), Some(stop))
            }
        }
    }
}

/// Runs the inbox in this terminal until Ctrl-C, SIGTERM or SIGHUP. Questions that are not
/// answered stay pending, for the next inbox; nothing is cancelled on the askers' side.
pub fn run(plugin: &Plugin, options: &Options) -> Result<Exit, (Exit, String)> {
    // Taken first: a signal sent as soon as the inbox says where it is must close it, also
    // when it started with SIGINT ignored (a background job of a script).
    let quit = Arc::new(AtomicBool::new(false));
    let current: Arc<Mutex<Option<Arc<AtomicBool>>>> = Arc::default();
    stop_on_signals(quit.clone(), current.clone())?;
    let place = Place::find().map_err(failed)?;
    place::private_dir(&place.sockets).map_err(failed)?;
    place::private_dir(&place.data).map_err(failed)?;
    let desktop = Desktop::new(options)?;
    let store = Store::open(&place.data).map_err(|e| failed(e.to_string()))?;
    let desk = Desk::new(store).map_err(|e| failed(e.to_string()))?;
    let socket = Socket::bind(&place)?;
    desktop.watch(&desk);
    desk.accept(
        socket
            .listener
            .try_clone()
            .map_err(|e| failed(e.to_string()))?,
    );

    let mut screen = std::io::stderr();
    let _ = writeln!(
        screen,
        "interview inbox: the questions of your agents on this machine are asked here.\n\
         Ctrl-C closes it; unanswered questions stay pending for the next inbox."
    );
    let mut idle = false;
    loop {
        if !idle {
            let _ = writeln!(screen, "\nWaiting for questions…");
            idle = true;
        }
        desktop.idle();
        let Some(turn) = desk.next(&quit) else { break };
        let run = &turn.held.run;
        // A retry of a request whose earlier run went away takes over what the person typed.
        let taken = (turn.earlier.as_ref()).is_some_and(|earlier| desk.take_over(earlier, run));
        let mut resumed = false;
        // Taken only when no other inbox is answering it: its journal is theirs meanwhile.
        let journal = match Journal::open(desk.journal(run)) {
            Ok(mut journal) => {
                resumed = taken && journal.earlier_replies() > 0;
                // The person's last answer to that run reached nobody: they give it again,
                // for this one.
                if resumed && turn.earlier.as_ref().is_some_and(|e| e.completed) {
                    journal.forget_last_reply();
                }
                Some(journal)
            }
            Err(Error::Journal {
                problem: JournalProblem::InUse,
                ..
            }) => {
                desk.end(run, Ended::Elsewhere);
                continue;
            }
            Err(error) => {
                crate::warn(&format!("{error}; answers will not survive a restart"));
                None
            }
        };
        idle = false;
        announce(&turn, resumed);
        if ask(plugin, &desktop, &desk, &turn, journal, &current) == After::Closed {
            break;
        }
    }
    drop(socket);
    let _ = writeln!(screen, "\ninterview inbox: closed.");
    Ok(Exit::Answered)
}

/// The web inbox's page: on `INTERVIEW_INBOX_PORT` when set (a port forwarded over SSH),
/// else on any free port; with a secret new every time, so that a tab left open from an earlier
/// inbox, or a bookmark, never shows questions to, or takes answers from, whatever listens there
/// now.
#[cfg(feature = "web")]
pub(crate) fn web_page() -> std::io::Result<interview_host::ui::WebUi> {
    let port: u16 = match std::env::var("INTERVIEW_INBOX_PORT") {
        Ok(port) => port.trim().parse().map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("INTERVIEW_INBOX_PORT is {port:?}, not a port number"),
            )
        })?,
        Err(_) => 0,
    };
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).map_err(|e| {
        std::io::Error::new(e.kind(), format!("cannot listen on 127.0.0.1:{port}: {e}"))
    })?;
    interview_host::ui::WebUi::serve(listener, interview_host::ui::WebUi::new_token()?)
}

/// The inbox's socket, removed when the inbox closes.
struct Socket {
    listener: UnixListener,
    path: std::path::PathBuf,
}

impl Socket {
    fn bind(place: &Place) -> Result<Socket, (Exit, String)> {
        let path = place.socket(std::process::id()).map_err(failed)?;
        // A socket at this process's own name is a dead inbox's that had the same id, unless
        // an inbox answers there (one of the same id in another process namespace).
        if std::os::unix::net::UnixStream::connect(&path).is_ok() {
            return Err(failed(format!(
                "another inbox listens at {}; set INTERVIEW_INBOX to a folder of its own",
                path.display()
            )));
        }
        let _ = std::fs::remove_file(&path);
        let listener = UnixListener::bind(&path)
            .map_err(|e| failed(format!("cannot open the inbox at {}: {e}", path.display())))?;
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600));
        Ok(Socket { listener, path })
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Who asks, in a few words fit for a terminal: the client's name, else the MCP server's, else
/// the command.
fn who(from: &super::From) -> String {
    told::who(
        from.client.as_deref(),
        from.server.as_deref(),
        &from.command,
    )
}

/// Says who asks, above the question, and rings. A request asked before by a run that went
/// away says so: this is another run, and what was typed to that one is played back
/// (`resumed`) or not.
fn announce(turn: &Turn, resumed: bool) {
    let from = &turn.held.ask.from;
    let who = who(from);
    told::announce(&told::Asking {
        who: &who,
        folder: from.folder.as_deref(),
        for_server: from.server.as_deref().filter(|_| from.client.is_some()),
        behind: turn.behind,
        again: turn.earlier.as_ref().map(|earlier| told::Again {
            ended_at: Some(earlier.ended_at),
            resumed,
            yours: true,
        }),
    });
}

/// Asks the person `turn`'s question with the plugin, keeping their answers in `journal` until
/// the end, and says what became of it when it did not reach its asker.
fn ask(
    plugin: &Plugin,
    desktop: &Desktop,
    desk: &Desk,
    turn: &Turn,
    journal: Option<Journal>,
    current: &Mutex<Option<Arc<AtomicBool>>>,
) -> After {
    let run = &turn.held.run;
    let who = who(&turn.held.ask.from);
    let (person, stop) = desktop.person(&turn.held.ask.from);
    // The asker's withdrawal and the signals both stop the person's UI.
    if let Some(stop) = &stop {
        desk.asking_with(run, stop.clone());
    }
    *current.lock().unwrap_or_else(|e| e.into_inner()) = stop;
    let ran = run_plugin(plugin, person, journal, &turn.held.ask);
    *current.lock().unwrap_or_else(|e| e.into_inner()) = None;
    let ended = if ran.cut_off {
        Ended::CutOff(ran.result)
    } else {
        Ended::Answered(ran.result)
    };
    let after = desk.end(run, ended);
    // Whether the person gave anything to it (kept in its journal, for a retry to take over).
    let typed = (ran.journal.as_ref()).is_some_and(|journal| journal.earlier_replies() > 0);
    let fate = match after {
        After::Sent => Some(Fate::Sent),
        After::Withdrawn => Some(Fate::Withdrawn),
        After::Gone { answered } => Some(Fate::Gone { answered }),
        After::Kept | After::Closed => None,
    };
    let told = fate.map(|fate| told::ended(&who, fate, typed));
    if let Some(told) = told {
        let _ = writeln!(std::io::stderr().lock(), "{told}");
    }
    // A question that stays keeps its journal (dropped here, with its lock) for whoever asks
    // it next: this inbox again, the next one, or a retry of the request.
    if after == After::Sent
        && let Some(journal) = ran.journal
    {
        let _ = journal.finish();
    }
    after
}

/// A question's run through the plugin.
struct Ran {
    /// How it ended.
    result: Settled,
    /// The person was cut off (Ctrl-C, a signal, the asker's withdrawal).
    cut_off: bool,
    journal: Option<Journal>,
}

fn run_plugin(plugin: &Plugin, person: Box<dyn Ui>, journal: Option<Journal>, ask: &Ask) -> Ran {
    let mut session = match plugin.session(person) {
        Ok(session) => session,
        Err(error) => {
            return Ran {
                result: ask.call.failed(&error.chain(), &[]),
                cut_off: false,
                journal,
            };
        }
    };
    if let Some(journal) = journal {
        session.keep_journal(journal);
    }
    let result = match &ask.call {
        Call::Tool {
            tool,
            arguments,
            skip_response,
        } => {
            session.set_skip_response(skip_response.clone());
            Settled::of_call(session.call(tool, arguments))
        }
        Call::Elicit { request } => {
            Settled::of_elicitation(request, session.elicit(request, ask.from.server.as_deref()))
        }
    };
    Ran {
        result,
        cut_off: session.ui().stop_reason().is_some_and(StopReason::cut_off),
        journal: session.take_journal(),
    }
}

fn failed(message: String) -> (Exit, String) {
    (Exit::Failed, message)
}
