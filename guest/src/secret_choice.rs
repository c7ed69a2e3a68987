//! A secret choice question's typed answer. A host's "Something else" entry draws what is typed
//! in clear, and its reply goes to the host's journal as it is; so a secret choice offers that
//! entry as one more option instead, and asks for the text in a text field marked secret,
//! which every host masks, leaves out of its journal and never draws. Its note editor is off:
//! it would draw what is typed too. In the line mode, where an answer could be typed at the
//! list's prompt out of habit, the list's lines are read hidden as well, and the pick is said.

use crate::model::*;
use crate::ui::Ui;

/// What the hidden text field says it is for.
const HINT: &str = "type your own answer: it is not shown";

/// Asks a secret select: `request` as the question would have it, its options lent. Returns
/// the reply as the select's own entry would have given it, and the options.
pub fn select(
    ui: &mut dyn Ui,
    frame: &Frame,
    mut request: SelectRequest,
) -> (SelectReply, Vec<Choice>) {
    let Some(label) = request.other_label.take() else {
        return (ui.select(frame, &mut request), request.options);
    };
    let typed_before = request.other_text.take();
    request.notes = false;
    request.note = None;
    let entry = request.options.len() as u32;
    request.options.push(Choice::plain(&label));
    if typed_before.is_some() && request.selected.is_none() {
        request.selected = Some(entry);
    }
    // What is typed at the list is read hidden too: its own answer could be typed there.
    ui.hide_typing(true);
    let reply = loop {
        match ui.select(frame, &mut request) {
            SelectReply::Picked(pick) if pick.index == entry => {
                match hidden_text(ui, frame, typed_before.clone()) {
                    TextReply::Submitted(text) => break SelectReply::Other(text),
                    // Back to the options, with the entry still under the cursor.
                    TextReply::Nav(Nav::Back) => request.selected = Some(entry),
                    TextReply::Nav(nav) => break SelectReply::Nav(nav),
                }
            }
            reply => break reply,
        }
    };
    ui.hide_typing(false);
    request.options.pop();
    (reply, request.options)
}

/// Asks a secret multi-select, as [`select`] does a select.
pub fn multi_select(
    ui: &mut dyn Ui,
    frame: &Frame,
    mut request: MultiSelectRequest,
) -> (MultiSelectReply, Vec<Choice>) {
    let Some(label) = request.other_label.take() else {
        return (ui.multi_select(frame, &mut request), request.options);
    };
    let typed_before = request.other_text.take();
    request.notes = false;
    request.note = None;
    let entry = request.options.len() as u32;
    request.options.push(Choice::plain(&label));
    if typed_before.is_some() {
        request.selected.push(entry);
    }
    ui.hide_typing(true);
    let reply = loop {
        match ui.multi_select(frame, &mut request) {
            MultiSelectReply::Picked(mut pick) if pick.picked.contains(&entry) => {
                match hidden_text(ui, frame, typed_before.clone()) {
                    TextReply::Submitted(text) => {
                        pick.picked.retain(|&i| i != entry);
                        pick.other = Some(text);
                        break MultiSelectReply::Picked(pick);
                    }
                    // Back to the options, with the picks as they were.
                    TextReply::Nav(Nav::Back) => request.selected = pick.picked,
                    TextReply::Nav(nav) => break MultiSelectReply::Nav(nav),
                }
            }
            reply => break reply,
        }
    };
    ui.hide_typing(false);
    request.options.pop();
    (reply, request.options)
}

/// The typed answer, in a field that does not show it; `initial` is an earlier typed answer.
fn hidden_text(ui: &mut dyn Ui, frame: &Frame, initial: Option<String>) -> TextReply {
    let frame = Frame {
        hint: Some(HINT.to_string()),
        ..frame.clone()
    };
    let request = TextRequest {
        multiline: false,
        placeholder: None,
        initial,
        secret: true,
        min_length: None,
        max_length: None,
    };
    ui.text(&frame, &request)
}
