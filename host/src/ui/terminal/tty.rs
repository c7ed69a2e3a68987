//! The terminal itself: raw mode taken and always given back (also from a panic), and the
//! descriptor keys are read from, waited on with poll(2).

use std::io::{IsTerminal, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossterm::terminal;

use super::device::{Decoder, Device};
use super::keys::Key;

/// Whether some terminal UI has the terminal in raw mode, for the panic hook.
pub(super) static RAW: AtomicBool = AtomicBool::new(false);

/// Bracketed paste off, the cursor shown, attributes reset.
pub(super) const RESET: &[u8] = b"\x1b[?2004l\x1b[?25h\x1b[0m";

/// Undoes raw mode, bracketed paste and the hidden cursor, wherever the terminal is: `device`
/// when it was named by path, else the process's own.
pub(super) fn restore_terminal(out: &mut dyn Write, device: Option<&mut Device>) {
    let _ = out.write_all(RESET);
    let _ = out.flush();
    match device {
        Some(device) => device.disable_raw(),
        None => {
            let _ = terminal::disable_raw_mode();
        }
    }
    RAW.store(false, Ordering::SeqCst);
}

/// A panic while the terminal is raw would leave it unusable: restore it first, once.
pub(super) fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if RAW.load(Ordering::SeqCst) && !super::device::restore_after_panic(RESET) {
                match std::fs::OpenOptions::new().write(true).open("/dev/tty") {
                    Ok(mut tty) => restore_terminal(&mut tty, None),
                    Err(_) => restore_terminal(&mut std::io::stderr(), None),
                }
                let _ = writeln!(std::io::stderr());
            }
            previous(info);
        }));
    });
}

/// The terminal keys are read from: standard input when it is a terminal, else `/dev/tty`
/// (the same choice crossterm makes), or a terminal named by path.
pub(super) struct Keyboard {
    pub(super) fd: RawFd,
    /// Keeps `/dev/tty` open when that is the keyboard.
    _tty: Option<std::fs::File>,
    /// Its own decoder rather than crossterm's, which keeps a bracketed paste whole however
    /// long it grows.
    decoder: Decoder,
}

/// What waiting on the keyboard found.
#[derive(PartialEq, Eq)]
pub(super) enum Ready {
    Input,
    Nothing,
    HungUp,
}

impl Keyboard {
    /// The keyboard of a terminal opened by path, which the caller keeps open.
    pub(super) fn on(fd: RawFd) -> Keyboard {
        Keyboard {
            fd,
            _tty: None,
            decoder: Decoder::default(),
        }
    }

    pub(super) fn open() -> Option<Keyboard> {
        if std::io::stdin().is_terminal() {
            return Some(Keyboard::on(std::io::stdin().as_raw_fd()));
        }
        let tty = std::fs::File::open("/dev/tty").ok()?;
        let fd = tty.as_raw_fd();
        Some(Keyboard {
            _tty: Some(tty),
            ..Keyboard::on(fd)
        })
    }

    /// A key already read, when the bytes read earlier made more than one.
    pub(super) fn queued(&mut self) -> Option<Key> {
        self.decoder.next(false)
    }

    /// Reads what the terminal has sent (call when [`Keyboard::wait`] says there is input),
    /// and returns the next key; `None` when the bytes so far make no key yet. An error is a
    /// terminal that is gone.
    pub(super) fn read_key(&mut self) -> std::io::Result<Option<Key>> {
        let mut bytes = [0u8; 4096];
        // SAFETY: reading into a buffer of the length given, from a descriptor this keyboard
        // or the process keeps open.
        let n = unsafe { libc::read(self.fd, bytes.as_mut_ptr().cast(), bytes.len()) };
        match n {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n if n > 0 => self.decoder.feed(&bytes[..n as usize]),
            _ => {
                let error = std::io::Error::last_os_error();
                // A signal (a resize, a stop) cut the read short: the bytes are still there.
                if !matches!(
                    error.kind(),
                    std::io::ErrorKind::Interrupted | std::io::ErrorKind::WouldBlock
                ) {
                    return Err(error);
                }
            }
        }
        Ok(self.decoder.next(false))
    }

    /// The key the bytes so far make, when no more came after a pause: a lone Esc.
    pub(super) fn settle(&mut self) -> Option<Key> {
        self.decoder.next(true)
    }

    /// Waits up to `timeout` for input.
    pub(super) fn wait(&self, timeout: Duration) -> Ready {
        let mut poll = libc::pollfd {
            fd: self.fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for a descriptor this process holds open.
        let n = unsafe { libc::poll(&mut poll, 1, timeout.as_millis() as libc::c_int) };
        if n < 0 {
            return Ready::Nothing;
        }
        if poll.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
            Ready::HungUp
        } else if poll.revents & libc::POLLIN != 0 {
            Ready::Input
        } else {
            Ready::Nothing
        }
    }
}
