//! The exported tool, over any [`Ui`]: what the component's `call`, `check` and `ask` do.

use serde_json::{Value as Json, json};

use crate::flow::{self, Policy};
use crate::model::*;
use crate::request::{self, Call, Request};
use crate::ui::Ui;
use crate::{json_text, result, validate};

/// Runs a tool call and returns the result JSON.
pub fn call(name: &str, arguments: &str, settings: &Settings, ui: &mut impl Ui) -> CallResult {
    let result = match request(name, arguments) {
        Ok(mut request) => {
            let ending = flow::run(
                &mut request.questions,
                &request.secret,
                &Policy::tool(settings),
                ui,
            );
            result::outcome(&request, &ending.into())
        }
        Err(done) => done,
    };
    call_result(&result)
}

/// The request of the call `name` with `arguments`, or the result that ends the call at once:
/// an invalid call's, or a signal's.
pub fn request(name: &str, arguments: &str) -> Result<Request, Json> {
    match request::parse(name, arguments) {
        Err(error) => Err(result::invalid(&error)),
        Ok(Call::Signal(text)) => Err(result::signal(&text)),
        Ok(Call::Ask(request)) => Ok(request),
    }
}

/// A result JSON as the host gets it: its status typed, its text safe to print.
pub fn call_result(result: &Json) -> CallResult {
    let status = match result["status"].as_str() {
        Some("answered") => Status::Answered,
        Some("cancelled") => Status::Cancelled,
        Some("unavailable") => Status::Unavailable,
        Some("failed") => Status::Failed,
        _ => Status::Invalid,
    };
    CallResult {
        status,
        json: json_text::to_string(result, false),
    }
}

/// Checks a tool call without asking: the `invalid` result, or the questions as understood.
pub fn check(name: &str, arguments: &str) -> Checked {
    let checked = checked(name, arguments);
    Checked {
        valid: checked["status"] == "valid",
        json: json_text::to_string(&checked, false),
    }
}

fn checked(name: &str, arguments: &str) -> Json {
    match request::parse(name, arguments) {
        Err(error) => result::invalid(&error),
        Ok(Call::Signal(_)) => json!({ "status": "valid", "questions": [] }),
        Ok(Call::Ask(request)) => {
            let questions = request.questions.iter().zip(&request.secret);
            json!({
                "status": "valid",
                "questions": questions
                    .map(|(question, &secret)| {
                        let mut shown = result::question(question);
                        // A text question says it in its own settings; a choice has none.
                        if secret {
                            shown["secret"] = true.into();
                        }
                        shown
                    })
                    .collect::<Vec<_>>(),
            })
        }
    }
}

/// Asks typed questions, after the same validation as `call`.
pub fn ask(mut questions: Vec<Question>, settings: &Settings, ui: &mut impl Ui) -> Outcome {
    let paths: Vec<String> = (0..questions.len())
        .map(|i| format!("questions[{i}]"))
        .collect();
    if let Err(error) = validate::questions(paths.iter().map(String::as_str).zip(&questions)) {
        return Outcome::Invalid(error);
    }
    // A typed question has no mark for a secret choice: its id and text flag say.
    flow::run(&mut questions, &[], &Policy::tool(settings), ui).into()
}
