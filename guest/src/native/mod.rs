//! What each agent's own ask-the-user tool returns, so that `interview` can stand in for it: the
//! text that tool gives its model, and the structured result its runtime keeps (`native`).
//!
//! Each agent's module names the source file its format was read from. The general result
//! (`status`, `answers`, ...) stays beside them, so nothing the person gave is lost even where the
//! agent's own tool would have dropped it (a dismissal keeps the answers given so far).

mod claude_code;
mod codex;
mod elelem;
mod gemini;
mod opencode;
mod pi;
mod wegent;

use serde_json::Value as Json;

use crate::model::*;
use crate::request::{Request, Tool};

/// An agent's own reply to a request that reached a person.
pub struct Native {
    /// What that agent's tool tells its model; `None` where the general text stands (the
    /// `interview` tool itself, and tools whose source gives no wording for this ending).
    pub text: Option<String>,
    /// The structured result that agent's runtime keeps; null where its tool returns none (a
    /// dismissal, for most agents).
    pub value: Json,
}

impl Native {
    /// A reply with the agent's own text and no structured result.
    fn text(text: &str) -> Native {
        Native {
            text: Some(text.to_string()),
            value: Json::Null,
        }
    }

    /// A reply whose text is its structured result as compact JSON, as several agents send it.
    fn json(value: Json) -> Native {
        Native {
            text: Some(value.to_string()),
            value,
        }
    }

    /// Nothing of the agent's own: the general text, no structured result.
    fn none() -> Native {
        Native {
            text: None,
            value: Json::Null,
        }
    }
}

/// The reply of the tool `request.tool` for `outcome`: answered, or dismissed with what was given.
pub fn reply(request: &Request, outcome: &Outcome) -> Native {
    let answers = match outcome {
        Outcome::Answered(answers) => Some(answers.as_slice()),
        Outcome::Cancelled(_) => None,
        Outcome::Unavailable(_) | Outcome::TimedOut(_) | Outcome::Invalid(_) => {
            return Native::none();
        }
    };
    let asked = Asked { request, answers };
    match request.tool {
        Tool::Interview => elelem::reply(&asked),
        Tool::AskUserQuestion => claude_code::reply(&asked),
        Tool::RequestUserInput => codex::reply(&asked),
        Tool::AskUser => gemini::reply(&asked),
        Tool::Question => opencode::reply(&asked),
        Tool::InteractiveFormQuestion => wegent::reply(&asked),
        Tool::UserSelect => pi::reply(&asked),
        // `ask_question` and `ask_multi_select` document their words (the general text is in them) and no result.
        Tool::AskQuestion | Tool::AskMultiSelect | Tool::ResumeStructured => Native::none(),
    }
}

/// A request that was asked, and the answers when the person submitted them (`None`: dismissed).
struct Asked<'a> {
    request: &'a Request,
    answers: Option<&'a [Answer]>,
}

impl<'a> Asked<'a> {
    /// Every question with what the person said to it, in question order.
    fn said(&self, answers: &'a [Answer]) -> impl Iterator<Item = (&'a Question, Said<'a>)> {
        self.request
            .questions
            .iter()
            .map(move |question| (question, said(question, answer_to(answers, question))))
    }
}

/// The answer given to `question`, if any.
fn answer_to<'a>(answers: &'a [Answer], question: &Question) -> Option<&'a Answer> {
    answers.iter().find(|a| a.id == question.id)
}

/// One answer in the terms the agents' tools share: option labels, typed text, yes or no.
#[derive(Debug, PartialEq)]
enum Said<'a> {
    /// Not answered: skipped, or the person chose "Let's discuss this".
    Nothing,
    /// Options picked (their labels, in option order), the text typed into "Something else",
    /// and the person's note on the pick.
    Picked {
        labels: Vec<&'a str>,
        typed: Option<&'a str>,
        multi: bool,
        note: Option<&'a str>,
    },
    /// A text question's answer.
    Typed(&'a str),
    /// A confirm question's answer.
    YesNo(bool),
    /// A number question's answer, as the result JSON writes it: `3`, `2.5`.
    Number(String),
}

impl Said<'_> {
    /// The answer as one string, the way the agents that keep one string per question join it:
    /// labels and typed text with ", ", `Yes`/`No`, a number without a needless fraction. `None`
    /// when nothing was said.
    fn joined(&self) -> Option<String> {
        match self {
            Said::Nothing => None,
            Said::Picked { .. } => Some(self.parts().join(", ")),
            Said::Typed(text) => Some(text.to_string()),
            Said::YesNo(yes) => Some(yes_no(*yes).to_string()),
            Said::Number(n) => Some(n.clone()),
        }
    }

    /// Each part of the answer as its own string: every label, then the typed text.
    fn parts(&self) -> Vec<String> {
        match self {
            Said::Picked { labels, typed, .. } => labels
                .iter()
                .copied()
                .chain(*typed)
                .map(str::to_string)
                .collect(),
            other => other.joined().into_iter().collect(),
        }
    }
}

/// What the person said to `question`, from its answer.
fn said<'a>(question: &'a Question, answer: Option<&'a Answer>) -> Said<'a> {
    let Some(answer) = answer else {
        return Said::Nothing;
    };
    let options = question.kind.options_by_value();
    let label = |value: &'a String| {
        options
            .number_and_label(value)
            .map_or(value.as_str(), |(_, label)| label)
    };
    let multi = matches!(question.kind, QuestionKind::MultiSelect(_));
    let note = answer.note.as_deref();
    match (answer.origin, &answer.value) {
        (Origin::Skipped | Origin::Discuss, _) | (_, Value::None) => Said::Nothing,
        (Origin::Custom, Value::Text(typed)) => Said::Picked {
            labels: Vec::new(),
            typed: Some(typed),
            multi,
            note,
        },
        (_, Value::Text(text)) if question.kind.options().is_empty() => Said::Typed(text),
        (_, Value::Text(value)) => Said::Picked {
            labels: vec![label(value)],
            typed: None,
            multi,
            note,
        },
        (origin, Value::Texts(values)) => {
            let typed = usize::from(origin == Origin::Custom && !values.is_empty());
            let (picked, custom) = values.split_at(values.len() - typed);
            Said::Picked {
                labels: picked.iter().map(label).collect(),
                typed: custom.first().map(String::as_str),
                multi,
                note,
            }
        }
        (_, Value::Boolean(yes)) => Said::YesNo(*yes),
        (_, value @ (Value::Number(_) | Value::Integer(_))) => {
            Said::Number(crate::result::value(value).to_string())
        }
    }
}

/// A yes/no answer in the words Gemini CLI's yes/no question offers, which the others follow.
fn yes_no(yes: bool) -> &'static str {
    if yes { "Yes" } else { "No" }
}
