//! The UIs a host offers the plugin: one trait, the widget-level `ui` interface of the WIT.
//!
//! The plugin decides what to ask and judges every answer; a UI only shows a widget and reports
//! what the person did. Every string a UI receives has already been sanitized (no escape or
//! control sequences), whichever UI it is.

pub mod numbered;
pub mod scripted;
pub mod terminal;

use std::time::Instant;

use crate::bindings::interview::plugin::ui as wit;
use crate::replay::{self, Given, Recorded};
use crate::sanitize;
use crate::session::State;
pub use wit::{
    ConfirmReply, ConfirmRequest, Frame, MultiPick, MultiSelectReply, MultiSelectRequest, Nav,
    NumberReply, NumberRequest, Pick, ReviewItem, ReviewReply, ReviewRequest, SelectReply,
    SelectRequest, TextReply, TextRequest, UiMode,
};

impl SelectReply {
    /// Picked `options[index]`, without a note.
    pub fn picked(index: u32) -> SelectReply {
        SelectReply::Picked(Pick { index, note: None })
    }
}

/// " (optional)" after the prompt of an optional question, unless the prompt or the header
/// already ends so (a form's title often reads "Phone (optional)").
pub(crate) fn optional_mark(frame: &Frame) -> &'static str {
    let says = |text: &str| text.trim_end().to_lowercase().ends_with("(optional)");
    if frame.required || says(&frame.prompt) || frame.header.as_deref().is_some_and(says) {
        ""
    } else {
        " (optional)"
    }
}

/// A way to reach a person: a terminal, a numbered line dialogue, a web form, a test script.
pub trait Ui {
    /// How this UI reaches a person; [`UiMode::Unavailable`] makes the plugin ask nothing.
    fn mode(&mut self) -> UiMode;
    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply;
    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply;
    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply;
    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply;
    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply;
    /// After the last question of a batch (and of every elicitation form): submit, change one
    /// answer, cancel, or, when `request.declinable`, decline.
    fn review(&mut self, request: &ReviewRequest) -> ReviewReply;
    /// The plugin has finished a request (answered, cancelled, or nothing asked): a UI that
    /// holds the terminal lets it go here.
    fn finished(&mut self) {}
    /// A request resumed from a journal: `answered` is what the person had answered before
    /// the question about to be asked. A UI that keeps a transcript shows it.
    fn resumed(&mut self, answered: &[Given]) {
        let _ = answered;
    }
}

impl<U: Ui + ?Sized> Ui for Box<U> {
    fn mode(&mut self) -> UiMode {
        (**self).mode()
    }
    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        (**self).select(frame, request)
    }
    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply {
        (**self).multi_select(frame, request)
    }
    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        (**self).text(frame, request)
    }
    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        (**self).confirm(frame, request)
    }
    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        (**self).number(frame, request)
    }
    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        (**self).review(request)
    }
    fn finished(&mut self) {
        (**self).finished()
    }
    fn resumed(&mut self, answered: &[Given]) {
        (**self).resumed(answered)
    }
}

/// The line above a question: `Question 2 of 4 · Deploy` in a batch, the header alone for a
/// single question, or nothing.
pub fn place(frame: &Frame) -> Option<String> {
    match (frame.total > 1, &frame.header) {
        (true, Some(h)) => Some(format!(
            "Question {} of {} · {h}",
            frame.position, frame.total
        )),
        (true, None) => Some(format!("Question {} of {}", frame.position, frame.total)),
        (false, Some(h)) => Some(h.clone()),
        (false, None) => None,
    }
}

/// What a resumed request says before the answers kept from its journal.
pub(crate) fn resumed_heading(count: usize) -> String {
    match count {
        0 => "Resumed where you left off.".into(),
        1 => "Resumed where you left off; your answer is kept:".into(),
        n => format!("Resumed where you left off; your {n} answers are kept:"),
    }
}

/// A question in a few words, where answers are listed: its header, else its first line.
pub(crate) fn short_title(header: Option<&str>, prompt: &str) -> String {
    header
        .unwrap_or_else(|| prompt.lines().next().unwrap_or(""))
        .to_string()
}

/// An answer kept from a journal, as a [`short_title`] and the answer, both fit for the
/// terminal: the person's own text may hold pasted escapes.
pub(crate) fn resumed_line(given: &Given) -> (String, String) {
    let title = short_title(given.header.as_deref(), &given.prompt);
    (sanitize::line(&title), sanitize::line(&given.answer_text()))
}

fn clean_frame(frame: Frame) -> Frame {
    Frame {
        header: frame.header.as_deref().map(sanitize::line),
        hint: frame.hint.as_deref().map(sanitize::line),
        prompt: sanitize::text(&frame.prompt),
        error: frame.error.as_deref().map(sanitize::text),
        context: frame.context.as_deref().map(sanitize::text),
        ..frame
    }
}

fn clean_options(options: Vec<crate::Choice>) -> Vec<crate::Choice> {
    options
        .into_iter()
        .map(|o| crate::Choice {
            label: sanitize::line(&o.label),
            description: o.description.as_deref().map(sanitize::text),
            preview: o.preview.as_deref().map(sanitize::block),
            ..o
        })
        .collect()
}

fn clean_line(text: Option<String>) -> Option<String> {
    text.as_deref().map(sanitize::line)
}

impl<U: Ui> State<U> {
    /// Runs a UI call, counting its time as host time (not the guest's compute budget).
    fn timed<R>(&mut self, call: impl FnOnce(&mut U) -> R) -> R {
        let started = Instant::now();
        let reply = call(&mut self.ui);
        self.clock.add_host_time(started.elapsed());
        reply
    }

    /// A widget's reply to the question at `position` (None: the review): played back when the
    /// session replays a request (a journal's, or one whose plugin failed), else asked of the
    /// person and recorded, with `given` saying what it answered. A `secret` reply is never
    /// written to a journal.
    fn reply<R: Recorded>(
        &mut self,
        position: Option<u32>,
        secret: bool,
        ask: impl FnOnce(&mut U) -> R,
        given: impl FnOnce(&R) -> Option<Given>,
    ) -> R {
        if let Some(replayed) = self.recorder.next::<R>() {
            self.recorder.note(given(&replayed));
            return replayed;
        }
        if let Some(answered) = self.recorder.take_resumed(position) {
            self.timed(|ui| ui.resumed(&answered));
        }
        let reply = self.timed(ask);
        let answer = given(&reply);
        self.recorder.record(reply.clone().wrap(), answer, secret);
        reply
    }
}

impl<U: Ui> wit::Host for State<U> {
    fn mode(&mut self) -> UiMode {
        self.timed(|ui| ui.mode())
    }

    fn select(&mut self, frame: Frame, r: SelectRequest) -> SelectReply {
        let request = SelectRequest {
            // A component is untrusted too: an index past the options is no default.
            selected: r.selected.filter(|&i| (i as usize) < r.options.len()),
            options: clean_options(r.options),
            other_label: clean_line(r.other_label),
            other_text: clean_line(r.other_text),
            discuss_label: clean_line(r.discuss_label),
            note: clean_line(r.note),
            ..r
        };
        let frame = clean_frame(frame);
        self.reply(
            Some(frame.position),
            false,
            |ui| ui.select(&frame, &request),
            |reply| {
                let note = match reply {
                    SelectReply::Picked(pick) => pick.note.as_ref(),
                    _ => None,
                };
                replay::given(&frame, replay::select_answer(&request, reply), note)
            },
        )
    }

    fn multi_select(&mut self, frame: Frame, r: MultiSelectRequest) -> MultiSelectReply {
        let request = MultiSelectRequest {
            selected: r
                .selected
                .iter()
                .copied()
                .filter(|&i| (i as usize) < r.options.len())
                .collect(),
            options: clean_options(r.options),
            other_label: clean_line(r.other_label),
            other_text: clean_line(r.other_text),
            note: clean_line(r.note),
            ..r
        };
        let frame = clean_frame(frame);
        self.reply(
            Some(frame.position),
            false,
            |ui| ui.multi_select(&frame, &request),
            |reply| {
                let note = match reply {
                    MultiSelectReply::Picked(pick) => pick.note.as_ref(),
                    MultiSelectReply::Nav(_) => None,
                };
                replay::given(&frame, replay::multi_select_answer(&request, reply), note)
            },
        )
    }

    fn text(&mut self, frame: Frame, r: TextRequest) -> TextReply {
        let given_initial = r.initial.clone();
        let request = TextRequest {
            placeholder: clean_line(r.placeholder),
            initial: r.initial.as_deref().map(if r.multiline {
                sanitize::text
            } else {
                sanitize::line
            }),
            ..r
        };
        let frame = clean_frame(frame);
        self.reply(
            Some(frame.position),
            request.secret,
            |ui| {
                // The default was cleaned to be shown (a tab became a space); accepted as
                // shown, it is the default as given.
                match ui.text(&frame, &request) {
                    TextReply::Submitted(text) if Some(&text) == request.initial.as_ref() => {
                        TextReply::Submitted(given_initial.unwrap_or(text))
                    }
                    reply => reply,
                }
            },
            |reply| replay::given(&frame, replay::text_answer(reply), None),
        )
    }

    fn confirm(&mut self, frame: Frame, request: ConfirmRequest) -> ConfirmReply {
        let frame = clean_frame(frame);
        self.reply(
            Some(frame.position),
            false,
            |ui| ui.confirm(&frame, &request),
            |reply| replay::given(&frame, replay::confirm_answer(reply), None),
        )
    }

    fn number(&mut self, frame: Frame, request: NumberRequest) -> NumberReply {
        let frame = clean_frame(frame);
        self.reply(
            Some(frame.position),
            false,
            |ui| ui.number(&frame, &request),
            |reply| replay::given(&frame, replay::number_answer(reply), None),
        )
    }

    fn review(&mut self, r: ReviewRequest) -> ReviewReply {
        let request = ReviewRequest {
            items: r
                .items
                .into_iter()
                .map(|item| ReviewItem {
                    header: clean_line(item.header),
                    prompt: sanitize::text(&item.prompt),
                    answer: sanitize::text(&item.answer),
                })
                .collect(),
            context: r.context.as_deref().map(sanitize::text),
            ..r
        };
        self.reply(None, false, |ui| ui.review(&request), |_| None)
    }
}

impl<U: Ui> crate::bindings::interview::plugin::types::Host for State<U> {}

/// The UI of a process with nobody to ask (no terminal, no input): the plugin asks nothing and
/// reports `unavailable`.
pub struct NoPerson;

impl Ui for NoPerson {
    fn mode(&mut self) -> UiMode {
        UiMode::Unavailable
    }
    fn select(&mut self, _: &Frame, _: &SelectRequest) -> SelectReply {
        SelectReply::Nav(Nav::Cancel)
    }
    fn multi_select(&mut self, _: &Frame, _: &MultiSelectRequest) -> MultiSelectReply {
        MultiSelectReply::Nav(Nav::Cancel)
    }
    fn text(&mut self, _: &Frame, _: &TextRequest) -> TextReply {
        TextReply::Nav(Nav::Cancel)
    }
    fn confirm(&mut self, _: &Frame, _: &ConfirmRequest) -> ConfirmReply {
        ConfirmReply::Nav(Nav::Cancel)
    }
    fn number(&mut self, _: &Frame, _: &NumberRequest) -> NumberReply {
        NumberReply::Nav(Nav::Cancel)
    }
    fn review(&mut self, _: &ReviewRequest) -> ReviewReply {
        ReviewReply::Cancel
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(prompt: &str, required: bool) -> Frame {
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

    /// The boundary where a component's values enter the host: an index past the options
    /// never reaches a UI.
    #[test]
    fn indexes_past_the_options_are_dropped_at_the_boundary() {
        use crate::ui::scripted::{ScriptedUi, Shown};
        use wit::Host;
        let mut state = State {
            ui: ScriptedUi::new([]),
            limits: crate::Limits::default().store_limits(),
            clock: crate::sandbox::GuestClock::new(),
            recorder: Default::default(),
        };
        let options = vec![crate::Choice {
            label: "a".into(),
            value: "a".into(),
            description: None,
            preview: None,
            recommended: false,
        }];
        state.select(
            frame("Pick", true),
            SelectRequest {
                options: options.clone(),
                selected: Some(7),
                other_label: None,
                other_text: None,
                discuss_label: None,
                notes: false,
                note: None,
            },
        );
        state.multi_select(
            frame("Pick", true),
            MultiSelectRequest {
                options,
                selected: vec![0, u32::MAX, 3],
                other_label: None,
                other_text: None,
                min_picks: None,
                max_picks: None,
                notes: false,
                note: None,
            },
        );
        match state.ui.shown() {
            [Shown::Select(_, one), Shown::MultiSelect(_, many)] => {
                assert_eq!(one.selected, None);
                assert_eq!(many.selected, [0]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn optional_is_said_once() {
        assert_eq!(optional_mark(&frame("Nickname?", false)), " (optional)");
        assert_eq!(optional_mark(&frame("Nickname (Optional) ", false)), "");
        assert_eq!(optional_mark(&frame("Nickname?", true)), "");
        let titled = Frame {
            header: Some("Phone (optional)".into()),
            ..frame("Contact phone number", false)
        };
        assert_eq!(optional_mark(&titled), "");
    }
}
