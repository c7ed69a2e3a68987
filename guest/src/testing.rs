//! A scripted UI for unit tests: it plays back replies and records what each widget was shown.

use std::collections::VecDeque;

use crate::model::*;
use crate::ui::Ui;

/// One scripted reply.
#[derive(Debug, Clone)]
pub enum Step {
    Select(SelectReply),
    Multi(MultiSelectReply),
    Text(TextReply),
    Confirm(ConfirmReply),
    Number(NumberReply),
    Review(ReviewReply),
}

/// What a widget was shown.
#[derive(Debug, Clone)]
pub enum Shown {
    Select(SelectRequest),
    Multi(MultiSelectRequest),
    Text(TextRequest),
    Confirm(ConfirmRequest),
    Number(NumberRequest),
    Review(ReviewRequest),
}

/// Plays `steps` back; once they run out, every widget is cancelled (like end of input).
pub struct Script {
    pub mode: Mode,
    pub steps: VecDeque<Step>,
    pub frames: Vec<Frame>,
    pub shown: Vec<Shown>,
}

impl Script {
    pub fn new(steps: impl IntoIterator<Item = Step>) -> Self {
        Script {
            mode: Mode::Widgets,
            steps: steps.into_iter().collect(),
            frames: Vec::new(),
            shown: Vec::new(),
        }
    }

    /// The errors the widgets were shown (why an answer was asked again), in order.
    pub fn errors(&self) -> Vec<String> {
        self.frames.iter().filter_map(|f| f.error.clone()).collect()
    }

    fn next(&mut self, frame: &Frame, shown: Shown) -> Option<Step> {
        self.frames.push(frame.clone());
        self.shown.push(shown);
        self.steps.pop_front()
    }
}

macro_rules! scripted {
    // `$request` is the widget's parameter: the request, or a reference to it.
    ($method:ident, $request:ty, $reply:ident, $step:ident, $shown:ident) => {
        fn $method(&mut self, frame: &Frame, request: $request) -> $reply {
            match self.next(frame, Shown::$shown(request.to_owned())) {
                Some(Step::$step(reply)) => reply,
                Some(other) => panic!("script gave {other:?} to a {} widget", stringify!($method)),
                None => $reply::Nav(Nav::Cancel),
            }
        }
    };
}

impl Ui for Script {
    fn mode(&mut self) -> Mode {
        self.mode
    }
    scripted!(select, &mut SelectRequest, SelectReply, Select, Select);
    scripted!(
        multi_select,
        &mut MultiSelectRequest,
        MultiSelectReply,
        Multi,
        Multi
    );
    scripted!(text, &TextRequest, TextReply, Text, Text);
    scripted!(confirm, &ConfirmRequest, ConfirmReply, Confirm, Confirm);
    scripted!(number, &NumberRequest, NumberReply, Number, Number);

    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        self.shown.push(Shown::Review(request.clone()));
        match self.steps.pop_front() {
            Some(Step::Review(reply)) => reply,
            Some(other) => panic!("script gave {other:?} to the review"),
            None => ReviewReply::Cancel,
        }
    }
}

/// Runs a call of `tool` with `arguments` against `steps`: the result JSON and the script.
pub fn run(
    tool: &str,
    arguments: &str,
    steps: impl IntoIterator<Item = Step>,
) -> (serde_json::Value, Script) {
    let mut script = Script::new(steps);
    let settings = Settings {
        skip_response: None,
    };
    let result = crate::tool::call(tool, arguments, &settings, &mut script);
    (
        serde_json::from_str(&result.json).expect("the result is JSON"),
        script,
    )
}

/// The questions of a valid `interview` call.
pub fn questions(arguments: &str) -> Vec<Question> {
    questions_of("interview", arguments)
}

/// The questions of a valid call of `tool`.
pub fn questions_of(tool: &str, arguments: &str) -> Vec<Question> {
    match crate::request::parse(tool, arguments) {
        Ok(crate::request::Call::Ask(request)) => request.questions,
        other => panic!("expected questions from {arguments}, got {other:?}"),
    }
}

/// The error of an invalid `interview` call.
pub fn error(arguments: &str) -> RequestError {
    error_of("interview", arguments)
}

/// The error of an invalid call of `tool`.
pub fn error_of(tool: &str, arguments: &str) -> RequestError {
    match crate::request::parse(tool, arguments) {
        Err(error) => error,
        Ok(call) => panic!("expected {arguments} to be invalid, got {call:?}"),
    }
}

pub fn select(n: u32) -> Step {
    Step::Select(SelectReply::Picked(Pick {
        index: n,
        note: None,
    }))
}

pub fn multi(picked: &[u32]) -> Step {
    Step::Multi(MultiSelectReply::Picked(MultiPick {
        picked: picked.to_vec(),
        other: None,
        note: None,
    }))
}

pub fn text(t: &str) -> Step {
    Step::Text(TextReply::Submitted(t.into()))
}

pub fn nav_select(nav: Nav) -> Step {
    Step::Select(SelectReply::Nav(nav))
}

pub fn nav_text(nav: Nav) -> Step {
    Step::Text(TextReply::Nav(nav))
}

/// One field of every answer of a result: `field(&result, "value")`.
pub fn field(result: &serde_json::Value, name: &str) -> Vec<serde_json::Value> {
    result["answers"]
        .as_array()
        .expect("answers is an array")
        .iter()
        .map(|a| a[name].clone())
        .collect()
}

/// Submits the review of a batch.
pub fn submit() -> Step {
    Step::Review(ReviewReply::Submit)
}
