//! A submitted form played through the flow as if typed at the widgets, so that the plugin
//! judges it exactly as it judges a terminal's answers. The first answer it refuses stops
//! the play, and says which field and why.

use serde_json::{Map, Value as Json};

use super::fields::Names;
use crate::model::*;
use crate::ui::Ui;

/// The widgets, answered from a form's `content`.
pub struct Replay<'a> {
    names: &'a [Names],
    content: &'a Map<String, Json>,
    /// The question whose answer the plugin refused, and why.
    pub refused: Option<(usize, String)>,
}

impl<'a> Replay<'a> {
    pub fn new(names: &'a [Names], content: &'a Map<String, Json>) -> Self {
        Replay {
            names,
            content,
            refused: None,
        }
    }

    /// The question a frame asks, or `None` when the plugin refused its previous answer: a
    /// form can't be asked again field by field, so the play stops there.
    fn at(&mut self, frame: &Frame) -> Option<&'a Names> {
        if let Some(error) = &frame.error {
            self.refuse(frame, error.clone());
            return None;
        }
        self.names.get(question(frame))
    }

    /// Stops the play: the answer to the question of `frame` is refused, for `why`.
    fn refuse(&mut self, frame: &Frame, why: String) {
        self.refused = Some((question(frame), why));
    }

    /// A property's value; an empty string is no answer, as an untouched field is.
    fn value(&self, name: &str) -> Option<&'a Json> {
        self.content
            .get(name)
            .filter(|v| !v.is_null() && v.as_str().is_none_or(|s| !s.trim().is_empty()))
    }

    fn text_of(&self, name: &Option<String>) -> Option<String> {
        name.as_deref().and_then(|n| self.value(n)).map(as_text)
    }
}

/// The index of the question a frame asks.
fn question(frame: &Frame) -> usize {
    frame.position.saturating_sub(1) as usize
}

/// A value as the person would have typed it.
fn as_text(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Ui for Replay<'_> {
    fn mode(&mut self) -> Mode {
        Mode::Widgets
    }

    fn select(&mut self, frame: &Frame, request: &mut SelectRequest) -> SelectReply {
        let Some(names) = self.at(frame) else {
            return SelectReply::Nav(Nav::Cancel);
        };
        if let Some(typed) = self.text_of(&names.other) {
            return SelectReply::Other(typed);
        }
        let Some(value) = self.value(&names.answer).map(as_text) else {
            return SelectReply::Nav(Nav::Skip);
        };
        if names.discuss.as_ref() == Some(&value) {
            return SelectReply::Discuss;
        }
        match request.options.iter().position(|o| o.value == value) {
            Some(index) => SelectReply::Picked(Pick {
                index: index as u32,
                note: self.text_of(&names.note),
            }),
            // Not one of the entries: the plugin takes it as typed, or refuses it.
            None => SelectReply::Other(value),
        }
    }

    fn multi_select(
        &mut self,
        frame: &Frame,
        request: &mut MultiSelectRequest,
    ) -> MultiSelectReply {
        let Some(names) = self.at(frame) else {
            return MultiSelectReply::Nav(Nav::Cancel);
        };
        let other = self.text_of(&names.other);
        let picked = match self.content.get(&names.answer) {
            Some(Json::Array(values)) => values.iter().map(as_text).collect(),
            Some(Json::Null) | None => Vec::new(),
            Some(one) => vec![as_text(one)],
        };
        if picked.is_empty() && other.is_none() && !self.content.contains_key(&names.answer) {
            return MultiSelectReply::Nav(Nav::Skip);
        }
        let options = OptionsByValue::new(&request.options);
        let mut indices = Vec::new();
        let mut unknown = Vec::new();
        for value in picked {
            match options.index(&value) {
                Some(index) => indices.push(index as u32),
                None => unknown.push(value),
            }
        }
        // A value that is not an entry can only be the typed answer; more than one can't be.
        let other = match (other, unknown.len()) {
            (other, 0) => other,
            (None, 1) => unknown.pop(),
            _ => {
                self.refuse(
                    frame,
                    format!("{} are not among the options.", unknown.join(", ")),
                );
                return MultiSelectReply::Nav(Nav::Cancel);
            }
        };
        MultiSelectReply::Picked(MultiPick {
            picked: indices,
            other,
            note: self.text_of(&names.note),
        })
    }

    fn text(&mut self, frame: &Frame, _: &TextRequest) -> TextReply {
        let Some(names) = self.at(frame) else {
            return TextReply::Nav(Nav::Cancel);
        };
        match self.value(&names.answer) {
            Some(value) => TextReply::Submitted(as_text(value)),
            None => TextReply::Nav(Nav::Skip),
        }
    }

    fn confirm(&mut self, frame: &Frame, _: &ConfirmRequest) -> ConfirmReply {
        let Some(names) = self.at(frame) else {
            return ConfirmReply::Nav(Nav::Cancel);
        };
        match self.value(&names.answer) {
            Some(Json::Bool(yes)) => ConfirmReply::Answered(*yes),
            Some(Json::String(s)) if s == "true" || s == "false" => {
                ConfirmReply::Answered(s == "true")
            }
            Some(other) => {
                self.refuse(frame, format!("{other} is not yes or no."));
                ConfirmReply::Nav(Nav::Cancel)
            }
            None => ConfirmReply::Nav(Nav::Skip),
        }
    }

    fn number(&mut self, frame: &Frame, _: &NumberRequest) -> NumberReply {
        let Some(names) = self.at(frame) else {
            return NumberReply::Nav(Nav::Cancel);
        };
        match self.value(&names.answer) {
            Some(value) => NumberReply::Entered(as_text(value)),
            None => NumberReply::Nav(Nav::Skip),
        }
    }

    fn review(&mut self, _: &ReviewRequest) -> ReviewReply {
        ReviewReply::Submit
    }
}
