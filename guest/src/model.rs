//! The request and answer model: the WIT types themselves, so that the typed `ask` export, the
//! JSON `call` export and the UI all speak one language. Helpers that give them meaning live here.

use std::cell::{Cell, OnceCell};

use rustc_hash::FxHashMap;

pub use crate::bindings::exports::interview::plugin::tool::{
    CallResult, Checked, ElicitEnding, Elicitation, FormRequest, FormStep, Given, Refusal, Status,
    ToolDefinition, ToolFormat,
};
pub use crate::bindings::interview::plugin::types::{
    Absence, Answer, Choice, ConfirmQuestion, MultiSelectQuestion, NumberQuestion, Origin, Outcome,
    Question, QuestionKind, RequestError, SelectQuestion, Settings, TextFormat, TextQuestion,
    Value,
};
pub use crate::bindings::interview::plugin::ui::{
    ConfirmReply, ConfirmRequest, Frame, LineRead, MultiPick, MultiSelectReply, MultiSelectRequest,
    Nav, NumberReply, NumberRequest, Pick, ReviewItem, ReviewReply, ReviewRequest, SelectReply,
    SelectRequest, Span, TextReply, TextRequest, Tone, UiMode as Mode,
};

/// The label of the free-text entry of choice questions (the wording of `ask_question`).
pub const OTHER_LABEL: &str = "Something else (I'll explain)";
/// The label of the "discuss" entry of select questions (the wording of `ask_question`).
pub const DISCUSS_LABEL: &str = "Let's discuss this";
/// What a skipped text question records when the host sets no skip response.
pub const DEFAULT_SKIP_RESPONSE: &str = "I don't have information about this.";

impl Status {
    /// The status as a result says it: `answered`, `cancelled`, `invalid`, `unavailable` or
    /// `failed`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Answered => "answered",
            Status::Cancelled => "cancelled",
            Status::Invalid => "invalid",
            Status::Unavailable => "unavailable",
            Status::Failed => "failed",
        }
    }
}

impl Absence {
    /// The reason's name in results: `no-terminal`, `no-inbox`, `background`, `no-input`,
    /// `form-dismissed`, `page-not-opened`, `unknown-addressee`, `inbox-refused`.
    pub fn name(self) -> &'static str {
        match self {
            Absence::NoTerminal => "no-terminal",
            Absence::NoInbox => "no-inbox",
            Absence::Background => "background",
            Absence::NoInput => "no-input",
            Absence::FormDismissed => "form-dismissed",
            Absence::PageNotOpened => "page-not-opened",
            Absence::UnknownAddressee => "unknown-addressee",
            Absence::InboxRefused => "inbox-refused",
        }
    }
}

impl QuestionKind {
    /// The kind's name in requests and results: `text`, `select`, `multi_select`, `confirm`, `number`.
    pub fn name(&self) -> &'static str {
        match self {
            QuestionKind::Text(_) => "text",
            QuestionKind::Select(_) => "select",
            QuestionKind::MultiSelect(_) => "multi_select",
            QuestionKind::Confirm(_) => "confirm",
            QuestionKind::Number(_) => "number",
        }
    }

    /// The options of a choice question, to find by value: keep it for the whole answer, since
    /// a multi-select answer can name thousands of them.
    pub fn options_by_value(&self) -> OptionsByValue<'_> {
        OptionsByValue::new(self.options())
    }

    /// The options of a choice question; empty for the other kinds.
    pub fn options(&self) -> &[Choice] {
        match self {
            QuestionKind::Select(s) => &s.options,
            QuestionKind::MultiSelect(m) => &m.options,
            _ => &[],
        }
    }
}

impl MultiSelectQuestion {
    /// The fewest picks it takes: its own minimum, else one when the question is `required`. A
    /// required question with a minimum of 0 must be answered, and no pick is an answer.
    pub fn fewest_picks(&self, required: bool) -> u32 {
        self.min_picks.unwrap_or(u32::from(required))
    }
}

/// A choice question's options by value (the first, should two share one).
/// An answer names one option, or a few: those are found by scanning the list, which costs less
/// than hashing every value of a long one. Past a few lookups (a multi-select answer may name
/// thousands) the map is built once.
pub struct OptionsByValue<'a> {
    options: &'a [Choice],
    scans_left: Cell<u8>,
    by_value: OnceCell<FxHashMap<&'a str, usize>>,
}

impl<'a> OptionsByValue<'a> {
    /// Lookups answered by a scan before the map is built.
    const SCANS: u8 = 4;

    pub fn new(options: &'a [Choice]) -> Self {
        OptionsByValue {
            options,
            scans_left: Cell::new(Self::SCANS),
            by_value: OnceCell::new(),
        }
    }

    /// The 0-based index of the option whose value is `value`.
    pub fn index(&self, value: &str) -> Option<usize> {
        if self.by_value.get().is_none() && self.scans_left.get() > 0 {
            self.scans_left.set(self.scans_left.get() - 1);
            return self.options.iter().position(|o| o.value == value);
        }
        let by_value = self.by_value.get_or_init(|| {
            let mut by_value =
                FxHashMap::with_capacity_and_hasher(self.options.len(), Default::default());
            for (index, option) in self.options.iter().enumerate() {
                by_value.entry(option.value.as_str()).or_insert(index);
            }
            by_value
        });
        by_value.get(value).copied()
    }

    /// The option whose value is `value`: its 1-based number and its label.
    pub fn number_and_label(&self, value: &str) -> Option<(usize, &'a str)> {
        self.index(value)
            .map(|i| (i + 1, self.options[i].label.as_str()))
    }
}

impl Choice {
    /// An option that is its label: the value is the label, no description, not recommended.
    pub fn plain(label: &str) -> Choice {
        Choice {
            label: label.to_string(),
            value: label.to_string(),
            description: None,
            preview: None,
            recommended: false,
        }
    }

    /// Whether a label ends in "(Recommended)", in any case: models mark their
    /// recommendation so.
    pub fn says_recommended(label: &str) -> bool {
        const MARK: &str = "(recommended)";
        let label = label.trim_end();
        label
            .len()
            .checked_sub(MARK.len())
            .and_then(|start| label.get(start..))
            .is_some_and(|end| end.eq_ignore_ascii_case(MARK))
    }
}

impl Settings {
    /// The text recorded for a skipped text question.
    pub fn skip_response(&self) -> &str {
        self.skip_response
            .as_deref()
            .unwrap_or(DEFAULT_SKIP_RESPONSE)
    }
}

impl RequestError {
    /// An error at `path` (empty for the request as a whole).
    pub fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        RequestError {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// Joins a path and a field: `join("questions[1]", "options")` is `questions[1].options`, and a
/// top-level field has no leading dot.
pub fn join(path: &str, field: &str) -> String {
    match (path.is_empty(), field.starts_with('[')) {
        (true, _) => field.to_string(),
        (false, true) => format!("{path}{field}"),
        (false, false) => format!("{path}.{field}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_found_by_value_alike_before_and_after_the_map_is_built() {
        let mut options: Vec<Choice> = ["a", "b", "c"].map(Choice::plain).into();
        options.push(Choice {
            value: "b".into(),
            ..Choice::plain("second b")
        });
        let found = OptionsByValue::new(&options);
        let lookups = ["b", "c", "zz", "a", "b", "c", "zz", "a", "b"];
        let answers: Vec<_> = lookups.iter().map(|v| found.index(v)).collect();
        // Past the scans the map answers: the same, the first option of a shared value.
        assert!(found.by_value.get().is_some());
        let first = [Some(1), Some(2), None, Some(0)];
        assert_eq!(answers, [&first[..], &first[..], &first[..1]].concat());
        assert_eq!(found.number_and_label("c"), Some((3, "c")));
    }
}
