//! The examples in `examples/` run as their documentation says, with a person's answers piped
//! in. `cargo test` builds them beside the tests.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Runs the example `name` with `input` on stdin; its stdout, after checking that it succeeded.
fn run_example(name: &str, input: &str) -> String {
    let path = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples")
        .join(name);
    assert!(
        path.exists(),
        "{} is built by `cargo test` (all targets)",
        path.display()
    );
    let mut child = Command::new(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("XDG_CACHE_HOME", cache_dir())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// One compiled-component cache for these tests, out of the person's own.
fn cache_dir() -> PathBuf {
    let dir = std::env::temp_dir().join("interview-host-examples-cache");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn the_terminal_example_asks_in_numbered_lines_without_a_terminal() {
    let result = json(&run_example("terminal", "2\nyes\n\n"));
    assert_eq!(result["status"], "answered");
    assert_eq!(
        result["native"]["answers"],
        serde_json::json!(["production", true])
    );
}

#[test]
fn the_own_ui_example_chats_and_the_plugin_judges() {
    let out = run_example("own_ui", "2\nRefactor the parser\n");
    assert!(out.contains("bot: Which task next?"), "{out}");
    assert!(out.contains("[Question 2 of 2]"), "{out}");
    assert!(
        out.ends_with(
            "1. Task: User selected: 2. Update the dependencies\n\
             2. Anything I should know before starting?: User wrote: Refactor the parser\n"
        ),
        "{out}"
    );
}

#[test]
fn the_own_ui_example_returns_what_was_answered_when_input_ends() {
    let out = run_example("own_ui", "1\n");
    assert!(
        out.contains("User selected: 1. Fix the flaky test"),
        "{out}"
    );
    assert!(!out.contains("you: Refactor"), "{out}");
}

#[test]
fn the_async_example_answers_from_a_blocking_thread() {
    let result = json(&run_example("async_app", "1\n"));
    assert_eq!(result["status"], "answered");
    assert_eq!(result["answer"], "yes");
}
