//! A scripted UI for unit tests: it plays back replies and records what each widget was shown.

use std::collections::VecDeque;

use crate::flow::Ui;
use crate::model::*;

/// One scripted reply.
#[derive(Debug, Clone)]
pub enum Step {
    Select(SelectReply),
    Multi(MultiSelectReply),
    Text(TextReply),
    Confirm(ConfirmReply),
    Number(NumberReply),
}

/// What a widget was shown.
#[derive(Debug, Clone)]
pub enum Shown {
    Select(SelectRequest),
    Multi(MultiSelectRequest),
    Text(TextRequest),
    Confirm(ConfirmRequest),
    Number(NumberRequest),
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
            mode: Mode::Numbered,
            steps: steps.into_iter().collect(),
            frames: Vec::new(),
            shown: Vec::new(),
        }
    }

    fn next(&mut self, frame: &Frame, shown: Shown) -> Option<Step> {
        self.frames.push(frame.clone());
        self.shown.push(shown);
        self.steps.pop_front()
    }
}

macro_rules! scripted {
    ($method:ident, $request:ty, $reply:ident, $step:ident, $shown:ident) => {
        fn $method(&mut self, frame: &Frame, request: &$request) -> $reply {
            match self.next(frame, Shown::$shown(request.clone())) {
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
    scripted!(select, SelectRequest, SelectReply, Select, Select);
    scripted!(
        multi_select,
        MultiSelectRequest,
        MultiSelectReply,
        Multi,
        Multi
    );
    scripted!(text, TextRequest, TextReply, Text, Text);
    scripted!(confirm, ConfirmRequest, ConfirmReply, Confirm, Confirm);
    scripted!(number, NumberRequest, NumberReply, Number, Number);
}
