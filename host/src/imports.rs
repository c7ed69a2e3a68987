//! The host side of the plugin's `ui` imports: every value the component sends is cleaned and
//! checked here before a [`Ui`] sees it, every reply is recorded for a replay or a journal, and
//! the time a person takes is kept off the guest's compute budget.

use std::sync::Arc;
use std::time::Instant;

use serde_json::Value as Json;
use wasmtime::StoreLimits;

use crate::bindings::interview::plugin::ui::{self as wit, *};
use crate::given::Given;
use crate::replay::Recorder;
use crate::sandbox::{Epoch, GuestClock};
use crate::ui::scripted::Recorded;
use crate::ui::scripted::TypedLine;
use crate::ui::{MultiSelectRequest, SelectRequest, Ui, answered, cleaned};

/// What the store holds: the UI, the memory limits, and the guest's compute clock.
pub(crate) struct State<U> {
    pub(crate) ui: U,
    pub(crate) limits: StoreLimits,
    /// The most memory the plugin may have, which also bounds the text the host copies out of
    /// it for one request (see `choice_imports`).
    pub(crate) memory_bytes: usize,
    pub(crate) clock: GuestClock,
    /// Not advanced while the guest waits on a host call.
    pub(crate) epoch: Arc<Epoch>,
    /// The person's replies in the current call, for a replay if the plugin fails.
    pub(crate) recorder: Recorder,
}

impl<U: Ui> State<U> {
    /// Runs a UI call, counting its time as host time (not the guest's compute budget).
    fn timed<R>(&mut self, call: impl FnOnce(&mut U) -> R) -> R {
        let started = Instant::now();
        let waiting = self.epoch.host();
        let reply = call(&mut self.ui);
        drop(waiting);
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
        self.reply_fitting(position, secret, |_| true, ask, given)
    }

    /// [`State::reply`], where a reply played back must also fit: a typed line, the question
    /// it was typed to.
    fn reply_fitting<R: Recorded>(
        &mut self,
        position: Option<u32>,
        secret: bool,
        fits: impl FnOnce(&R) -> bool,
        ask: impl FnOnce(&mut U) -> R,
        given: impl FnOnce(&R) -> Option<Given>,
    ) -> R {
        if let Some(replayed) = self.recorder.next::<R>(fits) {
            self.recorder.note(given(&replayed));
            return replayed;
        }
        if let Some(answered) = self.recorder.take_resumed(position) {
            self.timed(|ui| ui.resumed(&answered));
        }
        let held = self.recorder.take_held();
        if !held.is_empty() {
            self.timed(|ui| ui.write(&held));
        }
        let reply = self.timed(ask);
        let answer = given(&reply);
        self.recorder.record(reply.clone().wrap(), answer, secret);
        reply
    }

    /// A select, its options already cleaned: the rest of it is cleaned and checked here.
    pub(crate) fn ask_select(&mut self, frame: Frame, r: SelectRequest) -> SelectReply {
        let request = cleaned::select(r);
        let frame = cleaned::frame(frame);
        self.reply(
            Some(frame.position),
            false,
            |ui| ui.select(&frame, &request),
            |reply| answered::select(&frame, &request, reply),
        )
    }

    /// A multi-select, its options already cleaned: the rest of it is cleaned and checked here.
    pub(crate) fn ask_multi_select(
        &mut self,
        frame: Frame,
        r: MultiSelectRequest,
    ) -> MultiSelectReply {
        let request = cleaned::multi_select(r);
        let frame = cleaned::frame(frame);
        self.reply(
            Some(frame.position),
            false,
            |ui| ui.multi_select(&frame, &request),
            |reply| answered::multi_select(&frame, &request, reply),
        )
    }
}

impl<U: Ui> wit::Host for State<U> {
    fn mode(&mut self) -> UiMode {
        self.timed(|ui| ui.mode())
    }

    // The plugin's `select` and `multi-select` calls are defined again by `choice_imports`,
    // which reads their options without lifting each into a `Choice` and comes to
    // `ask_select` and `ask_multi_select`: these are never called.
    fn select(&mut self, _: Frame, _: wit::SelectRequest) -> wasmtime::Result<SelectReply> {
        wasmtime::bail!("the host's select is defined by choice_imports")
    }

    fn multi_select(
        &mut self,
        _: Frame,
        _: wit::MultiSelectRequest,
    ) -> wasmtime::Result<MultiSelectReply> {
        wasmtime::bail!("the host's multi-select is defined by choice_imports")
    }

    fn text(&mut self, frame: Frame, r: TextRequest) -> TextReply {
        let request = cleaned::text(r.clone());
        let frame = cleaned::frame(frame);
        self.reply(
            Some(frame.position),
            request.secret,
            |ui| cleaned::as_given(ui.text(&frame, &request), &request, r),
            |reply| answered::text(&frame, reply),
        )
    }

    fn confirm(&mut self, frame: Frame, request: ConfirmRequest) -> ConfirmReply {
        let frame = cleaned::frame(frame);
        self.reply(
            Some(frame.position),
            false,
            |ui| ui.confirm(&frame, &request),
            |reply| answered::confirm(&frame, reply),
        )
    }

    fn number(&mut self, frame: Frame, request: NumberRequest) -> NumberReply {
        let frame = cleaned::frame(frame);
        self.reply(
            Some(frame.position),
            false,
            |ui| ui.number(&frame, &request),
            |reply| answered::number(&frame, reply),
        )
    }

    fn review(&mut self, r: ReviewRequest) -> ReviewReply {
        let request = cleaned::review(r);
        self.reply(None, false, |ui| ui.review(&request), |_| None)
    }

    fn write(&mut self, spans: Vec<Span>) {
        // While lines are played back, the person has seen this text already: only what
        // leads up to the first line they are asked for is written (see `Recorder::hold`).
        if let Some(spans) = self.recorder.hold(spans) {
            self.timed(|ui| ui.write(&spans));
        }
    }

    fn read_line(&mut self, hidden: bool, answering: Option<Frame>) -> LineRead {
        let answering = answering.map(cleaned::frame);
        let position = answering.as_ref().map(|frame| frame.position);
        let typed = self.reply_fitting(
            position,
            hidden,
            |typed: &TypedLine| typed.answering == position,
            |ui| TypedLine {
                read: ui.read_line(hidden),
                answering: position,
            },
            // What was typed to a question, as typed: the plugin reads it, but should it
            // fail, the line is what the person gave.
            |typed| match (&typed.read, &answering) {
                (LineRead::Line(line), Some(frame)) => {
                    answered::given(frame, Some(Json::String(line.clone())), None)
                }
                _ => None,
            },
        );
        typed.read
    }
}

impl<U: Ui> crate::bindings::interview::plugin::types::Host for State<U> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::scripted::{ScriptedUi, Shown};
    use crate::ui::testing::frame;

    /// The boundary where a component's values enter the host: an index past the options
    /// never reaches a UI.
    #[test]
    fn indexes_past_the_options_are_dropped_at_the_boundary() {
        let mut state = State {
            ui: ScriptedUi::new([]),
            limits: crate::sandbox::Limits::default().store_limits(),
            memory_bytes: crate::sandbox::Limits::default().memory_bytes(),
            clock: crate::sandbox::GuestClock::new(),
            epoch: Epoch::new(&wasmtime::Engine::default()),
            recorder: Default::default(),
        };
        let options = crate::ui::testing::options(&["a"]);
        state.ask_select(
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
        state.ask_multi_select(
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
}
