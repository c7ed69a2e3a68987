//! The boundary to the host's widgets: every text the plugin sends through the `ui` interface
//! is made safe to print here, once, so that no host has to work it out again. The agent's text
//! is untrusted: its escape sequences, control characters and invisible characters go, and line
//! breaks stay only in the fields that may hold them.

use crate::model::*;
use crate::sanitize;
use crate::ui::Ui;

/// A UI whose widgets get only printable text.
pub struct Printable<'a, U>(pub &'a mut U);

impl<U: Ui> Ui for Printable<'_, U> {
    fn mode(&mut self) -> Mode {
        self.0.mode()
    }

    fn select(&mut self, frame: &Frame, request: &mut SelectRequest) -> SelectReply {
        lines([
            &mut request.other_label,
            &mut request.other_text,
            &mut request.discuss_label,
            &mut request.note,
        ]);
        let frame = printable(frame);
        with_printable_options(request, |r| &mut r.options, |r| self.0.select(&frame, r))
    }

    fn multi_select(
        &mut self,
        frame: &Frame,
        request: &mut MultiSelectRequest,
    ) -> MultiSelectReply {
        lines([
            &mut request.other_label,
            &mut request.other_text,
            &mut request.note,
        ]);
        let frame = printable(frame);
        with_printable_options(
            request,
            |r| &mut r.options,
            |r| self.0.multi_select(&frame, r),
        )
    }

    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        let clean = if request.multiline {
            sanitize::text
        } else {
            sanitize::line
        };
        let shown = TextRequest {
            placeholder: line(&request.placeholder),
            initial: request.initial.as_deref().map(clean),
            ..request.clone()
        };
        match self.0.text(&printable(frame), &shown) {
            // The default was cleaned to be shown (a tab became a space); accepted as shown,
            // it is the default as given.
            TextReply::Submitted(text) if Some(&text) == shown.initial.as_ref() => {
                TextReply::Submitted(request.initial.clone().unwrap_or(text))
            }
            reply => reply,
        }
    }

    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        self.0.confirm(&printable(frame), request)
    }

    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        self.0.number(&printable(frame), request)
    }

    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        let request = ReviewRequest {
            items: request
                .items
                .iter()
                .map(|item| ReviewItem {
                    header: line(&item.header),
                    prompt: sanitize::text(&item.prompt),
                    // The person's own text too: a paste may hold escapes.
                    answer: sanitize::line(&item.answer),
                })
                .collect(),
            context: request.context.as_deref().map(sanitize::text),
            ..request.clone()
        };
        self.0.review(&request)
    }

    fn hide_typing(&mut self, hidden: bool) {
        self.0.hide_typing(hidden);
    }
}

fn printable(frame: &Frame) -> Frame {
    Frame {
        header: line(&frame.header),
        place: line(&frame.place),
        prompt: sanitize::text(&frame.prompt),
        hint: line(&frame.hint),
        error: frame.error.as_deref().map(sanitize::text),
        context: frame.context.as_deref().map(sanitize::text),
        ..frame.clone()
    }
}

/// Cleans each text that is there, to be shown on one line.
fn lines<const N: usize>(texts: [&mut Option<String>; N]) {
    for text in texts.into_iter().flatten() {
        sanitize::line_in_place(text);
    }
}

/// Shows `request` through `widget` with printable options: the lent options themselves when
/// they are (most lists, which may hold thousands), else a cleaned copy, the lent ones put back
/// after.
fn with_printable_options<Request, Reply>(
    request: &mut Request,
    options: impl Fn(&mut Request) -> &mut Vec<Choice>,
    widget: impl FnOnce(&mut Request) -> Reply,
) -> Reply {
    if options(request).iter().all(printable_option) {
        return widget(request);
    }
    let mut shown = options(request).clone();
    clean_options(&mut shown);
    let lent = std::mem::replace(options(request), shown);
    let reply = widget(request);
    *options(request) = lent;
    reply
}

/// Whether an option has nothing to clean, known without a copy.
fn printable_option(option: &Choice) -> bool {
    sanitize::is_plain_line(&option.label)
        && option.description.as_deref().is_none_or(sanitize::is_plain)
        && option.preview.as_deref().is_none_or(sanitize::is_plain)
}

/// Cleans each option where it needs it.
fn clean_options(options: &mut [Choice]) {
    for option in options {
        sanitize::line_in_place(&mut option.label);
        if let Some(description) = &mut option.description {
            sanitize::text_in_place(description);
        }
        if let Some(preview) = &mut option.preview {
            sanitize::block_in_place(preview);
        }
    }
}

fn line(text: &Option<String>) -> Option<String> {
    text.as_deref().map(sanitize::line)
}
