//! The result JSON and the model's text, in the words the peer tools use.

use crate::model::*;
use crate::testing::*;

#[test]
fn single_select_in_the_peer_tools_words() {
    let request =
        r#"{"question": "Layout?", "options": ["Reuse Card", "Reuse ListView", "New timeline"]}"#;
    let (result, _) = run("interview", request, [select(1)]);
    assert_eq!(
        result,
        serde_json::json!({
            "status": "answered",
            "answers": [{"id": "q1", "question": "Layout?", "type": "select", "value": "Reuse ListView",
                         "custom": false, "skipped": false, "discuss": false}],
            "answer": "Reuse ListView",
            "text": "User selected: 2. Reuse ListView",
            "native": {"answer": "Reuse ListView"},
        })
    );
    let keys: Vec<_> = result.as_object().unwrap().keys().cloned().collect();
    assert_eq!(
        keys,
        ["status", "answers", "answer", "text", "native"],
        "status comes first"
    );
}

#[test]
fn custom_cancel_and_multi_texts() {
    let (result, _) = run(
        "interview",
        r#"{"question": "Layout?", "options": ["A"]}"#,
        [Step::Select(SelectReply::Other(
            "I want a kanban board layout".into(),
        ))],
    );
    assert_eq!(result["text"], "User wrote: I want a kanban board layout");
    assert_eq!(result["answers"][0]["custom"], true);
    let (result, _) = run(
        "interview",
        r#"{"question": "Layout?", "options": ["A"]}"#,
        [nav_select(Nav::Cancel)],
    );
    assert_eq!(result["status"], "cancelled");
    assert_eq!(result["text"], "User cancelled the selection.");
    assert_eq!(result["answer"], serde_json::Value::Null);
    assert_eq!(result["answers"], serde_json::json!([]));
    let multi = r#"{"question": "Areas?", "options": ["Session handling", "Error responses", "Multi-device policy"]}"#;
    let (result, _) = run(
        "ask_multi_select",
        multi,
        [Step::Multi(MultiSelectReply::Picked(MultiPick {
            picked: vec![0, 2],
            other: None,
            note: None,
        }))],
    );
    assert_eq!(
        result["text"],
        "User selected: Session handling, Multi-device policy"
    );
}

#[test]
fn discuss_is_an_answer_with_instructions() {
    let request = r#"{"question": "Layout?", "options": ["A", "B"]}"#;
    let (result, script) = run(
        "ask_question",
        request,
        [Step::Select(SelectReply::Discuss)],
    );
    match &script.shown[0] {
        Shown::Select(s) => {
            assert_eq!(
                s.other_label.as_deref(),
                Some("Something else (I'll explain)")
            );
            assert_eq!(s.discuss_label.as_deref(), Some("Let's discuss this"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(result["status"], "answered");
    assert_eq!(result["answers"][0]["discuss"], true);
    assert_eq!(result["answer"], serde_json::Value::Null);
    let text = result["text"].as_str().unwrap();
    assert!(
        text.starts_with("User wants to discuss this topic"),
        "{text}"
    );
    assert!(text.contains("resume_structured"), "{text}");
    // Where discuss is not offered, choosing it is refused.
    let (_, script) = run(
        "interview",
        request,
        [Step::Select(SelectReply::Discuss), select(0)],
    );
    assert_eq!(
        script.frames[1].error.as_deref(),
        Some("Pick one of the options.")
    );
}

#[test]
fn other_kinds_in_words() {
    let (r, _) = run(
        "interview",
        r#"{"question": "Sure?", "type": "confirm"}"#,
        [Step::Confirm(ConfirmReply::Answered(false))],
    );
    assert_eq!(
        (r["answer"].clone(), r["text"].clone()),
        (false.into(), "User answered: no".into())
    );
    let (r, _) = run(
        "interview",
        r#"{"question": "How much?", "type": "number"}"#,
        [Step::Number(NumberReply::Entered("1_000.5".into()))],
    );
    assert_eq!(
        (r["answer"].clone(), r["text"].clone()),
        (1000.5.into(), "User entered: 1000.5".into())
    );
    let (r, _) = run(
        "interview",
        r#"{"question": "How many?", "type": "number"}"#,
        [Step::Number(NumberReply::Entered("-3".into()))],
    );
    assert_eq!(
        r["answer"],
        serde_json::json!(-3),
        "whole numbers have no fraction"
    );
    let (r, _) = run(
        "interview",
        r#"{"question": "Notes?", "multiline": true}"#,
        [text("line one\nline two\n\n")],
    );
    assert_eq!(r["answer"], "line one\nline two");
}

#[test]
fn invalid_results_say_where_and_what_to_do() {
    let (result, script) = run(
        "interview",
        r#"{"questions": [{"question": "x", "options": ["a", ""]}]}"#,
        [select(0)],
    );
    assert!(
        script.frames.is_empty(),
        "nothing is shown for an invalid request"
    );
    assert_eq!(result["status"], "invalid");
    assert_eq!(result["error"]["path"], "questions[0].options[1].label");
    assert_eq!(
        result["text"],
        "The request is invalid, so nothing was asked: questions[0].options[1].label: is empty: it must \
         say something. Fix the arguments and call the tool again."
    );
}

#[test]
fn definitions_are_valid_json_schemas_with_teaching_descriptions() {
    let tools = crate::schema::definitions();
    let names: Vec<_> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "interview",
            "ask_question",
            "ask_multi_select",
            "resume_structured",
            "AskUserQuestion",
            "request_user_input",
            "ask_user",
            "question"
        ]
    );
    for name in &names {
        assert!(
            crate::request::Tool::named(name).is_some(),
            "every defined tool is one the plugin reads: {name}"
        );
    }
    for tool in &tools {
        let schema: serde_json::Value = serde_json::from_str(&tool.parameters).unwrap();
        assert_eq!(schema["type"], "object", "{}", tool.name);
        assert!(schema["required"].is_array(), "{}", tool.name);
    }
    assert!(tools[0].description.contains("never add \"Other\""));
    assert!(tools[0].description.contains("recommended: true"));
}

#[test]
fn a_text_format_is_read_shown_and_enforced_in_an_agents_request() {
    let request = r#"{"question": "When?", "format": "date"}"#;
    let (result, script) = run(
        "interview",
        request,
        [text("next friday"), text("2026-11-27")],
    );
    assert_eq!(result["answer"], "2026-11-27");
    assert_eq!(
        script.frames[1].error.as_deref(),
        Some("Type a date as YYYY-MM-DD, like 2026-11-21.")
    );
    let Shown::Text(shown) = &script.shown[0] else {
        panic!()
    };
    assert_eq!(
        shown.placeholder.as_deref(),
        Some("YYYY-MM-DD"),
        "the format is shown"
    );
    let checked: serde_json::Value =
        serde_json::from_str(&crate::tool::check("interview", request).json).unwrap();
    assert_eq!(checked["questions"][0]["format"], "date");
    let bad = error(r#"{"question": "When?", "format": "phone"}"#);
    assert_eq!(bad.path, "format");
    assert!(
        bad.message.contains("email, uri, date and date-time"),
        "{}",
        bad.message
    );
}

#[test]
fn whole_numbers_are_exact_and_too_large_ones_are_asked_again() {
    let (result, script) = run(
        "interview",
        r#"{"question": "Which id?", "type": "integer"}"#,
        [
            Step::Number(NumberReply::Entered("1e30".into())),
            Step::Number(NumberReply::Entered("9_007_199_254_740_993".into())),
        ],
    );
    assert_eq!(
        result["answer"],
        serde_json::json!(9_007_199_254_740_993_i64)
    );
    assert_eq!(result["text"], "User entered: 9007199254740993");
    let errors = script.errors();
    assert_eq!(
        errors,
        ["1e30 is too large to keep exact. Enter a whole number."]
    );
}

#[test]
fn result_json_escapes_what_could_drive_a_terminal_or_hide_text() {
    let mut script = Script::new([text("left\u{202e}right\u{9b}2J")]);
    let settings = Settings {
        skip_response: None,
    };
    let result = crate::tool::call(
        "interview",
        r#"{"question": "Name?"}"#,
        &settings,
        &mut script,
    )
    .json;
    assert!(result.contains(r"left\u202eright\u009b2J"), "{result}");
    assert!(!result.contains('\u{202e}') && !result.contains('\u{9b}'));
    let parsed: serde_json::Value = serde_json::from_str(&result).unwrap();
    assert_eq!(parsed["answer"], "left\u{202e}right\u{9b}2J");
}

#[test]
fn time_up_ends_the_request_unavailable_with_the_answers_given_before() {
    let batch = r#"{"questions": [
        {"question": "Layout?", "options": ["A", "B"]},
        {"question": "Name?"},
        {"question": "Ship?", "type": "confirm"}]}"#;
    let (result, _) = run("interview", batch, [select(1), nav_text(Nav::TimeUp)]);
    assert_eq!(result["status"], "unavailable");
    assert_eq!(result["reason"], "timed-out");
    assert_eq!(field(&result, "value"), [serde_json::json!("B")]);
    let said = result["text"].as_str().unwrap();
    assert!(
        said.starts_with("No human answered in the time allowed for this question.")
            && said.contains("Before that, 1 of 3 questions were answered:\n1. Layout?"),
        "{said}"
    );
    assert_eq!(result["native"], serde_json::Value::Null);
    // At the review too: every answer given is kept.
    let single =
        r#"{"questions": [{"question": "Layout?", "options": ["A", "B"]}, {"question": "Name?"}]}"#;
    let (result, _) = run(
        "interview",
        single,
        [select(0), text("Ada"), Step::Review(ReviewReply::TimeUp)],
    );
    assert_eq!(
        (&result["status"], &result["reason"]),
        (&"unavailable".into(), &"timed-out".into())
    );
    assert_eq!(
        field(&result, "value"),
        [serde_json::json!("A"), serde_json::json!("Ada")]
    );
    // Nothing answered: the text says so without a list.
    let (result, _) = run(
        "interview",
        r#"{"question": "Name?"}"#,
        [nav_text(Nav::TimeUp)],
    );
    assert_eq!(result["answers"], serde_json::json!([]));
    assert_eq!(result["answer"], serde_json::Value::Null);
    assert!(!result["text"].as_str().unwrap().contains("Before that"));
}
