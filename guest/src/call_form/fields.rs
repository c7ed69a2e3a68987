//! Questions as the properties of an MCP elicitation form (`requestedSchema`, restricted to
//! the primitive schemas of MCP 2025-11-25), and the names of those properties.
//!
//! | question | property |
//! |---|---|
//! | text | `string` with `minLength`, `maxLength`, `format` |
//! | select | `string` with `oneOf` of `{const, title}`; "Let's discuss this" one more entry |
//! | multi-select | `array` whose `items` are `anyOf` of `{const, title}`, `minItems`, `maxItems` |
//! | confirm | `boolean` |
//! | number | `number` or `integer` with `minimum`, `maximum` |
//!
//! "Something else" is one more optional string property beside the choice, and notes one
//! more again. What the schema can't say (a pattern, an exclusive bound, option
//! descriptions) is said in the description, and the plugin judges it when the form comes
//! back.

use serde_json::{Map, Value as Json, json};

use crate::model::*;
use crate::summary::{badged, hint};

/// The `const` of the "Let's discuss this" entry, unless an option has that value.
const DISCUSS: &str = "discuss";

/// The property names of one question.
#[derive(Debug, Clone, PartialEq)]
pub struct Names {
    /// The answer itself: the question's id.
    pub answer: String,
    /// The typed answer of a choice question that offers "Something else".
    pub other: Option<String>,
    /// The note of a choice question that offers notes.
    pub note: Option<String>,
    /// The `const` that stands for "Let's discuss this", when offered.
    pub discuss: Option<String>,
}

/// The property names of every question: its id, and `<id>_other` and `<id>_note` where
/// needed, made unique against every id of the request.
pub fn names(questions: &[Question]) -> Vec<Names> {
    let mut taken: Vec<String> = questions.iter().map(|q| q.id.clone()).collect();
    let mut unique = |wanted: String| {
        let mut name = wanted;
        while taken.contains(&name) {
            name.push('_');
        }
        taken.push(name.clone());
        name
    };
    questions
        .iter()
        .map(|q| {
            let (other, notes, discuss) = match &q.kind {
                QuestionKind::Select(s) => (s.other, s.notes, s.discuss),
                QuestionKind::MultiSelect(m) => (m.other, m.notes, false),
                _ => (false, false, false),
            };
            let discuss = discuss.then(|| {
                let options = q.kind.options_by_value();
                let mut value = DISCUSS.to_string();
                while options.index(&value).is_some() {
                    value.push('_');
                }
                value
            });
            Names {
                answer: q.id.clone(),
                other: other.then(|| unique(format!("{}_other", q.id))),
                note: notes.then(|| unique(format!("{}_note", q.id))),
                discuss,
            }
        })
        .collect()
}

/// The form's `requestedSchema`. `given` (a refused reply's content) sets the defaults, so
/// that a form asked again keeps what the person had answered.
pub fn requested_schema(
    questions: &[Question],
    names: &[Names],
    given: &Map<String, Json>,
) -> Json {
    let mut properties = Map::new();
    let mut required = Vec::new();
    // One question's prompt is the form's message; a batch's are in their fields.
    let prompts_shown = questions.len() > 1;
    for (question, names) in questions.iter().zip(names) {
        let title = title(question, prompts_shown);
        let (mut answer, needed) = property(question, names, &title, prompts_shown);
        if let Some(value) = given.get(&names.answer) {
            answer["default"] = value.clone();
        }
        properties.insert(names.answer.clone(), answer);
        if needed {
            required.push(Json::from(names.answer.as_str()));
        }
        let mut extra = |name: &Option<String>, title: String, description: &str| {
            if let Some(name) = name {
                let mut field =
                    json!({ "type": "string", "title": title, "description": description });
                if let Some(value) = given.get(name) {
                    field["default"] = value.clone();
                }
                properties.insert(name.clone(), field);
            }
        };
        extra(
            &names.other,
            format!("{title}: {OTHER_LABEL}"),
            "Your own answer, instead of the options.",
        );
        extra(
            &names.note,
            format!("{title}: note"),
            "Anything to add to your choice (optional).",
        );
    }
    json!({ "type": "object", "properties": properties, "required": required })
}

/// A field's title: the header, else the prompt's first line; "Answer" for the one field of
/// a one-question form without a header, whose prompt is the form's message.
pub fn title(question: &Question, prompts_shown: bool) -> String {
    match &question.header {
        Some(header) => header.clone(),
        None if prompts_shown => question
            .prompt
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string(),
        None => "Answer".to_string(),
    }
}

/// One question's property, and whether the schema can require it: a choice that can be
/// answered in the "Something else" field instead is judged by the plugin rather than the
/// form.
fn property(question: &Question, names: &Names, title: &str, prompt_shown: bool) -> (Json, bool) {
    let mut schema = Map::new();
    let mut needed = question.required;
    let mut said: Vec<String> = Vec::new();
    if prompt_shown && question.prompt.trim() != title {
        said.push(question.prompt.clone());
    }
    if let Some(hint) = hint(question) {
        said.push(format!("({hint})"));
    }
    match &question.kind {
        QuestionKind::Text(t) => {
            schema.insert("type".into(), "string".into());
            put(&mut schema, "minLength", t.min_length);
            put(&mut schema, "maxLength", t.max_length);
            put(
                &mut schema,
                "format",
                t.format.map(crate::text_format::name),
            );
            put(&mut schema, "default", t.default.clone());
            if let Some(placeholder) = &t.placeholder {
                said.push(format!("For example: {placeholder}"));
            }
            if let Some(pattern) = &t.pattern {
                said.push(format!("It must match the pattern {pattern}."));
            }
        }
        QuestionKind::Select(s) => {
            let mut entries = entries(&s.options);
            if let Some(discuss) = &names.discuss {
                entries.push(json!({ "const": discuss, "title": DISCUSS_LABEL }));
            }
            schema.insert("type".into(), "string".into());
            schema.insert("oneOf".into(), entries.into());
            put(
                &mut schema,
                "default",
                s.default.map(|i| s.options[i as usize].value.clone()),
            );
            said.extend(described(&s.options));
            needed &= !s.other;
        }
        QuestionKind::MultiSelect(m) => {
            schema.insert("type".into(), "array".into());
            schema.insert("items".into(), json!({ "anyOf": entries(&m.options) }));
            if !m.other {
                let fewest = m.fewest_picks(question.required);
                put(&mut schema, "minItems", (fewest > 0).then_some(fewest));
            }
            put(&mut schema, "maxItems", m.max_picks);
            let defaults: Vec<&str> = m
                .defaults
                .iter()
                .map(|&i| m.options[i as usize].value.as_str())
                .collect();
            if !defaults.is_empty() {
                schema.insert("default".into(), defaults.into());
            }
            said.extend(described(&m.options));
            needed &= !m.other;
        }
        QuestionKind::Confirm(c) => {
            schema.insert("type".into(), "boolean".into());
            put(&mut schema, "default", c.default);
        }
        QuestionKind::Number(n) => {
            let kind = if n.integer { "integer" } else { "number" };
            schema.insert("type".into(), kind.into());
            put(&mut schema, "minimum", n.min.map(crate::result::number));
            put(&mut schema, "maximum", n.max.map(crate::result::number));
            put(&mut schema, "default", n.default.map(crate::result::number));
        }
    }
    schema.insert("title".into(), title.into());
    if !said.is_empty() {
        schema.insert("description".into(), said.join("\n").into());
    }
    (schema.into(), needed)
}

/// Sets `key` when there is a value.
fn put<T: Into<Json>>(schema: &mut Map<String, Json>, key: &str, value: Option<T>) {
    if let Some(value) = value {
        schema.insert(key.into(), value.into());
    }
}

/// The options as titled entries; a recommended option says so in its title.
fn entries(options: &[Choice]) -> Vec<Json> {
    badged(options)
        .iter()
        .map(|o| {
            let title = if o.recommended {
                format!("{} (Recommended)", o.label)
            } else {
                o.label.clone()
            };
            json!({ "const": o.value, "title": title })
        })
        .collect()
}

/// The options' descriptions, one line each, which entries can't hold.
fn described(options: &[Choice]) -> Vec<String> {
    options
        .iter()
        .filter_map(|o| {
            let description = o.description.as_deref()?.replace('\n', " ");
            Some(format!("- {}: {description}", o.label))
        })
        .collect()
}
