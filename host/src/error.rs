//! What can go wrong running the plugin.

use std::path::PathBuf;

use crate::given::Given;

/// What can go wrong running the plugin. A bad request is not an error: it is an `invalid`
/// result, with the place and the problem.
///
/// The variants that wrap another error return it from [`source`](std::error::Error::source)
/// and leave it out of their own message, so that an error reporter prints each cause once.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The component file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why it could not be read.
        source: std::io::Error,
    },
    /// The component could not be compiled: not a component, or not this plugin's world.
    Compile(wasmtime::Error),
    /// The built-in plugin's code, compiled when this crate was built, cannot run in this
    /// process (the reason): compiled for a processor with features this one lacks, say.
    Precompiled(String),
    /// The component could not be instantiated.
    Instantiate(wasmtime::Error),
    /// The plugin trapped or ran out of its memory or compute budget, also when the person's
    /// replies were played back into a fresh instance with larger limits. The next call starts
    /// a fresh instance.
    Trap {
        /// The export that failed: `call`, `elicit`, `ask`, …
        function: &'static str,
        /// The trap, as wasmtime reports it; its [`root_cause`](wasmtime::Error::root_cause)
        /// says what happened in a line.
        source: wasmtime::Error,
        /// What the person answered before the plugin failed, so that it is not lost.
        given: Vec<Given>,
    },
    /// The arguments are larger than the host hands to the plugin
    /// ([`Limits::request_bytes`](crate::Limits::request_bytes)).
    RequestTooLarge {
        /// The size of the arguments.
        bytes: usize,
        /// The largest size the host takes.
        limit: usize,
    },
    /// The journal cannot be used: not a journal, damaged, or written for another request or
    /// plugin. Nothing was asked.
    Journal {
        /// The journal file.
        path: PathBuf,
        /// What is wrong with it.
        problem: JournalProblem,
    },
}

/// What is wrong with a journal.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum JournalProblem {
    /// Another run holds it (its lock is taken): that run is asking the request, and this one
    /// waits for it to end or takes a journal of its own.
    InUse,
    /// It cannot be used (not a journal, damaged, written for another request or plugin,
    /// unreadable, unwritable): why, in words.
    Unusable(String),
}

impl std::fmt::Display for JournalProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JournalProblem::InUse => f.write_str(
                "is in use by another interview run; wait for it to end, or give this run a \
                 journal of its own",
            ),
            JournalProblem::Unusable(why) => f.write_str(why),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Read { path, .. } => {
                write!(f, "cannot read the component {}", path.display())
            }
            Error::Compile(_) => write!(f, "cannot compile the component"),
            Error::Precompiled(reason) => {
                write!(
                    f,
                    "the built-in plugin's compiled code cannot run here: {reason}"
                )
            }
            Error::Instantiate(_) => write!(f, "cannot instantiate the component"),
            Error::Trap { function, .. } => write!(f, "the plugin failed in `{function}`"),
            Error::Journal { path, problem } => {
                write!(f, "the journal {} {problem}", path.display())
            }
            Error::RequestTooLarge { bytes, limit } => {
                write!(
                    f,
                    "the request is {bytes} bytes; the host accepts at most {limit}"
                )
            }
        }
    }
}

impl Error {
    /// What failed in one line, for an agent or a person: a trap by its root cause, without
    /// the wasm backtrace (`the plugin failed in `call`: out of fuel`), any other error with
    /// its causes ([`Error::chain`]).
    pub fn summary(&self) -> String {
        match self {
            Error::Trap {
                function, source, ..
            } => format!("the plugin failed in `{function}`: {}", source.root_cause()),
            other => other.chain(),
        }
    }

    /// This error and its causes in one line, for a log or a person:
    /// `cannot compile the component: failed to parse …`.
    pub fn chain(&self) -> String {
        let mut line = self.to_string();
        let mut cause = std::error::Error::source(self);
        while let Some(error) = cause {
            line.push_str(&format!(": {error}"));
            cause = error.source();
        }
        line
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Read { source, .. } => Some(source),
            Error::Compile(source) | Error::Instantiate(source) | Error::Trap { source, .. } => {
                Some(source.as_ref())
            }
            Error::Precompiled(_) | Error::RequestTooLarge { .. } | Error::Journal { .. } => None,
        }
    }
}
