//! The UIs a host offers the plugin: one trait ([`Ui`]), the `ui` interface of the WIT, with
//! its requests and replies, and the UIs this crate provides: [`TerminalUi`] (arrow keys),
//! [`LineUi`] (the line mode), [`WebUi`] (a browser page), [`ScriptedUi`] (tests) and
//! [`NoPerson`].
//!
//! The plugin decides what to ask and judges every answer; a UI only shows a widget and reports
//! what the person did. Every string a UI receives has already been sanitized (no escape or
//! control sequences), whichever UI it is.

pub mod answered;
pub(crate) mod cleaned;
pub(crate) mod lines;
#[cfg(test)]
mod mirrors;
mod options;
pub(crate) mod scripted;
#[cfg(feature = "terminal")]
pub(crate) mod terminal;
#[cfg(test)]
pub(crate) mod testing;
#[cfg(feature = "web")]
pub(crate) mod web;

pub use crate::bindings::interview::plugin::types::Absence;
use crate::bindings::interview::plugin::ui as wit;
pub use crate::foreground::is_foreground;
use crate::given::Given;
pub use crate::input::{Input, Interrupter, LineReader, LineSource};
use crate::sanitize;
pub use lines::LineUi;
pub use options::{ChoiceRef, Options, TooMuchText};
pub use scripted::{ScriptedUi, Shown, Step, TypedLine};
#[cfg(feature = "terminal")]
pub use terminal::{StatusLine, TerminalUi};
#[cfg(feature = "web")]
pub use web::{PageNotice, WebUi, wire as web_wire};
pub use wit::{
    ConfirmReply, ConfirmRequest, Frame, LineRead, MultiPick, MultiSelectReply, Nav, NumberReply,
    NumberRequest, Pick, ReviewItem, ReviewReply, ReviewRequest, SelectReply, Span, TextReply,
    TextRequest, Tone, UiMode,
};

/// A single choice: the WIT's `select-request`, its options kept as [`Options`].
#[derive(Clone, Debug, PartialEq)]
pub struct SelectRequest {
    /// The entries. Draw the "recommended" badge where `recommended` is set: the plugin
    /// clears it where the label already says so ("Yes (Recommended)").
    pub options: Options,
    /// The entry under the cursor at the start: the earlier answer or the default.
    pub selected: Option<u32>,
    /// The label of the free-text entry, when typed answers are allowed.
    pub other_label: Option<String>,
    /// Text to put in the free-text entry at the start (an earlier typed answer). When set and
    /// `selected` is none, the free-text entry is the one under the cursor.
    pub other_text: Option<String>,
    /// The label of the "discuss" entry, when offered.
    pub discuss_label: Option<String>,
    /// The person may add a note to the option they pick.
    pub notes: bool,
    /// The note to put back in the note editor at the start (an earlier answer's).
    pub note: Option<String>,
}

/// Several choices: the WIT's `multi-select-request`, its options kept as [`Options`].
#[derive(Clone, Debug, PartialEq)]
pub struct MultiSelectRequest {
    /// The entries, with badges as in [`SelectRequest`].
    pub options: Options,
    /// Indices ticked at the start.
    pub selected: Vec<u32>,
    /// The label of the free-text entry, when a typed answer is allowed.
    pub other_label: Option<String>,
    /// Text in the free-text entry at the start.
    pub other_text: Option<String>,
    /// Fewest picks (the plugin enforces it): at least 1 on a required question, so a
    /// host can refuse an empty pick at once. `frame.hint` says it in words.
    pub min_picks: Option<u32>,
    /// Most picks (the plugin enforces it).
    pub max_picks: Option<u32>,
    /// The person may add a note to their picks.
    pub notes: bool,
    /// The note to put back in the note editor at the start (an earlier answer's).
    pub note: Option<String>,
}

impl SelectReply {
    /// Picked `options[index]`, without a note.
    pub fn picked(index: u32) -> SelectReply {
        SelectReply::Picked(Pick { index, note: None })
    }
}

/// Why a UI stopped asking before the person was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The input ended before the last answer (a pipe closed, a terminal gone).
    Ended,
    /// Interrupted: Ctrl-C, a signal, the question withdrawn, the page's tab closed.
    Interrupted,
}

impl StopReason {
    /// Stopped before they were done without choosing to (interrupted, or their input ended):
    /// what a journal is kept for, to resume. Every stop is, today; a person who chooses to
    /// stop cancels, and no UI stops for it.
    pub fn cut_off(self) -> bool {
        matches!(self, StopReason::Interrupted | StopReason::Ended)
    }
}

/// A way to reach a person: a terminal, a line dialogue, a web form, a test script.
pub trait Ui {
    /// How this UI reaches a person; [`UiMode::Unavailable`] makes the plugin ask nothing.
    fn mode(&mut self) -> UiMode;
    /// One choice from a list. `frame` says where the question sits and what it asks; an
    /// error in it is why the last reply was refused.
    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply;
    /// Any number of choices from a list; `frame.hint` says the limits in words.
    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply;
    /// Free text; `frame.hint` says its length limits in words.
    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply;
    /// Yes or no.
    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply;
    /// A number, returned as typed: the plugin parses it and checks the range that
    /// `frame.hint` says in words.
    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply;
    /// After the last question of a batch (and of every elicitation form): submit, change one
    /// answer, cancel, or, when `request.declinable`, decline.
    fn review(&mut self, request: &ReviewRequest) -> ReviewReply;
    /// In [`UiMode::Lines`]: writes the plugin's text, which draws the line mode's widgets
    /// itself. A UI of another mode is never asked.
    fn write(&mut self, spans: &[Span]) {
        let _ = spans;
    }
    /// In [`UiMode::Lines`]: the next line the person typed; `hidden` for a secret, not to be
    /// echoed. A UI of another mode is never asked, and has no lines.
    fn read_line(&mut self, hidden: bool) -> LineRead {
        let _ = hidden;
        LineRead::Ended
    }
    /// The plugin has finished a request (answered, cancelled, or nothing asked): a UI that
    /// holds the terminal lets it go here.
    fn finished(&mut self) {}
    /// A request resumed from a journal: `answered` is what the person had answered before
    /// the question about to be asked. A UI that keeps a transcript shows it.
    fn resumed(&mut self, answered: &[Given]) {
        let _ = answered;
    }
    /// Why the UI stopped asking, if it did: a cancelled result then says more than "the
    /// person cancelled" (a host exits 130 when interrupted, keeps a journal when cut off).
    fn stop_reason(&self) -> Option<StopReason> {
        None
    }
}

impl<U: Ui + ?Sized> Ui for Box<U> {
    fn mode(&mut self) -> UiMode {
        (**self).mode()
    }
    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        (**self).select(frame, request)
    }
    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply {
        (**self).multi_select(frame, request)
    }
    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        (**self).text(frame, request)
    }
    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        (**self).confirm(frame, request)
    }
    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        (**self).number(frame, request)
    }
    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        (**self).review(request)
    }
    fn write(&mut self, spans: &[Span]) {
        (**self).write(spans)
    }
    fn read_line(&mut self, hidden: bool) -> LineRead {
        (**self).read_line(hidden)
    }
    fn finished(&mut self) {
        (**self).finished()
    }
    fn resumed(&mut self, answered: &[Given]) {
        (**self).resumed(answered)
    }
    fn stop_reason(&self) -> Option<StopReason> {
        (**self).stop_reason()
    }
}

/// One UI shared by sessions that take turns (an MCP server's calls, one person): each call
/// locks it. A web page kept open across requests is the use.
impl<U: Ui + ?Sized> Ui for std::sync::Arc<std::sync::Mutex<U>> {
    fn mode(&mut self) -> UiMode {
        lock(self).mode()
    }
    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        lock(self).select(frame, request)
    }
    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply {
        lock(self).multi_select(frame, request)
    }
    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        lock(self).text(frame, request)
    }
    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        lock(self).confirm(frame, request)
    }
    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        lock(self).number(frame, request)
    }
    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        lock(self).review(request)
    }
    fn write(&mut self, spans: &[Span]) {
        lock(self).write(spans)
    }
    fn read_line(&mut self, hidden: bool) -> LineRead {
        lock(self).read_line(hidden)
    }
    fn finished(&mut self) {
        lock(self).finished()
    }
    fn resumed(&mut self, answered: &[Given]) {
        lock(self).resumed(answered)
    }
    fn stop_reason(&self) -> Option<StopReason> {
        lock(self).stop_reason()
    }
}

/// The shared UI, even after a panic while another session held it.
fn lock<U: ?Sized>(ui: &std::sync::Mutex<U>) -> std::sync::MutexGuard<'_, U> {
    ui.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a resumed request says before the answers kept from its journal.
pub(crate) fn resumed_heading(count: usize) -> String {
    match count {
        0 => "Resumed where you left off.".into(),
        1 => "Resumed where you left off; your answer is kept:".into(),
        n => format!("Resumed where you left off; your {n} answers are kept:"),
    }
}

/// A question in a few words, where answers are listed: its header, else its first line.
pub(crate) fn short_title(header: Option<&str>, prompt: &str) -> String {
    header
        .unwrap_or_else(|| prompt.lines().next().unwrap_or(""))
        .to_string()
}

/// An answer kept from a journal, as a [`short_title`] and the answer, both fit for the
/// terminal: the person's own text may hold pasted escapes.
pub(crate) fn resumed_line(given: &Given) -> (String, String) {
    let title = short_title(given.header.as_deref(), &given.prompt);
    (sanitize::line(&title), sanitize::line(&given.answer_text()))
}

/// Widgets that are never shown, and cancel if a plugin asks them anyway: those of a UI with
/// nobody to ask, or of the line mode, whose plugin draws its widgets itself.
macro_rules! widgets_that_cancel {
    () => {
        fn select(&mut self, _: &Frame, _: &SelectRequest) -> SelectReply {
            SelectReply::Nav(Nav::Cancel)
        }
        fn multi_select(&mut self, _: &Frame, _: &MultiSelectRequest) -> MultiSelectReply {
            MultiSelectReply::Nav(Nav::Cancel)
        }
        fn text(&mut self, _: &Frame, _: &TextRequest) -> TextReply {
            TextReply::Nav(Nav::Cancel)
        }
        fn confirm(&mut self, _: &Frame, _: &ConfirmRequest) -> ConfirmReply {
            ConfirmReply::Nav(Nav::Cancel)
        }
        fn number(&mut self, _: &Frame, _: &NumberRequest) -> NumberReply {
            NumberReply::Nav(Nav::Cancel)
        }
        fn review(&mut self, _: &ReviewRequest) -> ReviewReply {
            ReviewReply::Cancel
        }
    };
}
use widgets_that_cancel;

/// The UI of a process with nobody to ask, and why: the plugin asks nothing and reports
/// `unavailable`, with the reason in words for the model. Also the UI of a session that never
/// asks (one that lists definitions or checks a request).
#[derive(Clone, Copy, Debug)]
pub struct NoPerson(pub Absence);

impl Ui for NoPerson {
    fn mode(&mut self) -> UiMode {
        UiMode::Unavailable(self.0)
    }
    widgets_that_cancel!();
}
