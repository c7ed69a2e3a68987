//! The results a host gives when no call could give one, as the plugin words them.

use serde_json::{Value as Json, json};

use crate::host_results::*;
use crate::model::*;

fn given() -> Vec<Given> {
    vec![Given {
        position: 1,
        header: Some("Env".into()),
        prompt: "Where to?".into(),
        answer: r#""prod""#.into(),
        note: None,
    }]
}

fn parsed(text: &str) -> Json {
    serde_json::from_str(text).expect("the plugin writes JSON")
}

#[test]
fn a_request_that_cannot_be_read_is_invalid_like_any_other() {
    let result = unreadable("", "not UTF-8 at byte 3");
    assert_eq!(result.status, Status::Invalid);
    assert_eq!(
        parsed(&result.json),
        json!({
            "status": "invalid",
            "answers": [],
            "error": {"path": "", "message": "not UTF-8 at byte 3"},
            "text": "The request is invalid, so nothing was asked: the arguments: not UTF-8 at \
                     byte 3. Fix the arguments and call the tool again.",
        })
    );
}

#[test]
fn what_the_host_cannot_use_is_named_and_not_blamed_on_the_arguments() {
    let result = unreadable("--journal", "--journal /x: permission denied");
    assert_eq!(result.status, Status::Invalid);
    let json = parsed(&result.json);
    assert_eq!(json["error"]["path"], "--journal");
    assert_eq!(
        json["text"],
        "Nothing was asked: --journal /x: permission denied."
    );
}

#[test]
fn a_failure_keeps_what_the_person_gave_and_says_it_was_not_checked() {
    let result = failed("the plugin failed in `call`: out of fuel", &given());
    assert_eq!(result.status, Status::Failed);
    assert_eq!(
        parsed(&result.json),
        json!({
            "status": "failed",
            "answers": [{"position": 1, "question": "Where to?", "answer": "prod", "header": "Env"}],
            "error": {"path": "", "message": "the plugin failed in `call`: out of fuel"},
            "text": "The question tool failed after the user answered, so their answers were not \
                     checked: the plugin failed in `call`: out of fuel. What the user gave: \
                     \"Where to?\"=\"prod\".",
        })
    );
    let before = parsed(&failed("no such file", &[]).json);
    assert_eq!(
        before["text"],
        "The question tool failed before the user answered: no such file."
    );
}

#[test]
fn a_hosts_message_reaches_the_json_with_its_controls_escaped() {
    let result = failed("bad \u{1b}[31m\u{202e}", &[]);
    assert!(!result.json.contains('\u{1b}') && !result.json.contains('\u{202e}'));
    assert!(result.json.contains(r"\u001b") && result.json.contains(r"\u202e"));
}

#[test]
fn an_elicitation_that_cannot_be_read_is_a_parse_error_and_one_that_failed_is_cancelled() {
    let unread = unreadable_elicitation("expected value at line 1");
    assert_eq!(unread.ending, ElicitEnding::Invalid);
    assert_eq!(
        parsed(&unread.reply),
        json!({"jsonrpc": "2.0", "id": null,
               "error": {"code": -32700, "message": "expected value at line 1"}})
    );

    let request = r#"{"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {}}"#;
    let failure = failed_elicitation(request, "out of memory", &given());
    assert_eq!(failure.ending, ElicitEnding::Failed);
    assert_eq!(
        parsed(&failure.reply),
        json!({"jsonrpc": "2.0", "id": 7, "result": {"action": "cancel", "_meta": {
            "interview/failure": {"message": "out of memory", "given": [
                {"position": 1, "question": "Where to?", "answer": "prod", "header": "Env"}]}}}})
    );
    let bare = failed_elicitation(r#"{"message": "Hi"}"#, "out of memory", &[]);
    assert_eq!(parsed(&bare.reply)["action"], "cancel");
    assert!(parsed(&bare.reply).get("jsonrpc").is_none());
}
