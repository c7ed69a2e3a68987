//! A tool call asked as an MCP form: the schema built from the questions, and the reply judged
//! to the very result the terminal gives.

use serde_json::{Value as Json, json};

use crate::call_form::{answer_form, form};
use crate::model::*;
use crate::testing::*;

const BATCH: &str = r#"{"questions": [
    {"id": "env", "header": "Deploy", "question": "Where to?", "options": [
        {"label": "Dev", "value": "dev", "description": "the shared cluster"},
        {"label": "Prod", "value": "prod", "recommended": true}], "default": "dev", "allow_other": false},
    {"id": "name", "question": "Name?\nThree letters or more.", "min_length": 3},
    {"id": "n", "question": "How many?", "type": "integer", "min": 1, "max": 9},
    {"id": "ok", "question": "Sure?", "type": "confirm"}
]}"#;

fn form_of(tool: &str, arguments: &str) -> Json {
    step_json(form(tool, arguments))
}

fn answered(tool: &str, arguments: &str, reply: Json) -> Json {
    let settings = Settings {
        skip_response: None,
    };
    step_json(answer_form(tool, arguments, &reply.to_string(), &settings))
}

/// A step as one JSON value, for the assertions: a form's params with its refusal and
/// `"status": "form"`, an unfit call's reason with `"status": "unfit"`, or the result, whose
/// typed status must be its JSON's.
fn step_json(step: FormStep) -> Json {
    match step {
        FormStep::Form(FormRequest { params, refused }) => json!({
            "status": "form",
            "params": serde_json::from_str::<Json>(&params).expect("the form's params are JSON"),
            "refused": refused.map(|r| json!({ "field": r.field, "message": r.message })),
        }),
        FormStep::Unfit(reason) => json!({ "status": "unfit", "reason": reason }),
        FormStep::Done(result) => {
            let json: Json = serde_json::from_str(&result.json).expect("the result is JSON");
            let status = result.status.name();
            assert_eq!(json["status"], status, "the typed status is the result's");
            json
        }
    }
}

fn accept(content: Json) -> Json {
    json!({ "action": "accept", "content": content })
}

#[test]
fn a_batch_is_one_form_with_a_field_per_question() {
    let step = form_of("interview", BATCH);
    assert_eq!(step["status"], "form");
    let params = &step["params"];
    assert_eq!(params["mode"], "form");
    assert_eq!(params["message"], "Your agent has 4 questions for you.");
    let schema = &params["requestedSchema"];
    assert_eq!(schema["required"], json!(["env", "name", "n", "ok"]));
    let env = &schema["properties"]["env"];
    assert_eq!(env["title"], "Deploy");
    assert_eq!(env["default"], "dev");
    assert_eq!(
        env["oneOf"],
        json!([
            {"const": "dev", "title": "Dev"},
            {"const": "prod", "title": "Prod (Recommended)"}
        ])
    );
    let described = env["description"].as_str().unwrap();
    assert!(described.contains("Where to?") && described.contains("- Dev: the shared cluster"));
    let name = &schema["properties"]["name"];
    assert_eq!(
        (&name["type"], &name["minLength"]),
        (&json!("string"), &json!(3))
    );
    assert_eq!(name["title"], "Name?");
    assert!(
        name["description"]
            .as_str()
            .unwrap()
            .contains("Three letters or more.")
    );
    let n = &schema["properties"]["n"];
    assert_eq!(
        (&n["type"], &n["minimum"], &n["maximum"]),
        (&json!("integer"), &json!(1), &json!(9))
    );
    assert_eq!(schema["properties"]["ok"]["type"], "boolean");
    let order: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(
        order,
        ["env", "env_note", "name", "n", "ok"],
        "fields keep the questions' order"
    );
}

#[test]
fn a_submitted_form_gives_the_result_the_terminal_gives() {
    let (terminal, _) = run(
        "interview",
        BATCH,
        [
            select(1),
            text("Ada"),
            Step::Number(NumberReply::Entered("4".into())),
            Step::Confirm(ConfirmReply::Answered(true)),
            submit(),
        ],
    );
    let content = json!({ "env": "prod", "name": "Ada", "n": 4, "ok": true });
    assert_eq!(answered("interview", BATCH, accept(content)), terminal);
}

#[test]
fn a_refused_answer_sends_the_form_again_with_the_error_and_the_answers_kept() {
    let content = json!({ "env": "prod", "name": "Al", "n": 4, "ok": true });
    let step = answered("interview", BATCH, accept(content));
    assert_eq!(step["status"], "form");
    assert_eq!(step["refused"]["field"], "Name?");
    let error = step["refused"]["message"].as_str().unwrap();
    assert!(error.contains("at least 3 characters"), "{error}");
    let message = step["params"]["message"].as_str().unwrap();
    assert!(message.starts_with("Not sent: Name?: ") && message.contains(error));
    let properties = &step["params"]["requestedSchema"]["properties"];
    assert_eq!(properties["name"]["default"], "Al");
    assert_eq!(properties["env"]["default"], "prod");
    assert_eq!(properties["n"]["default"], 4);
}

#[test]
fn decline_and_cancel_are_cancelled_and_the_text_says_which() {
    let declined = answered("interview", BATCH, json!({ "action": "decline" }));
    let dismissed = answered("interview", BATCH, json!({ "action": "cancel" }));
    for step in [&declined, &dismissed] {
        assert_eq!(step["status"], "cancelled");
        assert_eq!(step["answers"], json!([]));
    }
    assert!(declined["text"].as_str().unwrap().contains("declined"));
    assert!(dismissed["text"].as_str().unwrap().contains("dismissed"));
}

const CHOICE: &str = r#"{"question": "Which cache?", "options": ["Redis", "Memcached"],
    "allow_other": true, "allow_discuss": true, "notes": true}"#;

#[test]
fn something_else_notes_and_discuss_have_their_fields() {
    let step = form_of("interview", CHOICE);
    assert_eq!(step["params"]["message"], "Which cache?");
    let schema = &step["params"]["requestedSchema"];
    let names: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["q1", "q1_other", "q1_note"]);
    assert_eq!(
        schema["required"],
        json!([]),
        "a typed answer may stand for the pick"
    );
    let entries = schema["properties"]["q1"]["oneOf"].as_array().unwrap();
    assert_eq!(
        entries.last().unwrap(),
        &json!({"const": "discuss", "title": DISCUSS_LABEL})
    );

    let typed = answered(
        "interview",
        CHOICE,
        accept(json!({ "q1": "Redis", "q1_other": "SQLite" })),
    );
    assert_eq!(
        (&typed["answer"], &typed["answers"][0]["custom"]),
        (&json!("SQLite"), &json!(true))
    );
    let noted = answered(
        "interview",
        CHOICE,
        accept(json!({ "q1": "Redis", "q1_note": "v7 only" })),
    );
    assert_eq!(
        (&noted["answer"], &noted["answers"][0]["note"]),
        (&json!("Redis"), &json!("v7 only"))
    );
    let discuss = answered("interview", CHOICE, accept(json!({ "q1": "discuss" })));
    assert_eq!(discuss["answers"][0]["discuss"], true);
    let nothing = answered("interview", CHOICE, accept(json!({})));
    assert_eq!(
        nothing["status"], "form",
        "a required question left empty is asked again"
    );
    assert!(
        nothing["refused"]["message"]
            .as_str()
            .unwrap()
            .contains("needs an answer")
    );
}

#[test]
fn a_multi_select_is_an_array_of_entries_with_its_limits() {
    let arguments = r#"{"question": "Checks?", "multi": true, "options": ["lint", "test", "fuzz"], "allow_other": false,
        "max_picks": 2}"#;
    let schema = &form_of("interview", arguments)["params"]["requestedSchema"];
    let answer = &schema["properties"]["q1"];
    assert_eq!(answer["type"], "array");
    assert_eq!(
        (&answer["minItems"], &answer["maxItems"]),
        (&json!(1), &json!(2))
    );
    assert_eq!(
        answer["items"]["anyOf"][2],
        json!({"const": "fuzz", "title": "fuzz"})
    );
    let picked = answered(
        "interview",
        arguments,
        accept(json!({ "q1": ["test", "lint"] })),
    );
    assert_eq!(picked["answer"], json!(["lint", "test"]), "in option order");
    let too_many = answered(
        "interview",
        arguments,
        accept(json!({ "q1": ["lint", "test", "fuzz"] })),
    );
    assert_eq!(too_many["status"], "form");
}

#[test]
fn a_secret_is_not_asked_in_a_form() {
    let step = form_of("interview", r#"{"question": "Token?", "secret": true}"#);
    assert_eq!(step["status"], "unfit");
    assert!(
        step["reason"]
            .as_str()
            .unwrap()
            .starts_with("questions[0] asks for a secret")
    );
}

#[test]
fn an_invalid_call_or_reply_is_an_invalid_result_that_names_the_place() {
    let step = form_of("interview", r#"{"questions": [{"question": ""}]}"#);
    assert_eq!(step["status"], "invalid");
    let step = answered("interview", BATCH, json!({ "action": "maybe" }));
    assert_eq!(step["status"], "invalid");
    assert_eq!(step["error"]["path"], "reply.action");
}

#[test]
fn a_dialect_call_answers_in_its_own_words() {
    let arguments = r#"{"questions": [{"question": "Which library?", "header": "Library",
        "multiSelect": false, "options": [{"label": "date-fns", "description": "small"},
        {"label": "Day.js", "description": "tiny"}]}]}"#;
    let (terminal, _) = run("AskUserQuestion", arguments, [select(1)]);
    let via_form = answered(
        "AskUserQuestion",
        arguments,
        accept(json!({ "q1": "Day.js" })),
    );
    assert_eq!(via_form, terminal);
}
