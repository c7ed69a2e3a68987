//! Reading one question object, in any dialect, into a [`Question`].

use rustc_hash::FxHashMap;

use serde_json::Value as Json;

use super::fields::{
    Fields, Found, Taken, decoded, describe, into_scalar_text, item_path, scalar_text, take,
};
use super::rules::{KindName, ToolRules};
use crate::model::*;
use crate::quoted::Quoted;

/// Field names, every dialect's spelling (compared ignoring case, `_` and `-`).
const PROMPT: &[&str] = &["question", "prompt"];
const HEADER: &[&str] = &["header", "title"];
const ID: &[&str] = &["id"];
const TYPE: &[&str] = &["type", "input_type", "kind"];
const OPTIONS: &[&str] = &["options", "choices"];
const MULTI: &[&str] = &["multi", "multi_select", "multiple"];
const REQUIRED: &[&str] = &["required"];
const OTHER: &[&str] = &["other", "allow_other", "allow_custom", "is_other", "custom"];
const DISCUSS: &[&str] = &["discuss", "allow_discuss"];
const DEFAULT: &[&str] = &["default", "defaults", "default_value"];
const PLACEHOLDER: &[&str] = &["placeholder"];
const MULTILINE: &[&str] = &["multiline"];
const SECRET: &[&str] = &["secret", "is_secret", "password", "write_only"];
const MIN_LENGTH: &[&str] = &["min_length"];
const MAX_LENGTH: &[&str] = &["max_length"];
const FORMAT: &[&str] = &["format"];
const PATTERN: &[&str] = &["pattern"];
const MIN_PICKS: &[&str] = &["min_picks", "min_selected", "min_items", "min"];
const MAX_PICKS: &[&str] = &["max_picks", "max_selected", "max_items", "max"];
const MIN: &[&str] = &["min", "minimum"];
const MAX: &[&str] = &["max", "maximum"];
const EXCLUSIVE_MIN: &[&str] = &["exclusive_min", "exclusive_minimum"];
const EXCLUSIVE_MAX: &[&str] = &["exclusive_max", "exclusive_maximum"];
const INTEGER: &[&str] = &["integer"];
const LABEL: &[&str] = &["label", "title"];
const VALUE: &[&str] = &["value"];
const DESCRIPTION: &[&str] = &["description"];
const RECOMMENDED: &[&str] = &["recommended"];
const PREVIEW: &[&str] = &["preview"];
const NOTES: &[&str] = &["notes", "allow_notes"];

/// Reads the question `object`, at `path` in the request, and whether the request marks it
/// secret (see [`says_secret`]; a text question also keeps the mark as its own flag). Its id is
/// left empty when the request gives none. Its options are moved out of `object`, not copied.
pub fn read(
    object: &mut Json,
    path: &str,
    rules: &ToolRules,
) -> Result<(Question, bool), RequestError> {
    let options = take(object, path, OPTIONS);
    let fields = &Fields::new(object, path)?;
    let text = |names: &[&str]| -> Result<Option<String>, RequestError> {
        Ok(fields.string(names)?.map(|t| rules.text(t)))
    };
    let prompt = text(PROMPT)?.ok_or_else(|| {
        RequestError::at(
            join(fields.path(), "question"),
            "is missing: give the text of the question to ask",
        )
    })?;
    let id = match fields.find(ID) {
        Some(found) => scalar_text(found.value).ok_or_else(|| found.error("must be a string"))?,
        None => String::new(),
    };
    let options = options
        .map(|taken| read_options(taken, rules))
        .transpose()?;
    let mut kind = kind_name(fields, rules, options.is_some())?;
    let options = match kind {
        KindName::Confirm if rules.yes_no_choice => {
            kind = KindName::Select;
            Some(["Yes", "No"].map(Choice::plain).to_vec())
        }
        _ => options,
    };
    let required = fields.boolean(REQUIRED)?.unwrap_or(!rules.optional);
    let kind = read_kind(fields, rules, kind, options.unwrap_or_default())?;
    let question = Question {
        id,
        header: text(HEADER)?,
        prompt,
        required,
        kind,
    };
    Ok((question, says_secret(fields)?))
}

/// Decides the kind from `type` and the multi flags, or from the presence of options.
fn kind_name(
    fields: &Fields,
    rules: &ToolRules,
    has_options: bool,
) -> Result<KindName, RequestError> {
    if let Some(kind) = rules.kind {
        return Ok(kind);
    }
    let multi = fields.boolean(MULTI)?.unwrap_or(false);
    let named = match fields.find(TYPE) {
        None => None,
        Some(found) => Some(parse_kind(&found)?),
    };
    let kind = match named {
        Some(KindName::Select) | None if multi => KindName::MultiSelect,
        Some(kind) => kind,
        None if has_options => KindName::Select,
        None => KindName::Text,
    };
    let is_choice = matches!(kind, KindName::Select | KindName::MultiSelect);
    if has_options && !is_choice {
        return Err(RequestError::at(
            join(fields.path(), "options"),
            format!(
                "options are only for select and multi_select questions, but this question's \
                 type is {}; set \"type\": \"select\" or remove the options",
                kind_label(kind)
            ),
        ));
    }
    if is_choice && !has_options {
        return Err(RequestError::at(
            join(fields.path(), "options"),
            "is missing: a choice question needs options to pick from",
        ));
    }
    Ok(kind)
}

fn parse_kind(found: &Found) -> Result<KindName, RequestError> {
    let text = found.string()?;
    let key: String = text
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    Ok(match key.as_str() {
        "text" | "string" | "input" | "freetext" | "freeform" => KindName::Text,
        "select" | "choice" | "singleselect" | "single" | "radio" => KindName::Select,
        "multiselect" | "multi" | "multiplechoice" | "checkbox" | "checkboxes" => {
            KindName::MultiSelect
        }
        "confirm" | "yesno" | "boolean" | "bool" => KindName::Confirm,
        "number" | "numeric" | "float" => KindName::Number { integer: false },
        "integer" | "int" => KindName::Number { integer: true },
        _ => {
            return Err(found.error(format!(
                "{} is not a question type; use one of \"text\", \"select\", \
                 \"multi_select\", \"confirm\", \"number\"",
                Quoted(&text)
            )));
        }
    })
}

/// A text question's `format`: `email`, `uri`, `date` or `date-time`. `password` (as pydantic
/// writes a secret field) is no format of the answer: see [`says_secret`].
pub fn read_format(fields: &Fields) -> Result<Option<TextFormat>, RequestError> {
    let Some(found) = fields.find(FORMAT).filter(|f| f.value != "password") else {
        return Ok(None);
    };
    let name = found.string()?;
    match crate::text_format::named(&name) {
        Some(format) => Ok(Some(format)),
        None => Err(found.error(format!(
            "is {name:?}; the formats are email, uri, date and date-time"
        ))),
    }
}

/// The answer is a secret, by any of the names requests and JSON Schemas give it: `secret`,
/// `isSecret`, `password`, `writeOnly`, or `format: "password"`.
pub fn says_secret(fields: &Fields) -> Result<bool, RequestError> {
    let password = fields.find(FORMAT).is_some_and(|f| f.value == "password");
    Ok(password || fields.boolean(SECRET)?.unwrap_or(false))
}

fn kind_label(kind: KindName) -> &'static str {
    match kind {
        KindName::Text => "text",
        KindName::Select => "select",
        KindName::MultiSelect => "multi_select",
        KindName::Confirm => "confirm",
        KindName::Number { .. } => "number",
    }
}

fn read_kind(
    fields: &Fields,
    rules: &ToolRules,
    kind: KindName,
    options: Vec<Choice>,
) -> Result<QuestionKind, RequestError> {
    let default = fields.find(DEFAULT);
    Ok(match kind {
        KindName::Text => QuestionKind::Text(TextQuestion {
            multiline: fields.boolean(MULTILINE)?.unwrap_or(false),
            placeholder: fields.string(PLACEHOLDER)?.map(|t| rules.text(t)),
            default: default.map(|d| d.string()).transpose()?,
            min_length: fields.count(MIN_LENGTH)?,
            max_length: fields.count(MAX_LENGTH)?,
            secret: says_secret(fields)?,
            format: read_format(fields)?,
            pattern: fields.string(PATTERN)?,
        }),
        KindName::Select => {
            let default = match default {
                None => None,
                Some(found) => match found.value {
                    Json::Array(items) if items.len() > 1 => {
                        return Err(found.error("a select question takes one default, not several"));
                    }
                    Json::Array(items) if items.is_empty() => None,
                    Json::Array(items) => {
                        Some(NamedOptions::new(&options).find(&found, &items[0])?)
                    }
                    single => Some(NamedOptions::new(&options).find(&found, single)?),
                },
            };
            QuestionKind::Select(SelectQuestion {
                options,
                default,
                other: rules.other.or(fields.boolean(OTHER)?).unwrap_or(true),
                discuss: rules.discuss.or(fields.boolean(DISCUSS)?).unwrap_or(false),
                notes: notes(fields, rules)?,
            })
        }
        KindName::MultiSelect => {
            let defaults = match default {
                None => Vec::new(),
                Some(found) => {
                    let named = NamedOptions::new(&options);
                    // Several defaults sent as a JSON string: the array it encodes, unless the
                    // string names an option itself.
                    let encoded = match found.value {
                        Json::String(_) if named.find(&found, found.value).is_err() => {
                            Some(decoded(found.value.clone(), Json::is_array))
                        }
                        _ => None,
                    };
                    match encoded.as_ref().unwrap_or(found.value) {
                        Json::Array(items) => items
                            .iter()
                            .map(|item| named.find(&found, item))
                            .collect::<Result<_, _>>()?,
                        single => vec![named.find(&found, single)?],
                    }
                }
            };
            QuestionKind::MultiSelect(MultiSelectQuestion {
                options,
                defaults,
                min_picks: rules.min_picks.or(fields.count(MIN_PICKS)?),
                max_picks: fields.count(MAX_PICKS)?,
                other: rules.other.or(fields.boolean(OTHER)?).unwrap_or(true),
                notes: notes(fields, rules)?,
            })
        }
        KindName::Confirm => QuestionKind::Confirm(ConfirmQuestion {
            default: default.map(|d| yes_no(&d)).transpose()?,
        }),
        KindName::Number { integer } => QuestionKind::Number(NumberQuestion {
            min: fields.number(MIN)?,
            max: fields.number(MAX)?,
            exclusive_min: fields.number(EXCLUSIVE_MIN)?,
            exclusive_max: fields.number(EXCLUSIVE_MAX)?,
            integer: integer || fields.boolean(INTEGER)?.unwrap_or(false),
            default: default.map(|d| d.number()).transpose()?,
        }),
    })
}

/// Options: strings, or objects with a label and optional value, description and recommended.
/// A label that ends in "(Recommended)", as models write it, marks the recommendation too; the
/// label and value stay as sent.
fn read_options(taken: Taken, rules: &ToolRules) -> Result<Vec<Choice>, RequestError> {
    let (path, items) = taken.into_array()?;
    // Filled by hand: collecting through `Result` can't tell the length, and a list of
    // thousands would be moved on every doubling.
    let mut options = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        options.push(read_option(&path, i, item, rules)?);
    }
    Ok(options)
}

/// The option `item`, the `i`th of the options at `options_path`.
fn read_option(
    options_path: &str,
    i: usize,
    item: Json,
    rules: &ToolRules,
) -> Result<Choice, RequestError> {
    let item = match into_scalar_text(item) {
        Ok(label) => {
            let label = rules.text(label);
            return Ok(Choice {
                recommended: Choice::says_recommended(&label),
                value: label.clone(),
                label,
                description: None,
                preview: None,
            });
        }
        Err(item) => item,
    };
    // Written out only for an option that has fields: most are plain strings.
    let path = item_path(options_path, i);
    let fields = Fields::new(&item, path.clone()).map_err(|_| {
        RequestError::at(
            path.clone(),
            format!(
                "must be a string or an object with a label, not {}",
                describe(&item)
            ),
        )
    })?;
    let label = fields
        .string(LABEL)?
        .map(|t| rules.text(t))
        .ok_or_else(|| {
            RequestError::at(
                join(&path, "label"),
                "is missing: every option needs a label",
            )
        })?;
    let value = match fields.find(VALUE) {
        Some(v) => scalar_text(v.value).ok_or_else(|| v.error("must be a string"))?,
        None => label.clone(),
    };
    Ok(Choice {
        recommended: fields.boolean(RECOMMENDED)?.unwrap_or(false)
            || Choice::says_recommended(&label),
        label,
        value,
        description: fields.string(DESCRIPTION)?.map(|t| rules.text(t)),
        preview: fields.string(PREVIEW)?.map(|t| rules.text(t)),
    })
}

/// Whether the person may add a note to their pick: on unless the request or the tool says no
/// (a tool whose own result has no place for it).
fn notes(fields: &Fields, rules: &ToolRules) -> Result<bool, RequestError> {
    let asked = fields.boolean(NOTES)?.unwrap_or(true);
    Ok(asked && rules.notes)
}

/// Options as a default names them: by value first, then by label in any case. Built once per
/// question, since a multi-select may name thousands of defaults.
struct NamedOptions<'a> {
    options: &'a [Choice],
    by_value: OptionsByValue<'a>,
    by_label: FxHashMap<String, usize>,
}

impl<'a> NamedOptions<'a> {
    fn new(options: &'a [Choice]) -> Self {
        let mut by_label = FxHashMap::with_capacity_and_hasher(options.len(), Default::default());
        for (index, option) in options.iter().enumerate() {
            by_label.entry(option.label.to_lowercase()).or_insert(index);
        }
        NamedOptions {
            options,
            by_value: OptionsByValue::new(options),
            by_label,
        }
    }

    /// The index of the option `item` names, in the default `found`.
    fn find(&self, found: &Found, item: &Json) -> Result<u32, RequestError> {
        let wanted = scalar_text(item)
            .ok_or_else(|| found.error(format!("must name an option, not {}", describe(item))))?;
        let position = self
            .by_value
            .index(&wanted)
            .or_else(|| self.by_label.get(&wanted.to_lowercase()).copied());
        if let Some(index) = position {
            return Ok(index as u32);
        }
        let values: Vec<String> = self
            .options
            .iter()
            .take(10)
            .map(|o| Quoted(&o.value).to_string())
            .collect();
        let more = if self.options.len() > 10 { ", ..." } else { "" };
        Err(found.error(format!(
            "{} is not one of the options; a default must be an option's value: {}{more}",
            Quoted(&wanted),
            values.join(", ")
        )))
    }
}

fn yes_no(found: &Found) -> Result<bool, RequestError> {
    if let Json::String(s) = found.value {
        match s.trim().to_lowercase().as_str() {
            "yes" | "y" => return Ok(true),
            "no" | "n" => return Ok(false),
            _ => {}
        }
    }
    found.boolean()
}
