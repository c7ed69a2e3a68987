//! What the command says on stderr, without ever failing for it: a stderr that is closed (a
//! server started without one, a reader that went away) costs the message, not the process or
//! the call that had something to say.

use std::io::Write;

/// Writes `text` as one line.
pub fn line(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Writes `message` as one line after `interview: `.
pub fn warn(message: &str) {
    line(&format!("interview: {message}"));
}
