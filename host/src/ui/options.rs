//! The options of a choice request, as a UI reads them.

use std::fmt;

use crate::ask::Choice;

/// The options of a select or multi-select, in order.
///
/// Their texts are kept in one buffer, and each option is where its texts lie in it: a list
/// may hold thousands of options, and this is two allocations for all of them rather than
/// two or more for each (which, in a process that asks once, were most of the memory it
/// touched for a long list).
///
/// ```
/// use interview_host::ui::{ChoiceRef, Options};
///
/// let options: Options = ["dev", "prod"].into_iter().map(ChoiceRef::plain).collect();
/// assert_eq!(options.len(), 2);
/// assert_eq!(options.get(1).map(|o| o.value), Some("prod"));
/// ```
#[derive(Clone, Default)]
pub struct Options {
    text: String,
    entries: Vec<Entry>,
}

/// Where one option's texts lie in [`Options::text`]: its label from `start`, then its value
/// (absent when it is the label), its description and its preview, each ending where `ends`
/// says.
#[derive(Clone, Copy)]
struct Entry {
    start: u32,
    ends: [u32; 4],
    flags: u8,
}

const VALUE_IS_LABEL: u8 = 1;
const HAS_DESCRIPTION: u8 = 2;
const HAS_PREVIEW: u8 = 4;
const RECOMMENDED: u8 = 8;

/// One option of [`Options`], borrowed from it: the fields of a [`Choice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChoiceRef<'a> {
    /// What the person sees. Never decorated: the UI draws badges itself.
    pub label: &'a str,
    /// What the agent gets back when this entry is picked.
    pub value: &'a str,
    /// A longer explanation, shown under the label in muted text.
    pub description: Option<&'a str>,
    /// Something to look at before picking, shown as it is (lines kept).
    pub preview: Option<&'a str>,
    /// The agent's recommendation; the UI shows a badge.
    pub recommended: bool,
}

impl<'a> ChoiceRef<'a> {
    /// An option whose value is its label, with nothing else.
    pub fn plain(label: &'a str) -> Self {
        ChoiceRef {
            label,
            value: label,
            description: None,
            preview: None,
            recommended: false,
        }
    }
}

impl<'a> From<&'a Choice> for ChoiceRef<'a> {
    fn from(choice: &'a Choice) -> Self {
        ChoiceRef {
            label: &choice.label,
            value: &choice.value,
            description: choice.description.as_deref(),
            preview: choice.preview.as_deref(),
            recommended: choice.recommended,
        }
    }
}

impl From<ChoiceRef<'_>> for Choice {
    fn from(choice: ChoiceRef<'_>) -> Self {
        Choice {
            label: choice.label.into(),
            value: choice.value.into(),
            description: choice.description.map(Into::into),
            preview: choice.preview.map(Into::into),
            recommended: choice.recommended,
        }
    }
}

/// The options' texts together are longer than [`Options`] can keep: 4 GiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooMuchText;

impl fmt::Display for TooMuchText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the options' texts come to more than 4 GiB")
    }
}

impl std::error::Error for TooMuchText {}

impl Options {
    /// No options.
    pub fn new() -> Self {
        Self::default()
    }

    /// No options yet, with room for `options` of them and `text` bytes of their texts.
    pub fn with_capacity(options: usize, text: usize) -> Self {
        Options {
            text: String::with_capacity(text),
            entries: Vec::with_capacity(options),
        }
    }

    /// Adds `choice` after the others.
    ///
    /// # Panics
    ///
    /// When the options' texts come to more than 4 GiB; see [`Options::try_push`].
    pub fn push(&mut self, choice: ChoiceRef<'_>) {
        self.try_push(choice)
            .expect("the options' texts fit in 4 GiB");
    }

    /// Adds `choice` after the others, unless the options' texts would then come to more than
    /// 4 GiB (options lifted from a plugin, which may name one text many times).
    pub fn try_push(&mut self, choice: ChoiceRef<'_>) -> Result<(), TooMuchText> {
        let own_value = (choice.value != choice.label).then_some(choice.value);
        let parts = [
            Some(choice.label),
            own_value,
            choice.description,
            choice.preview,
        ];
        let start = self.text.len();
        parts
            .iter()
            .flatten()
            .try_fold(start, |total, part| total.checked_add(part.len()))
            .filter(|&total| u32::try_from(total).is_ok())
            .ok_or(TooMuchText)?;
        let mut ends = [0; 4];
        for (end, part) in ends.iter_mut().zip(parts) {
            self.text.push_str(part.unwrap_or_default());
            *end = self.text.len() as u32; // fits: checked above
        }
        let flag = |set: bool, flag: u8| if set { flag } else { 0 };
        let flags = flag(own_value.is_none(), VALUE_IS_LABEL)
            | flag(choice.description.is_some(), HAS_DESCRIPTION)
            | flag(choice.preview.is_some(), HAS_PREVIEW)
            | flag(choice.recommended, RECOMMENDED);
        self.entries.push(Entry {
            start: start as u32,
            ends,
            flags,
        });
        Ok(())
    }

    /// How many options there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// How many bytes the options' texts come to, kept once each.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The option at `index`, if there is one.
    pub fn get(&self, index: usize) -> Option<ChoiceRef<'_>> {
        self.entries.get(index).map(|entry| self.read(entry))
    }

    /// The options in order.
    pub fn iter(
        &self,
    ) -> impl ExactSizeIterator<Item = ChoiceRef<'_>> + DoubleEndedIterator + Clone {
        self.entries.iter().map(|entry| self.read(entry))
    }

    /// Each option's preview, in order: what a widget measures on every frame, read without
    /// the rest of each option.
    pub fn previews(&self) -> impl Iterator<Item = Option<&str>> {
        self.entries.iter().map(|entry| {
            let [_, _, description_end, preview_end] = entry.ends.map(|e| e as usize);
            (entry.flags & HAS_PREVIEW != 0).then(|| &self.text[description_end..preview_end])
        })
    }

    /// The option `entry` describes.
    fn read(&self, entry: &Entry) -> ChoiceRef<'_> {
        let [label_end, value_end, description_end, preview_end] = entry.ends.map(|e| e as usize);
        let part = |from: usize, to: usize| &self.text[from..to];
        let label = part(entry.start as usize, label_end);
        let has = |flag: u8| entry.flags & flag != 0;
        ChoiceRef {
            label,
            value: if has(VALUE_IS_LABEL) {
                label
            } else {
                part(label_end, value_end)
            },
            description: has(HAS_DESCRIPTION).then(|| part(value_end, description_end)),
            preview: has(HAS_PREVIEW).then(|| part(description_end, preview_end)),
            recommended: has(RECOMMENDED),
        }
    }
}

impl<'a> FromIterator<ChoiceRef<'a>> for Options {
    fn from_iter<I: IntoIterator<Item = ChoiceRef<'a>>>(choices: I) -> Self {
        let mut options = Options::new();
        for choice in choices {
            options.push(choice);
        }
        options
    }
}

impl<'a> FromIterator<&'a Choice> for Options {
    fn from_iter<I: IntoIterator<Item = &'a Choice>>(choices: I) -> Self {
        choices.into_iter().map(ChoiceRef::from).collect()
    }
}

impl FromIterator<Choice> for Options {
    fn from_iter<I: IntoIterator<Item = Choice>>(choices: I) -> Self {
        let mut options = Options::new();
        for choice in choices {
            options.push((&choice).into());
        }
        options
    }
}

impl From<&[Choice]> for Options {
    fn from(choices: &[Choice]) -> Self {
        choices.iter().collect()
    }
}

impl From<Vec<Choice>> for Options {
    fn from(choices: Vec<Choice>) -> Self {
        choices.iter().collect()
    }
}

/// Two lists of options are equal when each option is, however their texts are kept.
impl PartialEq for Options {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Options {}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice<'a>(label: &'a str, value: &'a str) -> ChoiceRef<'a> {
        ChoiceRef {
            value,
            ..ChoiceRef::plain(label)
        }
    }

    #[test]
    fn every_field_reads_back_as_it_was_pushed() {
        let given = [
            ChoiceRef::plain("Dev"),
            choice("Staging", "stage"),
            ChoiceRef {
                description: Some("the real thing"),
                preview: Some("fn main() {\n}\n"),
                recommended: true,
                ..choice("Prod", "prod")
            },
            // Empty texts are texts, not absent ones.
            ChoiceRef {
                description: Some(""),
                preview: Some(""),
                ..choice("", "")
            },
            ChoiceRef {
                preview: Some("only a preview"),
                ..choice("x", "")
            },
        ];
        let options: Options = given.into_iter().collect();
        assert_eq!(options.len(), given.len());
        assert!(options.iter().eq(given));
        assert!(options.iter().rev().eq(given.into_iter().rev()));
        assert!(options.previews().eq(given.iter().map(|o| o.preview)));
        assert_eq!(options.get(2), Some(given[2]));
        assert_eq!(options.get(5), None);
    }

    #[test]
    fn options_are_equal_by_what_they_hold() {
        let owned = vec![
            Choice::from(choice("A", "a")),
            Choice::from(ChoiceRef::plain("B")),
        ];
        let from_owned = Options::from(owned.clone());
        let from_refs: Options = [choice("A", "a"), ChoiceRef::plain("B")]
            .into_iter()
            .collect();
        assert_eq!(from_owned, from_refs);
        assert_ne!(from_owned, Options::from(&owned[..1]));
        assert_eq!(format!("{from_owned:?}").matches("ChoiceRef").count(), 2);
        let back: Vec<Choice> = from_owned.iter().map(Choice::from).collect();
        assert_eq!(back, owned);
    }
}
