//! Whether what the person did answers the question: required answers, picks within limits,
//! numbers in range, text of the right length. A rejected answer comes back with a message for
//! the person and what they tried, so that asking again loses nothing they typed.

use crate::decimal::Decimal;
use crate::model::*;
use crate::quoted::Quoted;
use crate::text_format;

/// What the person did with one widget.
#[derive(Debug, Clone)]
pub enum Reply {
    Select(SelectReply),
    MultiSelect(MultiSelectReply),
    Text(TextReply),
    Confirm(ConfirmReply),
    Number(NumberReply),
}

impl Reply {
    /// The widget this reply came from, named as question types are.
    pub fn widget(&self) -> &'static str {
        match self {
            Reply::Select(_) => "select",
            Reply::MultiSelect(_) => "multi_select",
            Reply::Text(_) => "text",
            Reply::Confirm(_) => "confirm",
            Reply::Number(_) => "number",
        }
    }
}

/// The judgement of one reply.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The question is answered.
    Accept(Answer),
    /// Ask again, showing `message`; `draft` is what the person tried, to put back in the widget.
    Retry {
        message: String,
        draft: Option<Answer>,
    },
    /// Go to the previous question.
    Back,
    /// Stop, keeping the answers so far.
    Cancel,
    /// Refuse the whole request.
    Decline,
    /// The host's time to reach a person is up: stop, keeping the answers so far.
    TimeUp,
}

/// What a caller allows beyond a question's own settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct Leeway<'a> {
    /// What a skipped text question records, even a required one. None: a text question is
    /// skipped like any other, left empty and only when optional.
    pub skip_text: Option<&'a str>,
    /// The person may decline the whole request.
    pub declinable: bool,
}

/// Judges `reply` to `question`, with the batch's `leeway`.
pub fn judge(question: &Question, reply: Reply, leeway: Leeway) -> Verdict {
    let answer = |value, origin| {
        Verdict::Accept(Answer {
            id: question.id.clone(),
            value,
            origin,
            note: None,
        })
    };
    let draft = |value, origin| {
        Some(Answer {
            id: question.id.clone(),
            value,
            origin,
            note: None,
        })
    };
    let retry = |message: String, draft: Option<Answer>| Verdict::Retry { message, draft };
    let nav = match &reply {
        Reply::Select(SelectReply::Nav(n))
        | Reply::MultiSelect(MultiSelectReply::Nav(n))
        | Reply::Text(TextReply::Nav(n))
        | Reply::Confirm(ConfirmReply::Nav(n))
        | Reply::Number(NumberReply::Nav(n)) => Some(*n),
        _ => None,
    };
    match nav {
        Some(Nav::Back) => return Verdict::Back,
        Some(Nav::Cancel) => return Verdict::Cancel,
        Some(Nav::TimeUp) => return Verdict::TimeUp,
        Some(Nav::Skip) => return skip(question, leeway),
        Some(Nav::Decline) if leeway.declinable => return Verdict::Decline,
        Some(Nav::Decline) => {
            return retry(
                "This request cannot be declined; cancel it instead.".into(),
                None,
            );
        }
        None => {}
    }
    match (&question.kind, reply) {
        (QuestionKind::Select(s), Reply::Select(reply)) => match reply {
            SelectReply::Picked(pick) => match s.options.get(pick.index as usize) {
                Some(option) => Verdict::Accept(Answer {
                    id: question.id.clone(),
                    value: Value::Text(option.value.clone()),
                    origin: Origin::Given,
                    note: note(s.notes, pick.note),
                }),
                None => retry(format!("There is no option {}.", pick.index + 1), None),
            },
            SelectReply::Other(typed) => {
                let typed = typed.trim();
                // A typed label or value is a pick, whether or not typing is allowed.
                if let Some(index) = option_named(&s.options, typed) {
                    return answer(Value::Text(s.options[index].value.clone()), Origin::Given);
                }
                if !s.other {
                    retry("Pick one of the options.".into(), None)
                } else if typed.is_empty() {
                    empty(question, "Type your answer, or pick one of the options.")
                } else {
                    answer(Value::Text(typed.to_string()), Origin::Custom)
                }
            }
            SelectReply::Discuss if s.discuss => answer(Value::None, Origin::Discuss),
            SelectReply::Discuss => retry("Pick one of the options.".into(), None),
            SelectReply::Nav(_) => unreachable!("handled above"),
        },
        (QuestionKind::MultiSelect(m), Reply::MultiSelect(MultiSelectReply::Picked(pick))) => {
            multi_select(question, m, pick)
        }
        (QuestionKind::Text(t), Reply::Text(TextReply::Submitted(typed))) => {
            let typed = if t.multiline {
                typed.trim_end()
            } else {
                typed.trim()
            };
            if typed.is_empty() {
                return match &t.default {
                    Some(default) => answer(Value::Text(default.clone()), Origin::Given),
                    None => empty(question, "An answer is required: type something."),
                };
            }
            let chars = typed.chars().count() as u32;
            let keep = draft(Value::Text(typed.to_string()), Origin::Given);
            let unmatched = t
                .pattern
                .as_deref()
                .filter(|p| !crate::text_pattern::fits(p, typed));
            match (t.min_length, t.max_length) {
                (Some(min), _) if chars < min => retry(
                    format!(
                        "Type at least {} (this is {chars}).",
                        crate::summary::characters(min)
                    ),
                    keep,
                ),
                (_, Some(max)) if chars > max => retry(
                    format!(
                        "Type at most {} (this is {chars}).",
                        crate::summary::characters(max)
                    ),
                    keep,
                ),
                _ => match (
                    t.format.filter(|&f| !text_format::fits(f, typed)),
                    unmatched,
                ) {
                    (Some(format), _) => {
                        retry(format!("Type {}.", text_format::wanted(format)), keep)
                    }
                    (None, Some(pattern)) => retry(
                        format!("Type text that matches the pattern {pattern}."),
                        keep,
                    ),
                    (None, None) => answer(Value::Text(typed.to_string()), Origin::Given),
                },
            }
        }
        (QuestionKind::Confirm(_), Reply::Confirm(ConfirmReply::Answered(yes))) => {
            answer(Value::Boolean(yes), Origin::Given)
        }
        (QuestionKind::Number(n), Reply::Number(NumberReply::Entered(typed))) => {
            let typed = typed.trim();
            if typed.is_empty() {
                return match n.default {
                    Some(default) => answer(number_value(n, default, None), Origin::Given),
                    None => empty(question, "An answer is required: type a number."),
                };
            }
            let Some(value) = parse_number(typed) else {
                return retry(
                    format!("{} is not a number. {}", Quoted(typed), number_hint(n)),
                    None,
                );
            };
            let exact = parse_integer(typed);
            if n.integer && exact.is_none() && value.fract() == 0.0 && value.abs() >= 2f64.powi(53)
            {
                return retry(
                    format!("{typed} is too large to keep exact. {}", number_hint(n)),
                    None,
                );
            }
            let shown = exact.map_or(Decimal(value).to_string(), |i| i.to_string());
            match number_problem(n, value) {
                Some(problem) => retry(
                    format!("{shown} {problem}. {}", number_hint(n)),
                    draft(Value::Number(value), Origin::Given),
                ),
                None => answer(number_value(n, value, exact), Origin::Given),
            }
        }
        (_, reply) => retry(
            format!(
                "This {} question cannot take a {} answer.",
                question.kind.name(),
                reply.widget()
            ),
            None,
        ),
    }
}

/// An empty answer: skipped when the question is optional, else asked again.
fn empty(question: &Question, message: &str) -> Verdict {
    if question.required {
        Verdict::Retry {
            message: message.into(),
            draft: None,
        }
    } else {
        Verdict::Accept(Answer {
            id: question.id.clone(),
            value: Value::None,
            origin: Origin::Skipped,
            note: None,
        })
    }
}

/// `skip`: a text question records the skip response where the leeway has one, an
/// optional question is left empty.
fn skip(question: &Question, leeway: Leeway) -> Verdict {
    let value = match (&question.kind, leeway.skip_text) {
        (QuestionKind::Text(_), Some(response)) => Value::Text(response.to_string()),
        _ if !question.required => Value::None,
        _ => {
            return Verdict::Retry {
                message: "This question needs an answer; it cannot be skipped.".into(),
                draft: None,
            };
        }
    };
    Verdict::Accept(Answer {
        id: question.id.clone(),
        value,
        origin: Origin::Skipped,
        note: None,
    })
}

fn multi_select(question: &Question, m: &MultiSelectQuestion, pick: MultiPick) -> Verdict {
    let mut picked = pick.picked;
    picked.sort_unstable();
    picked.dedup();
    if let Some(&n) = picked.iter().find(|&&n| n as usize >= m.options.len()) {
        return Verdict::Retry {
            message: format!("There is no option {}.", n + 1),
            draft: None,
        };
    }
    let mut other = pick
        .other
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty());
    // A typed label or value is one more pick.
    if let Some(index) = other
        .as_deref()
        .and_then(|typed| option_named(&m.options, typed))
    {
        other = None;
        if !picked.contains(&(index as u32)) {
            picked.push(index as u32);
            picked.sort_unstable();
        }
    }
    let mut values: Vec<String> = picked
        .iter()
        .map(|&n| m.options[n as usize].value.clone())
        .collect();
    let origin = match other {
        Some(typed) if m.other => {
            values.push(typed);
            Origin::Custom
        }
        Some(_) => {
            return Verdict::Retry {
                message: "Pick from the options only.".into(),
                draft: None,
            };
        }
        None => Origin::Given,
    };
    let count = values.len() as u32;
    let fewest = m.fewest_picks(question.required);
    let note = note(m.notes, pick.note);
    let draft = Some(Answer {
        id: question.id.clone(),
        value: Value::Texts(values.clone()),
        origin,
        note: note.clone(),
    });
    let plural = |n: u32| if n == 1 { "option" } else { "options" };
    if count < fewest {
        let message = format!(
            "Pick at least {fewest} {} (you picked {count}).",
            plural(fewest)
        );
        return Verdict::Retry { message, draft };
    }
    if let Some(max) = m.max_picks.filter(|&max| count > max) {
        let message = format!("Pick at most {max} {} (you picked {count}).", plural(max));
        return Verdict::Retry { message, draft };
    }
    Verdict::Accept(Answer {
        id: question.id.clone(),
        value: Value::Texts(values),
        origin,
        note,
    })
}

/// The note the person added to a pick, trimmed; kept only where the question offers notes.
fn note(offered: bool, note: Option<String>) -> Option<String> {
    note.map(|n| n.trim().to_string())
        .filter(|n| offered && !n.is_empty())
}

/// The answer to number question `n`: a whole-number question's answer is an exact integer
/// (`exact`, when it was typed as one), anything else a float.
fn number_value(n: &NumberQuestion, value: f64, exact: Option<i64>) -> Value {
    match exact {
        Some(i) if n.integer => Value::Integer(i),
        _ if n.integer && value.fract() == 0.0 && value.abs() < 2f64.powi(63) => {
            Value::Integer(value as i64)
        }
        _ => Value::Number(value),
    }
}

/// A whole number typed as one (`9007199254740993`, `-12`, `1_000`), exactly.
fn parse_integer(typed: &str) -> Option<i64> {
    typed.replace('_', "").parse::<i64>().ok()
}

/// The index of the option `typed` names: by its label (any case), or by its value (a form's
/// `const`); in a yes/no question asked as the options Yes and No (Gemini CLI's `yesno`), `y`
/// and `n` name them too, as they answer a confirm.
fn option_named(options: &[Choice], typed: &str) -> Option<usize> {
    options
        .iter()
        .position(|o| o.label.eq_ignore_ascii_case(typed))
        .or_else(|| options.iter().position(|o| o.value == typed))
        .or_else(|| {
            let [yes, no] = options else { return None };
            let yes_no = yes.label == "Yes" && no.label == "No";
            match typed {
                "y" | "Y" if yes_no => Some(0),
                "n" | "N" if yes_no => Some(1),
                _ => None,
            }
        })
}

/// A number as people type it: `42`, `-3.5`, `1e3`, `1_000`.
fn parse_number(typed: &str) -> Option<f64> {
    crate::decimal::parse(&typed.replace('_', ""))
}

/// Why `value` does not answer `n`, if it does not: "is not a whole number", "is less than 1",
/// "is not more than 0".
pub fn number_problem(n: &NumberQuestion, value: f64) -> Option<String> {
    if n.integer && value.fract() != 0.0 {
        return Some("is not a whole number".into());
    }
    if let Some(min) = n.min.filter(|&min| value < min) {
        return Some(format!("is less than {}", Decimal(min)));
    }
    if let Some(min) = n.exclusive_min.filter(|&min| value <= min) {
        return Some(format!("is not more than {}", Decimal(min)));
    }
    if let Some(max) = n.max.filter(|&max| value > max) {
        return Some(format!("is more than {}", Decimal(max)));
    }
    if let Some(max) = n.exclusive_max.filter(|&max| value >= max) {
        return Some(format!("is not less than {}", Decimal(max)));
    }
    None
}

/// What a number question accepts, in words: "Enter a whole number from 1 to 10."
pub fn number_hint(n: &NumberQuestion) -> String {
    format!(
        "Enter {}.",
        crate::summary::number_range(n.integer, n.min, n.max, n.exclusive_min, n.exclusive_max)
    )
}
