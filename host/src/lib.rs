//! Run the interview plugin (a sandboxed WebAssembly component) from Rust, and let a person
//! answer its questions in a terminal.
//!
//! The plugin holds what a request means, validation, batch logic and results; this crate
//! runs it with wasmtime (compiled when this crate is built), keeps it in a sandbox (memory cap,
//! compute budget, no WASI at all), and provides its `ui` imports through the [`Ui`] trait:
//! a [`TerminalUi`] drawn with arrow keys (the `terminal` feature, on by default), a
//! [`LineUi`] for line-by-line terminals, pipes and screen readers, a `WebUi` that asks in a
//! browser page (the `web` feature), a [`ScriptedUi`] for tests, or a UI of your own.
//!
//! The examples in `examples/` ask in a terminal (`terminal.rs`), write a UI of their own
//! (`own_ui.rs`), run the plugin from an async application (`async_app.rs`), and answer an MCP
//! server's forms from an rmcp client (`mcp_client.rs`, with the `rmcp` feature:
//! `PersonElicitation`).
//!
//! ```
//! use interview_host::Plugin;
//! use interview_host::ask::Status;
//! use interview_host::ui::{ScriptedUi, SelectReply, Step};
//!
//! # fn main() -> Result<(), interview_host::Error> {
//! let plugin = Plugin::load()?;
//! // A UI that picks the second option; use `LineUi::stdio()` to ask a person.
//! let ui = ScriptedUi::new([Step::Select(SelectReply::picked(1))]);
//! let mut session = plugin.session(ui)?;
//! let result = session.call(
//!     "interview",
//!     r#"{"questions": [{"question": "Which environment?", "options": ["dev", "staging"]}]}"#,
//! )?;
//! assert_eq!(result.status, Status::Answered);
//! let result: serde_json::Value = serde_json::from_str(&result.json).unwrap();
//! assert_eq!(result["answer"], "staging");
//! assert_eq!(result["text"], "User selected: 2. staging");
//! # Ok(())
//! # }
//! ```
//!
//! [`Ui`]: ui::Ui
//! [`TerminalUi`]: ui::TerminalUi
//! [`LineUi`]: ui::LineUi
//! [`ScriptedUi`]: ui::ScriptedUi

#![warn(missing_docs)]

mod bindings;
use interview_text::sanitize;
mod choice_imports;
#[cfg(test)]
mod contract;
mod engine_settings;
mod error;
mod exit;
mod foreground;
mod given;
pub mod host_results;
mod imports;
mod input;
mod journal;
mod loader;
#[cfg(feature = "rmcp")]
mod mcp_elicitation;
mod plugin_lines;
mod replay;
mod sandbox;
#[cfg(feature = "web")]
pub mod serving;
mod session;
pub mod ui;

pub use error::{Error, JournalProblem};
pub use exit::Exit;
pub use given::Given;
pub use journal::Journal;
pub use loader::{LoadKind, default_cache_dir};
#[cfg(feature = "rmcp")]
pub use mcp_elicitation::PersonElicitation;
pub use plugin_lines::PluginLines;
pub use sandbox::Limits;
pub use session::{EMBEDDED_COMPONENT, Plugin, PluginBuilder, Session};

/// Questions, answers and tool definitions: the `types` and `tool` interfaces of the WIT, for
/// [`Session::ask`] (typed questions in, a typed [`Outcome`](ask::Outcome) out), for
/// [`Session::elicit`], for [`Session::form`], and for listing the tools.
pub mod ask {
    pub use crate::bindings::exports::interview::plugin::tool::{
        CallResult, Checked, ElicitEnding, Elicitation, FormRequest, FormStep, Given, Refusal,
        Status, ToolDefinition, ToolFormat,
    };
    pub use crate::bindings::interview::plugin::types::{
        Absence, Answer, Choice, ConfirmQuestion, MultiSelectQuestion, NumberQuestion, Origin,
        Outcome, Question, QuestionKind, RequestError, SelectQuestion, TextFormat, TextQuestion,
        Value,
    };
}

// The crate's own code names these at its root.
/// The parts the benchmarks and fuzz targets drive one by one. Not a stable API.
#[doc(hidden)]
pub mod internals {
    /// How a journal file's bytes are read, and how a request is named in one.
    pub mod journal {
        pub use crate::journal::digest;
        pub use crate::journal::reader::{Contents, Header, encode, read};
    }
    #[cfg(feature = "terminal")]
    pub use crate::ui::terminal::{
        confirm, editor, keys, layout, multi_select, number, render, review, select, text, theme,
        widget,
    };
}

/// The project README's Rust example, compiled by `cargo test` (absent from a packaged crate,
/// where `cfg(doctest)` is never set).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ProjectReadme;

/// The embedding guide's Rust examples, compiled alike.
#[cfg(doctest)]
#[doc = include_str!("../../docs/embedding.md")]
struct EmbeddingGuide;

/// The crate README's example.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadme;
