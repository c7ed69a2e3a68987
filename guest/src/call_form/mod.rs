//! A tool call asked as one MCP elicitation form, for a person behind an MCP client's form UI
//! rather than a terminal: the component's `form` and `answer-form`.
//!
//! The form holds every question of the call (see [`fields`]). Its reply is played through the
//! same flow as a terminal's keys ([`replay`]), so the plugin judges it, and the result is
//! exactly what the terminal would have given. An answer the plugin refuses sends the form
//! again, with the error in its message and the person's answers kept as its defaults.
//!
//! Both calls are stateless: the host sends the same call with each reply, which suits MCP's
//! multi-round-trip tool calls as well as a server-to-client `elicitation/create`.

pub mod fields;
mod replay;

use serde_json::{Map, Value as Json, json};

use crate::flow::{self, Policy};
use crate::model::*;
use crate::request::fields::describe;
use crate::request::{Request, read_json};
use crate::{json_text, result, tool};
use replay::Replay;

/// The form that asks the call `name` with `arguments` (see the WIT's `form`).
pub fn form(name: &str, arguments: &str) -> FormStep {
    let request = match tool::request(name, arguments) {
        Ok(request) => request,
        Err(done) => return FormStep::Done(tool::call_result(&done)),
    };
    match unfit(&request) {
        Some(reason) => FormStep::Unfit(reason),
        None => FormStep::Form(ask(&request, None, &Map::new())),
    }
}

/// The result of the call, or its form again, from the client's `reply` (see the WIT's
/// `answer-form`).
pub fn answer_form(name: &str, arguments: &str, reply: &str, settings: &Settings) -> FormStep {
    let mut request = match tool::request(name, arguments) {
        Ok(request) => request,
        Err(done) => return FormStep::Done(tool::call_result(&done)),
    };
    let done = |result: Json| FormStep::Done(tool::call_result(&result));
    match read_reply(reply) {
        Err(error) => done(result::invalid(&error)),
        Ok(Reply::Declined) => done(result::outcome_said(
            &request,
            &Outcome::Cancelled(Vec::new()),
            DECLINED,
        )),
        Ok(Reply::Dismissed) => done(result::outcome_said(
            &request,
            &Outcome::Cancelled(Vec::new()),
            DISMISSED,
        )),
        Ok(Reply::Accepted(content)) => judge(&mut request, &content, settings),
    }
}

/// What the model reads when the person refused the form.
const DECLINED: &str = "User declined to answer: they refused the questions in the form, so \
    nothing was answered. Do not ask again; continue without the answers, or stop.";
/// What the model reads when the person closed the form without sending it.
const DISMISSED: &str = "User dismissed the form without answering (cancelled).";

/// Why the call can't be asked in a form: MCP forbids asking for secrets in form mode.
fn unfit(request: &Request) -> Option<String> {
    let index = request.secret.iter().position(|&secret| secret)?;
    Some(format!(
        "questions[{index}] asks for a secret, which an MCP client's form must not be used for"
    ))
}

/// The form of `request`: `refused` says why the last reply was not taken (the field, the
/// error), and `given` is that reply's content, kept as the form's defaults.
fn ask(request: &Request, refused: Option<Refusal>, given: &Map<String, Json>) -> FormRequest {
    let questions = &request.questions;
    let names = fields::names(questions);
    let mut message = match questions.as_slice() {
        [one] => one.prompt.clone(),
        many => format!("Your agent has {} questions for you.", many.len()),
    };
    if let Some(Refusal {
        field,
        message: error,
    }) = &refused
    {
        message = format!("Not sent: {field}: {error}\n\n{message}");
    }
    let params = json!({
        "mode": "form",
        "message": message,
        "requestedSchema": fields::requested_schema(questions, &names, given),
    });
    FormRequest {
        params: json_text::to_string(&params, false),
        refused,
    }
}

/// What the client sent back.
enum Reply {
    Accepted(Map<String, Json>),
    Declined,
    Dismissed,
}

/// Reads an `ElicitResult`: `{action, content}`.
fn read_reply(reply: &str) -> Result<Reply, RequestError> {
    let json = read_json(reply, "the form's reply is")?;
    let action = json.get("action").and_then(Json::as_str);
    match action {
        Some("accept") => match json.get("content") {
            Some(Json::Object(content)) => Ok(Reply::Accepted(content.clone())),
            None | Some(Json::Null) => Ok(Reply::Accepted(Map::new())),
            Some(other) => Err(RequestError::at(
                "reply.content",
                format!("is {}; it must be an object", describe(other)),
            )),
        },
        Some("decline") => Ok(Reply::Declined),
        Some("cancel") => Ok(Reply::Dismissed),
        _ => Err(RequestError::at(
            "reply.action",
            "must be \"accept\", \"decline\" or \"cancel\"",
        )),
    }
}

/// Plays the submitted `content` through the flow: the result, or the form again with the
/// answer the plugin refused.
fn judge(request: &mut Request, content: &Map<String, Json>, settings: &Settings) -> FormStep {
    let names = fields::names(&request.questions);
    let mut replay = Replay::new(&names, content);
    let ending = flow::run(
        &mut request.questions,
        &request.secret,
        &Policy::tool(settings),
        &mut replay,
    );
    match (replay.refused, ending) {
        (Some((index, message)), _) => {
            let field = fields::title(&request.questions[index], request.questions.len() > 1);
            FormStep::Form(ask(request, Some(Refusal { field, message }), content))
        }
        (None, ending) => FormStep::Done(tool::call_result(&result::outcome(
            request,
            &Outcome::from(ending),
        ))),
    }
}
