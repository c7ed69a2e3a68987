//! Every request shape of the peer ask-the-user tools reads into the same model.

use crate::model::*;
use crate::testing::*;

fn select_of(q: &Question) -> &SelectQuestion {
    match &q.kind {
        QuestionKind::Select(s) => s,
        other => panic!("expected a select, got {other:?}"),
    }
}

fn multi_of(q: &Question) -> &MultiSelectQuestion {
    match &q.kind {
        QuestionKind::MultiSelect(m) => m,
        other => panic!("expected a multi-select, got {other:?}"),
    }
}

#[test]
fn elelem_single_question_with_string_options() {
    let q = questions(r#"{"question": "Favourite colour?", "options": ["Red", "Green", "Blue"]}"#);
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].id, "q1");
    assert_eq!(q[0].prompt, "Favourite colour?");
    let s = select_of(&q[0]);
    assert_eq!(
        s.options
            .iter()
            .map(|o| o.value.as_str())
            .collect::<Vec<_>>(),
        ["Red", "Green", "Blue"]
    );
    assert!(s.other, "Other is on by default");
    assert!(!s.discuss);
}

#[test]
fn elelem_multi_flag_and_batch_with_plain_text() {
    let q = questions(
        r#"{"question": "ignored when questions are given", "questions": [
            {"question": "Toppings?", "options": ["Cheese", "Ham"], "multi": true},
            {"question": "Your name?"}
        ]}"#,
    );
    assert_eq!(q.len(), 2);
    assert!(matches!(q[0].kind, QuestionKind::MultiSelect(_)));
    assert!(matches!(q[1].kind, QuestionKind::Text(_)));
    assert_eq!((q[0].id.as_str(), q[1].id.as_str()), ("q1", "q2"));
}

#[test]
fn interactive_form_question_with_choice_multi_and_text() {
    let q = questions(
        r#"{"questions": [
            {"id": "language", "question": "Which language?", "input_type": "choice",
             "options": [{"label": "Python", "value": "python", "recommended": true},
                         {"label": "Go", "value": "go"}]},
            {"id": "features", "question": "Which features?", "input_type": "choice", "multi_select": true,
             "options": [{"label": "Auth", "value": "auth"}, {"label": "Caching", "value": "caching"}],
             "default": ["caching"]},
            {"id": "notes", "question": "Anything else?", "input_type": "text", "required": false,
             "placeholder": "Optional notes..."}
        ]}"#,
    );
    let language = select_of(&q[0]);
    assert_eq!(language.options[0].value, "python");
    assert!(language.options[0].recommended);
    assert_eq!(multi_of(&q[1]).defaults, [1]);
    assert!(!q[2].required);
    match &q[2].kind {
        QuestionKind::Text(t) => assert_eq!(t.placeholder.as_deref(), Some("Optional notes...")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn user_select_with_descriptions_and_allow_custom() {
    let q = questions_of(
        "user_select",
        r#"{"question": "Which package manager?", "options": [{"label": "npm"},
            {"label": "pnpm", "description": "Faster, content-addressable"}], "allowCustom": false}"#,
    );
    let s = select_of(&q[0]);
    assert_eq!(
        s.options[1].description.as_deref(),
        Some("Faster, content-addressable")
    );
    assert_eq!(s.options[1].value, "pnpm", "value defaults to the label");
    assert!(!s.other, "allowCustom: false hides the free-text entry");
}

#[test]
fn ask_question_always_offers_both_escape_hatches() {
    let q = questions_of(
        "ask_question",
        r#"{"question": "Layout?", "options": [{"label": "Reuse Card"}, {"label": "Reuse ListView"}], "other": false}"#,
    );
    let s = select_of(&q[0]);
    assert!(s.other && s.discuss);
    let e = error_of(
        "ask_question",
        r#"{"question": "Layout?", "options": ["Only one"]}"#,
    );
    assert_eq!(e.path, "options");
    assert!(e.message.contains("2 to 6"), "{}", e.message);
    let seven = r#"{"question": "?", "options": ["a","b","c","d","e","f","g"]}"#;
    assert!(
        error_of("ask_question", seven)
            .message
            .contains("has 7 options")
    );
}

#[test]
fn ask_multi_select_needs_one_pick_and_has_no_other() {
    let q = questions_of(
        "ask_multi_select",
        r#"{"question": "Areas?", "options": [{"label": "Session handling"}]}"#,
    );
    let m = multi_of(&q[0]);
    assert_eq!(m.min_picks, Some(1));
    assert!(!m.other);
}

#[test]
fn resume_structured_replies_without_asking() {
    let (result, script) = run(
        "resume_structured",
        r#"{"summary": "Kanban board, drag and drop."}"#,
        [],
    );
    assert_eq!(result["status"], "answered");
    assert_eq!(
        result["text"],
        "Conversation summary captured: Kanban board, drag and drop. Resuming structured questions."
    );
    assert!(script.frames.is_empty());
    let e = error_of("resume_structured", r#"{"summary": "  "}"#);
    assert_eq!(e.path, "summary");
}

#[test]
fn claude_code_ask_user_question() {
    let q = questions_of(
        "AskUserQuestion",
        r#"{"questions": [{"question": "Which library?", "header": "Library", "multiSelect": false,
            "options": [{"label": "date-fns", "description": "Small"}, {"label": "Luxon", "description": "Time zones"}]},
            {"question": "Which features?", "header": "Features", "multiSelect": true,
            "options": [{"label": "A", "description": ""}, {"label": "B", "description": ""}]}]}"#,
    );
    assert_eq!(q[0].header.as_deref(), Some("Library"));
    assert!(matches!(q[0].kind, QuestionKind::Select(_)));
    assert!(matches!(q[1].kind, QuestionKind::MultiSelect(_)));
}

#[test]
fn codex_request_user_input() {
    let q = questions_of(
        "request_user_input",
        r#"{"questions": [{"id": "token", "header": "Token", "question": "API token?", "isSecret": true},
            {"id": "db", "header": "DB", "question": "Database?", "isOther": false,
             "options": [{"label": "Postgres", "description": "default"}, {"label": "SQLite", "description": "file"}]}]}"#,
    );
    match &q[0].kind {
        QuestionKind::Text(t) => assert!(t.secret),
        other => panic!("{other:?}"),
    }
    assert!(!select_of(&q[1]).other);
}

#[test]
fn gemini_ask_user_types() {
    let q = questions_of(
        "ask_user",
        r#"{"questions": [{"question": "Continue?", "header": "Go", "type": "yesno"},
            {"question": "Pick", "header": "Pick", "type": "choice", "multiSelect": true, "options": [{"label": "x", "description": "d"}]},
            {"question": "Say", "header": "Say", "type": "text", "placeholder": "..."}]}"#,
    );
    // Gemini CLI offers its yes/no question as the options Yes and No, with a typed answer.
    let yes_no = select_of(&q[0]);
    let labels: Vec<_> = yes_no.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["Yes", "No"]);
    assert!(yes_no.other);
    assert!(matches!(q[1].kind, QuestionKind::MultiSelect(_)));
    assert!(matches!(q[2].kind, QuestionKind::Text(_)));
    // The general tool keeps a yes/no question a confirm.
    let q = questions_of(
        "interview",
        r#"{"questions": [{"question": "Continue?", "type": "yesno"}]}"#,
    );
    assert!(matches!(q[0].kind, QuestionKind::Confirm(_)));
}

#[test]
fn gemini_ask_user_reads_written_out_line_breaks() {
    let q = questions_of(
        "ask_user",
        r#"{"questions": [{"question": "Line one\\nline two", "header": "A\\r\\nB", "type": "choice",
            "options": [{"label": "x\\ny", "description": "d\\ne"}, {"label": "z", "description": ""}]}]}"#,
    );
    assert_eq!(q[0].prompt, "Line one\nline two");
    assert_eq!(q[0].header.as_deref(), Some("A\nB"));
    let options = &select_of(&q[0]).options;
    assert_eq!(options[0].label, "x\ny");
    assert_eq!(options[0].description.as_deref(), Some("d\ne"));
    // Other tools take the backslashes as written.
    let q = questions_of("interview", r#"{"question": "a\\nb"}"#);
    assert_eq!(q[0].prompt, "a\\nb");
}

#[test]
fn a_label_ending_in_recommended_is_the_recommendation_as_sent() {
    let q = questions_of(
        "request_user_input",
        r#"{"questions": [{"id": "p", "header": "Plan", "question": "Proceed?",
            "options": [{"label": "No", "description": ""}, {"label": "Yes (Recommended)", "description": ""}]}]}"#,
    );
    let options = &select_of(&q[0]).options;
    assert!(!options[0].recommended);
    assert!(options[1].recommended);
    assert_eq!(options[1].label, "Yes (Recommended)");
    assert_eq!(options[1].value, "Yes (Recommended)");
}

#[test]
fn opencode_question_multiple() {
    let q = questions_of(
        "question",
        r#"{"questions": [{"question": "Which?", "header": "Which", "multiple": true,
            "options": [{"label": "One", "description": "1"}, {"label": "Two", "description": "2"}]}]}"#,
    );
    assert!(matches!(q[0].kind, QuestionKind::MultiSelect(_)));
}

#[test]
fn native_kinds_and_their_settings() {
    let q = questions(
        r#"{"questions": [
            {"id": "n", "question": "How many?", "type": "integer", "min": 1, "max": 5, "default": 2},
            {"id": "c", "question": "Sure?", "type": "confirm", "default": "no"},
            {"id": "t", "question": "Describe", "multiline": true, "min_length": 3, "max_length": 80},
            {"id": "m", "question": "Pick", "type": "multi_select", "options": ["a", "b", "c"], "min_picks": 1, "max_picks": 2},
            {"id": "s", "question": "One", "options": ["a", "b"], "default": "B", "discuss": true}
        ]}"#,
    );
    assert!(matches!(
        q[0].kind,
        QuestionKind::Number(NumberQuestion {
            integer: true,
            min: Some(1.0),
            max: Some(5.0),
            default: Some(2.0),
            ..
        })
    ));
    assert!(matches!(
        q[1].kind,
        QuestionKind::Confirm(ConfirmQuestion {
            default: Some(false)
        })
    ));
    assert!(
        matches!(&q[2].kind, QuestionKind::Text(t) if t.multiline && t.min_length == Some(3) && t.max_length == Some(80))
    );
    assert!(
        matches!(&q[3].kind, QuestionKind::MultiSelect(m) if m.min_picks == Some(1) && m.max_picks == Some(2))
    );
    let s = select_of(&q[4]);
    assert_eq!(
        s.default,
        Some(1),
        "a default may name an option by label, any case"
    );
    assert!(s.discuss);
}

#[test]
fn forgiving_of_what_models_send() {
    // Nulls for absent fields, numbers and booleans as option values, "true" as a string,
    // and arguments encoded twice.
    let q = questions(
        r#"{"questions": [{"question": "Pick", "options": [1, 2, true], "header": null, "multi": "true"}]}"#,
    );
    assert_eq!(
        multi_of(&q[0])
            .options
            .iter()
            .map(|o| o.value.as_str())
            .collect::<Vec<_>>(),
        ["1", "2", "true"]
    );
    let twice = serde_json::to_string(r#"{"question": "Name?"}"#).unwrap();
    assert_eq!(questions(&twice)[0].prompt, "Name?");
}

#[test]
fn a_field_encoded_twice_is_read_as_the_value_it_encodes() {
    // The MCP Inspector CLI sends `options='["Red","Green"]'`: a field encoded as a JSON string.
    let q = questions(
        r#"{"question": "Which?", "options": "[\"Red\", \"Green\", \"Blue\"]",
            "multi": "true", "default": "[\"red\", \"Blue\"]", "max_picks": "2"}"#,
    );
    let m = multi_of(&q[0]);
    let labels: Vec<_> = m.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["Red", "Green", "Blue"]);
    assert_eq!(m.defaults, [0, 2]);
    assert_eq!(m.max_picks, Some(2));
    // A default that names an option is that option, even when it reads as JSON.
    let q = questions(
        r#"{"question": "Which?", "multi": true, "options": ["[1]", "1"], "default": "[1]"}"#,
    );
    assert_eq!(multi_of(&q[0]).defaults, [0]);
    // A string that is not JSON of the type wanted stays an error, and a text stays as written.
    let e = error(r#"{"question": "Which?", "options": "Red, Green"}"#);
    assert_eq!(e.path, "options");
    assert!(e.message.contains("must be an array"), "{}", e.message);
    let e = error(r#"{"questions": "{\"question\": \"x\"}"}"#);
    assert_eq!(e.path, "questions");
    let q = questions(r#"{"question": "[\"not\", \"options\"]"}"#);
    assert_eq!(q[0].prompt, r#"["not", "options"]"#);
}

#[test]
fn generated_ids_never_collide_with_given_ones() {
    let q = questions(r#"{"questions": [{"question": "A"}, {"id": "q1", "question": "B"}]}"#);
    assert_eq!(q[0].id, "q1_2");
    assert_eq!(q[1].id, "q1");
}

#[test]
fn tool_names_are_matched_loosely_and_unknown_ones_listed() {
    assert!(matches!(
        crate::request::Tool::named("AskUserQuestion"),
        Some(crate::request::Tool::AskUserQuestion)
    ));
    assert!(matches!(
        crate::request::Tool::named("ask-question"),
        Some(crate::request::Tool::AskQuestion)
    ));
    let e = error_of("ask_the_oracle", r#"{"question": "?"}"#);
    assert!(e.message.contains("ask_multi_select"), "{}", e.message);
}
