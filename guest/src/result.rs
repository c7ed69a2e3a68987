//! The result JSON of a tool call: `status`, `answers`, `answer` (one-question requests), `text`
//! for the model, `native` (what the called agent's own tool returns), and `error` when the
//! request was invalid.

use serde_json::{Map, Value as Json, json};

use crate::model::*;
use crate::request::Request;
use crate::{llm_text, native};

/// The result of asking `request`.
pub fn outcome(request: &Request, outcome: &Outcome) -> Json {
    with_text(request, outcome, || llm_text::outcome(request, outcome))
}

/// The result of asking `request`, where `said` tells the model what happened better than
/// the outcome can (a form declined rather than dismissed), unless the called agent's own
/// tool words it.
pub fn outcome_said(request: &Request, outcome: &Outcome, said: &str) -> Json {
    with_text(request, outcome, || said.to_string())
}

fn with_text(request: &Request, outcome: &Outcome, text: impl FnOnce() -> String) -> Json {
    let (status, answers): (&str, &[Answer]) = match outcome {
        Outcome::Answered(answers) => ("answered", answers),
        Outcome::Cancelled(answers) => ("cancelled", answers),
        Outcome::Unavailable(_) => ("unavailable", &[]),
        Outcome::TimedOut(answers) => ("unavailable", answers),
        Outcome::Invalid(error) => return invalid(error),
    };
    let mut result = Map::new();
    result.insert("status".into(), status.into());
    match outcome {
        Outcome::Unavailable(absence) => {
            result.insert("reason".into(), absence.name().into());
        }
        Outcome::TimedOut(_) => {
            result.insert("reason".into(), "timed-out".into());
        }
        _ => {}
    }
    let listed: Vec<Json> = answers
        .iter()
        .filter_map(|a| {
            request
                .questions
                .iter()
                .find(|q| q.id == a.id)
                .map(|q| answer(q, a))
        })
        .collect();
    result.insert("answers".into(), listed.into());
    if request.questions.len() == 1 {
        result.insert(
            "answer".into(),
            answers.first().map_or(Json::Null, |a| value(&a.value)),
        );
    }
    let native = native::reply(request, outcome);
    let text = native.text.unwrap_or_else(text);
    result.insert("text".into(), text.into());
    result.insert("native".into(), native.value);
    result.into()
}

/// The result of an invalid request.
pub fn invalid(error: &RequestError) -> Json {
    json!({
        "status": "invalid",
        "answers": [],
        "error": { "path": error.path, "message": error.message },
        "text": llm_text::invalid(error),
    })
}

/// The result of a call that asks nothing and answers with fixed text.
pub fn signal(text: &str) -> Json {
    json!({ "status": "answered", "answers": [], "text": text })
}

/// One answer; `note` only when the person added one to their pick.
fn answer(question: &Question, answer: &Answer) -> Json {
    let mut listed = json!({
        "id": answer.id,
        "question": question.prompt,
        "type": question.kind.name(),
        "value": value(&answer.value),
        "custom": answer.origin == Origin::Custom,
        "skipped": answer.origin == Origin::Skipped,
        "discuss": answer.origin == Origin::Discuss,
    });
    if let Some(note) = &answer.note {
        listed["note"] = note.as_str().into();
    }
    listed
}

/// An answer's value as JSON; whole numbers are written without a fraction.
pub fn value(value: &Value) -> Json {
    match value {
        Value::None => Json::Null,
        Value::Text(text) => text.as_str().into(),
        Value::Texts(texts) => texts.clone().into(),
        Value::Boolean(b) => (*b).into(),
        Value::Number(n) => number(*n),
        Value::Integer(i) => (*i).into(),
    }
}

/// A number as JSON; a whole one is written without a fraction (`3`, not `3.0`).
pub fn number(n: f64) -> Json {
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        (n as i64).into()
    } else {
        n.into()
    }
}

/// A question as the plugin understood it, for `check`.
pub fn question(question: &Question) -> Json {
    let mut q = Map::new();
    q.insert("id".into(), question.id.as_str().into());
    q.insert("type".into(), question.kind.name().into());
    q.insert("question".into(), question.prompt.as_str().into());
    if let Some(header) = &question.header {
        q.insert("header".into(), header.as_str().into());
    }
    q.insert("required".into(), question.required.into());
    let options = |options: &[Choice]| -> Json {
        options
            .iter()
            .map(|o| {
                let mut option = json!({ "label": o.label, "value": o.value });
                if let Some(d) = &o.description {
                    option["description"] = d.as_str().into();
                }
                if let Some(p) = &o.preview {
                    option["preview"] = p.as_str().into();
                }
                if o.recommended {
                    option["recommended"] = true.into();
                }
                option
            })
            .collect::<Vec<_>>()
            .into()
    };
    let value_of = |options: &[Choice], i: u32| Json::from(options[i as usize].value.as_str());
    let settings = match &question.kind {
        QuestionKind::Text(t) => json!({
            "multiline": t.multiline, "placeholder": t.placeholder, "default": t.default,
            "min_length": t.min_length, "max_length": t.max_length, "secret": t.secret,
            "format": t.format.map(crate::text_format::name), "pattern": t.pattern,
        }),
        QuestionKind::Select(s) => json!({
            "options": options(&s.options),
            "default": s.default.map(|i| value_of(&s.options, i)),
            "other": s.other, "discuss": s.discuss, "notes": s.notes,
        }),
        QuestionKind::MultiSelect(m) => json!({
            "options": options(&m.options),
            "default": m.defaults.iter().map(|&i| value_of(&m.options, i)).collect::<Vec<_>>(),
            "min_picks": m.min_picks, "max_picks": m.max_picks, "other": m.other,
            "notes": m.notes,
        }),
        QuestionKind::Confirm(c) => json!({ "default": c.default }),
        QuestionKind::Number(n) => json!({
            "min": n.min, "max": n.max, "exclusive_min": n.exclusive_min,
            "exclusive_max": n.exclusive_max, "integer": n.integer, "default": n.default,
        }),
    };
    if let Json::Object(settings) = settings {
        q.extend(settings.into_iter().filter(|(_, v)| !v.is_null()));
    }
    q.into()
}
