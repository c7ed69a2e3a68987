//! The exit codes of a host's command, as `--help` and the README list them: the same in the
//! Rust command and the Python and npm packages' (whose copies are generated from this one).

use std::process::ExitCode;

use crate::ask::{ElicitEnding, Status};

/// How a run of `interview` ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Answered; for `check`, valid; for `schema`, printed.
    Answered = 0,
    /// The person cancelled; the answers so far are in the result.
    Cancelled = 1,
    /// The request (or the command line) is invalid.
    Invalid = 2,
    /// No person can answer here.
    Unavailable = 3,
    /// The plugin could not run.
    Failed = 4,
    /// `elicit`: the person declined the request; the reply says so.
    Declined = 5,
    /// The result could not be written to stdout: whoever waits for it never got it.
    Unwritten = 6,
    /// Interrupted by a signal; the answers so far are in the result.
    Interrupted = 130,
}

impl Exit {
    /// Every exit, in the order of their codes.
    pub const ALL: [Exit; 8] = [
        Exit::Answered,
        Exit::Cancelled,
        Exit::Invalid,
        Exit::Unavailable,
        Exit::Failed,
        Exit::Declined,
        Exit::Unwritten,
        Exit::Interrupted,
    ];

    /// The exit's name, as the packages' tables spell it (`answered`, `interrupted`).
    pub fn name(self) -> &'static str {
        match self {
            Exit::Answered => "answered",
            Exit::Cancelled => "cancelled",
            Exit::Invalid => "invalid",
            Exit::Unavailable => "unavailable",
            Exit::Failed => "failed",
            Exit::Declined => "declined",
            Exit::Unwritten => "unwritten",
            Exit::Interrupted => "interrupted",
        }
    }

    /// The exit code of a tool call that ended with `status`, as the plugin's WIT says it;
    /// a cancel is `Interrupted` when a signal or Ctrl-C cut the person off.
    pub fn of(status: Status, interrupted: bool) -> Exit {
        match status {
            Status::Answered => Exit::Answered,
            Status::Cancelled if interrupted => Exit::Interrupted,
            Status::Cancelled => Exit::Cancelled,
            Status::Invalid => Exit::Invalid,
            Status::Unavailable => Exit::Unavailable,
            Status::Failed => Exit::Failed,
        }
    }

    /// The exit code of an MCP elicitation that ended so (`elicit`): accepted is answered,
    /// declined its own code; a cancel is `Interrupted` when a signal or Ctrl-C cut the
    /// person off.
    pub fn of_elicitation(ending: ElicitEnding, interrupted: bool) -> Exit {
        match ending {
            ElicitEnding::Accepted => Exit::Answered,
            ElicitEnding::Declined => Exit::Declined,
            ElicitEnding::Cancelled if interrupted => Exit::Interrupted,
            ElicitEnding::Cancelled => Exit::Cancelled,
            ElicitEnding::Unavailable => Exit::Unavailable,
            ElicitEnding::Invalid => Exit::Invalid,
            ElicitEnding::Failed => Exit::Failed,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}
