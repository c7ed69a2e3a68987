//! What the person gave to one question, in the words they saw: the record that survives a
//! plugin that failed (in [`Error::Trap`](crate::Error::Trap)), that a resumed request shows,
//! and that an asker passes on when nobody else can.

use serde_json::{Value as Json, json};

/// An answer the person gave, in the words they saw: what survives a plugin that failed.
#[derive(Clone, Debug, PartialEq)]
pub struct Given {
    /// 1-based position of the question in the batch.
    pub position: u32,
    /// The question's header, if it had one.
    pub header: Option<String>,
    /// The question as shown.
    pub prompt: String,
    /// The answer: an option's label, labels, typed text, yes/no, or a number as typed.
    pub answer: Json,
    /// The note the person added to their pick.
    pub note: Option<String>,
}

impl Given {
    /// A given answer read back from [`Given::to_json`].
    pub fn from_json(json: &Json) -> Option<Given> {
        let text = |key: &str| json.get(key).and_then(Json::as_str).map(str::to_owned);
        Some(Given {
            position: u32::try_from(json.get("position")?.as_u64()?).ok()?,
            header: text("header"),
            prompt: text("question")?,
            answer: json.get("answer")?.clone(),
            note: text("note"),
        })
    }

    /// As JSON: `{"position", "header", "question", "answer", "note"}`, without empty fields.
    pub fn to_json(&self) -> Json {
        let mut object =
            json!({"position": self.position, "question": self.prompt, "answer": self.answer});
        if let Some(header) = &self.header {
            object["header"] = json!(header);
        }
        if let Some(note) = &self.note {
            object["note"] = json!(note);
        }
        object
    }

    /// The answer as a person reads it: the label, the labels joined with commas, the text
    /// typed, yes or no.
    pub fn answer_text(&self) -> String {
        match &self.answer {
            Json::String(text) => text.clone(),
            Json::Bool(true) => "Yes".into(),
            Json::Bool(false) => "No".into(),
            Json::Array(items) => items
                .iter()
                .map(|item| {
                    item.as_str()
                        .map_or_else(|| item.to_string(), str::to_string)
                })
                .collect::<Vec<_>>()
                .join(", "),
            other => other.to_string(),
        }
    }
}
