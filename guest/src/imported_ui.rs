//! The plugin's [`Ui`] over the component's imports.

use crate::lines::{ImportedLines, Lines};
use crate::model::*;
use crate::ui::Ui;

/// The UI the host provides through the component's imports: its widgets, or, where it reads
/// only lines, the plugin's own line mode over its `write` and `read-line`.
#[derive(Default)]
pub struct ImportedUi {
    lines: Option<Lines<ImportedLines>>,
}

impl ImportedUi {
    /// The plugin's line mode over the host's `write` and `read-line`, whatever mode the host
    /// says it has: for widgets relayed from elsewhere, which the host asks to be drawn so.
    pub fn in_lines() -> ImportedUi {
        ImportedUi {
            lines: Some(Lines::new(ImportedLines)),
        }
    }

    /// The line mode, once the host has said it reads lines.
    fn lines(&mut self) -> Option<&mut Lines<ImportedLines>> {
        self.lines.as_mut()
    }
}

impl Ui for ImportedUi {
    fn mode(&mut self) -> Mode {
        let mode = crate::bindings::interview::plugin::ui::mode();
        if mode == Mode::Lines && self.lines.is_none() {
            self.lines = Some(Lines::new(ImportedLines));
        }
        mode
    }
    fn select(&mut self, frame: &Frame, request: &mut SelectRequest) -> SelectReply {
        match self.lines() {
            Some(lines) => lines.select(frame, request),
            None => crate::bindings::interview::plugin::ui::select(frame, request),
        }
    }
    fn multi_select(
        &mut self,
        frame: &Frame,
        request: &mut MultiSelectRequest,
    ) -> MultiSelectReply {
        match self.lines() {
            Some(lines) => lines.multi_select(frame, request),
            None => crate::bindings::interview::plugin::ui::multi_select(frame, request),
        }
    }
    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        match self.lines() {
            Some(lines) => lines.text(frame, request),
            None => crate::bindings::interview::plugin::ui::text(frame, request),
        }
    }
    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        match self.lines() {
            Some(lines) => lines.confirm(frame, request),
            None => crate::bindings::interview::plugin::ui::confirm(frame, *request),
        }
    }
    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        match self.lines() {
            Some(lines) => lines.number(frame, request),
            None => crate::bindings::interview::plugin::ui::number(frame, *request),
        }
    }
    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        match self.lines() {
            Some(lines) => lines.review(request),
            None => crate::bindings::interview::plugin::ui::review(request),
        }
    }
    fn hide_typing(&mut self, hidden: bool) {
        if let Some(lines) = self.lines() {
            lines.hide_typing(hidden);
        }
    }
}
