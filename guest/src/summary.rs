//! Questions and answers in the person's words: what an acceptable answer is ("a whole number
//! from 1 to 10"), and how an answer reads at the review step ("Staging", "Unit tests, Lint").

use crate::decimal::Decimal;
use crate::model::*;

/// What a secret answer reads as: never the text, nor its length.
pub const HIDDEN: &str = "•••••• (hidden)";

/// How `answer` reads back to the person who gave it; what they typed to a `secret` question
/// is never shown, not even to them (the review may be on a shared screen, and it stays in the
/// scrollback): a secret choice's picks are shown, its typed answer is not.
pub fn answer_in_words(question: &Question, secret: bool, answer: &Answer) -> String {
    let secret = secret || matches!(&question.kind, QuestionKind::Text(t) if t.secret);
    let text = matches!(&question.kind, QuestionKind::Text(_));
    if secret && text && answer.origin != Origin::Skipped {
        return HIDDEN.to_string();
    }
    let words = value_in_words(question, secret, answer);
    match &answer.note {
        Some(note) => format!("{words} (note: {note})"),
        None => words,
    }
}

fn value_in_words(question: &Question, secret: bool, answer: &Answer) -> String {
    let options = question.kind.options_by_value();
    let label = |value: &str| {
        options
            .number_and_label(value)
            .map_or(value.to_string(), |(_, l)| l.to_string())
    };
    match (answer.origin, &answer.value) {
        (Origin::Discuss, _) => DISCUSS_LABEL.to_string(),
        (Origin::Skipped, _) => "(skipped)".to_string(),
        (_, Value::None) => "(no answer)".to_string(),
        (Origin::Custom, Value::Text(_)) if secret => HIDDEN.to_string(),
        (Origin::Custom, Value::Text(typed)) => typed.clone(),
        (_, Value::Text(value)) => label(value),
        (_, Value::Texts(values)) if values.is_empty() => "(none)".to_string(),
        (origin, Value::Texts(values)) => {
            let typed = if origin == Origin::Custom { 1 } else { 0 };
            let (picked, custom) = values.split_at(values.len() - typed);
            picked
                .iter()
                .map(|v| label(v))
                .chain(custom.iter().map(|typed| {
                    if secret {
                        HIDDEN.to_string()
                    } else {
                        typed.clone()
                    }
                }))
                .collect::<Vec<_>>()
                .join(", ")
        }
        (_, Value::Boolean(yes)) => if *yes { "yes" } else { "no" }.to_string(),
        (_, Value::Number(n)) => Decimal(*n).to_string(),
        (_, Value::Integer(i)) => i.to_string(),
    }
}

/// A number range in words: `a whole number from 1 to 10`, `a number more than 0 and less than
/// 1`, `a number of 18 or more`.
pub fn number_range(
    integer: bool,
    min: Option<f64>,
    max: Option<f64>,
    exclusive_min: Option<f64>,
    exclusive_max: Option<f64>,
) -> String {
    let what = if integer {
        "a whole number"
    } else {
        "a number"
    };
    let (min, max, exclusive_min, exclusive_max) = (
        min.map(Decimal),
        max.map(Decimal),
        exclusive_min.map(Decimal),
        exclusive_max.map(Decimal),
    );
    let low = match (min, exclusive_min) {
        (_, Some(bound)) => Some((bound, false)),
        (Some(bound), None) => Some((bound, true)),
        (None, None) => None,
    };
    let high = match (max, exclusive_max) {
        (_, Some(bound)) => Some((bound, false)),
        (Some(bound), None) => Some((bound, true)),
        (None, None) => None,
    };
    match (low, high) {
        (Some((low, true)), Some((high, true))) => format!("{what} from {low} to {high}"),
        (Some((low, true)), None) => format!("{what} of {low} or more"),
        (None, Some((high, true))) => format!("{what} of {high} or less"),
        (None, None) => what.to_string(),
        (low, high) => {
            let low = low.map(|(b, inclusive)| match inclusive {
                true => format!("{b} or more"),
                false => format!("more than {b}"),
            });
            let high = high.map(|(b, inclusive)| match inclusive {
                true => format!("{b} or less"),
                false => format!("less than {b}"),
            });
            let parts: Vec<String> = low.into_iter().chain(high).collect();
            format!("{what} {}", parts.join(" and "))
        }
    }
}

/// What an acceptable answer to `question` is, in words, when the question limits it: `3 to 20
/// characters`, `pick 1 to 3`, `a whole number from 1 to 10`. Every host shows it as it is.
pub fn hint(question: &Question) -> Option<String> {
    match &question.kind {
        QuestionKind::Text(t) => length_limits(t.min_length, t.max_length),
        QuestionKind::MultiSelect(m) => match (m.fewest_picks(question.required), m.max_picks) {
            (min, Some(max)) if min == max => Some(format!("pick {max}")),
            (0, Some(max)) => Some(format!("pick at most {max}")),
            (min, Some(max)) => Some(format!("pick {min} to {max}")),
            (0, None) => None,
            (min, None) => Some(format!("pick at least {min}")),
        },
        QuestionKind::Number(n) => Some(number_range(
            n.integer,
            n.min,
            n.max,
            n.exclusive_min,
            n.exclusive_max,
        )),
        QuestionKind::Select(_) | QuestionKind::Confirm(_) => None,
    }
}

/// A text's length limits in words: "1 to 20 characters", "exactly 2 characters", "at least 1
/// character".
fn length_limits(min: Option<u32>, max: Option<u32>) -> Option<String> {
    match (min, max) {
        (Some(min), Some(max)) if min == max => Some(format!("exactly {}", characters(max))),
        (Some(min), Some(max)) => Some(format!("{min} to {}", characters(max))),
        (Some(min), None) => Some(format!("at least {}", characters(min))),
        (None, Some(max)) => Some(format!("at most {}", characters(max))),
        (None, None) => None,
    }
}

/// A count of characters in words: "1 character", "5 characters".
pub fn characters(count: u32) -> String {
    match count {
        1 => "1 character".to_string(),
        n => format!("{n} characters"),
    }
}

/// `options` as a widget shows them: the "recommended" flag cleared where the label already
/// says so (models write "Yes (Recommended)"), so that a host draws a badge exactly where the
/// flag is set and never a second one.
pub fn badged(options: &[Choice]) -> Vec<Choice> {
    let mut options = options.to_vec();
    badge(&mut options);
    options
}

/// Lends a question's `options` to `show` as a widget shows them (see [`badged`]), without a
/// copy: a list may hold thousands. `show` hands the list back with its reply, and the question
/// gets its options back as they were.
pub fn lend_badged<R>(
    options: &mut Vec<Choice>,
    show: impl FnOnce(Vec<Choice>) -> (R, Vec<Choice>),
) -> R {
    let mut lent = std::mem::take(options);
    let cleared = badge(&mut lent);
    let (reply, mut back) = show(lent);
    for i in cleared {
        back[i].recommended = true;
    }
    *options = back;
    reply
}

/// Clears the flag where the label says so; the options cleared.
fn badge(options: &mut [Choice]) -> Vec<usize> {
    options
        .iter_mut()
        .enumerate()
        .filter(|(_, o)| o.recommended && Choice::says_recommended(&o.label))
        .map(|(i, o)| {
            o.recommended = false;
            i
        })
        .collect()
}

/// The review step's list: every question with its answer in words.
/// Questions that would read the same there (two form fields of one title) get their id after
/// the title, so that the person can tell which answer is which.
/// `secret` says, by position, which questions are secret.
pub fn review_items(
    questions: &[Question],
    secret: &[bool],
    answers: &[Option<Answer>],
) -> Vec<ReviewItem> {
    let title = |q: &Question| {
        q.header
            .clone()
            .unwrap_or_else(|| q.prompt.lines().next().unwrap_or("").to_string())
    };
    let titles: Vec<String> = questions.iter().map(title).collect();
    questions
        .iter()
        .zip(answers)
        .zip(&titles)
        .enumerate()
        .map(|(i, ((question, answer), shown))| ReviewItem {
            header: if titles.iter().filter(|t| *t == shown).count() > 1 {
                Some(format!("{shown} ({})", question.id))
            } else {
                question.header.clone()
            },
            prompt: question.prompt.clone(),
            answer: answer.as_ref().map_or("(not answered)".to_string(), |a| {
                answer_in_words(question, secret.get(i).copied().unwrap_or(false), a)
            }),
        })
        .collect()
}
