//! A test fixture, not an example to copy: it asks one question with the terminal UI and then
//! panics while the terminal is still in raw mode, so that `tests/terminal.rs` can check that
//! the panic hook gives the terminal back (canonical mode, echo, cursor, no bracketed paste).

use interview_host::ui::{ChoiceRef, Frame, SelectRequest, TerminalUi, Ui};

fn main() {
    let mut ui = TerminalUi::on_controlling_terminal(true).expect("a terminal");
    let frame = Frame {
        position: 1,
        total: 1,
        header: None,
        place: None,
        prompt: "Panic now?".into(),
        required: true,
        mark_optional: false,
        hint: None,
        error: None,
        context: None,
        declinable: false,
    };
    let request = SelectRequest {
        options: ["Yes", "Of course"]
            .into_iter()
            .map(ChoiceRef::plain)
            .collect(),
        selected: None,
        other_label: None,
        other_text: None,
        discuss_label: None,
        notes: false,
        note: None,
    };
    let reply = ui.select(&frame, &request);
    // The UI still holds the terminal: only `finished` or dropping it would give it back.
    panic!("forced panic after {reply:?}");
}
