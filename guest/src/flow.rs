//! A batch, question by question: ask, judge, ask again with the error until the answer is
//! acceptable, go back with the earlier answer preselected, and stop on cancel with the answers
//! given so far.

use crate::judge::{Leeway, Reply, Verdict, judge};
use crate::model::*;
use crate::printable::Printable;
use crate::secret_choice;
use crate::summary::{hint, lend_badged, review_items};
use crate::text_format;
use crate::ui::Ui;

/// How a batch is run, beyond its questions: what the caller (a tool call, an elicitation)
/// makes of skips, context and refusals.
#[derive(Clone, Copy, Debug)]
pub struct Policy<'a> {
    /// What the person may do beyond answering: skip a text question with a stock answer,
    /// decline the whole request.
    pub leeway: Leeway<'a>,
    /// What the whole request is about, shown once above its questions and on the review.
    pub context: Option<&'a str>,
    /// End every request with the review, even one of a single question or none (a form the
    /// person submits or declines as a whole). Otherwise only batches of two or more.
    pub always_review: bool,
}

impl<'a> Policy<'a> {
    /// The policy of a tool call: skips follow the session's settings, nothing else is added.
    pub fn tool(settings: &'a Settings) -> Self {
        Policy {
            leeway: Leeway {
                skip_text: Some(settings.skip_response()),
                declinable: false,
            },
            context: None,
            always_review: false,
        }
    }
}

/// How a batch ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// Every question answered; answers in question order.
    Answered(Vec<Answer>),
    /// The person stopped; the answers given so far.
    Cancelled(Vec<Answer>),
    /// The person refused the whole request (only under a declinable policy).
    Declined,
    /// No person can answer, for this reason; nothing was asked.
    Unavailable(Absence),
    /// Nobody answered in the time the host was given; the answers given before.
    TimedOut(Vec<Answer>),
}

impl From<Ending> for Outcome {
    /// A tool call's outcome. Its policy never offers declining, so `Declined` cannot come from
    /// one; were it to, it would read as a cancel with nothing kept.
    fn from(ending: Ending) -> Outcome {
        match ending {
            Ending::Answered(answers) => Outcome::Answered(answers),
            Ending::Cancelled(answers) => Outcome::Cancelled(answers),
            Ending::Declined => Outcome::Cancelled(Vec::new()),
            Ending::Unavailable(absence) => Outcome::Unavailable(absence),
            Ending::TimedOut(answers) => Outcome::TimedOut(answers),
        }
    }
}

/// Asks valid `questions` in order and returns how it ended. A batch of two or more (or any
/// request, under `always_review`) ends with a review of the answers, where any of them can be
/// changed before they are sent. `marked` says, by position, which questions the request marks
/// secret beyond what the questions say themselves (see [`crate::secret`]).
pub fn run(
    questions: &mut [Question],
    marked: &[bool],
    policy: &Policy,
    ui: &mut impl Ui,
) -> Ending {
    let secret = crate::secret::of(questions, marked);
    let ui = &mut Printable(ui);
    if let Mode::Unavailable(absence) = ui.mode() {
        return Ending::Unavailable(absence);
    }
    let given = |answers: Vec<Option<Answer>>| answers.into_iter().flatten().collect();
    let mut answers: Vec<Option<Answer>> = vec![None; questions.len()];
    let mut index = 0;
    let mut error = None;
    let mut draft: Option<Answer> = None;
    // Once reviewing, an answered question goes back to the review rather than onwards.
    let mut reviewing = false;
    let total = questions.len() as u32;
    loop {
        while let Some(question) = questions.get_mut(index) {
            let position = index as u32 + 1;
            let frame = Frame {
                position,
                total,
                header: question.header.clone(),
                place: place(position, total, question.header.as_deref()),
                prompt: question.prompt.clone(),
                required: question.required,
                mark_optional: mark_optional(question),
                hint: hint(question),
                error: error.take(),
                context: policy.context.map(str::to_string),
                declinable: policy.leeway.declinable,
            };
            let preset = draft.take().or_else(|| answers[index].clone());
            let reply = ask(ui, question, secret[index], &frame, preset.as_ref());
            match judge(question, reply, policy.leeway) {
                Verdict::Accept(answer) => {
                    answers[index] = Some(answer);
                    index = if reviewing { total as usize } else { index + 1 };
                }
                Verdict::Retry {
                    message,
                    draft: tried,
                } => {
                    error = Some(message);
                    draft = tried.or(preset);
                }
                Verdict::Back if index == 0 => {
                    error =
                        Some("This is the first question; there is nothing to go back to.".into());
                    draft = preset;
                }
                Verdict::Back => index -= 1,
                Verdict::Cancel => return Ending::Cancelled(given(answers)),
                Verdict::Decline => return Ending::Declined,
                Verdict::TimeUp => return Ending::TimedOut(given(answers)),
            }
        }
        if questions.len() < 2 && !policy.always_review {
            break;
        }
        let review = ReviewRequest {
            items: review_items(questions, &secret, &answers),
            context: policy.context.map(str::to_string),
            declinable: policy.leeway.declinable,
        };
        match ui.review(&review) {
            ReviewReply::Submit => break,
            ReviewReply::Edit(n) if (n as usize) < questions.len() => {
                index = n as usize;
                reviewing = true;
            }
            ReviewReply::Edit(_) => {}
            ReviewReply::Decline if policy.leeway.declinable => return Ending::Declined,
            ReviewReply::TimeUp => return Ending::TimedOut(given(answers)),
            // A host that offers declining where it is not allowed has the person leave.
            ReviewReply::Cancel | ReviewReply::Decline => {
                return Ending::Cancelled(given(answers));
            }
        }
    }
    Ending::Answered(given(answers))
}

/// The line above a question: `Question 2 of 4 · Deploy` in a batch, the header alone for a
/// single question.
fn place(position: u32, total: u32, header: Option<&str>) -> Option<String> {
    match (total > 1, header) {
        (true, Some(h)) => Some(format!("Question {position} of {total} · {h}")),
        (true, None) => Some(format!("Question {position} of {total}")),
        (false, header) => header.map(str::to_string),
    }
}

/// Whether " (optional)" goes after the prompt: the question may be skipped, and neither its
/// prompt nor its header says so already (as its last words, a full stop or colon after them
/// or not: "Anything to add (optional).").
fn mark_optional(question: &Question) -> bool {
    let says = |text: &str| {
        let end = text
            .trim_end()
            .trim_end_matches(['.', ':', '!', '?'])
            .trim_end();
        end.to_lowercase().ends_with("(optional)")
    };
    !(question.required || says(&question.prompt) || question.header.as_deref().is_some_and(says))
}

/// Shows `question` with the widget of its kind, preset with `preset` (an earlier or rejected
/// answer) or else the question's defaults. A choice question lends its options to the widget;
/// a `secret` one asks for its typed answer in a hidden field.
fn ask(
    ui: &mut impl Ui,
    question: &mut Question,
    secret: bool,
    frame: &Frame,
    preset: Option<&Answer>,
) -> Reply {
    let value = preset
        .filter(|a| a.origin != Origin::Skipped)
        .map(|a| (&a.value, a.origin));
    match &mut question.kind {
        QuestionKind::Select(s) => {
            let note = preset.and_then(|a| a.note.clone());
            let (selected, other_text) = match value {
                Some((Value::Text(t), Origin::Custom)) => (None, Some(t.clone())),
                Some((Value::Text(t), _)) => (
                    OptionsByValue::new(&s.options).index(t).map(|i| i as u32),
                    None,
                ),
                _ => (s.default, None),
            };
            Reply::Select(lend_badged(&mut s.options, |options| {
                let mut request = SelectRequest {
                    options,
                    selected,
                    other_label: s.other.then(|| OTHER_LABEL.to_string()),
                    other_text,
                    discuss_label: s.discuss.then(|| DISCUSS_LABEL.to_string()),
                    notes: s.notes,
                    note,
                };
                if secret {
                    return secret_choice::select(ui, frame, request);
                }
                (ui.select(frame, &mut request), request.options)
            }))
        }
        QuestionKind::MultiSelect(m) => {
            let note = preset.and_then(|a| a.note.clone());
            let (selected, other_text) = match value {
                Some((Value::Texts(values), origin)) => {
                    let typed = (origin == Origin::Custom)
                        .then(|| values.last().cloned())
                        .flatten();
                    let options = OptionsByValue::new(&m.options);
                    let picked = values
                        .iter()
                        .filter_map(|v| options.index(v).map(|i| i as u32))
                        .collect();
                    (picked, typed)
                }
                _ => (m.defaults.clone(), None),
            };
            let min_picks = Some(m.fewest_picks(question.required));
            Reply::MultiSelect(lend_badged(&mut m.options, |options| {
                let mut request = MultiSelectRequest {
                    options,
                    selected,
                    other_label: m.other.then(|| OTHER_LABEL.to_string()),
                    other_text,
                    min_picks,
                    max_picks: m.max_picks,
                    notes: m.notes,
                    note,
                };
                if secret {
                    return secret_choice::multi_select(ui, frame, request);
                }
                (ui.multi_select(frame, &mut request), request.options)
            }))
        }
        QuestionKind::Text(t) => Reply::Text(
            ui.text(
                frame,
                &TextRequest {
                    multiline: t.multiline,
                    placeholder: t
                        .placeholder
                        .clone()
                        .or_else(|| t.format.map(|f| text_format::example(f).to_string())),
                    initial: match value {
                        Some((Value::Text(text), _)) => Some(text.clone()),
                        _ => t.default.clone(),
                    },
                    secret: t.secret || secret,
                    min_length: t.min_length,
                    max_length: t.max_length,
                },
            ),
        ),
        QuestionKind::Confirm(c) => Reply::Confirm(ui.confirm(
            frame,
            &ConfirmRequest {
                initial: match value {
                    Some((Value::Boolean(b), _)) => Some(*b),
                    _ => c.default,
                },
            },
        )),
        QuestionKind::Number(n) => Reply::Number(ui.number(
            frame,
            &NumberRequest {
                initial: match value {
                    Some((Value::Number(v), _)) => Some(*v),
                    Some((Value::Integer(i), _)) => Some(*i as f64),
                    _ => n.default,
                },
                min: n.min,
                max: n.max,
                exclusive_min: n.exclusive_min,
                exclusive_max: n.exclusive_max,
                integer: n.integer,
            },
        )),
    }
}
