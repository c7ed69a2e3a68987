//! An MCP elicitation's form (`message` and `requestedSchema`, form mode of the 2025-11-25
//! specification) read into questions: one per property, in the schema's order.
//!
//! | property schema | question |
//! |---|---|
//! | `string` (minLength, maxLength, format) | text |
//! | `number`, `integer` (minimum, maximum) | number |
//! | `boolean` | confirm |
//! | `string` with `enum` (and legacy `enumNames`), or `oneOf` of `{const, title}` | select |
//! | `array` of `items.enum` or `items.anyOf` of `{const, title}` (minItems, maxItems) | multi-select |
//!
//! `pattern`, `exclusiveMinimum` and `exclusiveMaximum` are checked like the other limits.
//! `title` and `description` become the question's header and text, `default` its default,
//! and `required` whether it can be skipped. A string with `writeOnly` or `format: "password"`
//! (pydantic's `SecretStr`), or named like a secret (`password`, `apiKey`, `client_secret`; see
//! [`crate::secret`]), is a secret: never shown. Keywords the form cannot enforce (`pattern`,
//! `exclusiveMinimum`, ...) are refused rather than ignored, so that an accepted answer always
//! fits the schema.

use serde_json::Value as Json;

use crate::limits::{MAX_PROMPT_CHARS, MAX_QUESTIONS};
use crate::model::*;
use crate::quoted::Quoted;
use crate::request::fields::{Fields, Found, describe};
use crate::request::question::{read_format, says_secret};
use crate::validate;

/// A form to put to the person.
#[derive(Debug)]
pub struct Form {
    /// Why the server asks.
    pub message: String,
    /// One question per property, in the schema's order; ids are the property names.
    pub questions: Vec<Question>,
    /// Per question: the schema requires the property, so an unpicked array is sent as `[]`
    /// rather than left out.
    pub required: Vec<bool>,
}

/// Keywords a property may not have: the form could not make answers meet them.
const UNSUPPORTED: &[&str] = &["multipleOf", "const", "properties", "allOf", "not", "$ref"];

/// Reads the elicitation `params` found at `path` (`params`, or empty at the top).
pub fn read(params: &Json, path: &str) -> Result<Form, RequestError> {
    let params = Fields::new(params, path)?;
    if let Some(mode) = params.find(&["mode"]) {
        match mode.string()?.as_str() {
            "form" => {}
            "url" => {
                return Err(mode.error(
                    "is \"url\": URL mode (a link for the person to open) is not supported; \
                     send a form (mode \"form\" with a requestedSchema)",
                ));
            }
            other => {
                return Err(mode.error(format!("is {}; the mode must be \"form\"", Quoted(other))));
            }
        }
    }
    let message = required(&params, "message")?;
    let message = message.string()?;
    if message.trim().is_empty() {
        return Err(RequestError::at(
            join(params.path(), "message"),
            "is empty: say what the information is for",
        ));
    }
    if message.chars().count() > MAX_PROMPT_CHARS {
        return Err(RequestError::at(
            join(params.path(), "message"),
            format!("is longer than {MAX_PROMPT_CHARS} characters"),
        ));
    }
    let schema = required(&params, "requestedSchema")?;
    let schema = Fields::new(schema.value, schema.path)?;
    if let Some(kind) = schema.find(&["type"])
        && kind.value != "object"
    {
        return Err(kind.error(format!(
            "is {}; a requested schema is an object",
            describe(kind.value)
        )));
    }
    let properties = match schema.find(&["properties"]) {
        None => Vec::new(),
        Some(found) => match found.value {
            Json::Object(map) => map
                .iter()
                .map(|(name, value)| (name.as_str(), value, join(&found.path, name)))
                .collect(),
            other => {
                return Err(found.error(format!("must be an object, not {}", describe(other))));
            }
        },
    };
    if properties.len() > MAX_QUESTIONS {
        return Err(RequestError::at(
            join(schema.path(), "properties"),
            format!(
                "has {} properties; at most {MAX_QUESTIONS} fit in one form",
                properties.len()
            ),
        ));
    }
    let wanted = required_names(&schema, &properties)?;
    let mut questions = Vec::new();
    let mut required = Vec::new();
    for (name, value, path) in &properties {
        let needed = wanted.contains(name);
        questions.push(property(name, value, path, needed)?);
        required.push(needed);
    }
    if !questions.is_empty() {
        let paths = properties.iter().map(|(_, _, path)| path.as_str());
        validate::questions(paths.zip(&questions)).map_err(schema_words)?;
    }
    Ok(Form {
        message,
        questions,
        required,
    })
}

fn required<'a>(fields: &Fields<'a>, name: &str) -> Result<Found<'a>, RequestError> {
    fields
        .find(&[name])
        .ok_or_else(|| RequestError::at(join(fields.path(), name), "is missing"))
}

/// The schema's `required` list, each name one of the properties.
fn required_names<'a>(
    schema: &Fields<'a>,
    properties: &[(&str, &Json, String)],
) -> Result<Vec<&'a str>, RequestError> {
    let Some(found) = schema.find(&["required"]) else {
        return Ok(Vec::new());
    };
    let mut names = Vec::new();
    for (at, item) in found.items()? {
        match item {
            Json::String(name) if properties.iter().any(|(p, _, _)| p == name) => {
                names.push(name.as_str());
            }
            Json::String(name) => {
                return Err(RequestError::at(
                    at,
                    format!("names {}, which is not one of the properties", Quoted(name)),
                ));
            }
            other => {
                return Err(RequestError::at(
                    at,
                    format!("must be a property name, not {}", describe(other)),
                ));
            }
        }
    }
    Ok(names)
}

/// One property as a question.
fn property(name: &str, schema: &Json, path: &str, needed: bool) -> Result<Question, RequestError> {
    if let Some(nullable) = nullable(schema) {
        return property(name, &nullable, path, needed);
    }
    let fields = Fields::new(schema, path)?;
    for keyword in UNSUPPORTED {
        if let Some(found) = fields.find(&[keyword]) {
            return Err(found.error(
                "is not supported in an elicitation form: it allows type, title, description, \
                 default, enum, oneOf, enumNames, minLength, maxLength, format, pattern, \
                 minimum, maximum, exclusiveMinimum, exclusiveMaximum, items, minItems and \
                 maxItems",
            ));
        }
    }
    let kind_name = required(&fields, "type")?;
    let (kind, required) = match kind_name.value.as_str() {
        Some("string") => (
            string(&fields, crate::secret::names_a_secret(name))?,
            needed,
        ),
        Some(numeric @ ("number" | "integer")) => (
            QuestionKind::Number(NumberQuestion {
                min: fields.number(&["minimum"])?,
                max: fields.number(&["maximum"])?,
                exclusive_min: fields.number(&["exclusiveMinimum"])?,
                exclusive_max: fields.number(&["exclusiveMaximum"])?,
                integer: numeric == "integer",
                default: fields.number(&["default"])?,
            }),
            needed,
        ),
        Some("boolean") => (
            QuestionKind::Confirm(ConfirmQuestion {
                default: fields.boolean(&["default"])?,
            }),
            needed,
        ),
        Some("array") => {
            let mut multi = array(&fields)?;
            // An array the schema requires must be answered, but may be empty unless minItems
            // says not: no pick is sent as `[]`.
            if needed {
                multi.min_picks.get_or_insert(0);
            }
            (QuestionKind::MultiSelect(multi), needed)
        }
        _ => {
            return Err(kind_name.error(format!(
                "is {}; a form field is a string, number, integer, boolean or array",
                describe(kind_name.value)
            )));
        }
    };
    let title = fields.string(&["title"])?.filter(|t| !t.trim().is_empty());
    let description = fields
        .string(&["description"])?
        .filter(|d| !d.trim().is_empty());
    let (header, prompt) = match (title, description) {
        (Some(title), Some(description)) => (Some(title), description),
        (Some(text), None) | (None, Some(text)) => (None, text),
        (None, None) => (None, name.to_string()),
    };
    Ok(Question {
        id: name.to_string(),
        header,
        prompt,
        required,
        kind,
    })
}

/// A property that may be null, as the MCP Python SDK 1.x writes an optional field
/// (`{"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null}`): the other branch,
/// with the property's own title, description and non-null default. A field left unanswered is
/// left out of the content, which such a field allows.
fn nullable(schema: &Json) -> Option<Json> {
    let object = schema.as_object()?;
    if object.contains_key("type") {
        return None;
    }
    let [first, second] = object.get("anyOf")?.as_array()?.as_slice() else {
        return None;
    };
    let is_null = |branch: &Json| branch.get("type").and_then(Json::as_str) == Some("null");
    let branch = match (is_null(first), is_null(second)) {
        (false, true) => first,
        (true, false) => second,
        _ => return None,
    };
    let mut merged = branch.as_object()?.clone();
    for (key, value) in object {
        if key != "anyOf" && !(key == "default" && value.is_null()) {
            merged.insert(key.clone(), value.clone());
        }
    }
    Some(Json::Object(merged))
}

/// A string property: a select when it lists its values, else free text, hidden when `secret`
/// or when the schema says so.
fn string(fields: &Fields, secret: bool) -> Result<QuestionKind, RequestError> {
    let choices = if let Some(values) = fields.find(&["enum"]) {
        Some(untitled(&values, fields.find(&["enumNames"]))?)
    } else if let Some(titled_values) = fields.find(&["oneOf"]) {
        Some(titled(&titled_values)?)
    } else {
        None
    };
    let default = fields.find(&["default"]);
    let Some(options) = choices else {
        return Ok(QuestionKind::Text(TextQuestion {
            multiline: false,
            placeholder: None,
            default: default.map(|d| d.string()).transpose()?,
            min_length: fields.count(&["minLength"])?,
            max_length: fields.count(&["maxLength"])?,
            secret: secret || says_secret(fields)?,
            format: read_format(fields)?,
            pattern: fields.string(&["pattern"])?,
        }));
    };
    let default = default
        .map(|d| choice_index(&d, d.value, &options))
        .transpose()?;
    Ok(QuestionKind::Select(SelectQuestion {
        options,
        default,
        other: false,
        discuss: false,
        notes: false,
    }))
}

/// An array property: several picks from `items`.
fn array(fields: &Fields) -> Result<MultiSelectQuestion, RequestError> {
    let items = required(fields, "items")?;
    let items = Fields::new(items.value, items.path)?;
    let options = if let Some(values) = items.find(&["enum"]) {
        untitled(&values, None)?
    } else if let Some(titled_values) = items.find(&["anyOf", "oneOf"]) {
        titled(&titled_values)?
    } else {
        return Err(RequestError::at(
            items.path(),
            "needs \"enum\" (the values) or \"anyOf\" (a {const, title} per value)",
        ));
    };
    let defaults = match fields.find(&["default"]) {
        None => Vec::new(),
        Some(found) => found
            .array()?
            .iter()
            .map(|value| choice_index(&found, value, &options))
            .collect::<Result<_, _>>()?,
    };
    Ok(MultiSelectQuestion {
        options,
        defaults,
        min_picks: fields.count(&["minItems"])?,
        max_picks: fields.count(&["maxItems"])?,
        other: false,
        notes: false,
    })
}

/// `enum` values, shown as themselves or by the legacy `enumNames`.
fn untitled(values: &Found, names: Option<Found>) -> Result<Vec<Choice>, RequestError> {
    let values = strings(values)?;
    let labels = match names {
        None => values.clone(),
        Some(names) => {
            let labels = strings(&names)?;
            if labels.len() != values.len() {
                return Err(names.error(format!(
                    "has {} names for {} enum values; give one name per value",
                    labels.len(),
                    values.len()
                )));
            }
            labels
        }
    };
    Ok(labels
        .into_iter()
        .zip(values)
        .map(|(label, value)| choice(label, value))
        .collect())
}

/// An array of strings.
fn strings(found: &Found) -> Result<Vec<String>, RequestError> {
    found
        .items()?
        .into_iter()
        .map(|(path, v)| text_at(v, &path))
        .collect()
}

/// `oneOf`/`anyOf` entries, each `{const, title}`; a missing title shows the value.
fn titled(entries: &Found) -> Result<Vec<Choice>, RequestError> {
    entries
        .items()?
        .into_iter()
        .map(|(path, entry)| {
            let entry = Fields::new(entry, path)?;
            let value = required(&entry, "const")?;
            let value = text_at(value.value, &value.path)?;
            let label = entry.string(&["title"])?.unwrap_or_else(|| value.clone());
            Ok(choice(label, value))
        })
        .collect()
}

fn choice(label: String, value: String) -> Choice {
    Choice {
        label,
        value,
        description: None,
        preview: None,
        recommended: false,
    }
}

fn text_at(value: &Json, path: &str) -> Result<String, RequestError> {
    match value {
        Json::String(text) => Ok(text.clone()),
        other => Err(RequestError::at(
            path,
            format!("must be a string, not {}", describe(other)),
        )),
    }
}

/// The index of the option whose value is `value`, a default at `found`.
fn choice_index(found: &Found, value: &Json, options: &[Choice]) -> Result<u32, RequestError> {
    options
        .iter()
        .position(|o| value.as_str() == Some(o.value.as_str()))
        .map(|i| i as u32)
        .ok_or_else(|| found.error(format!("{} is not one of the values", describe(value))))
}

/// An error from the shared question rules, in the schema's words: `min_length` is
/// `minLength`, `min_picks` is `minItems`, `header` is `title`, and so on.
fn schema_words(mut error: RequestError) -> RequestError {
    const WORDS: &[(&str, &str)] = &[
        (".min_length", ".minLength"),
        (".max_length", ".maxLength"),
        (".min_picks", ".minItems"),
        (".max_picks", ".maxItems"),
        (".min", ".minimum"),
        (".max", ".maximum"),
        (".exclusive_min", ".exclusiveMinimum"),
        (".exclusive_max", ".exclusiveMaximum"),
        (".header", ".title"),
    ];
    if let Some((ours, theirs)) = WORDS.iter().find(|(ours, _)| error.path.ends_with(ours)) {
        error.path.truncate(error.path.len() - ours.len());
        error.path.push_str(theirs);
        // Whole words only: `min` is in `min_length` too.
        let mut message = String::new();
        let mut word = String::new();
        for c in error.message.chars().chain(['\0']) {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            let renamed = WORDS.iter().find(|(ours, _)| ours[1..] == word);
            message.push_str(renamed.map_or(word.as_str(), |(_, theirs)| &theirs[1..]));
            word.clear();
            if c != '\0' {
                message.push(c);
            }
        }
        error.message = message;
    }
    error
}
