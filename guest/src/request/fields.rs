//! Reading one JSON object of a tool call, forgivingly and precisely: every dialect's spelling of
//! a field is accepted (`multiSelect`, `multi_select` and `multiselect` are one key), and every
//! error names the exact place in the request, in the agent's own spelling.

use serde_json::{Map, Value as Json};

use crate::decimal::Decimal;
use crate::model::{RequestError, join};
use crate::quoted::Quoted;

/// A JSON object and where it stands in the request (`questions[1]`; empty at the top).
pub struct Fields<'a> {
    map: &'a Map<String, Json>,
    path: String,
}

/// A field found: its key as the agent wrote it, and its value.
pub struct Found<'a> {
    pub path: String,
    pub value: &'a Json,
}

/// How two spellings of a key compare: case, `_` and `-` do not matter.
fn normalize(key: &str) -> String {
    key.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

impl<'a> Fields<'a> {
    /// Reads `value` as an object, or says what it is instead.
    pub fn new(value: &'a Json, path: impl Into<String>) -> Result<Self, RequestError> {
        let path = path.into();
        match value {
            Json::Object(map) => Ok(Fields { map, path }),
            other => Err(RequestError::at(
                path,
                format!("must be a JSON object, not {}", describe(other)),
            )),
        }
    }

    /// Where this object stands.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The first field present under any of `names` (spelling-insensitive). A `null` value
    /// counts as absent: models often send every optional field with `null`.
    pub fn find(&self, names: &[&str]) -> Option<Found<'a>> {
        self.find_entry(names).map(|(key, value)| Found {
            path: join(&self.path, key),
            value,
        })
    }

    fn find_entry(&self, names: &[&str]) -> Option<(&'a String, &'a Json)> {
        names.iter().find_map(|name| {
            let wanted = normalize(name);
            self.map
                .iter()
                .find(|(key, value)| normalize(key) == wanted && !value.is_null())
        })
    }

    /// A string field.
    pub fn string(&self, names: &[&str]) -> Result<Option<String>, RequestError> {
        self.find(names).map(|f| f.string()).transpose()
    }

    /// A boolean field (`true`/`false`, or the strings "true"/"false" models sometimes send).
    pub fn boolean(&self, names: &[&str]) -> Result<Option<bool>, RequestError> {
        self.find(names).map(|f| f.boolean()).transpose()
    }

    /// A finite number.
    pub fn number(&self, names: &[&str]) -> Result<Option<f64>, RequestError> {
        self.find(names).map(|f| f.number()).transpose()
    }

    /// A whole number from 0 to `u32::MAX`.
    pub fn count(&self, names: &[&str]) -> Result<Option<u32>, RequestError> {
        self.find(names).map(|f| f.count()).transpose()
    }
}

/// A field taken out of its object: its path, and its value, owned.
pub struct Taken {
    pub path: String,
    pub value: Json,
}

/// Takes the field [`Fields::find`] would find in `object` (at `path`) out of it, leaving
/// `null` in its place, which reads as absent. Its strings can then be moved rather than
/// copied: a list of thousands of options is read this way.
pub fn take(object: &mut Json, path: &str, names: &[&str]) -> Option<Taken> {
    let key = Fields::new(object, "").ok()?.find_entry(names)?.0.clone();
    let value = std::mem::take(object.get_mut(&key)?);
    Some(Taken {
        path: join(path, &key),
        value,
    })
}

impl Taken {
    /// The value as an array of values (also one sent as a JSON string, see [`decoded`]), or
    /// the error [`Found::array`] gives.
    pub fn into_array(self) -> Result<(String, Vec<Json>), RequestError> {
        match decoded(self.value, Json::is_array) {
            Json::Array(items) => Ok((self.path, items)),
            other => Err(RequestError::at(self.path, not_an_array(&other))),
        }
    }

    /// The value as an array, each item with its own path (`questions[2]`).
    pub fn into_items(self) -> Result<Vec<(String, Json)>, RequestError> {
        let (path, items) = self.into_array()?;
        Ok(items
            .into_iter()
            .enumerate()
            .map(|(i, item)| (item_path(&path, i), item))
            .collect())
    }
}

impl<'a> Found<'a> {
    pub fn string(&self) -> Result<String, RequestError> {
        match self.value {
            Json::String(s) => Ok(s.clone()),
            other => Err(self.error(format!("must be a string, not {}", describe(other)))),
        }
    }

    pub fn boolean(&self) -> Result<bool, RequestError> {
        match self.value {
            Json::Bool(b) => Ok(*b),
            Json::String(s) if s.eq_ignore_ascii_case("true") => Ok(true),
            Json::String(s) if s.eq_ignore_ascii_case("false") => Ok(false),
            other => Err(self.error(format!("must be true or false, not {}", describe(other)))),
        }
    }

    pub fn number(&self) -> Result<f64, RequestError> {
        let parsed = match self.value {
            Json::Number(n) => n.as_f64(),
            Json::String(s) => crate::decimal::parse(s.trim()),
            _ => None,
        };
        match parsed {
            Some(n) if n.is_finite() => Ok(n),
            _ => Err(self.error(format!("must be a number, not {}", describe(self.value)))),
        }
    }

    pub fn count(&self) -> Result<u32, RequestError> {
        let n = self.number()?;
        if n < 0.0 || n.fract() != 0.0 {
            return Err(self.error(format!(
                "must be a whole number of 0 or more, not {}",
                Decimal(n)
            )));
        }
        if n > f64::from(u32::MAX) {
            return Err(self.error(format!(
                "is {}, more than the largest count, {}",
                Decimal(n),
                u32::MAX
            )));
        }
        Ok(n as u32)
    }

    /// The value as an array.
    pub fn array(&self) -> Result<&'a [Json], RequestError> {
        match self.value {
            Json::Array(items) => Ok(items),
            other => Err(self.error(not_an_array(other))),
        }
    }

    /// The value as an array, each item with its own path (`options[2]`).
    pub fn items(&self) -> Result<Vec<(String, &'a Json)>, RequestError> {
        Ok(self
            .array()?
            .iter()
            .enumerate()
            .map(|(i, item)| (item_path(&self.path, i), item))
            .collect())
    }

    pub fn error(&self, message: impl Into<String>) -> RequestError {
        RequestError::at(self.path.clone(), message)
    }
}

/// `value` as the JSON it encodes, when it is a string that parses as JSON of the type `wanted`
/// accepts; else `value` as it is. Some clients send a field encoded once more, as a string (the
/// MCP Inspector's CLI sends `options='["Red","Green"]'`), as some runtimes do the whole
/// arguments: where an array or object is wanted, such a string is read as the value it encodes.
/// (Numbers and booleans written as strings are read by [`Found::number`] and
/// [`Found::boolean`].)
pub fn decoded(value: Json, wanted: fn(&Json) -> bool) -> Json {
    if let Json::String(text) = &value
        && text.trim_start().starts_with(['[', '{'])
        && let Ok(inner) = serde_json::from_str::<Json>(text)
        && wanted(&inner)
    {
        return inner;
    }
    value
}

/// Where the `i`th item of the array at `path` stands: `options[2]`.
pub fn item_path(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

fn not_an_array(value: &Json) -> String {
    format!("must be an array, not {}", describe(value))
}

/// A JSON value in words, for error messages: `a string ("red")`, `an array`.
pub fn describe(value: &Json) -> String {
    match value {
        Json::Null => "null".into(),
        Json::Bool(b) => format!("{b}"),
        Json::Number(n) => format!("the number {n}"),
        Json::String(s) if s.chars().count() <= 40 => format!("the string {}", Quoted(s)),
        Json::String(_) => "a string".into(),
        Json::Array(_) => "an array".into(),
        Json::Object(_) => "an object".into(),
    }
}

/// A JSON scalar as option text: models send `1`, `true` or `"1"` for the same value.
pub fn scalar_text(value: &Json) -> Option<String> {
    match value {
        Json::String(s) => Some(s.clone()),
        other => number_or_bool_text(other),
    }
}

/// [`scalar_text`] of a value owned: a string is moved, not copied.
pub fn into_scalar_text(value: Json) -> Result<String, Json> {
    match value {
        Json::String(s) => Ok(s),
        other => number_or_bool_text(&other).ok_or(other),
    }
}

fn number_or_bool_text(value: &Json) -> Option<String> {
    match value {
        Json::Number(n) => Some(n.to_string()),
        Json::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}
