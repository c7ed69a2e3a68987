//! An answer in the person's words, for the review step: "Staging", "Unit tests, Lint", "yes".

use crate::model::*;

/// What a secret answer reads as: never the text, nor its length.
pub const HIDDEN: &str = "•••••• (hidden)";

/// How `answer` reads back to the person who gave it; a secret is never shown, not even to the
/// person who typed it (the review may be on a shared screen, and it stays in the scrollback).
pub fn answer_in_words(question: &Question, answer: &Answer) -> String {
    let secret = matches!(&question.kind, QuestionKind::Text(t) if t.secret);
    if secret && answer.origin != Origin::Skipped {
        return HIDDEN.to_string();
    }
    let words = value_in_words(question, answer);
    match &answer.note {
        Some(note) => format!("{words} (note: {note})"),
        None => words,
    }
}

fn value_in_words(question: &Question, answer: &Answer) -> String {
    let label = |value: &str| {
        question
            .kind
            .option_by_value(value)
            .map_or(value.to_string(), |(_, l)| l.to_string())
    };
    match (answer.origin, &answer.value) {
        (Origin::Discuss, _) => DISCUSS_LABEL.to_string(),
        (Origin::Skipped, _) => "(skipped)".to_string(),
        (_, Value::None) => "(no answer)".to_string(),
        (Origin::Custom, Value::Text(typed)) => typed.clone(),
        (_, Value::Text(value)) => label(value),
        (_, Value::Texts(values)) if values.is_empty() => "(none)".to_string(),
        (origin, Value::Texts(values)) => {
            let typed = if origin == Origin::Custom { 1 } else { 0 };
            let (picked, custom) = values.split_at(values.len() - typed);
            picked
                .iter()
                .map(|v| label(v))
                .chain(custom.iter().cloned())
                .collect::<Vec<_>>()
                .join(", ")
        }
        (_, Value::Boolean(yes)) => if *yes { "yes" } else { "no" }.to_string(),
        (_, Value::Number(n)) => n.to_string(),
    }
}

/// The review step's list: every question with its answer in words.
pub fn review_items(questions: &[Question], answers: &[Option<Answer>]) -> Vec<ReviewItem> {
    questions
        .iter()
        .zip(answers)
        .map(|(question, answer)| ReviewItem {
            header: question.header.clone(),
            prompt: question.prompt.clone(),
            answer: answer.as_ref().map_or("(not answered)".to_string(), |a| {
                answer_in_words(question, a)
            }),
        })
        .collect()
}
