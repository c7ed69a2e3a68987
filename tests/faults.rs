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

/// A result that cannot be written is reported, with its own exit code: the answers did not
/// reach the caller, so success must not be claimed.
#[test]
fn a_result_written_to_a_full_disk_is_reported() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut child = interview()
        .args(["ask", DEPLOY])
        .stdin(std::process::Stdio::piped())
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"2\n1\n\nn\nok\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(6), "{}", tail(&stderr(&output)));
    assert!(
        stderr(&output)
            .contains("interview: cannot write the result to stdout: No space left on device"),
        "{}",
        tail(&stderr(&output))
    );
}

/// Control characters, bidirectional overrides and invisible characters from the agent reach
/// stdout only as JSON escapes, so printing the result cannot reorder or hide text.
#[test]
fn controls_and_bidi_overrides_are_escaped_in_the_result() {
    let label = "invoice\u{202e}fdp.exe \u{9b}31m\u{7f} N\u{200b}o";
    let request = json!({"question": "Open which file?", "options": [label, "none"]});
    let path = write_request("bidi_result", &request);
    let output = run(&["ask", &path], "1\n");
    assert_eq!(output.status.code(), Some(0), "{}", tail(&stderr(&output)));
    let stdout = String::from_utf8(output.stdout.clone()).unwrap();
    for raw in ['\u{202e}', '\u{9b}', '\u{7f}', '\u{200b}'] {
        assert!(!stdout.contains(raw), "{raw:?} raw in {stdout}");
    }
    assert!(
        stdout.contains(r"invoice\u202efdp.exe \u009b31m\u007f N\u200bo"),
        "{stdout}"
    );
    assert_eq!(result(&output)["answer"], label);
}

/// `serve` answers a line that cannot be a request (not UTF-8, longer than the limit, not
/// JSON) with an `invalid` result naming the problem, and answers the next request as usual
/// (here: nobody is at a terminal).
#[test]
fn serve_answers_bad_lines_and_goes_on() {
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"{\"question\": \"caf\xe9?\"}\n");
    input.extend_from_slice(b"{\"question\": \"");
    input.extend(std::iter::repeat_n(b'x', 9 << 20));
    input.extend_from_slice(b"\"}\n");
    input.extend_from_slice(b"not json at all\n");
    input.extend_from_slice(b"{\"question\": \"Name?\"}\n");
    let mut child = spawn_without_terminal(&["serve"]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&input).unwrap();
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", tail(&stderr(&output)));
    let replies = json_lines(&output.stdout);
    assert_eq!(replies.len(), 4, "one reply per line");
    let message = |n: usize| replies[n]["error"]["message"].as_str().unwrap().to_string();
    assert_eq!(replies[0]["status"], "invalid");
    assert!(message(0).contains("not UTF-8"), "{}", message(0));
    assert_eq!(replies[1]["status"], "invalid");
    assert!(
        message(1).contains("more than the limit of 8388608"),
        "{}",
        message(1)
    );
    assert_eq!(replies[2]["status"], "invalid");
    assert_eq!(
        replies[3]["status"], "unavailable",
        "the next request is answered"
    );
}

/// Endless input is read only up to the request limit, then refused with a result.
#[test]
fn endless_input_is_bounded() {
    let mut child = spawn(&["check", "-"]);
    let mut stdin = child.stdin.take().unwrap();
    // Like `yes`: it writes until the reader goes away.
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let block = b"y\n".repeat(32 << 10);
        while stdin.write_all(&block).is_ok() {}
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", tail(&stderr(&output)));
    let message = result(&output)["error"]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(message.contains("more than 8388608 bytes"), "{message}");
}

/// A pasted answer as long as a request may be, so large that the plugin runs out of memory
/// after the person gave it: the host plays the answer back into a larger instance and the
/// result comes out. A longer line is refused, and the question asked again.
#[test]
fn a_pasted_answer_up_to_the_limit_is_kept_and_a_longer_one_asked_again() {
    let path = write_request("paste", &json!({"question": "Paste the log"}));
    let log = "x".repeat(LIMIT);
    let output = run(&["ask", "--numbered", &path], &format!("{log}\n"));
    assert_eq!(output.status.code(), Some(0), "{}", tail(&stderr(&output)));
    assert!(
        result(&output)["answer"] == log.as_str(),
        "the whole log came back"
    );
    assert!(
        stderr(&output).contains("they were played back into a fresh instance with larger limits"),
        "{}",
        tail(&stderr(&output))
    );

    // One byte more (the \r of a line break counts) is refused.
    let log = "y".repeat(LIMIT);
    let output = run(&["ask", "--numbered", &path], &format!("{log}\r\nshort\n"));
    assert_eq!(output.status.code(), Some(0), "{}", tail(&stderr(&output)));
    assert_eq!(result(&output)["answer"], "short");
    assert!(
        stderr(&output).contains(&format!(
            "> ! That line is more than {LIMIT} bytes; type a shorter answer.\n> "
        )),
        "{}",
        tail(&stderr(&output))
    );
}

/// The limit on a request, which bounds an answer line too.
const LIMIT: usize = 8 << 20;

/// Three pasted logs are too much for the plugin even with the replay's larger limits: the
/// call fails (exit 4), and its result, which the plugin words in a sandbox sized for them,
/// still carries every answer the person gave, whole.
#[test]
fn answers_the_plugin_fails_on_for_good_all_come_back_in_its_failed_result() {
    let questions: Vec<Json> = ["One?", "Two?", "Three?"]
        .iter()
        .map(|q| json!({"question": q}))
        .collect();
    let path = write_request("three-logs", &json!({"questions": questions}));
    let log = "x".repeat(LIMIT);
    let output = run(
        &["ask", "--numbered", &path],
        &format!("{log}\n{log}\n{log}\n\n"),
    );
    assert_eq!(output.status.code(), Some(4), "{}", tail(&stderr(&output)));
    let result = result(&output);
    assert_eq!(result["status"], "failed");
    let answers = result["answers"].as_array().expect("answers listed");
    let given: Vec<(&str, usize)> = answers
        .iter()
        .map(|a| {
            (
                a["question"].as_str().unwrap(),
                a["answer"].as_str().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(given, [("One?", LIMIT), ("Two?", LIMIT), ("Three?", LIMIT)]);
    let text = result["text"].as_str().unwrap();
    assert!(
        text.starts_with("The question tool failed after the user answered"),
        "{}",
        tail(text)
    );
}

/// An answer line far longer than the limit, streamed with no line break, is dropped as it
/// comes: the process holds no more than a few times the limit, and the next line answers.
#[test]
#[expect(
    clippy::zombie_processes,
    reason = "reaped by wait4, which says what it used"
)]
fn an_endless_answer_line_is_dropped_as_it_streams() {
    let path = write_request("stream", &json!({"question": "Paste the log"}));
    let mut child = spawn(&["ask", "--numbered", &path]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let block = vec![b'x'; 1 << 20];
        for _ in 0..200 {
            stdin.write_all(&block).unwrap();
        }
        stdin.write_all(b"\nshort\n").unwrap();
    });
    let (stdout, stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let read = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let (stdout, stderr) = (read(Box::new(stdout)), read(Box::new(stderr)));
    // Waited for by its id rather than through `child`, for its own resource use: the
    // children of this test process together (RUSAGE_CHILDREN) count the other tests' too.
    let mut status = 0;
    // SAFETY: rusage is plain data, filled by wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for this test's own child, which nothing else waits for.
    let waited = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as libc::pid_t);
    writer.join().unwrap();
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    let stderr = String::from_utf8_lossy(&stderr);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{status:#x}: {}",
        tail(&stderr)
    );
    let result: Json = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(result["answer"], "short");
    assert!(
        stderr.contains("That line is more than"),
        "{}",
        tail(&stderr)
    );
    let kib = usage.ru_maxrss;
    assert!(kib < 200 << 10, "held {kib} KiB for a 200 MiB line");
}

/// A default is cleaned to be shown (a tab would move the cursor), but accepting it as shown
/// answers the default as the agent gave it.
#[test]
fn an_accepted_text_default_is_returned_as_given() {
    let request = json!({"question": "Columns?", "type": "text", "default": "name\tage"});
    let path = write_request("tab_default", &request);
    let output = run(&["ask", &path], "\n");
    assert_eq!(output.status.code(), Some(0), "{}", tail(&stderr(&output)));
    assert_eq!(result(&output)["answer"], "name\tage");
}

/// Two labels a person cannot tell apart are refused, so that the one they pick is the one
/// they meant.
#[test]
fn labels_differing_only_in_invisible_characters_are_refused() {
    let request = json!({"question": "Delete it?", "options": ["No", "N\u{200b}o"]});
    let path = write_request("invisible_labels", &request);
    let output = run(&["check", &path], "");
    assert_eq!(output.status.code(), Some(2), "{}", tail(&stderr(&output)));
    assert_eq!(result(&output)["error"]["path"], "options[1].label");
}
