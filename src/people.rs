//! Finding the person who answers: where their keys come from, where the questions are drawn,
//! and what stops them (end of input, Ctrl-C, SIGTERM).

use std::fs::OpenOptions;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;

use interview_host::input::{Interrupter, LineReader};
use interview_host::ui::numbered::{NumberedUi, Stop};
use interview_host::{NoPerson, Ui};

/// The interrupter of the current person, for the signal handler.
static INTERRUPTER: Mutex<Option<Interrupter>> = Mutex::new(None);

/// A UI that can say it was interrupted.
pub trait Stopped: Ui {
    fn interrupted(&self) -> bool;
}

impl Stopped for NumberedUi {
    fn interrupted(&self) -> bool {
        self.stop() == Some(Stop::Interrupted)
    }
}

impl Stopped for NoPerson {
    fn interrupted(&self) -> bool {
        false
    }
}

/// The person to ask, or none. When the request came on standard input, answers come from the
/// terminal (`/dev/tty`), as with fzf; otherwise from standard input, typed or piped.
pub fn find(request_on_stdin: bool) -> Option<NumberedUi> {
    let (lines, interrupter, out): (LineReader, Interrupter, Box<dyn Write>) = if request_on_stdin {
        let (lines, interrupter) = LineReader::tty().ok()?;
        // The questions go where the answers come from: stderr may be captured by the caller.
        let tty = OpenOptions::new().write(true).open("/dev/tty").ok()?;
        (lines, interrupter, Box::new(tty))
    } else {
        let (lines, interrupter) = LineReader::stdin();
        (lines, interrupter, Box::new(std::io::stderr()))
    };
    let colour = colour(request_on_stdin || std::io::stderr().is_terminal());
    *INTERRUPTER.lock().unwrap() = Some(interrupter);
    Some(NumberedUi::new(lines, out, colour))
}

/// Attributes only for a terminal, and never with `NO_COLOR` or `TERM=dumb`.
fn colour(terminal: bool) -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    terminal && !no_color && !dumb
}

/// Routes Ctrl-C, SIGTERM and SIGHUP to the person's input as an interrupt, so that the plugin
/// returns the answers so far instead of the process dying.
pub fn on_signals() {
    let _ = ctrlc::set_handler(|| {
        if let Some(interrupter) = INTERRUPTER.lock().unwrap().as_ref() {
            interrupter.interrupt();
        }
    });
}
