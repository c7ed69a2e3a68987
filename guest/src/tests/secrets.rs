//! One rule for secrets: what a request marks secret and what a name says is secret, for every
//! kind of question, and a secret choice's typed answer asked where no host draws it.

use serde_json::{Value as Json, json};

use crate::elicit::elicit;
use crate::model::*;
use crate::summary::HIDDEN;
use crate::testing::*;

fn labels(options: &[Choice]) -> Vec<&str> {
    options.iter().map(|o| o.label.as_str()).collect()
}

fn review_answers(script: &Script) -> Vec<String> {
    let Some(Shown::Review(review)) = script
        .shown
        .iter()
        .rev()
        .find(|s| matches!(s, Shown::Review(_)))
    else {
        panic!("no review: {:?}", script.shown)
    };
    review.items.iter().map(|i| i.answer.clone()).collect()
}

#[test]
fn a_secret_select_asks_its_typed_answer_in_a_hidden_field() {
    let request = r#"{"questions": [
        {"id": "key", "question": "Which key?", "options": ["Staging key", "Prod key"], "secret": true},
        {"id": "api_key", "header": "Key", "question": "Paste the other one"}
    ]}"#;
    let (result, script) = run(
        "interview",
        request,
        [
            // The third entry is "Something else", as an option of its own.
            select(2),
            text("sk-live-123"),
            text("sk-test-456"),
            Step::Review(ReviewReply::Edit(0)),
            select(2),
            text("sk-live-789"),
            submit(),
        ],
    );
    let Shown::Select(shown) = &script.shown[0] else {
        panic!("{:?}", script.shown)
    };
    assert_eq!(
        labels(&shown.options),
        ["Staging key", "Prod key", OTHER_LABEL]
    );
    assert_eq!(shown.other_label, None, "no entry that draws what is typed");
    assert!(!shown.notes, "nor a note editor");
    let texts: Vec<&TextRequest> = script
        .shown
        .iter()
        .filter_map(|s| match s {
            Shown::Text(t) => Some(t),
            _ => None,
        })
        .collect();
    assert!(texts.iter().all(|t| t.secret), "{texts:?}");
    // Changed at the review: the entry is under the cursor, the earlier text in the field.
    let Shown::Select(again) = &script.shown[4] else {
        panic!("{:?}", script.shown)
    };
    assert_eq!(
        (again.selected, again.other_text.as_deref()),
        (Some(2), None)
    );
    assert_eq!(texts[2].initial.as_deref(), Some("sk-live-123"));
    assert_eq!(review_answers(&script), [HIDDEN, HIDDEN]);
    assert_eq!(
        field(&result, "value"),
        [json!("sk-live-789"), json!("sk-test-456")]
    );
    assert_eq!(field(&result, "custom"), [json!(true), json!(false)]);
}

#[test]
fn back_from_the_hidden_field_shows_the_options_again() {
    let request =
        r#"{"question": "Which key?", "options": ["Staging key", "Prod key"], "isSecret": true}"#;
    let (result, script) = run(
        "interview",
        request,
        [select(2), nav_text(Nav::Back), select(0)],
    );
    let Shown::Select(again) = &script.shown[2] else {
        panic!("{:?}", script.shown)
    };
    assert_eq!(again.selected, Some(2));
    assert_eq!(labels(&again.options).len(), 3);
    assert_eq!(result["answer"], "Staging key");
    assert_eq!(result["answers"][0]["custom"], false);
}

#[test]
fn a_secret_multi_select_keeps_its_picks_and_hides_its_typed_answer() {
    let request = r#"{"questions": [
        {"id": "scopes", "question": "Which scopes?", "multi": true, "options": ["read", "write"], "secret": true},
        {"id": "ok", "question": "Go?", "type": "confirm"}
    ]}"#;
    let (result, script) = run(
        "interview",
        request,
        [
            multi(&[0, 2]),
            nav_text(Nav::Back),
            multi(&[0, 2]),
            text("admin:all"),
            Step::Confirm(ConfirmReply::Answered(true)),
            submit(),
        ],
    );
    let Shown::Multi(again) = &script.shown[2] else {
        panic!("{:?}", script.shown)
    };
    assert_eq!(again.selected, [0, 2], "back keeps the picks");
    assert_eq!(labels(&again.options), ["read", "write", OTHER_LABEL]);
    assert_eq!((again.other_label.as_deref(), again.notes), (None, false));
    assert_eq!(
        review_answers(&script),
        [format!("read, {HIDDEN}"), "yes".into()]
    );
    assert_eq!(result["answers"][0]["value"], json!(["read", "admin:all"]));
    assert_eq!(result["answers"][0]["custom"], true);
}

#[test]
fn a_choice_is_not_secret_where_nothing_is_typed() {
    let request =
        r#"{"question": "Which key?", "options": ["a", "b"], "other": false, "secret": true}"#;
    let (result, script) = run("interview", request, [select(1)]);
    let Shown::Select(shown) = &script.shown[0] else {
        panic!("{:?}", script.shown)
    };
    assert_eq!(labels(&shown.options), ["a", "b"]);
    assert_eq!(result["answer"], "b");
}

#[test]
fn a_name_that_holds_a_secret_makes_a_text_question_secret() {
    let checked: Json = serde_json::from_str(
        &crate::tool::check(
            "interview",
            r#"{"questions": [
            {"id": "api_key", "question": "Your key?"},
            {"id": "githubToken", "question": "Your token?"},
            {"id": "tokenizer", "question": "Which tokenizer?"},
            {"id": "client_secret", "question": "Pick one", "options": ["a"]}
        ]}"#,
        )
        .json,
    )
    .unwrap();
    let secret: Vec<&Json> = checked["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| &q["secret"])
        .collect();
    assert_eq!(
        secret,
        [&json!(true), &json!(true), &json!(false), &json!(true)]
    );
}

#[test]
fn form_fields_named_like_any_secret_are_hidden() {
    let names = [
        "api_key",
        "apiKey",
        "token",
        "access_token",
        "client_secret",
        "passwd",
        "private_key",
        "credentials",
        "tokenizer",
        "pinned",
    ];
    let properties: serde_json::Map<String, Json> = names
        .iter()
        .map(|name| (name.to_string(), json!({"type": "string"})))
        .collect();
    let required: Vec<&str> = names.to_vec();
    let request = json!({
        "message": "Connect",
        "requestedSchema": {"type": "object", "properties": properties, "required": required},
    });
    let mut steps: Vec<Step> = names
        .iter()
        .map(|name| text(&format!("{name}-value")))
        .collect();
    steps.push(submit());
    let mut script = Script::new(steps);
    let elicitation = elicit(&request.to_string(), None, &mut script);
    assert_eq!(
        elicitation.ending,
        ElicitEnding::Accepted,
        "{}",
        elicitation.reply
    );
    let secret: Vec<bool> = script
        .shown
        .iter()
        .filter_map(|s| match s {
            Shown::Text(t) => Some(t.secret),
            _ => None,
        })
        .collect();
    let mut expected = vec![true; 8];
    expected.extend([false, false]);
    assert_eq!(secret, expected);
    let answers = review_answers(&script);
    assert_eq!(answers[..8], [HIDDEN; 8]);
    assert_eq!(answers[8..], ["tokenizer-value", "pinned-value"]);
}
