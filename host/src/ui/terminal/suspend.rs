//! Job control while the terminal is raw: Ctrl-Z and SIGTSTP give the terminal back before the
//! process stops, and continuing takes it again and redraws.
//!
//! In raw mode the terminal sends no SIGTSTP for Ctrl-Z: it arrives as a key, and the UI stops
//! its job as the terminal would have. A SIGTSTP from elsewhere (`kill -TSTP`) is caught, so
//! that the UI can restore the terminal first, then stop. A SIGCONT is noted too: after a
//! SIGSTOP, which cannot be caught, the shell has put the terminal back to cooked mode, and the
//! UI must take it again.

use std::sync::atomic::{AtomicBool, Ordering};

/// A SIGTSTP arrived while the handlers were installed.
static SUSPEND: AtomicBool = AtomicBool::new(false);
/// A SIGCONT arrived while the handlers were installed.
static CONTINUED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_stop(_: libc::c_int) {
    SUSPEND.store(true, Ordering::SeqCst);
}

extern "C" fn on_continue(_: libc::c_int) {
    CONTINUED.store(true, Ordering::SeqCst);
}

/// The SIGTSTP and SIGCONT handlers, installed while the terminal is raw; dropping this puts
/// back what was there before.
pub(super) struct JobControl {
    previous_stop: libc::sigaction,
    previous_continue: libc::sigaction,
}

impl JobControl {
    /// Installs the handlers, unless SIGTSTP is ignored: a process started with it ignored
    /// (by `nohup`, or an agent without job control) has nobody to continue it, so it must
    /// never stop, and Ctrl-Z does nothing.
    pub(super) fn install() -> Option<JobControl> {
        SUSPEND.store(false, Ordering::SeqCst);
        CONTINUED.store(false, Ordering::SeqCst);
        let previous_stop = install(libc::SIGTSTP, on_stop as *const () as usize)?;
        if previous_stop.sa_sigaction == libc::SIG_IGN {
            restore(libc::SIGTSTP, &previous_stop);
            return None;
        }
        let Some(previous_continue) = install(libc::SIGCONT, on_continue as *const () as usize)
        else {
            restore(libc::SIGTSTP, &previous_stop);
            return None;
        };
        Some(JobControl {
            previous_stop,
            previous_continue,
        })
    }

    /// Whether a SIGTSTP asked the process to stop since the last look.
    pub(super) fn stop_requested(&self) -> bool {
        SUSPEND.swap(false, Ordering::SeqCst)
    }

    /// Whether the process was continued since the last look.
    pub(super) fn continued(&self) -> bool {
        CONTINUED.swap(false, Ordering::SeqCst)
    }
}

impl Drop for JobControl {
    fn drop(&mut self) {
        restore(libc::SIGCONT, &self.previous_continue);
        restore(libc::SIGTSTP, &self.previous_stop);
    }
}

/// How the process comes to stop.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// Ctrl-Z: the terminal's foreground job (this process group) stops, as the terminal
    /// itself would stop it.
    Job { group: libc::pid_t },
    /// A SIGTSTP sent to this process: it alone stops.
    Process,
}

/// The foreground process group of the terminal open as `fd` (0 when there is none).
pub(super) fn foreground_group(fd: libc::c_int) -> libc::pid_t {
    // SAFETY: tcgetpgrp only reads the terminal's state; a bad descriptor gives -1.
    unsafe { libc::tcgetpgrp(fd) }.max(0)
}

/// Stops, with the handlers gone (the terminal already given back), and returns once the
/// process is continued. The default action of SIGTSTP is used, so that a job nobody can
/// continue (an orphaned process group) is not stopped at all.
pub(super) fn stop(how: Stop) {
    // SAFETY: plain system calls on this process and its terminal's foreground group.
    unsafe {
        match how {
            Stop::Job { group } if group > 0 => {
                libc::killpg(group, libc::SIGTSTP);
            }
            Stop::Job { .. } => {
                libc::raise(libc::SIGTSTP);
            }
            Stop::Process => {
                libc::raise(libc::SIGTSTP);
            }
        }
    }
}

/// Sets `handler` for `signal`; the previous action, or None when it cannot be set.
fn install(signal: libc::c_int, handler: usize) -> Option<libc::sigaction> {
    // SAFETY: a zeroed sigaction is a valid "no flags, empty mask" action; the handlers only
    // store to atomics, which is async-signal-safe.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        let mut previous: libc::sigaction = std::mem::zeroed();
        (libc::sigaction(signal, &action, &mut previous) == 0).then_some(previous)
    }
}

fn restore(signal: libc::c_int, previous: &libc::sigaction) {
    // SAFETY: `previous` is an action sigaction returned for this signal.
    unsafe {
        libc::sigaction(signal, previous, std::ptr::null_mut());
    }
}
