//! A terminal named by its path (a tmux pane, another window's pseudo-terminal) rather than the
//! process's own: opened, put in raw mode through termios and sized with `TIOCGWINSZ`. And the
//! decoder of the keys of every terminal this UI reads, its own or one named by path: crossterm
//! reads only stdin and `/dev/tty`, and keeps a bracketed paste whole however long it grows.

use std::fs::File;
use std::os::fd::{AsRawFd, RawFd};
use std::path::Path;
use std::sync::Mutex;

use super::keys::Key;

/// The device whose mode a panic must restore, and the mode to restore.
static RAW_DEVICE: Mutex<Option<(RawFd, libc::termios)>> = Mutex::new(None);

/// A terminal device opened by path.
pub(super) struct Device {
    file: File,
    /// The mode it had before raw mode, while it is raw.
    saved: Option<libc::termios>,
}

impl Device {
    /// Opens `path` for reading and writing; an error when it is not a terminal.
    pub(super) fn open(path: &Path) -> std::io::Result<(Device, File)> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)?;
        // SAFETY: isatty on a descriptor this process holds open.
        if unsafe { libc::isatty(file.as_raw_fd()) } != 1 {
            return Err(std::io::Error::other(format!(
                "{} is not a terminal",
                path.display()
            )));
        }
        if let Some(program) = crate::foreground::program_reading(&file) {
            return Err(std::io::Error::other(format!(
                "{} is in use: {program} waits for the keys typed there, and would take some of \
                 the person's; run `interview inbox` there instead (it takes the terminal as its \
                 own), or `sleep infinity` to leave the keys to interview",
                path.display()
            )));
        }
        let out = file.try_clone()?;
        let device = Device { file, saved: None };
        Ok((device, out))
    }

    pub(super) fn fd(&self) -> RawFd {
        self.file.as_raw_fd()
    }

    /// Raw mode: keys one by one, unechoed, no signals from Ctrl-C or Ctrl-Z (they arrive as
    /// keys), output as written.
    pub(super) fn enable_raw(&mut self) -> std::io::Result<()> {
        if self.saved.is_some() {
            return Ok(());
        }
        let fd = self.fd();
        // SAFETY: termios is plain data, filled by tcgetattr before it is read.
        let mut mode: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: a valid descriptor and a termios to fill.
        if unsafe { libc::tcgetattr(fd, &mut mode) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let saved = mode;
        // SAFETY: cfmakeraw only edits the struct it is given.
        unsafe { libc::cfmakeraw(&mut mode) };
        // SAFETY: a valid descriptor and a mode from tcgetattr.
        if unsafe { libc::tcsetattr(fd, libc::TCSANOW, &mode) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        self.saved = Some(saved);
        *RAW_DEVICE.lock().unwrap_or_else(|e| e.into_inner()) = Some((fd, saved));
        Ok(())
    }

    /// The mode the device had before [`enable_raw`](Device::enable_raw).
    pub(super) fn disable_raw(&mut self) {
        if let Some(saved) = self.saved.take() {
            restore(self.fd(), &saved);
            *RAW_DEVICE.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
    }

    /// Columns and rows.
    pub(super) fn size(&self) -> Option<(u16, u16)> {
        // SAFETY: winsize is plain data, filled by the ioctl.
        let mut size: libc::winsize = unsafe { std::mem::zeroed() };
        // SAFETY: TIOCGWINSZ on a terminal this process holds open, into a winsize.
        let ok = unsafe { libc::ioctl(self.fd(), libc::TIOCGWINSZ, &mut size) } == 0;
        (ok && size.ws_col > 0 && size.ws_row > 0).then_some((size.ws_col, size.ws_row))
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        self.disable_raw();
    }
}

fn restore(fd: RawFd, mode: &libc::termios) {
    // SAFETY: a descriptor and a mode from tcgetattr; a failure leaves nothing to do.
    unsafe { libc::tcsetattr(fd, libc::TCSANOW, mode) };
}

/// For the panic hook: gives a raw device its mode back, and says whether there was one.
pub(super) fn restore_after_panic(reset: &[u8]) -> bool {
    let Some((fd, mode)) = *RAW_DEVICE.lock().unwrap_or_else(|e| e.into_inner()) else {
        return false;
    };
    // SAFETY: writing a byte slice to a descriptor this process holds open.
    unsafe { libc::write(fd, reset.as_ptr().cast(), reset.len()) };
    restore(fd, &mode);
    true
}

/// Keys from the bytes a terminal sends: xterm's escape sequences (CSI and SS3), control
/// characters, UTF-8, and bracketed paste.
pub(crate) struct Decoder {
    bytes: Vec<u8>,
    /// How far a paste under way, at the front of `bytes`, is known not to end.
    searched: usize,
    /// The paste under way went over `limit`: its bytes are dropped as they come.
    dropping: bool,
    /// The longest paste kept, in bytes.
    limit: usize,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder {
            bytes: Vec::new(),
            searched: 0,
            dropping: false,
            // An answer can't be longer than a request may be, nor a paste into one.
            limit: crate::sandbox::Limits::default().request_bytes(),
        }
    }
}

/// What the bytes at the front make.
enum Decoded {
    /// A key (or nothing the UI uses: `None`), from this many bytes.
    Key(Option<Key>, usize),
    /// The start of something longer: wait for more bytes.
    Incomplete,
}

const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";

impl Decoder {
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// The next key. `settled`: no more bytes are coming soon, so an unfinished sequence is
    /// taken for what it starts with (a lone Esc).
    pub(crate) fn next(&mut self, settled: bool) -> Option<Key> {
        while !self.bytes.is_empty() {
            if self.bytes.starts_with(PASTE_START) {
                // A pause in a paste is no lone Esc: a paste ends only with its end.
                return self.paste();
            }
            match decode(&self.bytes) {
                Decoded::Key(key, used) => {
                    self.bytes.drain(..used);
                    if key.is_some() {
                        return key;
                    }
                }
                Decoded::Incomplete if settled && self.bytes[0] == 0x1b => {
                    self.bytes.remove(0);
                    return Some(Key::Esc);
                }
                Decoded::Incomplete if settled => {
                    // A cut UTF-8 sequence: what there is, replaced.
                    let text = String::from_utf8_lossy(&self.bytes).into_owned();
                    self.bytes.clear();
                    return text.chars().next().map(Key::Char);
                }
                Decoded::Incomplete => return None,
            }
        }
        None
    }

    /// The bracketed paste at the front of `bytes`, once its end has come, with line breaks
    /// as `\n`; [`Key::PasteTooLong`] for one longer than the limit. Each byte is searched
    /// once, and a paste over the limit is let go as it comes.
    fn paste(&mut self) -> Option<Key> {
        let from = self
            .searched
            .saturating_sub(PASTE_END.len() - 1)
            .max(PASTE_START.len());
        let Some(end) = self.bytes[from..]
            .windows(PASTE_END.len())
            .position(|w| w == PASTE_END)
            .map(|at| from + at)
        else {
            self.searched = self.bytes.len();
            if self.bytes.len() - PASTE_START.len() > self.limit {
                self.dropping = true;
                // Kept: the start, and what may be the start of the end.
                let tail = (self.bytes.len() - (PASTE_END.len() - 1)).max(PASTE_START.len());
                self.bytes.drain(PASTE_START.len()..tail);
                self.searched = self.bytes.len();
            }
            return None;
        };
        let key = if self.dropping || end - PASTE_START.len() > self.limit {
            Key::PasteTooLong
        } else {
            let text = String::from_utf8_lossy(&self.bytes[PASTE_START.len()..end])
                .replace("\r\n", "\n")
                .replace('\r', "\n");
            Key::Paste(text)
        };
        self.bytes.drain(..end + PASTE_END.len());
        (self.searched, self.dropping) = (0, false);
        Some(key)
    }
}

fn decode(bytes: &[u8]) -> Decoded {
    let key = |key: Key, used: usize| Decoded::Key(Some(key), used);
    match bytes[0] {
        0x1b => escape(bytes),
        b'\r' => key(Key::Enter, 1),
        b'\n' => key(Key::NewLine, 1),
        b'\t' => key(Key::Tab, 1),
        0x7f | 0x08 => key(Key::Backspace, 1),
        0x03 => key(Key::Interrupt, 1),
        0x1a => key(Key::Suspend, 1),
        0x10 => key(Key::Up, 1),
        0x0e => key(Key::Down, 1),
        c @ 0x01..=0x1a => key(Key::Ctrl(char::from(b'a' + c - 1)), 1),
        0x00..=0x1f => Decoded::Key(None, 1),
        _ => utf8(bytes),
    }
}

fn utf8(bytes: &[u8]) -> Decoded {
    let width = match bytes[0] {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return Decoded::Key(None, 1),
    };
    if bytes.len() < width {
        return Decoded::Incomplete;
    }
    match std::str::from_utf8(&bytes[..width]) {
        Ok(text) => Decoded::Key(text.chars().next().map(Key::Char), width),
        Err(_) => Decoded::Key(None, 1),
    }
}

/// What follows an Esc: a CSI or SS3 sequence, Alt with a key, or Esc alone.
fn escape(bytes: &[u8]) -> Decoded {
    match bytes.get(1) {
        None => Decoded::Incomplete,
        Some(b'[') => csi(bytes),
        Some(b'O') => match bytes.get(2) {
            None => Decoded::Incomplete,
            Some(&c) => Decoded::Key(arrow(c), 3),
        },
        Some(b'\r') => Decoded::Key(Some(Key::NewLine), 2),
        Some(0x1b) => Decoded::Key(Some(Key::Esc), 1),
        // Alt with a key: the key.
        Some(_) => match decode(&bytes[1..]) {
            Decoded::Key(key, used) => Decoded::Key(key, used + 1),
            Decoded::Incomplete => Decoded::Incomplete,
        },
    }
}

/// `ESC [ params final`: cursor keys, Home/End, Delete, PageUp/PageDown, Shift-Tab. (A
/// bracketed paste, which starts as one, is the decoder's own.)
fn csi(bytes: &[u8]) -> Decoded {
    let Some(end) = bytes[2..].iter().position(|b| (0x40..=0x7e).contains(b)) else {
        // Parameters only so far; a sequence can't be long, so past 32 bytes it is noise.
        return if bytes.len() > 32 {
            Decoded::Key(None, bytes.len())
        } else {
            Decoded::Incomplete
        };
    };
    let used = end + 3;
    let params = std::str::from_utf8(&bytes[2..used - 1]).unwrap_or("");
    let first = params.split(';').next().unwrap_or("");
    let key = match bytes[used - 1] {
        b'~' => match first {
            "1" | "7" => Some(Key::Home),
            "4" | "8" => Some(Key::End),
            "3" => Some(Key::Delete),
            "5" => Some(Key::PageUp),
            "6" => Some(Key::PageDown),
            _ => None,
        },
        b'Z' => Some(Key::BackTab),
        c => arrow(c),
    };
    Decoded::Key(key, used)
}

fn arrow(c: u8) -> Option<Key> {
    match c {
        b'A' => Some(Key::Up),
        b'B' => Some(Key::Down),
        b'C' => Some(Key::Right),
        b'D' => Some(Key::Left),
        b'H' => Some(Key::Home),
        b'F' => Some(Key::End),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bytes: &[u8]) -> Vec<Key> {
        let mut decoder = Decoder::default();
        decoder.feed(bytes);
        std::iter::from_fn(|| decoder.next(true)).collect()
    }

    #[test]
    fn cursor_keys_in_both_forms_and_with_modifiers() {
        assert_eq!(
            keys(b"\x1b[A\x1b[B\x1bOC\x1bOD\x1b[1;5A\x1b[H\x1b[4~\x1b[Z"),
            [
                Key::Up,
                Key::Down,
                Key::Right,
                Key::Left,
                Key::Up,
                Key::Home,
                Key::End,
                Key::BackTab
            ]
        );
        assert_eq!(
            keys(b"\x1b[3~\x1b[5~\x1b[6~"),
            [Key::Delete, Key::PageUp, Key::PageDown]
        );
    }

    #[test]
    fn control_characters() {
        assert_eq!(
            keys(b"\r\n\t\x7f\x03\x1a\x13\x18"),
            [
                Key::Enter,
                Key::NewLine,
                Key::Tab,
                Key::Backspace,
                Key::Interrupt,
                Key::Suspend,
                Key::Ctrl('s'),
                Key::Ctrl('x')
            ]
        );
    }

    #[test]
    fn text_and_a_paste() {
        assert_eq!(keys("é1".as_bytes()), [Key::Char('é'), Key::Char('1')]);
        assert_eq!(
            keys(b"\x1b[200~two\r\nlines\x1b[201~x"),
            [Key::Paste("two\nlines".into()), Key::Char('x')]
        );
    }

    #[test]
    fn a_paste_over_the_limit_is_dropped_as_it_comes_and_the_keys_after_it_read() {
        let mut decoder = Decoder {
            limit: 1000,
            ..Decoder::default()
        };
        decoder.feed(b"a\x1b[200~");
        assert_eq!(decoder.next(false), Some(Key::Char('a')));
        for _ in 0..1000 {
            decoder.feed(&[b'x'; 100]);
            assert_eq!(decoder.next(true), None, "a pause in a paste is no Esc");
            assert!(decoder.bytes.len() < 1200, "held {}", decoder.bytes.len());
        }
        // The end, cut between two reads.
        decoder.feed(b"\x1b[20");
        assert_eq!(decoder.next(false), None);
        decoder.feed(b"1~b");
        assert_eq!(decoder.next(false), Some(Key::PasteTooLong));
        assert_eq!(decoder.next(false), Some(Key::Char('b')));
        let fits = [b'y'; 1000];
        decoder.feed(b"\x1b[200~");
        decoder.feed(&fits);
        decoder.feed(b"\x1b[201~");
        assert_eq!(decoder.next(false), Some(Key::Paste("y".repeat(1000))));
    }

    #[test]
    fn a_lone_esc_waits_for_the_pause_and_a_cut_sequence_completes() {
        let mut decoder = Decoder::default();
        decoder.feed(b"\x1b");
        assert_eq!(decoder.next(false), None, "it may start a sequence");
        decoder.feed(b"[");
        assert_eq!(decoder.next(false), None);
        decoder.feed(b"B");
        assert_eq!(decoder.next(false), Some(Key::Down));
        decoder.feed(b"\x1b");
        assert_eq!(decoder.next(true), Some(Key::Esc));
        decoder.feed(&"é".as_bytes()[..1]);
        assert_eq!(decoder.next(false), None);
        decoder.feed(&"é".as_bytes()[1..]);
        assert_eq!(decoder.next(false), Some(Key::Char('é')));
    }

    #[test]
    fn alt_enter_is_a_new_line_and_unknown_sequences_are_dropped() {
        assert_eq!(
            keys(b"\x1b\r\x1b[99x\x1b[15~a"),
            [Key::NewLine, Key::Char('a')]
        );
    }
}
