//! What the person gave, kept by the host while the plugin runs a request, so that nothing they
//! typed is lost when the plugin fails. Every reply a widget returns is recorded; if the plugin
//! traps or runs out of budget, the session plays the replies back into a fresh instance
//! instead of asking again, and if that fails too, the answers travel in the error as
//! [`Given`]: the question as the person saw it, and their answer. A recorded reply is a
//! [`Step`](crate::ui::scripted::Step), what a scripted UI plays.

use std::collections::VecDeque;

use crate::given::Given;
use crate::journal::Journal;
use crate::ui::scripted::{Recorded, Step as Reply};
use crate::ui::{
    ConfirmReply, LineRead, MultiSelectReply, Nav, NumberReply, ReviewReply, SelectReply, Span,
    TextReply,
};

/// The replies of the request being run, those to play back, and the journal they go to.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    recorded: Vec<Reply>,
    given: Vec<Given>,
    /// Replies to play back; `None` is a secret the journal did not keep: the person is asked.
    replay: VecDeque<Option<Reply>>,
    /// Set when the replay comes from a journal, until the person is first asked: they are
    /// shown what they had answered.
    resumed: bool,
    journal: Option<Journal>,
    /// Whether the replies of the call being run go to the journal: it asks, and the
    /// journal took it.
    journaling: bool,
    /// The line mode's text written since the last line played back, while lines are
    /// played back: the question the person is asked next, once they are.
    held: Vec<Span>,
    /// How many of the journal's replies were played back (or asked again, a secret): when
    /// the run takes another path, the journal keeps only those. None when the replay is not
    /// the journal's (a retry after a failure).
    played: Option<usize>,
}

impl Recorder {
    /// Forgets the last request: a new one starts. The journal stays.
    pub(crate) fn start(&mut self) {
        *self = Recorder {
            journal: self.journal.take(),
            ..Recorder::default()
        };
    }

    /// Keeps the replies of the next requests in `journal` (None: in memory only).
    pub(crate) fn set_journal(&mut self, journal: Option<Journal>) -> Option<Journal> {
        std::mem::replace(&mut self.journal, journal)
    }

    /// A request that asks the person starts: with a journal, its replies go there, and what
    /// an earlier run of it wrote there is played back first. `digests` gives the plugin's and
    /// the request's, asked for only when there is a journal.
    pub(crate) fn resume(
        &mut self,
        digests: impl FnOnce() -> (String, String),
    ) -> Result<(), crate::error::Error> {
        let Some(journal) = &mut self.journal else {
            return Ok(());
        };
        let (plugin, request) = digests();
        let earlier = journal.begin(&plugin, &request)?;
        self.resumed = !earlier.is_empty();
        self.replay = earlier.into();
        self.played = Some(0);
        self.journaling = true;
        Ok(())
    }

    /// Starts the request again, playing back every reply recorded so far (which are
    /// recorded again as they are played).
    pub(crate) fn retry(&mut self) {
        let recorded = std::mem::take(&mut self.recorded);
        self.replay = recorded.into_iter().map(Some).collect();
        self.given.clear();
        self.resumed = false;
        self.played = None;
    }

    /// What the person answered in this request, in words.
    pub(crate) fn given(&self) -> &[Given] {
        &self.given
    }

    /// Whether the person has replied to anything in this request.
    pub(crate) fn has_replies(&self) -> bool {
        !self.recorded.is_empty()
    }

    /// The next reply to play back, when it is of the kind `R` and `fits` (a line, the question
    /// being read). One that does not means the plugin took another path (the person took
    /// another number of tries, or answers in another mode): the replay stops there, the
    /// journal keeps only what was played, and the person is asked from then on. A secret the
    /// journal did not keep is asked, and the replay goes on after it.
    pub(crate) fn next<R: Recorded>(&mut self, fits: impl FnOnce(&R) -> bool) -> Option<R> {
        let reply = self.replay.pop_front()?;
        if let Some(played) = &mut self.played {
            *played += 1;
        }
        let reply = reply?;
        match R::unwrap(reply.clone()).filter(fits) {
            Some(unwrapped) => {
                self.recorded.push(reply);
                self.held.clear();
                Some(unwrapped)
            }
            None => {
                self.replay.clear();
                // What the journal holds from here on answered another path: it goes, so that
                // the replies given from now on follow the ones that fit.
                if let (Some(played), Some(journal)) = (self.played, &mut self.journal) {
                    journal.keep_first(played - 1);
                }
                None
            }
        }
    }

    /// The line mode's text, while lines are played back: held (`None`), since the person
    /// saw it when they typed those lines, until the plugin reads a line that is not played
    /// back ([`Recorder::take_held`]). Otherwise `spans`, to write now.
    pub(crate) fn hold(&mut self, spans: Vec<Span>) -> Option<Vec<Span>> {
        // After a journal's lines, what the person is told of the resume comes first.
        if self.replay.is_empty() && !self.resumed {
            return Some(spans);
        }
        self.held.extend(spans);
        None
    }

    /// The text held while lines were played back, to write before the person is asked.
    pub(crate) fn take_held(&mut self) -> Vec<Span> {
        std::mem::take(&mut self.held)
    }

    /// Once, when a journal's replies have been played and the person is about to be asked
    /// the question at `position` (None: the review): the answers they gave before it.
    pub(crate) fn take_resumed(&mut self, position: Option<u32>) -> Option<Vec<Given>> {
        if !std::mem::take(&mut self.resumed) {
            return None;
        }
        let before = |g: &&Given| position.is_none_or(|p| g.position < p);
        Some(self.given.iter().filter(before).cloned().collect())
    }

    /// Notes what a reply answered, in words; a later answer to the same question (after
    /// going back) replaces the earlier one.
    pub(crate) fn note(&mut self, given: Option<Given>) {
        if let Some(given) = given {
            self.given.retain(|g| g.position != given.position);
            self.given.push(given);
            self.given.sort_by_key(|g| g.position);
        }
    }

    /// Records a reply the person gave, and writes it to the journal (a secret only as having
    /// been given; a cancel not at all, so that a resumed run asks from there).
    pub(crate) fn record(&mut self, reply: Reply, given: Option<Given>, secret: bool) {
        if let Some(journal) = self.journal.as_mut().filter(|_| self.journaling)
            && !cancels(&reply)
        {
            journal.append((!secret).then_some(&reply));
        }
        self.recorded.push(reply);
        self.note(given);
    }
}

/// Whether `reply` is the person leaving the request.
fn cancels(reply: &Reply) -> bool {
    let nav = match reply {
        Reply::Select(SelectReply::Nav(nav))
        | Reply::MultiSelect(MultiSelectReply::Nav(nav))
        | Reply::Text(TextReply::Nav(nav))
        | Reply::Confirm(ConfirmReply::Nav(nav))
        | Reply::Number(NumberReply::Nav(nav)) => nav,
        Reply::Review(review) => return *review == ReviewReply::Cancel,
        // The input ending, or an interrupt: a resumed run reads from there.
        Reply::Line(typed) => {
            return !matches!(typed.read, LineRead::Line(_) | LineRead::TooLong(_));
        }
        _ => return false,
    };
    *nav == Nav::Cancel
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::Frame;
    use crate::ui::answered::given;
    use serde_json::{Value as Json, json};

    fn frame(position: u32) -> Frame {
        Frame {
            position,
            total: 2,
            header: None,
            place: None,
            prompt: format!("Question {position}"),
            required: true,
            mark_optional: false,
            hint: None,
            error: None,
            context: None,
            declinable: false,
        }
    }

    #[test]
    fn a_reply_that_no_longer_fits_is_dropped_from_the_journal_with_those_after_it() {
        use crate::ui::scripted::TypedLine;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.json");
        let line = |text: &str, at| {
            Reply::Line(TypedLine {
                read: LineRead::Line(text.into()),
                answering: Some(at),
            })
        };
        let digests = || ("plugin".to_string(), "request".to_string());
        let mut first = Recorder::default();
        first.set_journal(Some(Journal::open(&path).unwrap()));
        first.resume(digests).unwrap();
        first.record(line("2", 1), None, false);
        first.record(line("Aurora", 2), None, false);
        drop(first);

        let mut again = Recorder::default();
        again.set_journal(Some(Journal::open(&path).unwrap()));
        again.resume(digests).unwrap();
        let fits = |at| move |typed: &TypedLine| typed.answering == Some(at);
        let played = again.next::<TypedLine>(fits(1)).map(|typed| typed.read);
        assert_eq!(played, Some(LineRead::Line("2".into())));
        assert_eq!(
            again.next::<TypedLine>(fits(3)),
            None,
            "typed to another question"
        );
        again.record(line("x", 3), None, false);
        drop(again);

        let mut journal = Journal::open(&path).unwrap();
        let kept = journal.begin("plugin", "request").unwrap();
        assert_eq!(kept, [Some(line("2", 1)), Some(line("x", 3))]);
    }

    #[test]
    fn a_later_answer_replaces_the_earlier_one() {
        let mut recorder = Recorder::default();
        let reply = Reply::Text(TextReply::Submitted("a".into()));
        recorder.record(
            reply.clone(),
            given(&frame(2), Some(json!("first")), None),
            false,
        );
        recorder.record(
            reply.clone(),
            given(&frame(1), Some(json!("one")), None),
            false,
        );
        recorder.record(reply, given(&frame(2), Some(json!("second")), None), false);
        assert_eq!(recorder.recorded.len(), 3);
        let given = recorder.given();
        let answers: Vec<&Json> = given.iter().map(|g| &g.answer).collect();
        assert_eq!(answers, [&json!("one"), &json!("second")]);
    }

    #[test]
    fn a_replay_stops_where_the_plugin_takes_another_path() {
        let mut recorder = Recorder::default();
        for reply in [
            Reply::Text(TextReply::Submitted("a".into())),
            Reply::Confirm(ConfirmReply::Answered(true)),
            Reply::Review(ReviewReply::Submit),
        ] {
            recorder.record(reply, None, false);
        }
        recorder.retry();
        let text = recorder.next::<TextReply>(|_| true);
        assert!(matches!(text, Some(TextReply::Submitted(t)) if t == "a"));
        assert!(recorder.next::<NumberReply>(|_| true).is_none());
        assert!(
            recorder.next::<ReviewReply>(|_| true).is_none(),
            "nothing is played after a mismatch"
        );
        assert_eq!(
            recorder.recorded.len(),
            1,
            "the reply played back is recorded again"
        );
    }
}
