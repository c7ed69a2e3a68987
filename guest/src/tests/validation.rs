//! Every request is checked before anything is shown; errors name the exact place.

use crate::limits::*;
use crate::model::*;
use crate::testing::*;

/// The path and a fragment of the message of an invalid request.
fn rejects(arguments: &str, path: &str, fragment: &str) {
    let e = error(arguments);
    assert_eq!(e.path, path, "path of {arguments}: {}", e.message);
    assert!(
        e.message.contains(fragment),
        "message of {arguments}: {:?} lacks {fragment:?}",
        e.message
    );
}

#[test]
fn json_and_shape() {
    rejects("{not json", "", "not valid JSON");
    rejects("[1, 2]", "", "must be a JSON object");
    rejects("{}", "", "needs \"questions\"");
    rejects(r#"{"questions": []}"#, "questions", "is empty");
    rejects(
        r#"{"questions": {"question": "x"}}"#,
        "questions",
        "must be an array",
    );
    rejects(
        r#"{"questions": ["x"]}"#,
        "questions[0]",
        "must be a JSON object",
    );
    rejects(
        r#"{"questions": [{"header": "x"}]}"#,
        "questions[0].question",
        "is missing",
    );
}

#[test]
fn field_types_are_named_in_the_agents_spelling() {
    rejects(
        r#"{"questions": [{"question": 5}]}"#,
        "questions[0].question",
        "must be a string, not the number 5",
    );
    rejects(
        r#"{"questions": [{"question": "x", "multiSelect": 3, "options": ["a"]}]}"#,
        "questions[0].multiSelect",
        "true or false",
    );
    rejects(
        r#"{"questions": [{"question": "x", "type": "slider"}]}"#,
        "questions[0].type",
        "not a question type",
    );
    rejects(
        r#"{"questions": [{"question": "x", "type": "number", "min": "low"}]}"#,
        "questions[0].min",
        "must be a number",
    );
}

#[test]
fn empty_texts() {
    rejects(
        r#"{"questions": [{"question": "  "}]}"#,
        "questions[0].question",
        "is empty",
    );
    rejects(
        r#"{"questions": [{"question": "x", "options": ["a", ""]}]}"#,
        "questions[0].options[1].label",
        "is empty",
    );
    rejects(
        r#"{"questions": [{"question": "x", "options": [{"label": " ", "value": "v"}]}]}"#,
        "questions[0].options[0].label",
        "is empty",
    );
    rejects(
        r#"{"questions": [{"question": "\u200b\ufeff \u2060"}]}"#,
        "questions[0].question",
        "is empty",
    );
    rejects(
        r#"{"questions": [{"question": "x", "options": [{"value": "v"}]}]}"#,
        "questions[0].options[0].label",
        "is missing",
    );
    // An empty id from a model is taken as no id: one is generated (typed `ask` is strict).
    assert_eq!(
        questions(r#"{"questions": [{"id": "", "question": "x"}]}"#)[0].id,
        "q1"
    );
}

#[test]
fn choice_questions_need_options_and_others_must_not_have_them() {
    rejects(
        r#"{"questions": [{"question": "x", "input_type": "choice"}]}"#,
        "questions[0].options",
        "needs options",
    );
    rejects(
        r#"{"questions": [{"question": "x", "multi": true}]}"#,
        "questions[0].options",
        "needs options",
    );
    rejects(
        r#"{"questions": [{"question": "x", "options": []}]}"#,
        "questions[0].options",
        "is empty",
    );
    rejects(
        r#"{"questions": [{"question": "x", "type": "text", "options": ["a"]}]}"#,
        "questions[0].options",
        "only for select",
    );
}

#[test]
fn duplicates() {
    rejects(
        r#"{"questions": [{"id": "a", "question": "x"}, {"id": "a", "question": "y"}]}"#,
        "questions[1].id",
        "already the id of questions[0]",
    );
    rejects(
        r#"{"question": "x", "options": ["Red", "red"]}"#,
        "options[1].label",
        "also the label of option 0",
    );
    // Labels that differ only in what a person cannot see are the same label to them.
    for hidden in [
        "N\\u200bo",
        "\\ufeffNo",
        "N\\u00ado",
        "N\\u2060o",
        " no\\u2028",
    ] {
        rejects(
            &format!(r#"{{"question": "x", "options": ["No", "{hidden}"]}}"#),
            "options[1].label",
            "also the label of option 0",
        );
    }
    rejects(
        r#"{"question": "x", "options": [{"label": "A", "value": "v"}, {"label": "B", "value": "v"}]}"#,
        "options[1].value",
        "also the value",
    );
    rejects(
        r#"{"question": "x", "multi": true, "options": ["a", "b"], "default": ["a", "a"]}"#,
        "default",
        "twice",
    );
}

#[test]
fn defaults_must_be_options() {
    rejects(
        r#"{"questions": [{"question": "x", "options": ["Red"], "default": "Purple"}]}"#,
        "questions[0].default",
        "\"Purple\" is not one of the options",
    );
    rejects(
        r#"{"question": "x", "options": ["a", "b"], "default": ["a", "b"]}"#,
        "default",
        "one default",
    );
    rejects(
        r#"{"question": "x", "type": "confirm", "default": "maybe"}"#,
        "default",
        "true or false",
    );
    rejects(
        r#"{"question": "x", "type": "number", "max": 3, "default": 5}"#,
        "default",
        "5 is more than 3",
    );
    rejects(
        r#"{"question": "x", "type": "integer", "default": 2.5}"#,
        "default",
        "not a whole number",
    );
}

#[test]
fn minimums_above_maximums() {
    rejects(
        r#"{"question": "x", "type": "number", "min": 5, "max": 1}"#,
        "min",
        "more than max",
    );
    rejects(
        r#"{"question": "x", "type": "integer", "min": 1.2, "max": 1.8}"#,
        "min",
        "no whole number",
    );
    rejects(
        r#"{"question": "x", "min_length": 9, "max_length": 3}"#,
        "min_length",
        "more than max_length",
    );
    rejects(
        r#"{"question": "x", "default": "too long", "max_length": 3}"#,
        "default",
        "longer than max_length",
    );
    rejects(
        r#"{"question": "x", "multi": true, "options": ["a", "b"], "min_picks": 3, "max_picks": 2, "other": false}"#,
        "min_picks",
        "only 2 entries",
    );
    rejects(
        r#"{"question": "x", "multi": true, "options": ["a", "b", "c"], "min_picks": 3, "max_picks": 2}"#,
        "min_picks",
        "more than max_picks",
    );
    rejects(
        r#"{"question": "x", "max_length": 5000000000}"#,
        "max_length",
        "is 5000000000, more than the largest count, 4294967295",
    );
    rejects(
        r#"{"question": "x", "multi": true, "options": ["a"], "max_picks": 0}"#,
        "max_picks",
        "is 0",
    );
    rejects(
        r#"{"question": "x", "multi": true, "options": ["a", "b"], "default": ["a", "b"], "max_picks": 1}"#,
        "default",
        "more than max_picks",
    );
}

#[test]
fn size_limits() {
    let many: Vec<String> = (0..=MAX_QUESTIONS)
        .map(|i| format!(r#"{{"question": "q{i}"}}"#))
        .collect();
    rejects(
        &format!(r#"{{"questions": [{}]}}"#, many.join(",")),
        "questions",
        "at most 50",
    );
    let options: Vec<String> = (0..=MAX_OPTIONS).map(|i| format!("\"o{i}\"")).collect();
    rejects(
        &format!(r#"{{"question": "x", "options": [{}]}}"#, options.join(",")),
        "options",
        "limit is 10000",
    );
    let long = "x".repeat(MAX_PROMPT_CHARS + 1);
    rejects(
        &format!(r#"{{"question": "{long}"}}"#),
        "question",
        "limit is 4000",
    );
    let label = "l".repeat(MAX_SHORT_CHARS + 1);
    rejects(
        &format!(r#"{{"question": "x", "options": ["{label}"]}}"#),
        "options[0].label",
        "limit is 200",
    );
    let huge = format!(r#"{{"question": "{}"}}"#, "x".repeat(MAX_REQUEST_BYTES));
    rejects(&huge, "", "more than the limit");
    // Together, questions may not exceed the total.
    let half: Vec<String> = (0..MAX_OPTIONS).map(|i| format!("\"o{i}\"")).collect();
    let q = format!(r#"{{"question": "x", "options": [{}]}}"#, half.join(","));
    rejects(
        &format!(r#"{{"questions": [{q}, {q}, {q}]}}"#),
        "questions[2].options",
        "more than 20000",
    );
}

#[test]
fn typed_ask_is_validated_too() {
    let question = Question {
        id: "a".into(),
        header: None,
        prompt: "".into(),
        required: true,
        kind: QuestionKind::Confirm(ConfirmQuestion { default: None }),
    };
    let outcome = crate::tool::ask(
        vec![question],
        &Settings {
            skip_response: None,
        },
        &mut Script::new([]),
    );
    match outcome {
        Outcome::Invalid(e) => assert_eq!(e.path, "questions[0].question"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn check_reports_the_error_or_the_questions_understood() {
    let invalid: serde_json::Value =
        serde_json::from_str(&crate::tool::check("interview", "{}").json).unwrap();
    assert_eq!(invalid["status"], "invalid");
    assert_eq!(invalid["error"]["path"], "");
    let valid: serde_json::Value = serde_json::from_str(
        &crate::tool::check(
            "interview",
            r#"{"question": "x", "options": ["a"], "default": "a"}"#,
        )
        .json,
    )
    .unwrap();
    assert_eq!(valid["status"], "valid");
    assert_eq!(valid["questions"][0]["type"], "select");
    assert_eq!(valid["questions"][0]["default"], "a");
    assert_eq!(valid["questions"][0]["other"], true);
}

/// `arguments` as a model held to `schema` sends them: every property the schema requires,
/// `null` for those it does not use. Panics where the schema would not let it leave one out.
fn strictly(
    schema: &serde_json::Value,
    arguments: serde_json::Value,
    path: &str,
) -> serde_json::Value {
    use serde_json::Value as Json;
    let takes_null = |s: &Json| {
        s["type"] == "null"
            || s["type"]
                .as_array()
                .is_some_and(|t| t.contains(&"null".into()))
            || s["anyOf"]
                .as_array()
                .is_some_and(|cases| cases.iter().any(|c| c["type"] == "null"))
    };
    match arguments {
        Json::Object(mut given) => {
            let schema = match schema["anyOf"].as_array() {
                Some(cases) => cases.iter().find(|c| c["properties"].is_object()).unwrap(),
                None => schema,
            };
            for name in schema["required"].as_array().unwrap() {
                let name = name.as_str().unwrap();
                let property = &schema["properties"][name];
                match given.remove(name) {
                    Some(value) => {
                        let value = strictly(property, value, &format!("{path}.{name}"));
                        given.insert(name.into(), value);
                    }
                    None if takes_null(property) => {
                        given.insert(name.into(), Json::Null);
                    }
                    None => panic!("a strict model cannot leave {path}.{name} out"),
                }
            }
            assert!(
                given.len() == schema["properties"].as_object().unwrap().len(),
                "{path}"
            );
            Json::Object(given)
        }
        Json::Array(items) => {
            let items = items.into_iter().enumerate();
            Json::Array(
                items
                    .map(|(i, item)| strictly(&schema["items"], item, &format!("{path}[{i}]")))
                    .collect(),
            )
        }
        other => other,
    }
}

#[test]
fn a_call_held_to_the_strict_schema_reads_as_the_same_call_without_its_nulls() {
    let tools = crate::tool_formats::render(&crate::schema::definitions(), ToolFormat::Openai);
    let tools: serde_json::Value = serde_json::from_str(&tools).unwrap();
    let interview = &tools[0]["function"];
    assert_eq!(
        (&interview["name"], &interview["strict"]),
        (&"interview".into(), &true.into())
    );
    let questions = serde_json::json!({"questions": [
        {"question": "Your name?", "type": "text", "max_length": 40},
        {"question": "Ship it?", "type": "confirm"},
        {"question": "How many?", "type": "number", "integer": true, "min": 1},
        {"question": "Which database?", "options": [
            {"label": "Postgres", "recommended": true}, "SQLite",
        ]},
    ]});
    let strict = strictly(&interview["parameters"], questions.clone(), "");
    assert!(strict["questions"][0]["options"].is_null(), "{strict}");
    let checked = |arguments: &serde_json::Value| {
        crate::tool::check("interview", &arguments.to_string()).json
    };
    let read = checked(&strict);
    assert!(read.contains(r#""status":"valid""#), "{read}");
    assert_eq!(read, checked(&questions));
}
