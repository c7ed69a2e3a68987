//! MCP elicitation: schemas read into questions, the form asked, and the reply sent back.

use serde_json::{Value as Json, json};

use crate::elicit::elicit;
use crate::model::*;
use crate::testing::*;

/// Elicits `request` against `steps`: how it ended, the reply JSON, and the script.
fn run_form(request: &Json, steps: impl IntoIterator<Item = Step>) -> (ElicitEnding, Json, Script) {
    let mut script = Script::new(steps);
    let elicitation = elicit(&request.to_string(), None, &mut script);
    let reply = serde_json::from_str(&elicitation.reply).expect("the reply is JSON");
    (elicitation.ending, reply, script)
}

/// A form of the given properties (and required names), as `params`.
fn form(properties: Json, required: &[&str]) -> Json {
    json!({
        "message": "Please fill this in",
        "requestedSchema": { "type": "object", "properties": properties, "required": required },
    })
}

/// The questions a form becomes, as the person is shown them.
fn questions_of_form(properties: Json, required: &[&str]) -> Vec<Question> {
    crate::elicit::form::read(&form(properties, required), "")
        .expect("a valid form")
        .questions
}

/// The error reply of an invalid `params`: its path and message.
fn refusal(params: Json) -> (String, String) {
    let (ending, reply, script) = run_form(&params, []);
    assert_eq!(ending, ElicitEnding::Invalid, "{reply}");
    assert!(script.shown.is_empty(), "nothing is asked");
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    (
        reply["error"]["data"]["path"].as_str().unwrap().to_string(),
        reply["error"]["message"].as_str().unwrap().to_string(),
    )
}

fn number(typed: &str) -> Step {
    Step::Number(NumberReply::Entered(typed.into()))
}

/// The specification's "structured data request" example, as a JSON-RPC request (the
/// conformance suite's copy).
fn contact_request() -> Json {
    let case = include_str!("../../../tests/conformance/elicit_spec_contact_form.json");
    serde_json::from_str::<Json>(case).unwrap()["elicit"].clone()
}

#[test]
fn the_specification_example_round_trips() {
    let (ending, reply, script) = run_form(
        &contact_request(),
        [
            text("Monalisa Octocat"),
            text("octocat@github.com"),
            number("30"),
            submit(),
        ],
    );
    assert_eq!(ending, ElicitEnding::Accepted);
    assert_eq!(
        reply,
        json!({
            "jsonrpc": "2.0",
            "id": 2,
            "result": {
                "action": "accept",
                "content": { "name": "Monalisa Octocat", "email": "octocat@github.com", "age": 30 }
            }
        })
    );
    let prompts: Vec<_> = script.frames.iter().map(|f| f.prompt.as_str()).collect();
    assert_eq!(
        prompts,
        ["Your full name", "Your email address", "Your age"]
    );
    let required: Vec<_> = script.frames.iter().map(|f| f.required).collect();
    assert_eq!(required, [true, true, false]);
    for frame in &script.frames {
        assert_eq!(
            frame.context.as_deref(),
            Some("Please provide your contact information")
        );
        assert!(frame.declinable);
    }
    let Some(Shown::Review(review)) = script.shown.last() else {
        panic!("the form ends with the review")
    };
    assert!(review.declinable);
    let answers: Vec<_> = review.items.iter().map(|i| i.answer.as_str()).collect();
    assert_eq!(answers, ["Monalisa Octocat", "octocat@github.com", "30"]);
}

#[test]
fn the_params_alone_get_the_result_alone_and_the_requester_is_named() {
    let params = contact_request()["params"].clone();
    let mut script = Script::new([
        text("Ada"),
        text("ada@example.com"),
        Step::Number(NumberReply::Nav(Nav::Skip)),
        submit(),
    ]);
    let elicitation = elicit(&params.to_string(), Some("github"), &mut script);
    let reply: Json = serde_json::from_str(&elicitation.reply).unwrap();
    assert_eq!(
        reply,
        json!({ "action": "accept", "content": { "name": "Ada", "email": "ada@example.com" } }),
        "a skipped optional field is left out"
    );
    assert_eq!(
        script.frames[0].context.as_deref(),
        Some("github asks: Please provide your contact information")
    );
}

#[test]
fn pattern_and_exclusive_bounds_are_asked_again_with_what_would_do() {
    let request = form(
        json!({
            "slug": { "type": "string", "pattern": "^[a-z][a-z0-9-]*$" },
            "ratio": { "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1 },
            "count": { "type": "integer", "exclusiveMinimum": 0 },
        }),
        &["slug", "ratio", "count"],
    );
    let (ending, reply, script) = run_form(
        &request,
        [
            text("My Service"),
            text("my-service"),
            number("1"),
            number("0.5"),
            number("0"),
            number("3"),
            submit(),
        ],
    );
    assert_eq!(ending, ElicitEnding::Accepted);
    assert_eq!(
        reply,
        json!({ "action": "accept", "content": { "slug": "my-service", "ratio": 0.5, "count": 3 } })
    );
    let errors = script.errors();
    assert_eq!(
        errors,
        [
            "Type text that matches the pattern ^[a-z][a-z0-9-]*$.",
            "1 is not less than 1. Enter a number more than 0 and less than 1.",
            "0 is not more than 0. Enter a whole number more than 0.",
        ]
    );
}

#[test]
fn answers_are_checked_against_the_schema_before_accept() {
    let (_, reply, script) = run_form(
        &contact_request(),
        [
            text("Ada"),
            text("ada at example"),
            text("ada@example.com"),
            number("17"),
            number("18.5"),
            submit(),
        ],
    );
    assert_eq!(reply["result"]["content"]["email"], "ada@example.com");
    assert_eq!(reply["result"]["content"]["age"], 18.5);
    let errors = script.errors();
    assert_eq!(
        errors,
        [
            "Type an email address, like name@example.com.",
            "17 is less than 18. Enter a number of 18 or more.",
        ]
    );
    // The rejected text is put back for the person to fix.
    let Shown::Text(retry) = &script.shown[2] else {
        panic!()
    };
    assert_eq!(retry.initial.as_deref(), Some("ada at example"));
}

#[test]
fn decline_and_cancel_are_distinct_and_carry_no_content() {
    let (ending, reply, _) = run_form(&contact_request(), [text("Ada"), nav_text(Nav::Decline)]);
    assert_eq!(ending, ElicitEnding::Declined);
    assert_eq!(reply["result"], json!({ "action": "decline" }));

    let (ending, reply, _) = run_form(
        &contact_request(),
        [
            text("Ada"),
            text("ada@example.com"),
            number("40"),
            Step::Review(ReviewReply::Decline),
        ],
    );
    assert_eq!(ending, ElicitEnding::Declined);
    assert_eq!(reply["result"], json!({ "action": "decline" }));

    let (ending, reply, _) = run_form(&contact_request(), [text("Ada"), nav_text(Nav::Cancel)]);
    assert_eq!(ending, ElicitEnding::Cancelled);
    assert_eq!(reply["result"], json!({ "action": "cancel" }));

    let mut nobody = Script::new([]);
    nobody.mode = Mode::Unavailable(Absence::NoTerminal);
    let elicitation = elicit(&contact_request().to_string(), None, &mut nobody);
    assert_eq!(elicitation.ending, ElicitEnding::Unavailable);
    assert!(elicitation.reply.contains(r#""action":"cancel""#));
    assert!(nobody.shown.is_empty());
}

#[test]
fn every_field_kind_of_the_specification() {
    let questions = questions_of_form(
        json!({
            "name": { "type": "string", "title": "Name", "minLength": 2, "maxLength": 40, "default": "Ada" },
            "site": { "type": "string", "format": "uri" },
            "born": { "type": "string", "format": "date", "title": "Birthday" },
            "at": { "type": "string", "format": "date-time" },
            "seats": { "type": "integer", "minimum": 1, "maximum": 9, "default": 2 },
            "ratio": { "type": "number", "maximum": 1.5 },
            "news": { "type": "boolean", "description": "Send news?", "default": false },
            "size": { "type": "string", "enum": ["s", "m", "l"], "default": "m" },
            "colour": { "type": "string", "oneOf": [
                { "const": "#f00", "title": "Red" }, { "const": "#0f0", "title": "Green" }
            ] },
            "legacy": { "type": "string", "enum": ["a", "b"], "enumNames": ["Alpha", "Beta"] },
            "tags": { "type": "array", "items": { "type": "string", "enum": ["x", "y", "z"] },
                      "minItems": 1, "maxItems": 2, "default": ["y"] },
            "pets": { "type": "array", "items": { "anyOf": [
                { "const": "cat", "title": "Cats" }, { "const": "dog", "title": "Dogs" }
            ] } }
        }),
        &["name", "seats", "size", "tags", "pets"],
    );
    let ids: Vec<_> = questions.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "name", "site", "born", "at", "seats", "ratio", "news", "size", "colour", "legacy",
            "tags", "pets"
        ],
        "the schema's order"
    );
    let required: Vec<_> = questions.iter().map(|q| q.required).collect();
    assert_eq!(
        required,
        [
            true, false, false, false, true, false, false, true, false, false, true, true
        ],
        "a required array must be answered, even without minItems"
    );
    let QuestionKind::MultiSelect(pets) = &questions[11].kind else {
        panic!()
    };
    assert_eq!(pets.min_picks, Some(0), "but no pick is an answer");
    let QuestionKind::Text(name) = &questions[0].kind else {
        panic!()
    };
    assert_eq!(
        (name.min_length, name.max_length, name.default.as_deref()),
        (Some(2), Some(40), Some("Ada"))
    );
    assert_eq!(questions[0].prompt, "Name");
    let formats: Vec<_> = questions[1..4]
        .iter()
        .map(|q| match &q.kind {
            QuestionKind::Text(t) => t.format,
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        formats,
        [
            Some(TextFormat::Uri),
            Some(TextFormat::Date),
            Some(TextFormat::DateTime)
        ]
    );
    let QuestionKind::Number(seats) = &questions[4].kind else {
        panic!()
    };
    assert_eq!(
        (seats.min, seats.max, seats.integer, seats.default),
        (Some(1.0), Some(9.0), true, Some(2.0))
    );
    let QuestionKind::Number(ratio) = &questions[5].kind else {
        panic!()
    };
    assert!(!ratio.integer);
    assert_eq!(
        questions[6].kind,
        QuestionKind::Confirm(ConfirmQuestion {
            default: Some(false)
        })
    );
    let labels = |q: &Question| -> Vec<(String, String)> {
        q.kind
            .options()
            .iter()
            .map(|o| (o.label.clone(), o.value.clone()))
            .collect()
    };
    let pair = |l: &str, v: &str| (l.to_string(), v.to_string());
    assert_eq!(
        labels(&questions[7]),
        [pair("s", "s"), pair("m", "m"), pair("l", "l")]
    );
    let QuestionKind::Select(size) = &questions[7].kind else {
        panic!()
    };
    assert_eq!(
        (size.default, size.other, size.discuss),
        (Some(1), false, false)
    );
    assert_eq!(
        labels(&questions[8]),
        [pair("Red", "#f00"), pair("Green", "#0f0")]
    );
    assert_eq!(
        labels(&questions[9]),
        [pair("Alpha", "a"), pair("Beta", "b")]
    );
    let QuestionKind::MultiSelect(tags) = &questions[10].kind else {
        panic!()
    };
    assert_eq!(
        (
            tags.min_picks,
            tags.max_picks,
            tags.defaults.as_slice(),
            tags.other
        ),
        (Some(1), Some(2), &[1][..], false)
    );
    assert_eq!(
        labels(&questions[11]),
        [pair("Cats", "cat"), pair("Dogs", "dog")]
    );
}

#[test]
fn picked_values_are_sent_and_a_required_empty_array_is_sent_empty() {
    let request = form(
        json!({
            "colour": { "type": "string", "oneOf": [
                { "const": "#f00", "title": "Red" }, { "const": "#0f0", "title": "Green" }
            ] },
            "pets": { "type": "array", "items": { "anyOf": [
                { "const": "cat", "title": "Cats" }, { "const": "dog", "title": "Dogs" }
            ] } },
            "news": { "type": "boolean" },
            "note": { "type": "string" }
        }),
        &["colour", "pets", "news"],
    );
    let (_, reply, _) = run_form(
        &request,
        [
            select(1),
            Step::Multi(MultiSelectReply::Nav(Nav::Skip)),
            Step::Multi(MultiSelectReply::Picked(MultiPick {
                picked: vec![],
                other: None,
                note: None,
            })),
            Step::Confirm(ConfirmReply::Answered(true)),
            nav_text(Nav::Skip),
            submit(),
        ],
    );
    assert_eq!(
        reply,
        json!({ "action": "accept", "content": { "colour": "#0f0", "pets": [], "news": true } })
    );
}

#[test]
fn a_form_without_fields_is_a_consent_on_the_review() {
    let request = form(json!({}), &[]);
    let (ending, reply, script) = run_form(&request, [submit()]);
    assert_eq!(ending, ElicitEnding::Accepted);
    assert_eq!(reply, json!({ "action": "accept", "content": {} }));
    let [Shown::Review(review)] = script.shown.as_slice() else {
        panic!("only the review is shown: {:?}", script.shown)
    };
    assert!(review.items.is_empty());
    assert_eq!(review.context.as_deref(), Some("Please fill this in"));

    let (ending, reply, _) = run_form(&request, [Step::Review(ReviewReply::Decline)]);
    assert_eq!(
        (ending, reply),
        (ElicitEnding::Declined, json!({ "action": "decline" }))
    );
}

#[test]
fn invalid_forms_name_the_field_at_fault() {
    let text = |extra: Json| {
        let mut field = json!({ "type": "string" });
        field
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        form(json!({ "f": field }), &[])
    };
    let cases: Vec<(Json, &str, &str)> = vec![
        (
            json!({ "mode": "url", "message": "m", "url": "https://x", "elicitationId": "1" }),
            "mode",
            "URL mode",
        ),
        (
            json!({ "requestedSchema": { "type": "object", "properties": {} } }),
            "message",
            "is missing",
        ),
        (json!({ "message": "m" }), "requestedSchema", "is missing"),
        (
            json!({ "message": "m", "requestedSchema": { "type": "array" } }),
            "requestedSchema.type",
            "is an object",
        ),
        (
            form(json!({ "f": { "type": "object" } }), &[]),
            "requestedSchema.properties.f.type",
            "string, number",
        ),
        (
            form(json!({ "f": { "title": "F" } }), &[]),
            "requestedSchema.properties.f.type",
            "is missing",
        ),
        (
            form(json!({ "f": { "type": "string" } }), &["g"]),
            "requestedSchema.required[0]",
            "not one of the properties",
        ),
        (
            text(json!({ "pattern": "^(?!admin)[a-z]+$" })),
            "requestedSchema.properties.f.pattern",
            "cannot be checked here",
        ),
        (
            text(json!({ "pattern": "^[a-z]+$", "default": "Bad" })),
            "requestedSchema.properties.f.default",
            "does not match the pattern ^[a-z]+$",
        ),
        (
            form(
                json!({ "f": { "type": "number", "exclusiveMinimum": 1, "maximum": 1 } }),
                &[],
            ),
            "requestedSchema.properties.f.exclusiveMinimum",
            "no number lies between it and maximum (1)",
        ),
        (
            text(json!({ "format": "phone" })),
            "requestedSchema.properties.f.format",
            "email, uri, date and date-time",
        ),
        (
            text(json!({ "format": "email", "default": "nope" })),
            "requestedSchema.properties.f.default",
            "an email address",
        ),
        (
            text(json!({ "minLength": 5, "maxLength": 2 })),
            "requestedSchema.properties.f.minLength",
            "more than maxLength (2)",
        ),
        (
            text(json!({ "enum": ["a", "b"], "enumNames": ["A"] })),
            "requestedSchema.properties.f.enumNames",
            "one name per value",
        ),
        (
            text(json!({ "enum": ["a", 2] })),
            "requestedSchema.properties.f.enum[1]",
            "must be a string",
        ),
        (
            text(json!({ "enum": ["a"], "default": "b" })),
            "requestedSchema.properties.f.default",
            "not one of the values",
        ),
        (
            text(json!({ "oneOf": [{ "title": "A" }] })),
            "requestedSchema.properties.f.oneOf[0].const",
            "is missing",
        ),
        (
            form(
                json!({ "n": { "type": "integer", "minimum": 3, "maximum": 1 } }),
                &[],
            ),
            "requestedSchema.properties.n.minimum",
            "more than maximum (1)",
        ),
        (
            form(
                json!({ "n": { "type": "number", "maximum": 1, "default": 4 } }),
                &[],
            ),
            "requestedSchema.properties.n.default",
            "is more than 1",
        ),
        (
            form(
                json!({ "a": { "type": "array", "items": { "type": "string" } } }),
                &[],
            ),
            "requestedSchema.properties.a.items",
            "anyOf",
        ),
        (
            form(
                json!({ "a": { "type": "array", "items": { "enum": ["x"] }, "minItems": 2 } }),
                &[],
            ),
            "requestedSchema.properties.a.minItems",
            "only 1 entries",
        ),
        (
            form(
                json!({ "t": { "type": "boolean", "title": "x".repeat(300), "description": "d" } }),
                &[],
            ),
            "requestedSchema.properties.t.title",
            "the limit is 200",
        ),
    ];
    for (params, path, words) in cases {
        let (at, message) = refusal(params.clone());
        assert_eq!(at, path, "{params}: {message}");
        assert!(
            message.contains(words),
            "{params}: {message:?} should say {words:?}"
        );
        assert!(
            message.starts_with(path),
            "{message:?} starts with the place"
        );
    }
}

#[test]
fn json_rpc_errors_keep_the_request_id() {
    let mut request = contact_request();
    request["id"] = json!("abc");
    request["params"]["requestedSchema"]["properties"]["age"]["minimum"] = json!("old");
    let (ending, reply, _) = run_form(&request, []);
    assert_eq!(ending, ElicitEnding::Invalid);
    assert_eq!(reply["id"], "abc");
    assert_eq!(reply["jsonrpc"], "2.0");
    assert_eq!(reply["error"]["code"], -32602);
    assert_eq!(
        reply["error"]["data"]["path"],
        "params.requestedSchema.properties.age.minimum"
    );

    request["method"] = json!("sampling/createMessage");
    let (_, reply, _) = run_form(&request, []);
    assert_eq!(reply["error"]["code"], -32601);

    let mut script = Script::new([]);
    let elicitation = elicit("{ not json", None, &mut script);
    assert_eq!(elicitation.ending, ElicitEnding::Invalid);
    let reply: Json = serde_json::from_str(&elicitation.reply).unwrap();
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700,
            "message": reply["error"]["message"], "data": {"path": ""}}}),
        "a parse error carries jsonrpc and a null id"
    );
}

#[test]
fn request_ids_decide_the_envelope() {
    // Without an id: the plain result, not a JSON-RPC response with "id": null.
    let mut request = contact_request();
    request.as_object_mut().unwrap().remove("id");
    let (ending, reply, _) = run_form(&request, [nav_text(Nav::Decline)]);
    assert_eq!(ending, ElicitEnding::Declined);
    assert_eq!(reply, json!({"action": "decline"}));
    // A numeric id comes back as it was sent.
    request["id"] = json!(7);
    let (_, reply, _) = run_form(&request, [nav_text(Nav::Decline)]);
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "id": 7, "result": {"action": "decline"}})
    );
    // An id that is neither a string nor a number is an invalid request.
    for id in [json!(null), json!({"n": 1}), json!([1]), json!(true)] {
        request["id"] = id.clone();
        let (ending, reply, script) = run_form(&request, []);
        assert_eq!(ending, ElicitEnding::Invalid, "{id}");
        assert!(script.shown.is_empty());
        assert_eq!(reply["jsonrpc"], "2.0");
        assert_eq!(reply["id"], Json::Null);
        assert_eq!(reply["error"]["code"], -32600, "{id}");
        assert_eq!(reply["error"]["data"]["path"], "id");
    }
}

#[test]
fn optional_fields_as_the_python_sdk_writes_them() {
    // pydantic's schema of `count: int | None = None` and `nickname: Optional[str] = None`, as
    // the MCP Python SDK 1.x sends a model's optional fields.
    let properties = json!({
        "count": { "anyOf": [{ "type": "integer", "minimum": 1 }, { "type": "null" }],
                   "default": null, "title": "Count" },
        "nickname": { "anyOf": [{ "type": "null" }, { "type": "string", "maxLength": 20 }],
                      "default": null, "title": "Nickname", "description": "What should we call you?" }
    });
    let questions = questions_of_form(properties.clone(), &[]);
    match &questions[0].kind {
        QuestionKind::Number(n) => {
            assert!(n.integer);
            assert_eq!(n.min, Some(1.0));
            assert_eq!(n.default, None, "a null default is no default");
        }
        other => panic!("{other:?}"),
    }
    assert!(!questions[0].required);
    assert_eq!(questions[1].header.as_deref(), Some("Nickname"));
    assert_eq!(questions[1].prompt, "What should we call you?");
    assert!(matches!(&questions[1].kind, QuestionKind::Text(t) if t.max_length == Some(20)));
    let (ending, reply, _) = run_form(
        &form(properties, &[]),
        [number("3"), nav_text(Nav::Skip), submit()],
    );
    assert_eq!(ending, ElicitEnding::Accepted);
    assert_eq!(
        reply,
        json!({ "action": "accept", "content": { "count": 3 } })
    );
    // Two types at once, neither of them null, is still refused.
    let (path, _) = refusal(form(
        json!({ "x": { "anyOf": [{ "type": "integer" }, { "type": "string" }] } }),
        &[],
    ));
    assert_eq!(path, "requestedSchema.properties.x.type");
}
