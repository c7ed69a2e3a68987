//! What an inbox's terminal tells the person around a question, in the same words whichever
//! inbox it answers (this machine's, or a team's): who asks, above it, and what became of it,
//! under it.

use std::io::Write;

use interview_text::sanitize;

use super::RETRY_WINDOW_MS;
use super::screen::{ring, tilde};

/// Who asks on this machine, in a few words fit for a terminal: the MCP client's name, else
/// the MCP server's (an elicitation's), else the command (`interview ask`).
pub fn who(client: Option<&str>, server: Option<&str>, command: &str) -> String {
    client
        .or(server)
        .map(sanitize::line)
        .unwrap_or_else(|| format!("interview {}", sanitize::line(command)))
}

/// Who asks a question, as the line above it says.
pub struct Asking<'a> {
    /// Who asks, in a few words fit for a terminal.
    pub who: &'a str,
    /// The folder the asker runs in, as it said it.
    pub folder: Option<&'a str>,
    /// The MCP server an elicitation comes from, through the client that asks it.
    pub for_server: Option<&'a str>,
    /// How many questions wait after this one.
    pub behind: usize,
    /// The same request was asked before by a run that stopped waiting.
    pub again: Option<Again>,
}

/// A request asked again by another run than the one it was first asked by.
pub struct Again {
    /// When the earlier run's question ended (ms since the epoch), when known.
    pub ended_at: Option<i64>,
    /// What was answered to it is filled in, and its last answer asked again.
    pub resumed: bool,
    /// Those answers are the person's own (an inbox of one), rather than anyone's of a team.
    pub yours: bool,
}

/// Says who asks, above the question, and rings: the person may be looking elsewhere.
pub fn announce(asking: &Asking) {
    let who = asking.who;
    let asks = match asking.again {
        Some(_) => "asks again",
        None => "asks",
    };
    let mut line = format!("── {who} {asks}");
    if let Some(folder) = asking.folder {
        line.push_str(&format!(" · in {}", sanitize::line(&tilde(folder))));
    }
    if let Some(server) = asking.for_server {
        line.push_str(&format!(" · for {}", sanitize::line(server)));
    }
    if asking.behind > 0 {
        line.push_str(&format!(" · {} more waiting", asking.behind));
    }
    ring(who);
    let mut screen = std::io::stderr().lock();
    let _ = writeln!(screen, "\n{line}");
    if let Some(again) = &asking.again {
        let when = again
            .ended_at
            .map_or("before".into(), |at| ago(at, crate::clock::now_ms()));
        let _ = writeln!(
            screen,
            "   (the run that asked this {when} stopped waiting; {})",
            {
                match (again.resumed, again.yours) {
                    (true, true) => {
                        "your answers to it are filled in, and the last one is asked again"
                    }
                    (true, false) => {
                        "the answers given to it are filled in, and the last one is asked again"
                    }
                    (false, _) => "this is a new run, asked afresh",
                }
            }
        );
    }
    let _ = screen.flush();
}

/// How long before `now` (both ms since the epoch) `at` was, in words.
fn ago(at: i64, now: i64) -> String {
    let seconds = (now - at).max(0) / 1000;
    match seconds {
        0..60 => "moments ago".into(),
        60..7200 => format!("{} min ago", seconds / 60),
        7200..172_800 => format!("{} h ago", seconds / 3600),
        _ => format!("{} days ago", seconds / 86_400),
    }
}

/// What became of a question the person was shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    not(feature = "team"),
    expect(dead_code, reason = "only a team's questions end these other ways")
)]
pub enum Fate {
    /// Its answer reached its asker.
    Sent,
    /// Someone else answered it.
    AnsweredElsewhere,
    /// Its asker withdrew it, and took what was answered so far.
    Withdrawn,
    /// Its asker went away: nothing reached it. `answered`: it had been given its answer.
    Gone { answered: bool },
    /// Nobody answered it in the time allowed.
    Expired,
    /// It ended otherwise.
    Ended,
}

/// The line under `who`'s question saying what became of it; `typed`: the person had
/// answered some of it, which is kept for a retry of the request.
pub fn ended(who: &str, fate: Fate, typed: bool) -> String {
    let kept = format!(
        "kept for {} min, should it ask again",
        RETRY_WINDOW_MS / 60_000
    );
    match (fate, typed) {
        (Fate::Sent, _) => format!("✔ Sent to {who}"),
        (Fate::AnsweredElsewhere, _) => format!("✖ {who}'s question was answered by someone else."),
        (Fate::Withdrawn, true) => format!(
            "✖ {who} withdrew this question: what you answered went back with it, and is {kept}."
        ),
        (Fate::Withdrawn, false) => {
            format!("✖ {who} withdrew this question before anything was answered.")
        }
        (Fate::Gone { answered }, true) => format!(
            "✖ {who} stopped waiting{}: nothing was sent to it. What you answered is {kept}.",
            if answered {
                " before your answer reached it"
            } else {
                ""
            }
        ),
        (Fate::Gone { .. }, false) => format!("✖ {who} stopped waiting: nothing was sent to it."),
        (Fate::Expired, _) => format!("✖ {who}'s question expired unanswered."),
        (Fate::Ended, _) => format!("✖ {who}'s question ended."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn how_long_ago_reads_in_the_largest_unit_that_fits() {
        let now = 1_000_000_000_000;
        assert_eq!(ago(now - 5_000, now), "moments ago");
        assert_eq!(ago(now + 5_000, now), "moments ago");
        assert_eq!(ago(now - 90 * 60_000, now), "90 min ago");
        assert_eq!(ago(now - 30 * 3_600_000, now), "30 h ago");
        assert_eq!(ago(now - 30 * 86_400_000, now), "30 days ago");
    }

    #[test]
    fn an_answer_that_reached_nobody_says_it_is_kept_for_a_retry() {
        let gone = ended("Codex", Fate::Gone { answered: true }, true);
        assert_eq!(
            gone,
            "✖ Codex stopped waiting before your answer reached it: nothing was sent to it. \
             What you answered is kept for 10 min, should it ask again."
        );
        assert_eq!(
            ended("Codex", Fate::Gone { answered: false }, false),
            "✖ Codex stopped waiting: nothing was sent to it."
        );
    }
}
