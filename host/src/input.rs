//! Lines typed by a person, read on a thread of their own so that a blocked read never keeps an
//! interrupt (Ctrl-C, SIGTERM) from being noticed.

use std::io::{BufRead, BufReader, Read};
use std::os::fd::{AsRawFd, RawFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How often a reader waiting for a line looks at its interrupt flag: a signal handler can set
/// a flag, but cannot wake a thread blocked on a channel.
const INTERRUPT_CHECK: Duration = Duration::from_millis(50);

/// What the person did next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line, without its line break.
    Line(String),
    /// The input ended (Ctrl-D, end of a pipe).
    End,
    /// The process was asked to stop (Ctrl-C, SIGTERM, SIGHUP).
    Interrupted,
}

/// Where lines come from.
pub trait LineSource {
    /// The next line, or why there is none. Blocks until there is something to say.
    fn next_input(&mut self) -> Input;
    /// A person is typing at a terminal (rather than a pipe or file feeding lines).
    fn is_terminal(&self) -> bool;
    /// Turns echo of typed characters off or on, where the input is a terminal.
    fn set_echo(&mut self, _on: bool) {}
}

/// Lines from any reader, read on a background thread.
pub struct LineReader {
    events: Receiver<Input>,
    interrupted: Arc<AtomicBool>,
    terminal: Option<RawFd>,
    ended: Option<Input>,
}

/// Makes a [`LineReader`] say [`Input::Interrupted`].
#[derive(Clone)]
pub struct Interrupter(Arc<AtomicBool>);

impl Interrupter {
    /// Makes the reader's next [`LineSource::next_input`] return [`Input::Interrupted`].
    pub fn interrupt(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// The flag [`Interrupter::interrupt`] sets: setting it is all a signal handler may do
    /// (`signal_hook::flag::register`), and enough.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

impl LineReader {
    /// Reads `reader` line by line. `terminal` is its descriptor when it is a terminal, so
    /// that echo can be switched off for secrets.
    pub fn spawn(
        reader: impl Read + Send + 'static,
        terminal: Option<RawFd>,
    ) -> (Self, Interrupter) {
        let (lines, events) = channel();
        let interrupted = Arc::new(AtomicBool::new(false));
        std::thread::Builder::new()
            .name("interview-input".into())
            .spawn(move || {
                let mut reader = BufReader::new(reader);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    let event = match reader.read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => Input::End,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buffer);
                            Input::Line(line.trim_end_matches(['\n', '\r']).to_string())
                        }
                    };
                    let end = event == Input::End;
                    if lines.send(event).is_err() || end {
                        break;
                    }
                }
            })
            .expect("spawning the input thread");
        (
            LineReader {
                events,
                interrupted: interrupted.clone(),
                terminal,
                ended: None,
            },
            Interrupter(interrupted),
        )
    }

    /// Lines from standard input.
    pub fn stdin() -> (Self, Interrupter) {
        let stdin = std::io::stdin();
        let terminal = std::io::IsTerminal::is_terminal(&stdin).then(|| stdin.as_raw_fd());
        LineReader::spawn(stdin, terminal)
    }

    /// Lines from the controlling terminal (`/dev/tty`), for when standard input carries the
    /// request. Fails when the process has no terminal.
    pub fn tty() -> std::io::Result<(Self, Interrupter)> {
        let tty = std::fs::File::open("/dev/tty")?;
        let fd = tty.as_raw_fd();
        Ok(LineReader::spawn(tty, Some(fd)))
    }
}

impl LineSource for LineReader {
    fn next_input(&mut self) -> Input {
        if let Some(ended) = &self.ended {
            return ended.clone();
        }
        let event = loop {
            if self.interrupted.load(Ordering::SeqCst) {
                break Input::Interrupted;
            }
            match self.events.recv_timeout(INTERRUPT_CHECK) {
                Ok(event) => break event,
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break Input::End,
            }
        };
        // After the end or an interrupt there is nothing more to read: say so every time.
        if !matches!(event, Input::Line(_)) {
            self.ended = Some(event.clone());
        }
        event
    }

    fn is_terminal(&self) -> bool {
        self.terminal.is_some()
    }

    fn set_echo(&mut self, on: bool) {
        let Some(fd) = self.terminal else { return };
        // SAFETY: plain termios calls on a descriptor this reader keeps open.
        unsafe {
            let mut attrs: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(fd, &mut attrs) != 0 {
                return;
            }
            if on {
                attrs.c_lflag |= libc::ECHO;
            } else {
                attrs.c_lflag &= !libc::ECHO;
            }
            libc::tcsetattr(fd, libc::TCSANOW, &attrs);
        }
    }
}
