//! The batch: order, checks and asking again, back with the answer preselected, skip, cancel.

use crate::model::*;
use crate::testing::*;

const BATCH: &str = r#"{"questions": [
    {"id": "env", "header": "Deploy", "question": "Where?", "options": [{"label": "Dev", "value": "dev"}, {"label": "Prod", "value": "prod"}]},
    {"id": "name", "question": "Name?", "min_length": 3},
    {"id": "n", "question": "How many?", "type": "integer", "min": 1, "max": 9},
    {"id": "ok", "question": "Sure?", "type": "confirm"}
]}"#;

#[test]
fn asks_in_order_with_frames() {
    let (result, script) = run(
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
    assert_eq!(result["status"], "answered");
    assert_eq!(
        field(&result, "value"),
        [
            serde_json::json!("prod"),
            "Ada".into(),
            4.into(),
            true.into()
        ]
    );
    let frames: Vec<_> = script
        .frames
        .iter()
        .map(|f| (f.position, f.total, f.header.clone()))
        .collect();
    assert_eq!(
        frames,
        [
            (1, 4, Some("Deploy".into())),
            (2, 4, None),
            (3, 4, None),
            (4, 4, None)
        ]
    );
    assert!(
        result.get("answer").is_none(),
        "batches carry no single answer"
    );
}

#[test]
fn a_rejected_answer_is_asked_again_with_the_error_and_what_was_typed() {
    let (result, script) = run(
        "interview",
        BATCH,
        [
            select(0),
            text("Al"),
            text("Alan"),
            Step::Number(NumberReply::Entered("ten".into())),
            Step::Number(NumberReply::Entered("10".into())),
            Step::Number(NumberReply::Entered("2.5".into())),
            Step::Number(NumberReply::Entered("9".into())),
            Step::Confirm(ConfirmReply::Answered(false)),
            submit(),
        ],
    );
    assert_eq!(result["status"], "answered");
    let errors: Vec<_> = script.frames.iter().map(|f| f.error.clone()).collect();
    assert_eq!(
        errors[2].as_deref(),
        Some("Type at least 3 characters (this is 2).")
    );
    assert_eq!(
        errors[4].as_deref(),
        Some("\"ten\" is not a number. Enter a whole number from 1 to 9.")
    );
    assert_eq!(
        errors[5].as_deref(),
        Some("10 is more than 9. Enter a whole number from 1 to 9.")
    );
    assert_eq!(
        errors[6].as_deref(),
        Some("2.5 is not a whole number. Enter a whole number from 1 to 9.")
    );
    match &script.shown[2] {
        Shown::Text(t) => assert_eq!(
            t.initial.as_deref(),
            Some("Al"),
            "what was typed comes back"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn back_returns_with_the_earlier_answer_preselected() {
    let (result, script) = run(
        "interview",
        BATCH,
        [
            select(1),
            Step::Text(TextReply::Nav(Nav::Back)),
            select(0),
            text("Grace"),
            Step::Number(NumberReply::Nav(Nav::Cancel)),
        ],
    );
    match &script.shown[2] {
        Shown::Select(s) => assert_eq!(s.selected, Some(1), "the earlier pick is preselected"),
        other => panic!("{other:?}"),
    }
    assert_eq!(result["status"], "cancelled");
    assert_eq!(
        result["answers"][0]["value"], "dev",
        "the changed answer counts"
    );
    assert_eq!(result["answers"][1]["value"], "Grace");
    assert_eq!(
        result["answers"].as_array().unwrap().len(),
        2,
        "cancel keeps the answers so far"
    );
    assert_eq!(
        result["text"],
        "User cancelled after answering 2 of 4 questions:\n1. Deploy: User selected: 1. Dev\n2. Name?: User wrote: Grace"
    );
}

#[test]
fn back_on_the_first_question_says_so() {
    let (_, script) = run(
        "interview",
        BATCH,
        [nav_select(Nav::Back), nav_select(Nav::Cancel)],
    );
    assert_eq!(
        script.frames[1].error.as_deref(),
        Some("This is the first question; there is nothing to go back to.")
    );
    assert_eq!(script.frames[1].position, 1);
}

#[test]
fn a_custom_answer_comes_back_into_the_free_text_entry() {
    let (_, script) = run(
        "interview",
        BATCH,
        [
            Step::Select(SelectReply::Other("Staging".into())),
            Step::Text(TextReply::Nav(Nav::Back)),
            nav_select(Nav::Cancel),
        ],
    );
    match &script.shown[2] {
        Shown::Select(s) => {
            assert_eq!(s.selected, None);
            assert_eq!(s.other_text.as_deref(), Some("Staging"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn skip_rules() {
    let request = r#"{"questions": [
        {"id": "t", "question": "Text?"},
        {"id": "o", "question": "Optional?", "options": ["a"], "required": false},
        {"id": "r", "question": "Required?", "options": ["a"]}
    ]}"#;
    let (result, script) = run(
        "interview",
        request,
        [
            Step::Text(TextReply::Nav(Nav::Skip)),
            nav_select(Nav::Skip),
            nav_select(Nav::Skip),
            select(0),
        ],
    );
    assert_eq!(
        result["answers"][0]["value"],
        "I don't have information about this."
    );
    assert_eq!(result["answers"][0]["skipped"], true);
    assert_eq!(result["answers"][1]["value"], serde_json::Value::Null);
    assert_eq!(result["answers"][1]["skipped"], true);
    assert_eq!(
        script.frames[3].error.as_deref(),
        Some("This question needs an answer; it cannot be skipped.")
    );
    assert_eq!(result["answers"][2]["value"], "a");
}

#[test]
fn the_host_skip_response_is_used() {
    let mut script = Script::new([Step::Text(TextReply::Nav(Nav::Skip))]);
    let settings = Settings {
        skip_response: Some("No idea.".into()),
    };
    let result = crate::tool::call(
        "interview",
        r#"{"question": "Why?"}"#,
        &settings,
        &mut script,
    );
    let result: serde_json::Value = serde_json::from_str(&result.json).unwrap();
    assert_eq!(result["answer"], "No idea.");
    assert_eq!(result["text"], "User skipped this question: No idea.");
}

#[test]
fn required_and_empty_answers() {
    let (result, script) = run(
        "interview",
        r#"{"question": "Name?"}"#,
        [text("   "), text("Ada")],
    );
    assert_eq!(
        script.frames[1].error.as_deref(),
        Some("An answer is required: type something.")
    );
    assert_eq!(result["answer"], "Ada");
    let (result, _) = run(
        "interview",
        r#"{"question": "Name?", "required": false}"#,
        [text("")],
    );
    assert_eq!(result["answers"][0]["skipped"], true);
    let (result, _) = run(
        "interview",
        r#"{"question": "Name?", "default": "Bob"}"#,
        [text("")],
    );
    assert_eq!(result["answer"], "Bob");
}

#[test]
fn multi_select_pick_limits() {
    let request = r#"{"question": "Pick", "multi": true, "options": ["a", "b", "c"], "min_picks": 2, "max_picks": 2}"#;
    let pick = |picked: Vec<u32>, other: Option<&str>| {
        Step::Multi(MultiSelectReply::Picked(MultiPick {
            picked,
            other: other.map(Into::into),
            note: None,
        }))
    };
    let (result, script) = run(
        "interview",
        request,
        [
            pick(vec![0], None),
            pick(vec![0, 1, 2], None),
            pick(vec![2, 0, 0], None),
        ],
    );
    assert_eq!(
        script.frames[1].error.as_deref(),
        Some("Pick at least 2 options (you picked 1).")
    );
    assert_eq!(
        script.frames[2].error.as_deref(),
        Some("Pick at most 2 options (you picked 3).")
    );
    assert_eq!(
        result["answer"],
        serde_json::json!(["a", "c"]),
        "option order, no duplicates"
    );
    let (result, _) = run("interview", request, [pick(vec![1], Some("zeta"))]);
    assert_eq!(result["answer"], serde_json::json!(["b", "zeta"]));
    assert_eq!(result["answers"][0]["custom"], true);
    assert_eq!(result["text"], "User selected: b; and wrote: zeta");
    let (_, script) = run(
        "interview",
        r#"{"question": "Pick", "multi": true, "options": ["a"]}"#,
        [pick(vec![], None)],
    );
    assert_eq!(
        script.frames[1].error.as_deref(),
        Some("Pick at least 1 option (you picked 0).")
    );
}

#[test]
fn typed_text_that_is_a_label_is_a_pick_and_other_can_be_refused() {
    let (result, _) = run(
        "interview",
        r#"{"question": "Colour?", "options": ["Red", "Green"]}"#,
        [Step::Select(SelectReply::Other("green".into()))],
    );
    assert_eq!(result["answer"], "Green");
    assert_eq!(result["answers"][0]["custom"], false);
    let (_, script) = run(
        "interview",
        r#"{"question": "Colour?", "options": ["Red"], "other": false}"#,
        [Step::Select(SelectReply::Other("blue".into())), select(0)],
    );
    assert_eq!(
        script.frames[1].error.as_deref(),
        Some("Pick one of the options.")
    );
    match &script.shown[0] {
        Shown::Select(s) => assert_eq!(s.other_label, None),
        other => panic!("{other:?}"),
    }
}

#[test]
fn out_of_range_picks_from_a_broken_host_are_refused() {
    let (_, script) = run(
        "interview",
        r#"{"question": "Colour?", "options": ["Red"]}"#,
        [select(7), select(0)],
    );
    assert_eq!(
        script.frames[1].error.as_deref(),
        Some("There is no option 8.")
    );
}

#[test]
fn no_person_no_questions_and_the_model_told_why() {
    let mut script = Script::new([]);
    script.mode = Mode::Unavailable(Absence::Background);
    let result = crate::tool::call(
        "interview",
        r#"{"question": "Name?"}"#,
        &Settings {
            skip_response: None,
        },
        &mut script,
    );
    let result: serde_json::Value = serde_json::from_str(&result.json).unwrap();
    assert_eq!(result["status"], "unavailable");
    assert_eq!(result["reason"], "background");
    assert!(
        result["text"].as_str().unwrap().starts_with(
            "No human is available to answer: this runs in the background of its terminal"
        ),
        "{result}"
    );
    assert!(script.frames.is_empty());
}

#[test]
fn every_widget_gets_its_preset_back() {
    let request = r#"{"questions": [
        {"id": "m", "question": "Pick", "multi": true, "options": ["a", "b", "c"], "default": ["a"]},
        {"id": "c", "question": "Sure?", "type": "confirm", "default": true},
        {"id": "n", "question": "How many?", "type": "number", "default": 3}
    ]}"#;
    let pick = Step::Multi(MultiSelectReply::Picked(MultiPick {
        picked: vec![1, 2],
        other: Some("z".into()),
        note: None,
    }));
    let (_, script) = run(
        "interview",
        request,
        [
            pick,
            Step::Confirm(ConfirmReply::Answered(false)),
            Step::Number(NumberReply::Nav(Nav::Back)),
            Step::Confirm(ConfirmReply::Nav(Nav::Back)),
            Step::Multi(MultiSelectReply::Nav(Nav::Cancel)),
        ],
    );
    let shown: Vec<String> = script
        .shown
        .iter()
        .map(|s| match s {
            Shown::Multi(m) => format!("multi {:?} {:?}", m.selected, m.other_text),
            Shown::Confirm(c) => format!("confirm {:?}", c.initial),
            Shown::Number(n) => format!("number {:?}", n.initial),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "multi [0] None",
            "confirm Some(true)",
            "number Some(3.0)",
            "confirm Some(false)",
            "multi [1, 2] Some(\"z\")"
        ]
    );
}

#[test]
fn a_batch_ends_with_a_review_where_answers_can_change() {
    let (result, script) = run(
        "interview",
        BATCH,
        [
            select(1),
            text("Ada"),
            Step::Number(NumberReply::Entered("4".into())),
            Step::Confirm(ConfirmReply::Answered(true)),
            Step::Review(ReviewReply::Edit(1)),
            text("Grace"),
            submit(),
        ],
    );
    assert_eq!(result["status"], "answered");
    assert_eq!(
        field(&result, "value"),
        [
            serde_json::json!("prod"),
            "Grace".into(),
            4.into(),
            true.into()
        ]
    );
    let reviews: Vec<&Vec<ReviewItem>> = script
        .shown
        .iter()
        .filter_map(|s| match s {
            Shown::Review(review) => Some(&review.items),
            _ => None,
        })
        .collect();
    assert_eq!(
        reviews.len(),
        2,
        "after the change, the review comes back at once"
    );
    let words =
        |items: &Vec<ReviewItem>| items.iter().map(|i| i.answer.clone()).collect::<Vec<_>>();
    assert_eq!(words(reviews[0]), ["Prod", "Ada", "4", "yes"]);
    assert_eq!(words(reviews[1]), ["Prod", "Grace", "4", "yes"]);
    assert_eq!(reviews[0][0].header.as_deref(), Some("Deploy"));
    assert_eq!(reviews[0][1].prompt, "Name?");
    // The edited question was asked with its answer in the editor, and nothing else again.
    assert_eq!(script.frames.len(), 5);
    match &script.shown[5] {
        Shown::Text(t) => assert_eq!(t.initial.as_deref(), Some("Ada")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn cancel_at_the_review_keeps_every_answer() {
    let steps = [
        select(0),
        text("Ada"),
        Step::Number(NumberReply::Entered("1".into())),
        Step::Confirm(ConfirmReply::Answered(false)),
    ];
    let (result, _) = run(
        "interview",
        BATCH,
        steps.into_iter().chain([Step::Review(ReviewReply::Cancel)]),
    );
    assert_eq!(result["status"], "cancelled");
    assert_eq!(field(&result, "value").len(), 4);
}

#[test]
fn a_single_question_has_no_review() {
    let (result, script) = run("interview", r#"{"question": "Name?"}"#, [text("Ada")]);
    assert_eq!(result["status"], "answered");
    assert!(!script.shown.iter().any(|s| matches!(s, Shown::Review(_))));
}

#[test]
fn review_words_for_every_kind() {
    let request = r#"{"questions": [
        {"question": "Pick", "multi": true, "options": [{"label": "Alpha", "value": "a"}, {"label": "Beta", "value": "b"}]},
        {"question": "One", "options": ["x"], "discuss": true},
        {"question": "Optional", "options": ["y"], "required": false}
    ]}"#;
    let (_, script) = run(
        "interview",
        request,
        [
            Step::Multi(MultiSelectReply::Picked(MultiPick {
                picked: vec![1],
                other: Some("Gamma".into()),
                note: None,
            })),
            Step::Select(SelectReply::Discuss),
            nav_select(Nav::Skip),
            submit(),
        ],
    );
    let Some(Shown::Review(review)) = script.shown.last() else {
        panic!()
    };
    let words: Vec<_> = review.items.iter().map(|i| i.answer.as_str()).collect();
    assert_eq!(words, ["Beta, Gamma", "Let's discuss this", "(skipped)"]);
}

#[test]
fn the_review_hides_a_secret_and_shows_a_note() {
    let (result, script) = run(
        "interview",
        r#"{"questions": [
            {"id": "token", "question": "Token?", "secret": true},
            {"id": "env", "question": "Where?", "options": ["dev", "prod"]}
        ]}"#,
        [
            text("hunter2"),
            Step::Select(SelectReply::Picked(Pick {
                index: 1,
                note: Some(" after the freeze ".into()),
            })),
            submit(),
        ],
    );
    let Some(Shown::Review(review)) = script.shown.last() else {
        panic!("no review: {:?}", script.shown)
    };
    let answers: Vec<&str> = review.items.iter().map(|i| i.answer.as_str()).collect();
    assert_eq!(
        answers,
        ["•••••• (hidden)", "prod (note: after the freeze)"]
    );
    assert_eq!(
        field(&result, "value"),
        [serde_json::json!("hunter2"), serde_json::json!("prod")]
    );
    assert_eq!(result["answers"][1]["note"], "after the freeze");
}

#[test]
fn every_limited_question_says_its_limit_in_words() {
    let request = r#"{"questions": [
        {"id": "a", "question": "Name?", "min_length": 3, "max_length": 20},
        {"id": "b", "question": "Code?", "min_length": 4, "max_length": 4},
        {"id": "c", "question": "Areas?", "multiple": true, "options": ["x", "y", "z"], "max_picks": 2},
        {"id": "d", "question": "Tags?", "multiple": true, "options": ["x", "y"], "required": false},
        {"id": "e", "question": "How many?", "type": "integer", "min": 1, "max": 9},
        {"id": "f", "question": "Ratio?", "type": "number", "exclusive_min": 0, "exclusive_max": 1},
        {"id": "g", "question": "Sure?", "type": "confirm"}
    ]}"#;
    let (_, script) = run(
        "interview",
        request,
        [
            text("Ada"),
            text("abcd"),
            multi(&[0]),
            multi(&[]),
            Step::Number(NumberReply::Entered("4".into())),
            Step::Number(NumberReply::Entered("0.5".into())),
            Step::Confirm(ConfirmReply::Answered(true)),
            submit(),
        ],
    );
    let hints: Vec<Option<&str>> = script.frames.iter().map(|f| f.hint.as_deref()).collect();
    assert_eq!(
        hints,
        [
            Some("3 to 20 characters"),
            Some("exactly 4 characters"),
            Some("pick 1 to 2"),
            None,
            Some("a whole number from 1 to 9"),
            Some("a number more than 0 and less than 1"),
            None,
        ]
    );
}

#[test]
fn widgets_get_printable_text_and_a_badge_only_where_the_label_lacks_one() {
    let request = r#"{"question": "Pick\u001b[2J one\u202e", "header": "H\u0007i", "options": [
        {"label": "Safe\u001b]0;owned\u0007", "description": "line\u009b31m one\nline two", "recommended": true},
        {"label": "Fast (Recommended)", "recommended": true}
    ]}"#;
    let (_, script) = run("interview", request, [select(0)]);
    let frame = &script.frames[0];
    assert_eq!(frame.prompt, "Pick one");
    assert_eq!(frame.header.as_deref(), Some("Hi"));
    let Shown::Select(shown) = &script.shown[0] else {
        panic!("a select was shown: {:?}", script.shown);
    };
    assert_eq!(shown.options[0].label, "Safe");
    assert_eq!(
        shown.options[0].description.as_deref(),
        Some("line one\nline two")
    );
    let badges: Vec<bool> = shown.options.iter().map(|o| o.recommended).collect();
    assert_eq!(badges, [true, false]);
}

#[test]
fn a_question_lends_its_options_to_widgets_and_gets_them_back_as_they_were() {
    let mut questions = questions(
        r#"{"question": "Pick", "options": [
            {"label": "Safe\u001b]0;owned\u0007", "recommended": true},
            {"label": "Fast (Recommended)", "recommended": true}
        ]}"#,
    );
    let before = questions.clone();
    let mut script = Script::new([nav_select(Nav::Skip), select(1)]);
    let settings = Settings {
        skip_response: None,
    };
    let ending = crate::flow::run(
        &mut questions,
        &[],
        &crate::flow::Policy::tool(&settings),
        &mut script,
    );
    assert!(matches!(ending, crate::flow::Ending::Answered(_)));
    // Asked twice (a select can't be skipped), shown cleaned and badged both times.
    let shown: Vec<(String, bool)> = script
        .shown
        .iter()
        .flat_map(|s| match s {
            Shown::Select(request) => request.options.clone(),
            other => panic!("a select was shown: {other:?}"),
        })
        .map(|o| (o.label, o.recommended))
        .collect();
    let once = [
        ("Safe".to_string(), true),
        ("Fast (Recommended)".into(), false),
    ];
    assert_eq!(shown, [once.clone(), once].concat());
    assert_eq!(questions, before);
}

#[test]
fn a_default_accepted_as_shown_comes_back_as_given() {
    let request = r#"{"question": "Command?", "default": "make\tall"}"#;
    let (result, script) = run("interview", request, [text("make all")]);
    let Shown::Text(shown) = &script.shown[0] else {
        panic!("a text was shown: {:?}", script.shown);
    };
    assert_eq!(shown.initial.as_deref(), Some("make all"));
    assert_eq!(result["answer"], "make\tall");
}

#[test]
fn a_prompt_that_says_it_is_optional_is_not_marked_again_whatever_its_stop() {
    for prompt in [
        "Anything to add (optional)",
        "Anything to add (optional).",
        "Anything to add (Optional):",
    ] {
        let request = serde_json::json!({"question": prompt, "required": false}).to_string();
        let (_, script) = run("interview", &request, [text("no")]);
        assert!(!script.frames[0].mark_optional, "{prompt}");
    }
    let (_, script) = run(
        "interview",
        r#"{"question": "Anything to add?", "required": false}"#,
        [text("no")],
    );
    assert!(script.frames[0].mark_optional);
}
