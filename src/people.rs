//! Finding the person who answers: where their keys come from, where the questions are drawn,
//! and what stops them (end of input, Ctrl-C, SIGTERM).

use std::fs::OpenOptions;
use std::io::{IsTerminal, Write};
use std::os::fd::AsFd;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

#[cfg(feature = "team")]
use interview_host::ui::StatusLine;
use interview_host::ui::{Absence, LineReader, LineUi, NoPerson, TerminalUi, Ui, is_foreground};

/// The current person's stop flag, which Ctrl-C, SIGTERM and SIGHUP set once [`on_signals`]
/// routes them to it.
static STOP: Mutex<Option<Arc<AtomicBool>>> = Mutex::new(None);

/// Finds the person. When the request came on standard input, the keys come from the terminal
/// (`/dev/tty`), as with fzf; otherwise from standard input, typed or piped. The arrow-key UI
/// is used wherever a terminal can be drawn on, unless `numbered` or `TERM=dumb`.
pub fn find(request_on_stdin: bool, numbered: bool) -> Box<dyn Ui> {
    find_with(request_on_stdin, numbered, |ui| ui)
}

/// The person answering a relayed widget (an inbox's) at their own terminal: as [`find`]
/// finds them, with a UI for one widget, so that a review does not list again the
/// answers each widget's UI showed.
#[cfg(feature = "team")]
pub fn relaying(numbered: bool, status: StatusLine) -> Box<dyn Ui> {
    find_with(false, numbered, |ui| {
        ui.without_sent_line()
            .with_status(status)
            .without_review_list()
            .without_confirming_answers()
    })
}

/// [`find`], with `fitted` applied to an arrow-key UI.
fn find_with(
    request_on_stdin: bool,
    numbered: bool,
    fitted: impl FnOnce(TerminalUi) -> TerminalUi,
) -> Box<dyn Ui> {
    *STOP.lock().unwrap_or_else(|e| e.into_inner()) = None;
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    let tty = || OpenOptions::new().write(true).open("/dev/tty");
    let keys_on_terminal = if request_on_stdin {
        tty().is_ok()
    } else {
        std::io::stdin().is_terminal()
    };
    // Started in the background of a terminal (by an agent, or with `&`): the keys typed
    // there are the foreground program's, and reading them would stop this process.
    let in_front = match (keys_on_terminal, request_on_stdin) {
        (false, _) => true,
        (true, true) => tty().is_ok_and(|tty| is_foreground(tty.as_fd())),
        (true, false) => is_foreground(std::io::stdin().as_fd()),
    };
    if !in_front {
        eprintln!(
            "interview: nobody is asked here: this process is not the job in the foreground of \
             its terminal, where another program reads the keys (an open `interview inbox` is \
             asked instead)"
        );
        return nobody(Absence::Background);
    }
    if keys_on_terminal
        && !numbered
        && !dumb
        && let Ok(ui) = TerminalUi::on_controlling_terminal(colour(true)).map(fitted)
    {
        stop_on_signal(ui.stop_flag());
        return Box::new(ui);
    }
    let (lines, interrupter, out): (_, _, Box<dyn Write>) = if request_on_stdin {
        let Ok((lines, interrupter)) = LineReader::tty() else {
            return nobody(Absence::NoTerminal);
        };
        // The questions go where the answers come from: stderr may be captured by the caller.
        let Ok(tty) = tty() else {
            return nobody(Absence::NoTerminal);
        };
        (lines, interrupter, Box::new(tty))
    } else {
        let (lines, interrupter) = LineReader::stdin();
        (lines, interrupter, Box::new(std::io::stderr()))
    };
    stop_on_signal(interrupter.flag());
    let colour = colour(request_on_stdin || std::io::stderr().is_terminal());
    Box::new(LineUi::new(lines, out, colour))
}

/// A browser page for the person: served on 127.0.0.1; when a request has questions and no page
/// shows them, its address is said on stderr and it is opened in the browser, unless `open` is
/// false. Nobody opening it within `open_timeout` makes the request `unavailable`.
#[cfg(feature = "web")]
pub fn page(
    open: bool,
    open_timeout: std::time::Duration,
) -> Result<interview_host::ui::WebUi, PageError> {
    page_served(interview_host::ui::WebUi::start(), open, open_timeout)
}

/// [`page`], served as `started` says (at an address of the caller's choosing).
#[cfg(feature = "web")]
pub fn page_served(
    started: std::io::Result<interview_host::ui::WebUi>,
    open: bool,
    open_timeout: std::time::Duration,
) -> Result<interview_host::ui::WebUi, PageError> {
    use interview_host::ui::PageNotice;
    let mut ui = started.map_err(PageError)?;
    ui.open_when_needed(open);
    ui.open_timeout(open_timeout);
    ui.on_notice(|notice| {
        // Not eprintln!, which panics when stderr is gone: the page still works without it.
        let mut stderr = std::io::stderr().lock();
        let _ = match notice {
            PageNotice::Waiting { url } => writeln!(stderr, "The questions are at {url}"),
            PageNotice::NoBrowser { error } => writeln!(
                stderr,
                "interview: no browser could be opened ({error}): open the address above"
            ),
            PageNotice::NotOpened { url, waited } => writeln!(
                stderr,
                "interview: nobody opened {url} within {} s (--open-timeout), so nobody was asked",
                waited.as_secs()
            ),
            _ => Ok(()),
        };
    });
    Ok(ui)
}

/// The page could not be served (no port to listen on, no secret drawn): nobody can be asked
/// in a browser.
#[cfg(feature = "web")]
#[derive(Debug)]
pub struct PageError(std::io::Error);

#[cfg(feature = "web")]
impl std::fmt::Display for PageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot serve the page: {}", self.0)
    }
}

#[cfg(feature = "web")]
impl std::error::Error for PageError {}

/// The person in a browser [`page`], whom a signal stops.
#[cfg(feature = "web")]
pub fn web(open: bool, open_timeout: std::time::Duration) -> Result<Box<dyn Ui>, PageError> {
    let ui = page(open, open_timeout)?;
    stop_on_signal(ui.stop_flag());
    Ok(Box::new(ui))
}

/// Attributes only for a terminal, and never with `NO_COLOR` or `TERM=dumb`.
pub fn colour(terminal: bool) -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    terminal && !no_color && !dumb
}

/// The stop flag of the person [`find`] found last, if their UI has one.
#[cfg(feature = "team")]
pub fn stop_flag() -> Option<Arc<AtomicBool>> {
    STOP.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

fn stop_on_signal(stop: Arc<AtomicBool>) {
    *STOP.lock().unwrap() = Some(stop);
}

/// A flag that Ctrl-C, SIGTERM and SIGHUP set, for a request handed to an inbox: it is
/// withdrawn there.
pub fn stop_on_signals() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        let _ = signal_hook::flag::register(signal, stop.clone());
    }
    stop
}

/// Nobody to ask, for why. Boxed as every other person of this command is: the plugin is linked
/// to the imports of one type of UI once a process, and each other type costs a linking of its
/// own (a tenth of a millisecond) at the start of the run that needs it.
pub fn nobody(why: Absence) -> Box<dyn Ui> {
    Box::new(NoPerson(why))
}

/// Routes Ctrl-C, SIGTERM and SIGHUP to the person's UI, so that the plugin returns the
/// answers so far instead of the process dying. (In raw mode Ctrl-C arrives as a key.) The
/// handler only sets the UI's stop flag, which the UI looks at while it waits: no thread is
/// started for it.
pub fn on_signals() {
    let Some(stop) = STOP.lock().unwrap().clone() else {
        return;
    };
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        let _ = signal_hook::flag::register(signal, stop.clone());
    }
}
