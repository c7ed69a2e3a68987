//! A batch, question by question: ask, judge, ask again with the error until the answer is
//! acceptable, go back with the earlier answer preselected, and stop on cancel with the answers
//! given so far.

use crate::judge::{Reply, Verdict, judge};
use crate::model::*;
use crate::summary::review_items;

/// The widgets of the host, as the `ui` WIT interface defines them.
pub trait Ui {
    fn mode(&mut self) -> Mode;
    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply;
    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply;
    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply;
    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply;
    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply;
    fn review(&mut self, items: &[ReviewItem]) -> ReviewReply;
}

/// The UI the host provides through the component's imports.
pub struct ImportedUi;

impl Ui for ImportedUi {
    fn mode(&mut self) -> Mode {
        crate::bindings::interview::plugin::ui::mode()
    }
    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        crate::bindings::interview::plugin::ui::select(frame, request)
    }
    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply {
        crate::bindings::interview::plugin::ui::multi_select(frame, request)
    }
    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        crate::bindings::interview::plugin::ui::text(frame, request)
    }
    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        crate::bindings::interview::plugin::ui::confirm(frame, *request)
    }
    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        crate::bindings::interview::plugin::ui::number(frame, *request)
    }
    fn review(&mut self, items: &[ReviewItem]) -> ReviewReply {
        crate::bindings::interview::plugin::ui::review(items)
    }
}

/// Asks valid `questions` in order and returns how it ended. A batch of two or more ends
/// with a review of the answers, where any of them can be changed before they are sent.
pub fn run(questions: &[Question], settings: &Settings, ui: &mut impl Ui) -> Outcome {
    if ui.mode() == Mode::Unavailable {
        return Outcome::Unavailable;
    }
    let mut answers: Vec<Option<Answer>> = vec![None; questions.len()];
    let mut index = 0;
    let mut error = None;
    let mut draft: Option<Answer> = None;
    // Once reviewing, an answered question goes back to the review rather than onwards.
    let mut reviewing = false;
    loop {
        while let Some(question) = questions.get(index) {
            let frame = Frame {
                position: index as u32 + 1,
                total: questions.len() as u32,
                header: question.header.clone(),
                prompt: question.prompt.clone(),
                required: question.required,
                error: error.take(),
            };
            let preset = draft.take().or_else(|| answers[index].clone());
            let reply = ask(ui, question, &frame, preset.as_ref());
            match judge(question, reply, settings) {
                Verdict::Accept(answer) => {
                    answers[index] = Some(answer);
                    index = if reviewing {
                        questions.len()
                    } else {
                        index + 1
                    };
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
                Verdict::Cancel => {
                    return Outcome::Cancelled(answers.into_iter().flatten().collect());
                }
            }
        }
        if questions.len() < 2 {
            break;
        }
        match ui.review(&review_items(questions, &answers)) {
            ReviewReply::Submit => break,
            ReviewReply::Edit(n) if (n as usize) < questions.len() => {
                index = n as usize;
                reviewing = true;
            }
            ReviewReply::Edit(_) => {}
            ReviewReply::Cancel => {
                return Outcome::Cancelled(answers.into_iter().flatten().collect());
            }
        }
    }
    Outcome::Answered(answers.into_iter().flatten().collect())
}

/// Shows `question` with the widget of its kind, preset with `preset` (an earlier or rejected
/// answer) or else the question's defaults.
fn ask(ui: &mut impl Ui, question: &Question, frame: &Frame, preset: Option<&Answer>) -> Reply {
    let value = preset
        .filter(|a| a.origin != Origin::Skipped)
        .map(|a| (&a.value, a.origin));
    match &question.kind {
        QuestionKind::Select(s) => {
            let (selected, other_text) = match value {
                Some((Value::Text(t), Origin::Custom)) => (None, Some(t.clone())),
                Some((Value::Text(t), _)) => (position(&s.options, t), None),
                _ => (s.default, None),
            };
            Reply::Select(ui.select(
                frame,
                &SelectRequest {
                    options: s.options.clone(),
                    selected,
                    other_label: s.other.then(|| OTHER_LABEL.to_string()),
                    other_text,
                    discuss_label: s.discuss.then(|| DISCUSS_LABEL.to_string()),
                },
            ))
        }
        QuestionKind::MultiSelect(m) => {
            let (selected, other_text) = match value {
                Some((Value::Texts(values), origin)) => {
                    let typed = (origin == Origin::Custom)
                        .then(|| values.last().cloned())
                        .flatten();
                    let picked = values
                        .iter()
                        .filter_map(|v| position(&m.options, v))
                        .collect();
                    (picked, typed)
                }
                _ => (m.defaults.clone(), None),
            };
            Reply::MultiSelect(ui.multi_select(
                frame,
                &MultiSelectRequest {
                    options: m.options.clone(),
                    selected,
                    other_label: m.other.then(|| OTHER_LABEL.to_string()),
                    other_text,
                    min_picks: m.min_picks,
                    max_picks: m.max_picks,
                },
            ))
        }
        QuestionKind::Text(t) => Reply::Text(ui.text(
            frame,
            &TextRequest {
                multiline: t.multiline,
                placeholder: t.placeholder.clone(),
                initial: match value {
                    Some((Value::Text(text), _)) => Some(text.clone()),
                    _ => t.default.clone(),
                },
                secret: t.secret,
                min_length: t.min_length,
                max_length: t.max_length,
            },
        )),
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
                    _ => n.default,
                },
                min: n.min,
                max: n.max,
                integer: n.integer,
            },
        )),
    }
}

fn position(options: &[Choice], value: &str) -> Option<u32> {
    options
        .iter()
        .position(|o| o.value == value)
        .map(|i| i as u32)
}
