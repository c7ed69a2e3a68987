//! Values for the UIs' unit tests.

use crate::{Choice, Frame};

/// The frame of a single question; `required` says whether it must be answered.
pub fn frame(prompt: &str, required: bool) -> Frame {
    Frame {
        position: 1,
        total: 1,
        header: None,
        prompt: prompt.into(),
        required,
        hint: None,
        error: None,
        context: None,
        declinable: false,
    }
}

/// Options with these labels; the value is the label in lower case.
pub fn options(labels: &[&str]) -> Vec<Choice> {
    labels
        .iter()
        .map(|label| Choice {
            label: label.to_string(),
            value: label.to_lowercase(),
            description: None,
            preview: None,
            recommended: false,
        })
        .collect()
}
