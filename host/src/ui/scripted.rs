//! A UI that plays back a script: for tests of the plugin through the real host, and for hosts
//! that already know the answers.

use std::collections::VecDeque;

use super::*;

/// A widget's reply type, kept among the replies a session records (as a [`Step`]).
pub(crate) trait Recorded: Clone + Sized {
    fn wrap(self) -> Step;
    fn unwrap(step: Step) -> Option<Self>;
}

/// Declares [`Step`], one variant per widget reply, and lets the session record each reply as
/// a step.
macro_rules! steps {
    ($($variant:ident($reply:ty)),* $(,)?) => {
        /// One scripted reply: also what the session records of each reply a person gives.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum Step {
            $(
                #[doc = concat!("The reply to a `", stringify!($variant), "` widget.")]
                $variant($reply)
            ),*
        }

        $(impl Recorded for $reply {
            fn wrap(self) -> Step {
                Step::$variant(self)
            }
            fn unwrap(step: Step) -> Option<Self> {
                match step {
                    Step::$variant(reply) => Some(reply),
                    _ => None,
                }
            }
        })*
    };
}

steps!(
    Select(SelectReply),
    MultiSelect(MultiSelectReply),
    Text(TextReply),
    Confirm(ConfirmReply),
    Number(NumberReply),
    Review(ReviewReply),
    Line(TypedLine),
);

/// A line typed in the line mode, and the position of the question it was typed to (none: the
/// review), so that a journal's lines are played back only to the questions they answered.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TypedLine {
    /// What was read.
    pub read: LineRead,
    /// The 1-based position of the question it was typed to.
    pub answering: Option<u32>,
}

/// What one widget was shown.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// A select, in its frame.
    Select(Frame, SelectRequest),
    /// A multi-select, in its frame.
    MultiSelect(Frame, MultiSelectRequest),
    /// A text field, in its frame.
    Text(Frame, TextRequest),
    /// A confirm, in its frame.
    Confirm(Frame, ConfirmRequest),
    /// A number field, in its frame.
    Number(Frame, NumberRequest),
    /// The review of a batch.
    Review(ReviewRequest),
}

/// Plays `steps` back in order and records what each widget showed. When the steps run out,
/// or a step does not fit the widget, the widget is cancelled (like a person leaving).
pub struct ScriptedUi {
    mode: UiMode,
    stop: Option<StopReason>,
    steps: VecDeque<Step>,
    shown: Vec<Shown>,
    written: String,
}

impl ScriptedUi {
    /// A UI that replies with `steps`, in order, to the widgets it is shown.
    pub fn new(steps: impl IntoIterator<Item = Step>) -> Self {
        ScriptedUi {
            mode: UiMode::Widgets,
            stop: None,
            steps: steps.into_iter().collect(),
            shown: Vec::new(),
            written: String::new(),
        }
    }

    /// A UI of the line mode that types `lines`, in order, then ends its input: the plugin
    /// draws and reads every question itself ([`ScriptedUi::written`] has what it wrote).
    pub fn lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> Self {
        ScriptedUi {
            mode: UiMode::Lines,
            ..ScriptedUi::new(lines.into_iter().map(|line| {
                Step::Line(TypedLine {
                    read: LineRead::Line(line.to_string()),
                    answering: None,
                })
            }))
        }
    }

    /// A UI that says no person is available, for this reason.
    pub fn unavailable(absence: Absence) -> Self {
        ScriptedUi {
            mode: UiMode::Unavailable(absence),
            ..ScriptedUi::new([])
        }
    }

    /// A UI whose person was interrupted before anything was asked: every widget cancels, and
    /// [`Ui::stop_reason`] says so (a request withdrawn before anyone took it).
    pub fn interrupted() -> Self {
        ScriptedUi {
            stop: Some(StopReason::Interrupted),
            ..ScriptedUi::new([])
        }
    }

    /// Everything shown so far, in order.
    pub fn shown(&self) -> &[Shown] {
        &self.shown
    }

    /// The text the plugin wrote in the line mode, without its tones.
    pub fn written(&self) -> &str {
        &self.written
    }

    /// Steps not played yet.
    pub fn remaining(&self) -> usize {
        self.steps.len()
    }

    /// Adds steps to play.
    pub fn push(&mut self, steps: impl IntoIterator<Item = Step>) {
        self.steps.extend(steps);
    }
}

macro_rules! play {
    ($method:ident, $request:ty, $reply:ident, $variant:ident) => {
        fn $method(&mut self, frame: &Frame, request: &$request) -> $reply {
            self.shown
                .push(Shown::$variant(frame.clone(), request.clone()));
            match self.steps.pop_front() {
                Some(Step::$variant(reply)) => reply,
                _ => $reply::Nav(Nav::Cancel),
            }
        }
    };
}

impl Ui for ScriptedUi {
    fn mode(&mut self) -> UiMode {
        self.mode
    }
    fn stop_reason(&self) -> Option<StopReason> {
        self.stop
    }
    play!(select, SelectRequest, SelectReply, Select);
    play!(
        multi_select,
        MultiSelectRequest,
        MultiSelectReply,
        MultiSelect
    );
    play!(text, TextRequest, TextReply, Text);
    play!(confirm, ConfirmRequest, ConfirmReply, Confirm);
    play!(number, NumberRequest, NumberReply, Number);

    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        self.shown.push(Shown::Review(request.clone()));
        match self.steps.pop_front() {
            Some(Step::Review(reply)) => reply,
            _ => ReviewReply::Cancel,
        }
    }

    fn write(&mut self, spans: &[Span]) {
        self.written
            .extend(spans.iter().map(|span| span.text.as_str()));
    }

    fn read_line(&mut self, _: bool) -> LineRead {
        match self.steps.pop_front() {
            Some(Step::Line(typed)) => typed.read,
            _ => LineRead::Ended,
        }
    }
}
