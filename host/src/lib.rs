//! Run the interview plugin (a sandboxed WebAssembly component) from Rust, and let a person
//! answer its questions in a terminal.
//!
//! The plugin holds what a request means, validation, batch logic and results; this crate
//! loads it with wasmtime (compiled once, then cached), keeps it in a sandbox (memory cap,
//! compute budget, no WASI at all), and provides its `ui` imports through the [`Ui`] trait:
//! a [`NumberedUi`](ui::numbered::NumberedUi) for line-by-line terminals and pipes, a
//! [`ScriptedUi`](ui::scripted::ScriptedUi) for tests, or a UI of your own.
//!
//! ```
//! use interview_host::{Plugin, ui::scripted::{ScriptedUi, Step}, SelectReply};
//!
//! # fn main() -> Result<(), interview_host::Error> {
//! let plugin = Plugin::load()?;
//! // A UI that picks the second option; use `NumberedUi::stdio()` to ask a person.
//! let ui = ScriptedUi::new([Step::Select(SelectReply::picked(1))]);
//! let mut session = plugin.session(ui)?;
//! let result = session.call(
//!     "interview",
//!     r#"{"questions": [{"question": "Which environment?", "options": ["dev", "staging"]}]}"#,
//! )?;
//! let result: serde_json::Value = serde_json::from_str(&result).unwrap();
//! assert_eq!(result["status"], "answered");
//! assert_eq!(result["answer"], "staging");
//! assert_eq!(result["text"], "User selected: 2. staging");
//! # Ok(())
//! # }
//! ```

mod bindings;
pub mod input;
mod journal;
pub mod json_text;
pub mod loader;
mod replay;
pub mod sandbox;
pub mod sanitize;
mod session;
pub mod ui;

use std::path::PathBuf;

pub use bindings::exports::interview::plugin::tool::{
    ElicitEnding, Elicitation, ToolDefinition, ToolFormat,
};
pub use bindings::interview::plugin::types::{
    Answer, Choice, ConfirmQuestion, MultiSelectQuestion, NumberQuestion, Origin, Outcome,
    Question, QuestionKind, RequestError, SelectQuestion, TextFormat, TextQuestion, Value,
};
pub use journal::Journal;
pub use loader::LoadKind;
pub use replay::Given;
pub use sandbox::Limits;
pub use session::{EMBEDDED_COMPONENT, Plugin, PluginBuilder, Session};
pub use ui::*;

/// What can go wrong running the plugin. A bad request is not an error: it is an `invalid`
/// result, with the place and the problem.
#[derive(Debug)]
pub enum Error {
    /// The component file could not be read.
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The component could not be compiled (not a component, or not this plugin's world).
    Compile(String),
    /// The component could not be instantiated.
    Instantiate(String),
    /// The plugin trapped or ran out of its memory or compute budget, also when the person's
    /// replies were played back into a fresh instance with larger limits. `given` holds what
    /// the person answered before, so that it is not lost. The next call starts a fresh
    /// instance.
    Trap {
        function: &'static str,
        message: String,
        given: Vec<Given>,
    },
    /// The arguments are larger than the host hands to the plugin.
    RequestTooLarge { bytes: usize, limit: usize },
    /// The journal cannot be used: not a journal, damaged, or written for another request or
    /// plugin. Nothing was asked.
    Journal { path: PathBuf, problem: String },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Read { path, source } => {
                write!(f, "cannot read the component {}: {source}", path.display())
            }
            Error::Compile(e) => write!(f, "cannot compile the component: {e}"),
            Error::Instantiate(e) => write!(f, "cannot instantiate the component: {e}"),
            Error::Trap {
                function, message, ..
            } => {
                write!(f, "the plugin failed in `{function}`: {message}")
            }
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

impl std::error::Error for Error {}
