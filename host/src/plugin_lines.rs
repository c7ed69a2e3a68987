//! A [`Ui`] whose widgets the plugin draws in its numbered line mode, on another UI's `write`
//! and `read_line`: for a host that answers widgets relayed from elsewhere (a team inbox's,
//! whose plugin runs with the asker) where arrow keys cannot be read. The line mode is the
//! plugin's, so a relayed question reads exactly as one asked here (numbered lists, `back`,
//! `skip`, `help`), and no host draws it again.

use crate::bindings::exports::interview::plugin::tool::{RelayedReply, RelayedWidget};
use crate::bindings::interview::plugin::ui as wit;
use crate::error::Error;
use crate::session::{Plugin, Session};
use crate::ui::{
    ConfirmReply, ConfirmRequest, Frame, MultiSelectReply, MultiSelectRequest, Nav, NumberReply,
    NumberRequest, ReviewReply, ReviewRequest, SelectReply, SelectRequest, StopReason, TextReply,
    TextRequest, Ui, UiMode,
};

/// Widgets drawn by the plugin in lines on `U` (a line UI: it writes text and reads lines).
pub struct PluginLines<U: Ui + 'static> {
    session: Session<U>,
    /// Why the plugin could not draw the last widget, if it could not.
    failure: Option<Error>,
}

impl<U: Ui + 'static> PluginLines<U> {
    /// `plugin`'s line mode on `lines`.
    pub fn new(plugin: &Plugin, lines: U) -> Result<PluginLines<U>, Error> {
        Ok(PluginLines {
            session: plugin.session(lines)?,
            failure: None,
        })
    }

    /// Why the plugin could not draw the last widget: its reply was then a cancel that is
    /// nobody's, never to be passed on as the person's.
    pub fn failure(&self) -> Option<&Error> {
        self.failure.as_ref()
    }

    /// The reply to `widget`, or `None` (with [`failure`](Self::failure) set) when the plugin
    /// could not draw it.
    fn draw(&mut self, widget: RelayedWidget) -> Option<RelayedReply> {
        match self.session.draw_in_lines(&widget) {
            Ok(reply) => Some(reply),
            Err(error) => {
                self.failure = Some(error);
                None
            }
        }
    }
}

impl<U: Ui + 'static> Ui for PluginLines<U> {
    fn mode(&mut self) -> UiMode {
        UiMode::Widgets
    }

    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        let request = wit::SelectRequest {
            options: request.options.iter().map(Into::into).collect(),
            selected: request.selected,
            other_label: request.other_label.clone(),
            other_text: request.other_text.clone(),
            discuss_label: request.discuss_label.clone(),
            notes: request.notes,
            note: request.note.clone(),
        };
        match self.draw(RelayedWidget::Select((frame.clone(), request))) {
            Some(RelayedReply::Select(reply)) => reply,
            _ => SelectReply::Nav(Nav::Cancel),
        }
    }

    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply {
        let request = wit::MultiSelectRequest {
            options: request.options.iter().map(Into::into).collect(),
            selected: request.selected.clone(),
            other_label: request.other_label.clone(),
            other_text: request.other_text.clone(),
            min_picks: request.min_picks,
            max_picks: request.max_picks,
            notes: request.notes,
            note: request.note.clone(),
        };
        match self.draw(RelayedWidget::MultiSelect((frame.clone(), request))) {
            Some(RelayedReply::MultiSelect(reply)) => reply,
            _ => MultiSelectReply::Nav(Nav::Cancel),
        }
    }

    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        match self.draw(RelayedWidget::Text((frame.clone(), request.clone()))) {
            Some(RelayedReply::Text(reply)) => reply,
            _ => TextReply::Nav(Nav::Cancel),
        }
    }

    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        match self.draw(RelayedWidget::Confirm((frame.clone(), *request))) {
            Some(RelayedReply::Confirm(reply)) => reply,
            _ => ConfirmReply::Nav(Nav::Cancel),
        }
    }

    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        match self.draw(RelayedWidget::Number((frame.clone(), *request))) {
            Some(RelayedReply::Number(reply)) => reply,
            _ => NumberReply::Nav(Nav::Cancel),
        }
    }

    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        match self.draw(RelayedWidget::Review(request.clone())) {
            Some(RelayedReply::Review(reply)) => reply,
            _ => ReviewReply::Cancel,
        }
    }

    fn finished(&mut self) {
        self.session.ui_mut().finished();
    }

    fn stop_reason(&self) -> Option<StopReason> {
        self.session.ui().stop_reason()
    }
}
