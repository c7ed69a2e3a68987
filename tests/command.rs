//! The `interview` command end to end in numbered mode: answers piped in, the result JSON on
//! stdout, the questions on stderr, and the documented exit codes.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Output};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

mod common;

use common::*;

#[test]
fn a_mixed_batch_answered_line_by_line() {
    let output = run(&["ask", DEPLOY], "2\n1, 3-4\n\nn\nShip after lunch\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        output
            .stdout
            .starts_with(br#"{"status":"answered","answers":[{"id":"environment""#),
        "fields in order"
    );
    let result = result(&output);
    assert_eq!(result["status"], "answered");
    assert_eq!(
        values(&result),
        [
            json!("staging"),
            json!(["Unit tests", "Migrations dry-run", "Load test"]),
            json!(2),
            json!(false),
            json!("Ship after lunch")
        ]
    );
    assert_eq!(
        result["text"],
        "User answered all 5 questions:\n1. Deploy: User selected: 2. Staging\n2. Checks: User selected: Unit \
         tests, Migrations dry-run, Load test\n3. Scale: User entered: 2\n4. Post a message in #deploys when \
         done?: User answered: no\n5. Notes: User wrote: Ship after lunch"
    );
    let screen = stderr(&output);
    for shown in [
        "Question 1 of 5 · Deploy",
        "Which environment should I deploy to?",
        "  1. Development",
        "     Local cluster, reset nightly",
        "  2. Staging (recommended)",
        "  4. Something else (I'll explain)",
        "  1. [x] Unit tests",
        "  3. [ ] Migrations dry-run",
        "(default: 1, 2)",
        "(a whole number from 1 to 10)",
        "(default: 2)",
        "[Y/n] > ",
        "Anything else I should know? (optional)",
    ] {
        assert!(
            screen.contains(shown),
            "{shown:?} is not on the screen:\n{screen}"
        );
    }
    assert!(
        !screen.contains('\x1b'),
        "no attributes when stderr is not a terminal"
    );
}

#[test]
fn labels_custom_answers_and_the_other_entry() {
    let request = json!({"questions": [
        {"id": "a", "question": "Colour?", "options": ["Red", "Green"]},
        {"id": "b", "question": "Shape?", "options": ["Square"]},
        {"id": "c", "question": "Sizes?", "multi": true, "options": ["S", "M"]},
    ]});
    let path = write_request("labels", &request);
    let output = run(&["ask", &path], "GREEN\n2\nTriangle\n2, 3\nXL\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let result = result(&output);
    assert_eq!(
        values(&result),
        [json!("Green"), json!("Triangle"), json!(["M", "XL"])]
    );
    assert_eq!(
        field(&result, "custom"),
        [json!(false), json!(true), json!(true)]
    );
}

#[test]
fn bad_input_is_explained_and_asked_again() {
    let request = json!({"questions": [
        {"question": "Colour?", "options": ["Red", "Green"], "other": false},
        {"question": "How many?", "type": "integer", "min": 1, "max": 3},
        {"question": "Sure?", "type": "confirm"},
    ]});
    let path = write_request("bad-input", &request);
    let output = run(&["ask", &path], "9\npurple\n\n1\nmany\n7\n2\nmaybe\nyes\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        values(&result(&output)),
        [json!("Red"), json!(2), json!(true)]
    );
    let screen = stderr(&output);
    for error in [
        "! There is no option 9; type a number from 1 to 2.",
        "! Type a number from 1 to 2.",
        "! \"many\" is not a number. Enter a whole number from 1 to 3.",
        "! 7 is more than 3. Enter a whole number from 1 to 3.",
        "! Type y for yes or n for no.",
    ] {
        assert!(screen.contains(error), "{error:?} missing:\n{screen}");
    }
}

#[test]
fn back_changes_an_earlier_answer() {
    let output = run(&["ask", DEPLOY], "1\nback\n3\n\n\n\n\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(values(&result(&output))[0], "prod");
    assert!(
        stderr(&output).contains("(default: 1. Development)"),
        "the earlier answer is offered again"
    );
}

#[test]
fn end_of_input_cancels_with_the_answers_so_far() {
    let output = run(&["ask", DEPLOY], "2\n1\n");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let result = result(&output);
    assert_eq!(result["status"], "cancelled");
    assert_eq!(values(&result), [json!("staging"), json!(["Unit tests"])]);
    assert_eq!(
        result["text"],
        "User cancelled after answering 2 of 5 questions:\n1. Deploy: User selected: 2. Staging\n2. Checks: User \
         selected: Unit tests"
    );
}

#[test]
fn quit_cancels_and_a_half_typed_multiline_answer_is_not_sent() {
    let output = run(&["ask", DEPLOY], "2\nquit\n");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(result(&output)["answers"].as_array().unwrap().len(), 1);
    let request = json!({"question": "Describe it", "multiline": true});
    let path = write_request("multiline", &request);
    let output = run(&["ask", &path], "first line\nsecond line\n\n");
    assert_eq!(result(&output)["answer"], "first line\nsecond line");
    let output = run(&["ask", &path], "first line\nsecond");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(result(&output)["answer"], Json::Null);
}

#[test]
fn skip_records_the_skip_response() {
    let request = json!({"question": "Budget notes?"});
    let path = write_request("skip", &request);
    let output = run(&["ask", &path], "skip\n");
    let result_default = result(&output);
    assert_eq!(
        result_default["answer"],
        "I don't have information about this."
    );
    assert_eq!(result_default["answers"][0]["skipped"], true);
    let output = run(&["ask", "--skip-response", "Unknown.", &path], "skip\n");
    assert_eq!(
        result(&output)["text"],
        "User skipped this question: Unknown."
    );
}

#[test]
fn invalid_requests_exit_2_with_the_place_of_the_error() {
    let request = json!({"questions": [{"question": "Pick", "options": ["a", ""]}]});
    let path = write_request("invalid", &request);
    let output = run(&["ask", &path], "1\n");
    assert_eq!(output.status.code(), Some(2));
    let result = result(&output);
    assert_eq!(result["status"], "invalid");
    assert_eq!(result["error"]["path"], "questions[0].options[1].label");
    assert_eq!(stderr(&output), "", "nothing is asked");
    let check = run(&["check", &path], "");
    assert_eq!(check.status.code(), Some(2));
    assert_eq!(
        serde_json::from_slice::<Json>(&check.stdout).unwrap()["error"]["path"],
        "questions[0].options[1].label"
    );
    let unreadable = run(&["ask", "/nonexistent/request.json"], "");
    assert_eq!(unreadable.status.code(), Some(2));
    assert!(stderr(&unreadable).contains("cannot read the request from /nonexistent/request.json"));
    let refused = crate::result(&unreadable);
    assert_eq!(
        refused["status"], "invalid",
        "an unreadable file still gets a result"
    );
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("/nonexistent/request.json")
    );
    let usage = run(&["ask"], "");
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn no_input_at_all_means_no_person_and_the_model_learns_no_inbox_was_open() {
    let output = run(&["ask", DEPLOY], "");
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    let result = result(&output);
    assert_eq!(result["status"], "unavailable");
    assert_eq!(result["reason"], "no-inbox");
    let text = result["text"].as_str().unwrap();
    assert!(text.starts_with("No human is available"), "{text}");
    assert!(text.contains("no `interview inbox` is open"), "{text}");
}

#[test]
fn a_request_on_stdin_without_a_terminal_is_unavailable_at_once() {
    // Compiling the component (once per cache) is not what is timed here.
    run(&["check", "-"], r#"{"question": "Name?"}"#);
    let started = Instant::now();
    let mut child = spawn_without_terminal(&["ask", "-"]);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"question": "Name?"}"#)
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert_eq!(result(&output)["status"], "unavailable");
    assert!(started.elapsed() < Duration::from_secs(10));

    // An elicitation on stdin, likewise: dismissed at once, with the reply to send.
    let mut child = spawn_without_terminal(&["elicit", "-"]);
    let form = std::fs::read(ELICITATION).unwrap();
    child.stdin.take().unwrap().write_all(&form).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert_eq!(result(&output)["result"], json!({"action": "cancel"}));
}

/// Reads the child's stderr until `text` has appeared.
fn wait_for(child_stderr: &mut BufReader<std::process::ChildStderr>, text: &str) -> String {
    let mut seen = String::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !seen.contains(text) {
        assert!(
            Instant::now() < deadline,
            "{text:?} never appeared:\n{seen}"
        );
        let mut chunk = String::new();
        if child_stderr.read_line(&mut chunk).unwrap() == 0 {
            panic!("stderr closed before {text:?}:\n{seen}");
        }
        seen.push_str(&chunk);
    }
    seen
}

fn signal_while_asking(signal: i32) -> (Output, Child) {
    let mut child = spawn(&["ask", DEPLOY]);
    let mut stdin = child.stdin.take().unwrap();
    let mut errors = BufReader::new(child.stderr.take().unwrap());
    stdin.write_all(b"3\n").unwrap();
    wait_for(&mut errors, "Question 2 of 5");
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, signal) };
    let mut stdout = Vec::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut stdout)
        .unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    (
        Output {
            status,
            stdout,
            stderr: Vec::new(),
        },
        child,
    )
}

#[test]
fn a_signal_before_the_first_line_gives_one_result_after_the_question_is_drawn() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let mut child = spawn(&["ask", DEPLOY]);
        // Held open, and nothing written: a person who has not typed yet.
        let stdin = child.stdin.take().unwrap();
        let mut errors = BufReader::new(child.stderr.take().unwrap());
        wait_for(&mut errors, "Which environment should I deploy to?");
        // SAFETY: sending a signal to our own child.
        unsafe { libc::kill(child.id() as i32, signal) };
        let output = child.wait_with_output().unwrap();
        drop(stdin);
        assert_eq!(output.status.code(), Some(130), "signal {signal}");
        let result = result(&output);
        assert_eq!(result["status"], "cancelled", "signal {signal}: {result}");
        assert_eq!(result["answers"], json!([]), "signal {signal}");
    }
}

#[test]
fn serve_ends_at_once_on_a_signal_while_nothing_is_asked() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let mut child = spawn_without_terminal(&["serve"]);
        let stdin = child.stdin.take().unwrap();
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: sending a signal to our own child.
        unsafe { libc::kill(child.id() as i32, signal) };
        let started = Instant::now();
        let output = child.wait_with_output().unwrap();
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "signal {signal}"
        );
        drop(stdin);
        assert_eq!(output.status.code(), Some(130), "signal {signal}");
        assert!(output.stdout.is_empty(), "no request, no result");
    }
}

#[test]
fn ctrl_c_sigterm_and_sighup_return_the_answers_so_far_with_exit_130() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let (output, _) = signal_while_asking(signal);
        assert_eq!(output.status.code(), Some(130), "signal {signal}");
        let result = result(&output);
        assert_eq!(result["status"], "cancelled");
        assert_eq!(values(&result), [json!("prod")]);
    }
}

#[test]
fn agent_text_never_reaches_the_terminal_as_control_sequences() {
    let request = json!({
        "question": "Pick\x1b]0;owned\x07 one\x1b[2J",
        "header": "\x1b[5mBlink",
        "options": [{"label": "Safe\x1b[1A\r", "description": "\x1b[8mhidden\x1b[0m"}, "Other\u{9b}31m"],
    });
    let path = write_request("escapes", &request);
    let output = run(&["ask", &path], "1\n");
    assert_eq!(output.status.code(), Some(0));
    let screen = stderr(&output);
    assert!(
        !screen.contains('\x1b') && !screen.contains('\u{9b}') && !screen.contains('\r'),
        "{screen:?}"
    );
    assert!(
        screen.contains("Pick one") && screen.contains("1. Safe") && screen.contains("hidden"),
        "{screen}"
    );
    assert_eq!(
        result(&output)["answer"],
        "Safe\x1b[1A\r",
        "the value goes back to the agent unchanged"
    );
}

#[test]
fn invisible_characters_are_escaped_in_the_result_and_never_reach_the_terminal() {
    // Tags spelling "AB" in the question; Hangul fillers, the combining grapheme joiner and a
    // Khmer inherent vowel in the answer typed.
    let request = json!({"question": "Deploy\u{e0041}\u{e0042}?"});
    let path = write_request("invisible", &request);
    let typed = "a\u{3164}b\u{115f}c\u{ffa0}d\u{34f}e\u{17b4}f";
    let output = run(&["ask", &path], &format!("{typed}\n"));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let stdout = String::from_utf8(output.stdout.clone()).unwrap();
    assert!(
        stdout.contains(r"Deploy\udb40\udc41\udb40\udc42?")
            && stdout.contains(r"a\u3164b\u115fc\uffa0d\u034fe\u17b4f"),
        "{stdout}"
    );
    let raw = |c: char| ('\u{e0000}'..='\u{e0fff}').contains(&c) || typed.contains(c);
    assert!(!stdout.chars().any(|c| raw(c) && !c.is_ascii()), "{stdout}");
    let screen = stderr(&output);
    assert!(screen.contains("Deploy?"), "{screen}");
    assert!(
        !screen
            .chars()
            .any(|c| ('\u{e0000}'..='\u{e0fff}').contains(&c)),
        "{screen:?}"
    );
    assert_eq!(result(&output)["answer"], typed);
}

#[test]
fn the_dialect_tools_by_name() {
    let request = json!({"question": "Layout?", "options": [{"label": "Reuse Card"}, {"label": "Reuse ListView"}]});
    let path = write_request("ask_question", &request);
    let output = run(&["ask", "--tool", "ask_question", &path], "4\n");
    let result = result(&output);
    assert_eq!(result["answers"][0]["discuss"], true);
    assert!(stderr(&output).contains("4. Let's discuss this"));
    let output = run(
        &["ask", "--tool", "ask_question", &path],
        "3\nA kanban board\n",
    );
    assert_eq!(self::result(&output)["text"], "User wrote: A kanban board");
}

#[test]
fn schema_check_and_help() {
    let output = run(&["schema"], "");
    assert_eq!(output.status.code(), Some(0));
    let tools = result(&output);
    let names: Vec<_> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].clone())
        .collect();
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
    assert_eq!(tools[0]["parameters"]["type"], "object");
    let check = run(&["check", "-"], r#"{"question": "Name?"}"#);
    assert_eq!(check.status.code(), Some(0));
    assert_eq!(result(&check)["questions"][0]["type"], "text");
    let help = run(&["--help"], "");
    assert_eq!(help.status.code(), Some(0));
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("130  interrupted") && help.contains("3    no person available"),
        "{help}"
    );
}

/// The built-in plugin was compiled when `interview` was built: a first run compiles nothing
/// and writes nothing, so it answers where no cache folder can be made (a home it cannot write
/// to, a cache path that is a file).
#[test]
fn the_first_run_needs_no_cache_folder() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let cache = dir.path().join("cache");
    std::fs::write(&cache, "").unwrap();
    // (Root, which CI may run as, could write there anyway: the checks below that nothing was
    // written hold either way.)
    let read_only = std::os::unix::fs::PermissionsExt::from_mode(0o500);
    std::fs::set_permissions(&home, read_only).unwrap();
    let request = dir.path().join("request.json");
    std::fs::write(&request, r#"{"question": "Which?", "options": ["a", "b"]}"#).unwrap();
    let mut child = interview()
        .arg("ask")
        .arg(&request)
        .env("HOME", &home)
        .env("XDG_CACHE_HOME", &cache)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"2\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(result(&output)["answer"], "b");
    assert!(!stderr(&output).contains("cache"), "{}", stderr(&output));
    assert_eq!(std::fs::read_dir(&home).unwrap().count(), 0);
    assert_eq!(std::fs::read(&cache).unwrap(), b"");
}

#[test]
fn a_broken_component_exits_4() {
    let output = run(&["--component", "/nonexistent.wasm", "schema"], "");
    assert_eq!(output.status.code(), Some(4));
    assert!(stderr(&output).contains("cannot read the component /nonexistent.wasm"));
}

#[test]
fn the_review_step_changes_an_answer_or_cancels() {
    let output = run(&["ask", DEPLOY], "2\n\n\n\n\n1\n3\n\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(values(&result(&output))[0], "prod");
    let screen = stderr(&output);
    assert!(
        screen
            .contains("Review your answers\n  1. Deploy: Staging\n  2. Checks: Unit tests, Lint\n"),
        "{screen}"
    );
    assert!(
        screen.contains("  1. Deploy: Production\n"),
        "reviewed again after the change:\n{screen}"
    );
    let output = run(&["ask", DEPLOY], "2\n\n\n\n\nquit\n");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        values(&result(&output)).len(),
        5,
        "every answer given is kept"
    );
}

#[test]
fn serve_without_a_terminal_answers_unavailable_to_every_request() {
    let mut child = spawn_without_terminal(&["serve"]);
    child.stdin.take().unwrap().write_all(b"{\"question\": \"A?\"}\n{\"tool\": \"resume_structured\", \"arguments\": {\"summary\": \"ok\"}}\n{bad\n{\"message\": \"m\", \"requestedSchema\": {\"type\": \"object\", \"properties\": {}}}\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let results = json_lines(&output.stdout);
    let statuses: Vec<_> = results[..3].iter().map(|r| r["status"].clone()).collect();
    assert_eq!(
        statuses,
        [json!("unavailable"), json!("answered"), json!("invalid")]
    );
    assert_eq!(
        results[3],
        json!({"action": "cancel"}),
        "an elicitation is answered too"
    );
    assert!(
        stderr(&output).contains(
            "nobody is at a terminal to answer the elicitation from an MCP server; replied cancel"
        ),
        "{}",
        stderr(&output)
    );
}

#[test]
fn serve_answers_elicitations_as_elicit_does_and_refuses_other_methods() {
    let form = json!({"type": "object", "properties": {}});
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create",
               "params": {"message": "m", "requestedSchema": form}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "elicitation/create",
               "params": {"message": "m", "requestedSchema": form, "_meta": {"server": "github"}}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "sampling/createMessage", "params": {}}),
        json!({"jsonrpc": "2.0", "id": {"not": "valid"}, "method": "elicitation/create",
               "params": {"message": "m", "requestedSchema": form}}),
    ];
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut child = spawn_without_terminal(&["serve", "--server", "linear"]);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let results = json_lines(&output.stdout);
    assert_eq!(results.len(), 4, "one line back per line");
    assert_eq!(
        results[0],
        json!({"jsonrpc": "2.0", "id": 1, "result": {"action": "cancel"}})
    );
    assert_eq!(results[1]["id"], 2);
    assert_eq!(results[2]["error"]["code"], -32601);
    assert_eq!(results[2]["id"], 3);
    assert_eq!(results[3]["error"]["code"], -32600);
    assert_eq!(results[3]["jsonrpc"], "2.0");
    let said = stderr(&output);
    assert!(
        said.contains("the elicitation from \"linear\"; replied cancel"),
        "{said}"
    );
    assert!(
        said.contains("the elicitation from \"github\"; replied cancel"),
        "{said}"
    );
}

#[test]
fn schema_in_every_ecosystems_envelope() {
    let format = |name: &str| {
        let output = run(&["schema", "--format", name], "");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        result(&output)
    };
    // Names every ecosystem accepts: letters, digits, _ and -, at most 64.
    let name_ok = |name: &Json| {
        let name = name.as_str().unwrap();
        !name.is_empty()
            && name.len() <= 64
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    let openai = format("openai");
    for tool in openai.as_array().unwrap() {
        assert_eq!(tool["type"], "function");
        assert!(name_ok(&tool["function"]["name"]));
        assert_eq!(tool["function"]["parameters"]["type"], "object");
        assert!(tool["function"]["parameters"].get("$schema").is_none());
        // Strict function calling; that the OpenAI Agents SDK makes the same of the MCP
        // schema is checked with that SDK (tests/mcp/openai_agents_strict.py).
        assert_eq!(tool["function"]["strict"], true);
        assert_eq!(
            tool["function"]["parameters"]["additionalProperties"],
            false
        );
    }
    let anthropic = format("anthropic");
    for tool in anthropic.as_array().unwrap() {
        assert!(name_ok(&tool["name"]) && tool["description"].is_string());
        assert_eq!(tool["input_schema"]["type"], "object");
    }
    let mcp = format("mcp");
    for tool in mcp["tools"].as_array().unwrap() {
        assert!(name_ok(&tool["name"]));
        assert_eq!(
            tool["inputSchema"]["type"], "object",
            "MCP requires an object input schema"
        );
    }
    let gemini = format("gemini");
    let declarations = gemini["functionDeclarations"].as_array().unwrap();
    assert_eq!(declarations.len(), 8);
    // What Gemini takes as a declaration is checked with Gemini's own SDK (check_formats.py).
    for tool in declarations {
        assert!(name_ok(&tool["name"]));
        assert!(tool["parameters"].get("$schema").is_none());
    }
    let plain = format("plain");
    assert_eq!(
        plain[0]["parameters"]["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let bad = run(&["schema", "--format", "cobol"], "");
    assert_eq!(bad.status.code(), Some(2));
}

const ELICITATION: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/elicitation.json");

#[test]
fn elicit_answers_a_form_line_by_line_with_every_exit_code() {
    // Submitted: formats and ranges checked, defaults taken, the JSON-RPC response printed.
    let answers =
        "Ada Lovelace\nada@example\nada@example.com\n2026-13-01\n2026-12-24\n\n2\n1,2\nn\n\n";
    let output = run(
        &["elicit", "--server", "venue-booker", ELICITATION],
        answers,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        result(&output),
        json!({"jsonrpc": "2.0", "id": 7, "result": {"action": "accept", "content": {
            "name": "Ada Lovelace", "email": "ada@example.com", "date": "2026-12-24", "guests": 8,
            "room": "hall", "extras": ["projector", "catering"], "newsletter": false}}})
    );
    let asked = stderr(&output);
    assert_eq!(
        asked
            .matches("venue-booker asks: To book the venue")
            .count(),
        1,
        "{asked}"
    );
    assert!(
        asked.contains("Type an email address, like name@example.com."),
        "{asked}"
    );
    assert!(asked.contains("Type a date as YYYY-MM-DD"), "{asked}");
    assert!(
        asked.contains("Commands: back, skip, decline, quit, help."),
        "{asked}"
    );

    // Declined: exit 5, no content.
    let output = run(&["elicit", ELICITATION], "Ada\ndecline\n");
    assert_eq!(output.status.code(), Some(5), "{}", stderr(&output));
    assert_eq!(result(&output)["result"], json!({"action": "decline"}));

    // Dismissed: the input ends before the form is done.
    let output = run(&["elicit", ELICITATION], "Ada\n");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(result(&output)["result"], json!({"action": "cancel"}));

    // Nobody there: cancel at once, exit 3.
    let output = run(&["elicit", ELICITATION], "");
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert_eq!(result(&output)["result"], json!({"action": "cancel"}));

    // Invalid: a JSON-RPC error naming the field, exit 2, nothing asked.
    let bad = write_request(
        "bad_elicitation",
        &json!({"jsonrpc": "2.0", "id": 3, "method": "elicitation/create", "params": {
            "message": "m", "requestedSchema": {"type": "object", "properties": {
                "n": {"type": "integer", "minimum": 5, "maximum": 1}}}}}),
    );
    let output = run(&["elicit", &bad], "");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let reply = result(&output);
    assert_eq!(reply["id"], 3);
    assert_eq!(reply["error"]["code"], -32602);
    assert_eq!(
        reply["error"]["message"],
        "params.requestedSchema.properties.n.minimum is 5, more than maximum (1)"
    );
}

#[test]
fn requests_that_cannot_be_read_still_get_one_json_result() {
    let dir = tempfile::tempdir().unwrap();
    let latin1 = dir.path().join("latin1.json");
    std::fs::write(&latin1, b"{\"question\": \"Caf\xe9?\"}").unwrap();
    let output = run(&["ask", latin1.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(2));
    let refused = result(&output);
    assert_eq!(refused["status"], "invalid");
    assert_eq!(
        refused["error"]["message"],
        format!(
            "the request from {} is not UTF-8 text (an invalid byte at offset 17)",
            latin1.display()
        )
    );
    assert!(
        refused["text"]
            .as_str()
            .unwrap()
            .starts_with("The request is invalid")
    );

    let huge = dir.path().join("huge.json");
    std::fs::write(&huge, vec![b' '; (8 << 20) + 1]).unwrap();
    let output = run(&["check", huge.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(2));
    let message = result(&output)["error"]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(message.contains("more than 8388608 bytes"), "{message}");

    let output = run(&["elicit", latin1.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(result(&output)["error"]["code"], -32700);
}

#[test]
fn an_endless_request_on_stdin_is_cut_at_the_limit() {
    use std::io::Write as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_interview"))
        .args(["check", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Like `yes | interview check -`: the writer never stops on its own.
    let writer = std::thread::spawn(move || {
        let line = [b'y'; 4096];
        while stdin.write_all(&line).is_ok() {}
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let result: Json = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["status"], "invalid");
    assert!(
        result["error"]["message"]
            .as_str()
            .unwrap()
            .contains("is more than 8388608 bytes")
    );
}

#[test]
fn previews_under_their_option_and_a_note_after_a_colon() {
    let request = json!({"questions": [{
        "question": "Which layout?",
        "options": [
            {"label": "Sidebar", "preview": "+------+\n|\tmenu |\n+------+\x1b[2J"},
            {"label": "Tabs", "preview": "[ A ][ B ]"}
        ]
    }]});
    let path = write_request("previews", &request);
    let output = run(
        &["ask", "--tool", "AskUserQuestion", &path],
        "2: with icons\n",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let screen = stderr(&output);
    assert!(
        screen.contains("  1. Sidebar\n     │ +------+\n     │ |   menu |\n     │ +------+\n  2. Tabs\n     │ [ A ][ B ]"),
        "each preview under its option, tabs widened, escapes gone:\n{screen}"
    );
    assert!(!screen.contains('\x1b'), "{screen:?}");
    assert!(screen.contains("write it after a colon"), "{screen}");
    let result = result(&output);
    assert_eq!(result["answers"][0]["note"], "with icons");
    assert_eq!(
        result["native"]["annotations"]["Which layout?"],
        json!({"preview": "[ A ][ B ]", "notes": "with icons"})
    );
    assert_eq!(
        result["text"],
        "The user answered: \"Which layout?\"=\"Tabs\" selected preview:\n[ A ][ B ] notes: with icons. \
         Read the answers carefully \u{2014} they may request clarification, changes, or that you not \
         proceed \u{2014} and follow what they actually say."
    );
}

#[test]
fn a_secret_is_never_shown_in_numbered_mode() {
    let request = json!({
        "message": "Connect your account",
        "requestedSchema": {"type": "object", "properties": {
            "user": {"type": "string", "title": "User"},
            // Marked secret by the schema, as pydantic writes a SecretStr.
            "token": {"type": "string", "title": "Token", "format": "password", "writeOnly": true},
            // Secret by its name alone, as the MCP TypeScript SDK's form example writes it.
            "password": {"type": "string", "title": "Password", "minLength": 8}
        }, "required": ["user", "token", "password"]}
    });
    let path = write_request("secret_form", &request);
    let output = run(&["elicit", &path], "ada\nt0k3n\nhunter22\n2\n\n\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let screen = stderr(&output);
    assert!(
        !screen.contains("hunter22") && !screen.contains("t0k3n"),
        "{screen}"
    );
    assert!(
        screen.contains("2. Token: •••••• (hidden)")
            && screen.contains("3. Password: •••••• (hidden)"),
        "the review hides both, also after changing one:\n{screen}"
    );
    assert_eq!(
        result(&output),
        json!({"action": "accept", "content": {"user": "ada", "token": "t0k3n", "password": "hunter22"}})
    );
}

#[test]
fn a_form_read_line_by_line_the_way_people_answer() {
    let request = json!({
        "message": "Two names",
        "requestedSchema": {"type": "object", "properties": {
            "first": {"type": "string", "title": "Name"},
            "second": {"type": "string", "title": "Name"},
            "colour": {"type": "string", "oneOf": [
                {"const": "#f00", "title": "Red"}, {"const": "#0f0", "title": "Green"}
            ]},
            "news": {"type": "boolean", "title": "News?"}
        }, "required": ["first", "colour"]}
    });
    let path = write_request("form_lines", &request);
    // An empty line skips an optional text and an optional yes/no alike; a value picks its option.
    let output = run(&["elicit", &path], "Ada\n\n#0f0\n\n\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        result(&output),
        json!({"action": "accept", "content": {"first": "Ada", "colour": "#0f0"}})
    );
    let screen = stderr(&output);
    assert!(
        screen.contains("Commands: back, decline, quit, help."),
        "skip is not offered on a required field:\n{screen}"
    );
    assert!(
        screen.contains("1. Name (first): Ada") && screen.contains("2. Name (second): (skipped)"),
        "fields of one title are told apart in the review:\n{screen}"
    );
}

#[test]
fn mcp_refuses_a_tool_the_plugin_does_not_have_with_exit_2() {
    let output = run(&["mcp", "--tools", "AskUserQuestion,ask_human"], "");
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    assert!(
        said.contains("no tool \"ask_human\"") && said.contains("request_user_input"),
        "{said}"
    );
    assert!(output.stdout.is_empty(), "nothing is served");
}

#[test]
fn mcp_refuses_a_tty_that_is_not_a_terminal_with_exit_2() {
    for (path, why) in [
        ("/dev/null", "/dev/null is not a terminal"),
        ("/no/such/tty", "No such file"),
    ] {
        let output = run(&["mcp", "--tty", path], "");
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        let said = stderr(&output);
        assert!(
            said.contains(&format!("--tty {path}")) && said.contains(why),
            "{said}"
        );
        assert!(output.stdout.is_empty(), "nothing is served");
    }
}

#[test]
fn mcp_without_a_client_exits_4_and_says_so() {
    let output = run(&["mcp"], "");
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert!(stderr(&output).contains("did not initialize"));
}

#[test]
fn serve_answers_a_blank_line_with_an_invalid_result_in_both_modes() {
    for args in [&["serve"][..], &["serve", "--state"]] {
        let mut child = spawn_without_terminal(args);
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"\n{\"question\": \"A?\"}\n  \r\n")
            .unwrap();
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let results = json_lines(&output.stdout);
        assert_eq!(results.len(), 3, "{args:?}: one line back per line");
        for blank in [&results[0], &results[2]] {
            assert_eq!(blank["status"], "invalid", "{args:?}: {blank}");
            assert_eq!(blank["error"]["message"], "the request line is empty");
        }
        assert_ne!(results[1]["status"], "invalid", "{args:?}: {}", results[1]);
        assert!(stderr(&output).contains("line 3: the request line is empty"));
    }
}

/// Component files that cannot be the plugin: cut short, a core module instead of a component,
/// and a component without the plugin's exports.
fn broken_components(dir: &std::path::Path) -> Vec<String> {
    let plugin = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/host/plugin/interview.wasm"
    ))
    .unwrap();
    let files: [(&str, &[u8]); 3] = [
        ("truncated.wasm", &plugin[..plugin.len() / 3]),
        ("core.wasm", b"\0asm\x01\0\0\0"),
        ("empty.wasm", b"\0asm\x0d\0\x01\0"),
    ];
    files
        .iter()
        .map(|(name, bytes)| {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            path.to_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn a_component_that_cannot_run_gives_one_failed_result_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let elicitation = json!({"jsonrpc": "2.0", "id": 9, "method": "elicitation/create",
        "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}});
    let elicitation_file = dir.path().join("elicitation.json");
    std::fs::write(&elicitation_file, elicitation.to_string()).unwrap();
    let elicitation_file = elicitation_file.to_str().unwrap();
    for component in broken_components(dir.path()) {
        let commands: [(&[&str], &str); 6] = [
            (&["ask", DEPLOY], ""),
            (&["check", DEPLOY], ""),
            (&["schema"], ""),
            (
                &["serve"],
                "{\"question\": \"A?\"}\n{\"question\": \"B?\"}\n",
            ),
            (&["elicit", elicitation_file], ""),
            (
                &["elicit", "-"],
                "{\"message\": \"m\", \"requestedSchema\": {}}",
            ),
        ];
        for (args, input) in commands {
            let mut command = vec!["--no-cache", "--component", &component];
            command.extend(args);
            let output = run(&command, input);
            let said = stderr(&output);
            assert_eq!(output.status.code(), Some(4), "{command:?}: {said}");
            let results = json_lines(&output.stdout);
            assert_eq!(results.len(), 1, "{command:?}: one result");
            let result = &results[0];
            let message = if args[0] == "elicit" {
                let reply = result.get("result").unwrap_or(result);
                assert_eq!(reply["action"], "cancel", "{command:?}: {result}");
                reply["_meta"]["interview/failure"]["message"].clone()
            } else {
                assert_eq!(result["status"], "failed", "{command:?}: {result}");
                assert_eq!(result["answers"], json!([]));
                result["error"]["message"].clone()
            };
            let message = message.as_str().unwrap();
            assert!(message.contains("component"), "{command:?}: {message}");
            assert!(
                said.contains(message),
                "{command:?}: stderr says it too: {said}"
            );
        }
        let reply = result(&run(
            &[
                "--no-cache",
                "--component",
                &component,
                "elicit",
                elicitation_file,
            ],
            "",
        ));
        assert_eq!(
            reply["id"], 9,
            "a JSON-RPC elicitation is answered under its id: {reply}"
        );
        assert_eq!(reply["result"]["action"], "cancel");
        let on_stdin = run(
            &["--no-cache", "--component", &component, "elicit", "-"],
            &elicitation.to_string(),
        );
        let reply = result(&on_stdin);
        assert_eq!(reply["id"], 9, "also from stdin: {reply}");
    }
}

#[test]
fn mcp_with_a_component_that_cannot_run_exits_4_and_keeps_stdout_for_json_rpc() {
    let dir = tempfile::tempdir().unwrap();
    for component in broken_components(dir.path()) {
        let output = run(&["--no-cache", "--component", &component, "mcp"], "");
        assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
        assert!(
            output.stdout.is_empty(),
            "a client reads only JSON-RPC there"
        );
        assert!(stderr(&output).contains("component"), "{}", stderr(&output));
    }
}

#[test]
fn numbered_multi_select_offers_none_only_where_no_pick_is_an_answer() {
    let ask = |name: &str, settings: Json| {
        let mut request = json!({"question": "Which checks?", "options": ["lint", "test"],
            "multi": true});
        request
            .as_object_mut()
            .unwrap()
            .extend(settings.as_object().unwrap().clone());
        let output = run(&["ask", &write_request(name, &request)], "1\n");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stderr(&output)
    };
    let needs_one = ask("multi-needs-one", json!({}));
    assert!(needs_one.contains("pick at least 1"), "{needs_one}");
    assert!(
        needs_one.contains("like 1, 3 or 2-4. To add a note, write it after a colon"),
        "{needs_one}"
    );
    assert!(!needs_one.contains("none for no pick"), "{needs_one}");
    let none_is_an_answer = ask("multi-none", json!({"min_picks": 0, "notes": false}));
    assert!(
        none_is_an_answer.contains("like 1, 3 or 2-4 (none for no pick).\n"),
        "{none_is_an_answer}"
    );
}

/// The shared table of tricky typed lines (signs, superscripts, case beyond ASCII, ranges,
/// labels, notes): what the agent gets for each. The Python and npm commands run the same
/// table, and since the plugin reads every line, all three agree.
#[test]
fn typed_lines_mean_what_the_shared_table_says() {
    let table: Json = serde_json::from_str(include_str!("lines/tricky.json")).unwrap();
    let cases = table["cases"].as_array().unwrap();
    assert!(cases.len() >= 20, "the table has its cases");
    for (i, case) in cases.iter().enumerate() {
        let name = case["name"].as_str().unwrap();
        let request = write_request(&format!("tricky_{i}"), &case["request"]);
        let output = run(&["ask", &request], case["typed"].as_str().unwrap());
        let result = result(&output);
        for (field, expected) in case["expect"].as_object().unwrap() {
            assert_eq!(
                &result[field],
                expected,
                "{name}: {field} of {result}\n{}",
                stderr(&output)
            );
        }
    }
}
