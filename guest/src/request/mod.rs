//! From a tool call (a tool name and the model's JSON arguments) to validated questions.
//!
//! Every request shape of the major agent tools and of the peer ask-the-user tools is read into
//! one model: a single question at the top level (`question`, `options`, `multi`), or a batch
//! under `questions`, with each dialect's field names (see [`question`]).

pub(crate) mod fields;
pub mod question;
pub mod rules;

use serde_json::Value as Json;

use rustc_hash::FxHashSet;

use crate::limits::MAX_REQUEST_BYTES;
use crate::model::{Question, QuestionKind, RequestError, join};
use crate::quoted::Quoted;
use crate::{secret, validate};
use fields::Fields;
pub use rules::Tool;

/// A tool call, understood.
#[derive(Debug)]
pub enum Call {
    /// Questions to ask.
    Ask(Request),
    /// A fixed reply with nothing to ask (`resume_structured`).
    Signal(String),
}

/// Valid questions and where each came from.
#[derive(Debug)]
pub struct Request {
    pub tool: Tool,
    pub questions: Vec<Question>,
    /// Per question, whether what the person types is secret ([`secret::is_secret`]): the
    /// model has a flag for it on text questions only.
    pub secret: Vec<bool>,
}

/// Reads and validates a call of the tool `name`.
pub fn parse(name: &str, arguments: &str) -> Result<Call, RequestError> {
    let tool = Tool::named(name).ok_or_else(|| {
        let names: Vec<_> = Tool::all_names().collect();
        RequestError::at(
            "",
            format!(
                "there is no tool {}; the tools are {}",
                Quoted(name),
                names.join(", ")
            ),
        )
    })?;
    if arguments.len() > MAX_REQUEST_BYTES {
        return Err(RequestError::at(
            "",
            format!(
                "the arguments are {} bytes, more than the limit of {MAX_REQUEST_BYTES}; ask fewer \
                 or shorter questions",
                arguments.len()
            ),
        ));
    }
    let mut json = read_json(arguments, "the arguments are")?;
    let top = Fields::new(&json, "")?;
    if tool == Tool::ResumeStructured {
        return resume(&top);
    }
    let rules = tool.rules();
    let one_question = top.find(&["question", "prompt"]).is_some();
    // Each question is moved out of the request, and its options out of it: read, not copied.
    let objects = match fields::take(&mut json, "", &["questions"]) {
        Some(batch) => {
            let at = batch.path.clone();
            let items = batch.into_items()?;
            validate::question_count(items.len())
                .map_err(|message| RequestError::at(at, message))?;
            items
        }
        None if one_question => vec![(String::new(), json)],
        None => {
            return Err(RequestError::at(
                "",
                "needs \"questions\" (an array of questions) or \"question\" (the text of one question)",
            ));
        }
    };
    let mut paths = Vec::with_capacity(objects.len());
    let mut questions = Vec::with_capacity(objects.len());
    let mut marked = Vec::with_capacity(objects.len());
    for (path, object) in objects {
        // A question sent as a JSON string is read as the object it encodes.
        let mut object = fields::decoded(object, Json::is_object);
        let (question, secret) = question::read(&mut object, &path, &rules)?;
        check_option_count(&path, &question, rules.options)?;
        questions.push(question);
        marked.push(secret);
        paths.push(path);
    }
    assign_ids(&mut questions);
    validate::questions(paths.iter().map(String::as_str).zip(&questions))?;
    let secret = secret::of(&questions, &marked);
    // A text question secret by its id alone says so too, wherever it is read.
    for (question, &secret) in questions.iter_mut().zip(&secret) {
        if let QuestionKind::Text(text) = &mut question.kind {
            text.secret = secret;
        }
    }
    Ok(Call::Ask(Request {
        tool,
        questions,
        secret,
    }))
}

/// `text` as JSON; `what` names it in the error ("the arguments are"). Some runtimes send JSON
/// encoded twice, as a JSON string.
pub(crate) fn read_json(text: &str, what: &str) -> Result<Json, RequestError> {
    let json: Json = serde_json::from_str(text)
        .map_err(|e| RequestError::at("", format!("{what} not valid JSON ({e})")))?;
    match json {
        Json::String(inner) if inner.trim_start().starts_with('{') => read_json(&inner, what),
        json => Ok(json),
    }
}

fn resume(top: &Fields) -> Result<Call, RequestError> {
    let summary = top.string(&["summary"])?.unwrap_or_default();
    if summary.trim().is_empty() {
        return Err(RequestError::at(
            "summary",
            "is missing or empty: summarize what you learned in the conversation",
        ));
    }
    Ok(Call::Signal(format!(
        "Conversation summary captured: {}. Resuming structured questions.",
        summary.trim().trim_end_matches('.')
    )))
}

fn check_option_count(
    path: &str,
    question: &Question,
    range: Option<(usize, usize)>,
) -> Result<(), RequestError> {
    let Some((fewest, most)) = range else {
        return Ok(());
    };
    let count = question.kind.options().len();
    if count < fewest || count > most {
        return Err(RequestError::at(
            join(path, "options"),
            format!("has {count} options; this tool takes {fewest} to {most}"),
        ));
    }
    Ok(())
}

/// Gives every question without an id one: `q1`, `q2`, ... by position, never one already taken.
fn assign_ids(questions: &mut [Question]) {
    let taken: FxHashSet<String> = questions.iter().map(|q| q.id.clone()).collect();
    for (index, question) in questions.iter_mut().enumerate() {
        if !question.id.is_empty() {
            continue;
        }
        let base = format!("q{}", index + 1);
        let mut id = base.clone();
        let mut suffix = 1;
        while taken.contains(&id) {
            suffix += 1;
            id = format!("{base}_{suffix}");
        }
        question.id = id;
    }
}
