//! Widgets another process put up, drawn here in the numbered line mode (`draw-in-lines`): a
//! host that answers a team inbox's questions where arrow keys cannot be read has this plugin
//! draw them as it draws its own, and hands the reply to the plugin that put them up, which
//! judges it. The widget's text comes from elsewhere: it is made printable here too.

use crate::bindings::exports::interview::plugin::tool::{RelayedReply, RelayedWidget};
use crate::printable::Printable;
use crate::ui::Ui;

/// Draws `widget` with `lines` (the plugin's line mode), and reads the person's reply to it.
pub fn draw_in_lines(lines: &mut impl Ui, widget: RelayedWidget) -> RelayedReply {
    let ui = &mut Printable(lines);
    match widget {
        RelayedWidget::Select((frame, mut request)) => {
            RelayedReply::Select(ui.select(&frame, &mut request))
        }
        RelayedWidget::MultiSelect((frame, mut request)) => {
            RelayedReply::MultiSelect(ui.multi_select(&frame, &mut request))
        }
        RelayedWidget::Text((frame, request)) => RelayedReply::Text(ui.text(&frame, &request)),
        RelayedWidget::Confirm((frame, request)) => {
            RelayedReply::Confirm(ui.confirm(&frame, &request))
        }
        RelayedWidget::Number((frame, request)) => {
            RelayedReply::Number(ui.number(&frame, &request))
        }
        RelayedWidget::Review(request) => RelayedReply::Review(ui.review(&request)),
    }
}
