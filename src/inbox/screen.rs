//! The inbox's terminal, whichever inbox it answers (this machine's, or a team's): quiet
//! between questions, rung when one comes, and closed by the signals that close a terminal
//! program.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use interview_host::Exit;

/// How long a question is announced before it takes keys: keys pressed meanwhile were meant
/// for the question before it (a double press), or for nothing, and are dropped.
pub const GRACE: std::time::Duration = std::time::Duration::from_millis(400);

/// Ctrl-C (when no question is open: raw mode reads it as a key then), SIGTERM and SIGHUP
/// close the inbox, stopping the question open, if any, as Ctrl-C in it does.
pub fn stop_on_signals(
    quit: Arc<AtomicBool>,
    current: Arc<Mutex<Option<Arc<AtomicBool>>>>,
) -> Result<(), (Exit, String)> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| (Exit::Failed, format!("cannot take the signals: {e}")))?;
    std::thread::spawn(move || {
        for _ in signals.forever() {
            quit.store(true, Ordering::SeqCst);
            if let Some(stop) = &*current.lock().unwrap_or_else(|e| e.into_inner()) {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    Ok(())
}

/// A folder with the home folder as `~`.
pub fn tilde(folder: &str) -> String {
    let home = std::env::var("HOME").unwrap_or_default();
    let home = home.trim_end_matches('/');
    match folder.strip_prefix(home) {
        Some(rest) if !home.is_empty() && (rest.is_empty() || rest.starts_with('/')) => {
            format!("~{rest}")
        }
        _ => folder.to_string(),
    }
}

/// A desktop notification where there is a desktop to show it: `notify-send` (Linux) or
/// `osascript` (macOS). Nothing is waited for, and nothing is said when neither exists.
fn notify_desktop(text: &str) {
    let desktop = std::env::var_os("DISPLAY").is_some()
        || std::env::var_os("WAYLAND_DISPLAY").is_some()
        || cfg!(target_os = "macos");
    if !desktop {
        return;
    }
    let mut command = if cfg!(target_os = "macos") {
        let mut command = std::process::Command::new("osascript");
        let quoted = text.replace('\\', "\\\\").replace('"', "\\\"");
        command.args([
            "-e",
            &format!("display notification \"{quoted}\" with title \"interview\""),
        ]);
        command
    } else {
        let mut command = std::process::Command::new("notify-send");
        command.args(["--app-name=interview", "interview", text]);
        command
    };
    command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if let Ok(mut child) = command.spawn() {
        std::thread::spawn(move || child.wait());
    }
}

/// The inbox's terminal between questions: keys typed then are not echoed (an arrow key would
/// show as `^[[B`), and are dropped before the next question takes keys. The terminal's own
/// settings come back for each question and when the inbox closes.
pub struct Quiet {
    saved: Option<libc::termios>,
}

impl Quiet {
    pub fn of_stdin() -> Quiet {
        let mut saved = std::mem::MaybeUninit::<libc::termios>::uninit();
        // SAFETY: tcgetattr fills the termios given when it succeeds, and only then is it read.
        let saved = (unsafe { libc::tcgetattr(libc::STDIN_FILENO, saved.as_mut_ptr()) } == 0)
            // SAFETY: initialized by the successful tcgetattr above.
            .then(|| unsafe { saved.assume_init() });
        Quiet { saved }
    }

    /// Echo off (the rest as the terminal was: Ctrl-C still closes the inbox).
    pub fn hush(&self) {
        if let Some(saved) = self.saved {
            let mut quiet = saved;
            quiet.c_lflag &= !(libc::ECHO | libc::ECHONL);
            // SAFETY: a termios read from this terminal, changed in its local flags only.
            unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &quiet) };
        }
    }

    /// The terminal's own settings again.
    pub fn speak(&self) {
        if let Some(saved) = &self.saved {
            // SAFETY: the settings this terminal had, read from it.
            unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, saved) };
        }
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        self.speak();
    }
}

/// Keys typed while no question was shown belong to no question: they are dropped, so that a
/// question that appears as the person types is not answered by keys meant for nothing.
pub fn discard_typed_ahead() {
    // SAFETY: tcflush on standard input, a terminal this process is in the foreground of.
    unsafe { libc::tcflush(libc::STDIN_FILENO, libc::TCIFLUSH) };
}

/// Rings for a question `who` asks: the person may be looking elsewhere. BEL, OSC 9 (a
/// desktop notification in the terminals that have one; ignored by the others), and the
/// desktop's own notification where there is one.
pub fn ring(who: &str) {
    let mut screen = std::io::stderr().lock();
    let _ = write!(screen, "\x07\x1b]9;{who} asks a question\x07");
    let _ = screen.flush();
    notify_desktop(&format!("{who} asks a question"));
}

/// `3 more waiting: Claude Code, Codex` (each name once), or nothing when nobody else waits.
pub fn waiting_line(waiting: impl Iterator<Item = String>) -> Option<String> {
    let mut count = 0;
    let mut names: Vec<String> = Vec::new();
    for name in waiting {
        count += 1;
        if !names.contains(&name) {
            names.push(name);
        }
    }
    (count > 0).then(|| format!("{count} more waiting: {}", names.join(", ")))
}
