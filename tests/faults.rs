//! What happens when things go wrong: huge requests, bad lines, endless input, a poisoned
//! cache, a full disk, hostile text. Each test is a fault that once lost a person's answers
//! or hurt the machine.

mod common;

use serde_json::{Value as Json, json};

use common::*;

/// Two multi-selects of 10,000 options, every option picked: the answers come back, well
/// inside the plugin's compute budget.
#[test]
fn two_ten_thousand_option_multi_selects_all_picked_are_answered() {
    let question = |n: u32| {
        let options: Vec<String> = (0..10_000).map(|i| format!("option {i}")).collect();
        json!({"id": format!("q{n}"), "question": format!("Pick {n}"), "multiple": true, "options": options})
    };
    let path = write_request(
        "two_big_multi",
        &json!({"questions": [question(1), question(2)]}),
    );
    let output = run(&["ask", "--numbered", &path], "1-10000\n1-10000\n\n");
    assert_eq!(output.status.code(), Some(0), "{}", tail(&stderr(&output)));
    let result = result(&output);
    for answer in result["answers"].as_array().unwrap() {
        let picked = answer["value"].as_array().unwrap();
        assert_eq!(picked.len(), 10_000);
        assert_eq!(picked[9_999], "option 9999");
    }
}

/// Ten thousand defaults named by label, in another case, are read within the budget.
#[test]
fn ten_thousand_defaults_named_by_label_are_read() {
    let options: Vec<Json> = (0..10_000)
        .map(|i| json!({"label": format!("Option {i}"), "value": format!("v{i}")}))
        .collect();
    let defaults: Vec<String> = (0..10_000).map(|i| format!("OPTION {i}")).collect();
    let request =
        json!({"question": "Pick", "multiple": true, "options": options, "default": defaults});
    let path = write_request("big_defaults", &request);
    let output = run(&["check", &path], "");
    assert_eq!(output.status.code(), Some(0), "{}", tail(&stderr(&output)));
}

/// A batch far over the question limit is refused by its count, before any question is read.
#[test]
fn a_huge_batch_is_refused_by_its_count() {
    let questions: Vec<Json> = (0..20_000)
        .map(|i| json!({"question": format!("Q{i}"), "options": ["a", "b"]}))
        .collect();
    let path = write_request("huge_batch", &json!({ "questions": questions }));
    let output = run(&["check", &path], "");
    assert_eq!(output.status.code(), Some(2), "{}", tail(&stderr(&output)));
    assert_eq!(
        result(&output)["error"],
        json!({"path": "questions", "message": "has 20000 questions; at most 50 fit in one request"})
    );
}

/// The last lines of a long screen, for a failure message.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}
