//! What a [`Ui`](super::Ui) is shown is made printable first. A widget's text comes from a
//! plugin (a component is untrusted too) or from a relay (a team server's stored view of
//! another process's widget): in both, no control sequence of it may reach a terminal, and an
//! index past the options is no default. One place for both, so that they cannot differ.

use std::borrow::Cow;

use super::wit::{Frame, ReviewItem, ReviewRequest, TextReply, TextRequest};
use super::{ChoiceRef, MultiSelectRequest, Options, SelectRequest, TooMuchText};
use crate::sanitize;

/// A frame with its lines on one line each and its texts printable.
pub(crate) fn frame(frame: Frame) -> Frame {
    Frame {
        header: frame.header.as_deref().map(sanitize::line),
        place: frame.place.as_deref().map(sanitize::line),
        hint: frame.hint.as_deref().map(sanitize::line),
        prompt: sanitize::text(&frame.prompt),
        error: frame.error.as_deref().map(sanitize::text),
        context: frame.context.as_deref().map(sanitize::text),
        ..frame
    }
}

/// A text shown on one line.
pub(crate) fn line(text: Option<String>) -> Option<String> {
    text.as_deref().map(sanitize::line)
}

/// A single choice whose options are already cleaned (see [`push_choice`]).
pub(crate) fn select(r: SelectRequest) -> SelectRequest {
    SelectRequest {
        selected: r.selected.filter(|&i| (i as usize) < r.options.len()),
        other_label: line(r.other_label),
        other_text: line(r.other_text),
        discuss_label: line(r.discuss_label),
        note: line(r.note),
        ..r
    }
}

/// A multiple choice whose options are already cleaned (see [`push_choice`]).
pub(crate) fn multi_select(r: MultiSelectRequest) -> MultiSelectRequest {
    MultiSelectRequest {
        selected: (r.selected.iter().copied())
            .filter(|&i| (i as usize) < r.options.len())
            .collect(),
        other_label: line(r.other_label),
        other_text: line(r.other_text),
        note: line(r.note),
        ..r
    }
}

/// A text question: its placeholder on one line, its initial text as the editor keeps it.
pub(crate) fn text(r: TextRequest) -> TextRequest {
    TextRequest {
        placeholder: line(r.placeholder),
        initial: r.initial.as_deref().map(if r.multiline {
            sanitize::text
        } else {
            sanitize::line
        }),
        ..r
    }
}

/// The reply to a text question shown cleaned (`shown`, from `given`): its default accepted as
/// shown (a tab became a space) is the default as given.
pub(crate) fn as_given(reply: TextReply, shown: &TextRequest, given: TextRequest) -> TextReply {
    match reply {
        TextReply::Submitted(text) if Some(&text) == shown.initial.as_ref() => {
            TextReply::Submitted(given.initial.unwrap_or(text))
        }
        reply => reply,
    }
}

/// The review: every question and answer printable.
pub(crate) fn review(r: ReviewRequest) -> ReviewRequest {
    ReviewRequest {
        items: (r.items.into_iter())
            .map(|item| ReviewItem {
                header: line(item.header),
                prompt: sanitize::text(&item.prompt),
                answer: sanitize::text(&item.answer),
            })
            .collect(),
        context: r.context.as_deref().map(sanitize::text),
        ..r
    }
}

/// Adds `choice` to `options` with what it shows made safe for a terminal: the label on one
/// line, the description as text, the preview as a block (see [`sanitize`]). The value is
/// what the agent gets back, never drawn: kept as it is.
pub(crate) fn push_choice(options: &mut Options, choice: ChoiceRef<'_>) -> Result<(), TooMuchText> {
    let label = cleaned(choice.label, sanitize::is_plain_line, sanitize::line);
    let description = choice
        .description
        .map(|text| cleaned(text, sanitize::is_plain, sanitize::text));
    let preview = choice
        .preview
        .map(|text| cleaned(text, sanitize::is_plain, sanitize::block));
    options.try_push(ChoiceRef {
        label: &label,
        description: description.as_deref(),
        preview: preview.as_deref(),
        ..choice
    })
}

/// `text` as `clean` makes it, borrowed where `plain` says it would be kept: most are.
fn cleaned(text: &str, plain: fn(&str) -> bool, clean: fn(&str) -> String) -> Cow<'_, str> {
    if plain(text) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(clean(text))
    }
}
