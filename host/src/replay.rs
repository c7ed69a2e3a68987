//! What the person gave, kept by the host while the plugin runs a request, so that nothing they
//! typed is lost when the plugin fails. Every reply a widget returns is recorded; if the plugin
//! traps or runs out of budget, the session plays the replies back into a fresh instance
//! instead of asking again, and if that fails too, the answers travel in the error as
//! [`Given`]: the question as the person saw it, and their answer. A recorded reply is a
//! [`Step`](crate::ui::scripted::Step), what a scripted UI plays.

use std::collections::VecDeque;

use serde_json::{Value as Json, json};

pub(crate) use crate::ui::scripted::Step as Reply;
use crate::{
    ConfirmReply, Frame, MultiSelectReply, MultiSelectRequest, NumberReply, SelectReply,
    SelectRequest, TextReply,
};

/// A widget's reply type, kept among the recorded replies (implemented where [`Reply`] is
/// declared).
pub(crate) trait Recorded: Clone + Sized {
    fn wrap(self) -> Reply;
    fn unwrap(reply: Reply) -> Option<Self>;
}

/// An answer the person gave, in the words they saw: what survives a plugin that failed.
#[derive(Clone, Debug, PartialEq)]
pub struct Given {
    /// 1-based position of the question in the batch.
    pub position: u32,
    /// The question's header, if it had one.
    pub header: Option<String>,
    /// The question as shown.
    pub prompt: String,
    /// The answer: an option's label, labels, typed text, yes/no, or a number as typed.
    pub answer: Json,
    /// The note the person added to their pick.
    pub note: Option<String>,
}

impl Given {
    /// As JSON: `{"position", "header", "question", "answer", "note"}`, without empty fields.
    pub fn to_json(&self) -> Json {
        let mut object =
            json!({"position": self.position, "question": self.prompt, "answer": self.answer});
        if let Some(header) = &self.header {
            object["header"] = json!(header);
        }
        if let Some(note) = &self.note {
            object["note"] = json!(note);
        }
        object
    }
}

/// The replies of the request being run, and those to play back.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    recorded: Vec<Reply>,
    given: Vec<Given>,
    replay: VecDeque<Reply>,
}

impl Recorder {
    /// Forgets the last request: a new one starts.
    pub(crate) fn start(&mut self) {
        *self = Recorder::default();
    }

    /// Starts a replay of `replies`, which are recorded again as they are played.
    pub(crate) fn replay(&mut self, replies: Vec<Reply>, given: Vec<Given>) {
        self.recorded.clear();
        self.given = given;
        self.replay = replies.into();
    }

    /// The replies recorded so far and what they answered.
    pub(crate) fn take(&mut self) -> (Vec<Reply>, Vec<Given>) {
        (
            std::mem::take(&mut self.recorded),
            std::mem::take(&mut self.given),
        )
    }

    /// Whether the person has replied to anything in this request.
    pub(crate) fn has_replies(&self) -> bool {
        !self.recorded.is_empty()
    }

    /// The next reply to play back, when it is of the kind `R`. A reply of another kind means
    /// the plugin took another path: the replay stops there, and the person is asked from then
    /// on.
    pub(crate) fn next<R: Recorded>(&mut self) -> Option<R> {
        let reply = self.replay.pop_front()?;
        let unwrapped = R::unwrap(reply.clone());
        if unwrapped.is_some() {
            self.recorded.push(reply);
        } else {
            self.replay.clear();
        }
        unwrapped
    }

    /// Records a reply the person gave; `given` is the answer in words, when it is one.
    pub(crate) fn record(&mut self, reply: Reply, given: Option<Given>) {
        self.recorded.push(reply);
        if let Some(given) = given {
            // A later answer to the same question (after going back) replaces the earlier one.
            self.given.retain(|g| g.position != given.position);
            self.given.push(given);
            self.given.sort_by_key(|g| g.position);
        }
    }
}

/// What the person said to `frame`'s question, when `answer` is an answer (not a way out).
pub(crate) fn given(frame: &Frame, answer: Option<Json>, note: Option<&String>) -> Option<Given> {
    Some(Given {
        position: frame.position,
        header: frame.header.clone(),
        prompt: frame.prompt.clone(),
        answer: answer?,
        note: note.cloned(),
    })
}

/// A select reply in words: the picked option's label, or the typed text.
pub(crate) fn select_answer(request: &SelectRequest, reply: &SelectReply) -> Option<Json> {
    match reply {
        SelectReply::Picked(pick) => {
            let option = request.options.get(pick.index as usize)?;
            Some(json!(option.label))
        }
        SelectReply::Other(text) => Some(json!(text)),
        SelectReply::Discuss | SelectReply::Nav(_) => None,
    }
}

/// A multi-select reply in words: the picked labels, then the typed text.
pub(crate) fn multi_select_answer(
    request: &MultiSelectRequest,
    reply: &MultiSelectReply,
) -> Option<Json> {
    let MultiSelectReply::Picked(pick) = reply else {
        return None;
    };
    let labels = pick
        .picked
        .iter()
        .filter_map(|&i| request.options.get(i as usize))
        .map(|o| json!(o.label))
        .chain(pick.other.iter().map(|t| json!(t)));
    Some(Json::Array(labels.collect()))
}

pub(crate) fn text_answer(reply: &TextReply) -> Option<Json> {
    match reply {
        TextReply::Submitted(text) => Some(json!(text)),
        TextReply::Nav(_) => None,
    }
}

pub(crate) fn confirm_answer(reply: &ConfirmReply) -> Option<Json> {
    match reply {
        ConfirmReply::Answered(yes) => Some(json!(yes)),
        ConfirmReply::Nav(_) => None,
    }
}

pub(crate) fn number_answer(reply: &NumberReply) -> Option<Json> {
    match reply {
        NumberReply::Entered(typed) => Some(json!(typed)),
        NumberReply::Nav(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ReviewReply;

    fn frame(position: u32) -> Frame {
        Frame {
            position,
            total: 2,
            header: None,
            prompt: format!("Question {position}"),
            required: true,
            error: None,
            context: None,
            declinable: false,
        }
    }

    #[test]
    fn a_later_answer_replaces_the_earlier_one() {
        let mut recorder = Recorder::default();
        let reply = Reply::Text(TextReply::Submitted("a".into()));
        recorder.record(reply.clone(), given(&frame(2), Some(json!("first")), None));
        recorder.record(reply.clone(), given(&frame(1), Some(json!("one")), None));
        recorder.record(reply, given(&frame(2), Some(json!("second")), None));
        let (replies, given) = recorder.take();
        assert_eq!(replies.len(), 3);
        let answers: Vec<&Json> = given.iter().map(|g| &g.answer).collect();
        assert_eq!(answers, [&json!("one"), &json!("second")]);
    }

    #[test]
    fn a_replay_stops_where_the_plugin_takes_another_path() {
        let mut recorder = Recorder::default();
        recorder.replay(
            vec![
                Reply::Text(TextReply::Submitted("a".into())),
                Reply::Confirm(ConfirmReply::Answered(true)),
                Reply::Review(ReviewReply::Submit),
            ],
            Vec::new(),
        );
        let text = recorder.next::<TextReply>();
        assert!(matches!(text, Some(TextReply::Submitted(t)) if t == "a"));
        assert!(recorder.next::<NumberReply>().is_none());
        assert!(
            recorder.next::<ReviewReply>().is_none(),
            "nothing is played after a mismatch"
        );
        let (replayed, _) = recorder.take();
        assert_eq!(replayed.len(), 1, "the reply played back is recorded again");
    }
}
