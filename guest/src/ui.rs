//! The widgets the plugin asks with, as the `ui` WIT interface defines them: what the flow
//! drives, what the line mode and the layers around a widget (printable text, secret choices)
//! implement, and what tests script.

use crate::model::*;

/// The widgets of the host, as the `ui` WIT interface defines them.
/// A choice request's options are lent, not copied: a list may hold thousands, which the flow
/// moves out of its question for the widget and takes back after it. A layer may edit the
/// other fields of a request in place; one that shows other options than those lent puts the
/// lent ones back before it returns.
pub trait Ui {
    fn mode(&mut self) -> Mode;
    fn select(&mut self, frame: &Frame, request: &mut SelectRequest) -> SelectReply;
    fn multi_select(&mut self, frame: &Frame, request: &mut MultiSelectRequest)
    -> MultiSelectReply;
    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply;
    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply;
    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply;
    fn review(&mut self, request: &ReviewRequest) -> ReviewReply;
    /// Whether, until said otherwise, every line the person types is read hidden, a list's
    /// answer too: around a secret choice, whose own answer might be typed at the list. Only
    /// the line mode reads typed text at a list; a widget's pick is an index, so the others
    /// have nothing to do.
    fn hide_typing(&mut self, _hidden: bool) {}
}
