//! Lines typed by a person, read as they are asked for. The reader waits for input in short
//! polls and looks at its interrupt flag between them, so that Ctrl-C or SIGTERM, which can
//! only set a flag, is noticed without a thread of its own.

use std::fs::File;
use std::io::IsTerminal;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long a reader waits for input before it looks at its interrupt flag again. (A signal
/// usually cuts the wait short anyway; this bounds it when the signal went to another thread.)
const INTERRUPT_CHECK: Duration = Duration::from_millis(50);

/// The room made for each read, at least: as much as a pipe's buffer usually holds.
const READ_SIZE: usize = 64 << 10;

/// What the person did next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line, without its line break.
    Line(String),
    /// A line longer than this many bytes: read to its end and dropped, so that a paste or a
    /// stream with no line break costs no more memory than the limit.
    TooLong(usize),
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
    /// Whether the input ends without a line within `patience`: nobody is there (an empty
    /// file, `/dev/null`, a pipe closed unwritten). A source that has sent nothing by then has
    /// not ended: a person or program may still write, and is shown the question meanwhile.
    /// An interrupt ends the wait.
    fn ended_already(&mut self, patience: Duration) -> bool {
        let _ = patience;
        false
    }
}

/// Lines from a file, pipe or terminal.
pub struct LineReader {
    fd: RawFd,
    /// The descriptor's owner, unless it is standard input's, which lives as long as the process.
    _source: Option<File>,
    terminal: bool,
    /// Bytes read; those before `start` were returned as lines already.
    pending: Vec<u8>,
    /// The longest line kept, in bytes (without its line break).
    limit: usize,
    /// The line being read went over `limit`: its bytes are dropped as they come.
    dropping: bool,
    start: usize,
    /// How far `pending` is known to hold no line break: a long line arrives in many reads,
    /// and each read is searched once.
    searched: usize,
    /// The source said it has no more (or could not be read).
    drained: bool,
    interrupted: Arc<AtomicBool>,
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
    fn on(fd: RawFd, source: Option<File>, terminal: bool) -> (Self, Interrupter) {
        let interrupted = Arc::new(AtomicBool::new(false));
        let reader = LineReader {
            fd,
            _source: source,
            terminal,
            pending: Vec::new(),
            // An answer can't be longer than a request may be: a line that is has no use,
            // and only its end is worth waiting for.
            limit: crate::sandbox::Limits::default().request_bytes(),
            dropping: false,
            start: 0,
            searched: 0,
            drained: false,
            interrupted: interrupted.clone(),
            ended: None,
        };
        (reader, Interrupter(interrupted))
    }

    /// Reads `source` (a file, pipe or terminal) line by line.
    pub fn new(source: impl Into<OwnedFd>) -> (Self, Interrupter) {
        let source = File::from(source.into());
        let terminal = source.is_terminal();
        LineReader::on(source.as_raw_fd(), Some(source), terminal)
    }

    /// Lines from standard input.
    pub fn stdin() -> (Self, Interrupter) {
        let stdin = std::io::stdin();
        LineReader::on(stdin.as_raw_fd(), None, stdin.is_terminal())
    }

    /// Lines from the controlling terminal (`/dev/tty`), for when standard input carries the
    /// request. Fails when the process has no terminal, or is not the job in its foreground
    /// (another program reads the keys there).
    pub fn tty() -> std::io::Result<(Self, Interrupter)> {
        let tty = File::open("/dev/tty")?;
        if !crate::foreground::is_foreground(std::os::fd::AsFd::as_fd(&tty)) {
            return Err(std::io::Error::other(crate::foreground::NOT_IN_FRONT));
        }
        Ok(LineReader::new(tty))
    }

    /// The first complete line read, or word that it was too long; at the end of the source,
    /// what is left.
    fn take_line(&mut self) -> Option<Input> {
        let end = match self.pending[self.searched..]
            .iter()
            .position(|&b| b == b'\n')
        {
            Some(newline) => self.searched + newline + 1,
            None if self.drained && (self.dropping || self.start < self.pending.len()) => {
                self.pending.len()
            }
            None => {
                if self.pending.len() - self.start > self.limit {
                    // Nothing of this line will be kept: let its bytes go as they come.
                    self.dropping = true;
                    self.pending.clear();
                    self.start = 0;
                }
                self.searched = self.pending.len();
                return None;
            }
        };
        let bytes = &self.pending[self.start..end];
        let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        // Counted as the Python and npm hosts count: all but the line break.
        let event = if self.dropping || bytes.len() > self.limit {
            Input::TooLong(self.limit)
        } else {
            let line = String::from_utf8_lossy(bytes);
            Input::Line(line.trim_end_matches('\r').to_string())
        };
        self.dropping = false;
        (self.start, self.searched) = (end, end);
        Some(event)
    }

    /// Waits up to `wait` for input and adds what there is to `pending`.
    fn read_some(&mut self, wait: Duration) {
        let mut poll = libc::pollfd {
            fd: self.fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&mut poll, 1, wait.as_millis() as libc::c_int) };
        if ready <= 0 {
            return; // nothing yet, or a signal: the caller looks at the flag
        }
        if poll.revents & libc::POLLNVAL != 0 {
            self.drained = true;
            return;
        }
        // Lines already returned make room, once they are half the buffer: each byte is moved
        // at most once more.
        if self.start > 0 && self.start * 2 >= self.pending.len() {
            self.pending.drain(..self.start);
            self.searched -= self.start;
            self.start = 0;
        }
        // Read straight into the spare room: a zeroed buffer would touch all 64 KB, fresh
        // pages of a new process, to keep the two bytes of a typical answer.
        self.pending.reserve(READ_SIZE);
        let spare = self.pending.spare_capacity_mut();
        // SAFETY: reading into memory of the length given, from a descriptor that is open (poll
        // did not say POLLNVAL) and that this reader or the process keeps open.
        let n = unsafe { libc::read(self.fd, spare.as_mut_ptr().cast(), spare.len()) };
        match n {
            0 => self.drained = true,
            // SAFETY: `read` initialised the first `n` bytes of the spare room.
            n if n > 0 => unsafe { self.pending.set_len(self.pending.len() + n as usize) },
            _ => {
                let error = std::io::Error::last_os_error().kind();
                if !matches!(
                    error,
                    std::io::ErrorKind::Interrupted | std::io::ErrorKind::WouldBlock
                ) {
                    self.drained = true;
                }
            }
        }
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
            if let Some(line) = self.take_line() {
                break line;
            }
            if self.drained {
                break Input::End;
            }
            self.read_some(INTERRUPT_CHECK);
        };
        // After the end or an interrupt there is nothing more to read: say so every time.
        if matches!(event, Input::End | Input::Interrupted) {
            self.ended = Some(event.clone());
        }
        event
    }

    fn is_terminal(&self) -> bool {
        self.terminal
    }

    fn ended_already(&mut self, patience: Duration) -> bool {
        let deadline = std::time::Instant::now() + patience;
        while self.ended.is_none()
            && !self.drained
            && self.pending.len() == self.start
            && !self.interrupted.load(Ordering::SeqCst)
        {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break;
            }
            self.read_some(left.min(INTERRUPT_CHECK));
        }
        self.ended == Some(Input::End)
            || (self.drained && !self.dropping && self.start == self.pending.len())
    }

    fn set_echo(&mut self, on: bool) {
        if !self.terminal {
            return;
        }
        let fd = self.fd;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn lines_come_without_their_breaks_and_the_end_is_said_every_time_after() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        writer
            .write_all(b"first\r\nsecond\n\nlast without a break")
            .unwrap();
        drop(writer);
        let (mut lines, _) = LineReader::new(reader);
        assert!(!lines.is_terminal());
        let mut seen = Vec::new();
        for _ in 0..6 {
            seen.push(lines.next_input());
        }
        let line = |s: &str| Input::Line(s.to_string());
        assert_eq!(
            seen,
            [
                line("first"),
                line("second"),
                line(""),
                line("last without a break"),
                Input::End,
                Input::End
            ]
        );
    }

    #[test]
    fn only_an_input_that_has_ended_already_is_said_to_have_without_waiting() {
        let patience = Duration::from_millis(100);
        let (reader, writer) = std::io::pipe().unwrap();
        let (mut lines, _) = LineReader::new(reader);
        // Nothing written in time: someone may still write.
        assert!(!lines.ended_already(patience));
        // Closed a moment after it was looked at: nobody, all the same.
        let closing = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            drop(writer);
        });
        assert!(lines.ended_already(Duration::from_secs(10)));
        closing.join().unwrap();
        assert_eq!(lines.next_input(), Input::End);

        let (reader, mut writer) = std::io::pipe().unwrap();
        writer.write_all(b"y").unwrap();
        drop(writer);
        let (mut lines, _) = LineReader::new(reader);
        assert!(
            !lines.ended_already(patience),
            "a last line without its break"
        );
        assert_eq!(lines.next_input(), Input::Line("y".into()));
        assert!(lines.ended_already(patience));
    }

    #[test]
    fn a_long_line_in_many_reads_comes_whole_and_lines_after_it_too() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let long = "x".repeat(3 << 20);
        let sent = long.clone();
        let writing = std::thread::spawn(move || {
            for chunk in sent.as_bytes().chunks(10_000) {
                writer.write_all(chunk).unwrap();
            }
            writer.write_all(b"\nshort\n").unwrap();
        });
        let (mut lines, _) = LineReader::new(reader);
        assert_eq!(lines.next_input(), Input::Line(long));
        assert_eq!(lines.next_input(), Input::Line("short".to_string()));
        writing.join().unwrap();
        assert_eq!(lines.next_input(), Input::End);
    }

    #[test]
    fn a_line_over_the_limit_is_dropped_as_it_comes_and_the_next_one_is_read() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let (mut lines, _) = LineReader::new(reader);
        let limit = 1 << 16;
        lines.limit = limit;
        let writing = std::thread::spawn(move || {
            writer.write_all(&[b'y'; 1 << 16]).unwrap();
            writer.write_all(b"\r\n").unwrap();
            writer.write_all(&[b'z'; 1 << 16]).unwrap();
            writer.write_all(b"\n").unwrap();
            // Far more than the limit, with no line break for a long while.
            for _ in 0..400 {
                writer.write_all(&[b'x'; 10_000]).unwrap();
            }
            writer.write_all(b"\nshort\n").unwrap();
        });
        assert_eq!(
            lines.next_input(),
            Input::TooLong(limit),
            "a line break's \\r counts, as in the Python and npm hosts"
        );
        assert_eq!(lines.next_input(), Input::Line("z".repeat(limit)));
        assert_eq!(lines.next_input(), Input::TooLong(limit));
        assert!(
            lines.pending.capacity() < 4 * limit + READ_SIZE,
            "held {} bytes",
            lines.pending.capacity()
        );
        assert_eq!(lines.next_input(), Input::Line("short".into()));
        writing.join().unwrap();
        assert_eq!(lines.next_input(), Input::End);
    }

    #[test]
    fn the_end_of_input_in_a_line_over_the_limit_ends_it_and_then_the_input() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let (mut lines, _) = LineReader::new(reader);
        lines.limit = 4;
        writer.write_all(b"fits\nmuch too long").unwrap();
        drop(writer);
        assert_eq!(lines.next_input(), Input::Line("fits".into()));
        assert_eq!(lines.next_input(), Input::TooLong(4));
        assert_eq!(lines.next_input(), Input::End);
        assert_eq!(lines.next_input(), Input::End);
    }

    #[test]
    fn an_interrupt_ends_a_wait_for_a_line_that_does_not_come() {
        let (reader, writer) = std::io::pipe().unwrap();
        let (mut lines, interrupter) = LineReader::new(reader);
        let started = std::time::Instant::now();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            interrupter.interrupt();
        });
        assert_eq!(lines.next_input(), Input::Interrupted);
        assert!(started.elapsed() < Duration::from_secs(1));
        assert_eq!(lines.next_input(), Input::Interrupted, "and it stays said");
        drop(writer);
    }
}
