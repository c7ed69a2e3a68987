//! The line of text the model reads, in the peer tools' words: `User selected: 2. Reuse ListView`,
//! `User wrote: ...`, `User cancelled the selection.`

use crate::decimal::Decimal;
use crate::model::*;
use crate::request::{Request, Tool};

/// What happened to a request, for the model.
pub fn outcome(request: &Request, outcome: &Outcome) -> String {
    let questions = &request.questions;
    match outcome {
        Outcome::Unavailable(absence) => unavailable(*absence),
        Outcome::Invalid(error) => invalid(error),
        Outcome::Answered(answers) if questions.len() == 1 && answers.len() == 1 => {
            phrase(request.tool, &questions[0], &answers[0])
        }
        Outcome::Answered(answers) => {
            let count = questions.len();
            format!(
                "User answered all {count} questions:\n{}",
                listing(request, answers)
            )
        }
        Outcome::TimedOut(answers) => timed_out(request, answers),
        Outcome::Cancelled(answers) if answers.is_empty() => "User cancelled the selection.".into(),
        Outcome::Cancelled(answers) => format!(
            "User cancelled after answering {} of {} questions:\n{}",
            answers.len(),
            questions.len(),
            listing(request, answers)
        ),
    }
}

/// What the model is told when nobody can answer: why, and what to do instead.
pub fn unavailable(absence: Absence) -> String {
    let why = match absence {
        Absence::NoTerminal => "this session has no terminal or input to ask on",
        Absence::NoInbox => {
            "nobody can be asked where this runs, and no `interview inbox` is open to ask in \
             (the user can open one in a terminal to be asked next time)"
        }
        Absence::Background => {
            "this runs in the background of its terminal, where another program reads the keys"
        }
        Absence::NoInput => "the input ended before any answer",
        Absence::FormDismissed => {
            "the client dismissed the question form at once, as a client does that cannot show one"
        }
        Absence::PageNotOpened => "nobody opened the page offered to answer on",
        Absence::UnknownAddressee => {
            "the team inbox has nobody by the name this question is addressed to (the user can \
             check the name it was sent to)"
        }
        Absence::InboxRefused => {
            "the team inbox refused this agent: its token is not known there or was revoked (the \
             user can give it a valid token)"
        }
    };
    format!(
        "No human is available to answer: {why}, so nothing was asked. Do not retry or wait: \
         continue with your best judgement and state the assumptions you made, or stop and put \
         the question in your final message."
    )
}

/// What the model is told when the person was asked but nobody answered in the time the host
/// was given: what was answered before, and not to wait.
fn timed_out(request: &Request, answers: &[Answer]) -> String {
    let first = "No human answered in the time allowed for this question.";
    let advice = "Do not ask again now: continue with your best judgement and state the \
                  assumptions you made, or stop and put the question in your final message.";
    match answers.len() {
        0 => format!("{first} {advice}"),
        n => format!(
            "{first} Before that, {n} of {} questions were answered:\n{}\n{advice}",
            request.questions.len(),
            listing(request, answers)
        ),
    }
}

/// Why a request was refused, for the model to fix its call.
pub fn invalid(error: &RequestError) -> String {
    let place = if error.path.is_empty() {
        "the arguments".to_string()
    } else {
        error.path.clone()
    };
    format!(
        "The request is invalid, so nothing was asked: {place}: {}. Fix the arguments and call \
         the tool again.",
        error.message
    )
}

/// One line per answer: `1. Language: User selected: 1. Python`.
fn listing(request: &Request, answers: &[Answer]) -> String {
    answers
        .iter()
        .filter_map(|answer| {
            let (index, question) = request
                .questions
                .iter()
                .enumerate()
                .find(|(_, q)| q.id == answer.id)?;
            let title = question
                .header
                .clone()
                .unwrap_or_else(|| first_line(&question.prompt));
            Some(format!(
                "{}. {title}: {}",
                index + 1,
                phrase(request.tool, question, answer)
            ))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The question's first line, shortened to 80 characters.
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    match line.char_indices().nth(80) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

/// One answer in words, with the person's note after it: `User selected: 1. Python (note: 3.12)`.
fn phrase(tool: Tool, question: &Question, answer: &Answer) -> String {
    let words = answer_words(tool, question, answer);
    match &answer.note {
        Some(note) => format!("{words} (note: {note})"),
        None => words,
    }
}

fn answer_words(tool: Tool, question: &Question, answer: &Answer) -> String {
    let options = question.kind.options_by_value();
    let label = |value: &str| options.number_and_label(value);
    match (answer.origin, &answer.value) {
        (Origin::Discuss, _) => {
            let then = if tool == Tool::AskQuestion {
                "then call resume_structured with a summary of what you learned"
            } else {
                "then continue with structured questions"
            };
            format!(
                "User wants to discuss this topic in conversation rather than pick an option. Ask \
                 follow-up questions in plain text, one at a time, until the direction is clear; {then}."
            )
        }
        (Origin::Skipped, Value::Text(response)) => {
            format!("User skipped this question: {response}")
        }
        (Origin::Skipped, _) => "User skipped this question.".into(),
        (_, Value::None) => "User gave no answer.".into(),
        (Origin::Custom, Value::Text(typed)) => format!("User wrote: {typed}"),
        (_, Value::Text(value)) => match label(value) {
            Some((number, label)) => format!("User selected: {number}. {label}"),
            None => format!("User wrote: {value}"),
        },
        (origin, Value::Texts(values)) => {
            let (picked, typed) = match origin {
                Origin::Custom => values.split_at(values.len() - 1),
                _ => (values.as_slice(), &[][..]),
            };
            let labels: Vec<&str> = picked
                .iter()
                .map(|v| label(v).map_or(v.as_str(), |(_, l)| l))
                .collect();
            match (labels.is_empty(), typed.first()) {
                (true, None) => "User selected none of the options.".into(),
                (true, Some(typed)) => format!("User wrote: {typed}"),
                (false, None) => format!("User selected: {}", labels.join(", ")),
                (false, Some(typed)) => {
                    format!("User selected: {}; and wrote: {typed}", labels.join(", "))
                }
            }
        }
        (_, Value::Boolean(yes)) => format!("User answered: {}", if *yes { "yes" } else { "no" }),
        (_, Value::Number(n)) => format!("User entered: {}", Decimal(*n)),
        (_, Value::Integer(i)) => format!("User entered: {i}"),
    }
}
