//! Values for the UIs' unit tests.

use crate::ui::{ChoiceRef, Frame, Options};

/// The frame of a single question; `required` says whether it must be answered.
pub fn frame(prompt: &str, required: bool) -> Frame {
    Frame {
        position: 1,
        total: 1,
        header: None,
        place: None,
        prompt: prompt.into(),
        required,
        mark_optional: !required,
        hint: None,
        error: None,
        context: None,
        declinable: false,
    }
}

/// Options with these labels; the value is the label in lower case.
pub fn options(labels: &[&str]) -> Options {
    let values: Vec<String> = labels.iter().map(|label| label.to_lowercase()).collect();
    labels
        .iter()
        .zip(&values)
        .map(|(label, value)| ChoiceRef {
            value,
            ..ChoiceRef::plain(label)
        })
        .collect()
}
