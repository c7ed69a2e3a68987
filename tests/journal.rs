//! `--journal`: the person's answers kept on disk as they are given, so that a run cut off
//! half-way resumes where they were, and never mixes the answers of two requests. (The arrow-key
//! UI after kill -9 is in `terminal.rs`.)

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use common::*;
use serde_json::{Value as Json, json};

fn journal_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("journals");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.journal"));
    let _ = std::fs::remove_file(&path);
    path
}

fn release() -> Json {
    json!({"questions": [
        {"question": "Which environment?", "options": ["dev", "staging", "prod"]},
        {"question": "Release name?"},
        {"question": "How many replicas?", "type": "number", "min": 1, "max": 9},
    ]})
}

/// Input that ends half-way (a closed terminal) leaves the journal; the same command resumes
/// after the answers given, says which were kept, and removes the journal when it is done.
#[test]
fn a_run_cut_off_resumes_from_the_journal_and_removes_it() {
    let request = write_request("journal_release", &release());
    let journal = journal_path("release");
    let journal_arg = journal.to_str().unwrap();
    let args = ["ask", "--journal", journal_arg, &request];

    let first = run(&args, "2\nAurora\n");
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    assert_eq!(result(&first)["status"], "cancelled");
    assert!(journal.exists(), "kept for a resume: {}", stderr(&first));
    assert!(
        stderr(&first).contains(&format!(
            "the answers so far are kept in {journal_arg}: the same command resumes"
        )),
        "{}",
        stderr(&first)
    );
    let mode = std::fs::metadata(&journal).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "only its owner reads the answers");

    let second = run(&args, "3\n\n");
    let said = stderr(&second);
    assert_eq!(second.status.code(), Some(0), "{said}");
    assert!(
        said.contains("Resumed where you left off; your 2 answers are kept:"),
        "{said}"
    );
    assert!(said.contains("✔ Which environment?: staging"), "{said}");
    assert!(said.contains("✔ Release name?: Aurora"), "{said}");
    assert!(
        !said.contains("Release name?\n"),
        "an answered question is not asked again:\n{said}"
    );
    let result = result(&second);
    assert_eq!(result["status"], "answered");
    assert_eq!(
        values(&result),
        [json!("staging"), json!("Aurora"), json!(3)]
    );
    assert!(!journal.exists(), "removed once the result is written");
}

/// A journal is for one request: another request refuses it before asking anything, and
/// the journal is left as it was.
#[test]
fn a_journal_of_another_request_is_refused() {
    let request = write_request("journal_first", &release());
    let journal = journal_path("other");
    let journal_arg = journal.to_str().unwrap();
    run(&["ask", "--journal", journal_arg, &request], "1\n");
    let before = std::fs::read(&journal).unwrap();

    let other = write_request("journal_second", &json!({"question": "Proceed?"}));
    let output = run(&["ask", "--journal", journal_arg, &other], "yes\n");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let refused = result(&output);
    assert_eq!(refused["status"], "invalid");
    assert_eq!(refused["error"]["path"], "--journal");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("was written for another request"),
        "{message}"
    );
    assert!(!stderr(&output).contains("Proceed?"), "nothing was asked");
    assert_eq!(std::fs::read(&journal).unwrap(), before, "left as it was");
}

/// A file that is not a journal is never overwritten or taken for one.
#[test]
fn a_file_that_is_not_a_journal_is_refused() {
    let request = write_request("journal_not", &json!({"question": "Name?"}));
    let path = journal_path("not-a-journal");
    std::fs::write(&path, "precious notes\n").unwrap();
    let output = run(
        &["ask", "--journal", path.to_str().unwrap(), &request],
        "x\n",
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("is not an interview journal"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious notes\n");
}

/// A person who cancels on purpose (`quit`) has finished: the journal goes.
#[test]
fn quitting_on_purpose_removes_the_journal() {
    let request = write_request("journal_quit", &release());
    let journal = journal_path("quit");
    let output = run(
        &["ask", "--journal", journal.to_str().unwrap(), &request],
        "1\nquit\n",
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(!journal.exists());
}

/// An elicitation resumes too; its secret is never written to the journal, and is asked again.
#[test]
fn an_elicitation_resumes_and_its_secret_is_asked_again() {
    let request = json!({"message": "Sign in", "requestedSchema": {"type": "object",
        "required": ["user", "password", "region"],
        "properties": {
            "user": {"type": "string"},
            "password": {"type": "string"},
            "region": {"type": "string", "enum": ["eu", "us"]}}}});
    let path = write_request("journal_elicit", &request);
    let journal = journal_path("elicit");
    let args = ["elicit", "--journal", journal.to_str().unwrap(), &path];

    let first = run(&args, "ada\nhunter2\n");
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    let written = std::fs::read_to_string(&journal).unwrap();
    assert!(written.contains("ada"), "{written}");
    assert!(!written.contains("hunter2"), "a secret on disk: {written}");

    let second = run(&args, "swordfish\n2\n\n");
    let said = stderr(&second);
    assert_eq!(second.status.code(), Some(0), "{said}");
    assert!(said.contains("your answer is kept:"), "{said}");
    let reply = result(&second);
    assert_eq!(
        reply["content"],
        json!({"user": "ada", "password": "swordfish", "region": "us"})
    );
    assert!(!journal.exists());
}

/// A choice marked secret takes its typed answer in a hidden field, and a question whose id
/// names a secret is one: neither is written to the journal or drawn, and a resumed run asks
/// for both again.
#[test]
fn a_secret_choices_typed_answer_and_a_field_named_like_a_secret_stay_off_the_disk() {
    let request = json!({"questions": [
        {"question": "Which key?", "options": ["Staging key", "Prod key"], "secret": true},
        {"id": "api_key", "question": "The other key?"},
        {"question": "How many replicas?", "type": "number"},
    ]});
    let path = write_request("journal_secret_choice", &request);
    let journal = journal_path("secret_choice");
    let args = ["ask", "--journal", journal.to_str().unwrap(), &path];

    let first = run(&args, "3\nsk-live-123\nsk-test-456\n");
    let said = stderr(&first);
    assert_eq!(first.status.code(), Some(1), "{said}");
    let written = std::fs::read_to_string(&journal).unwrap();
    for secret in ["sk-live-123", "sk-test-456"] {
        assert!(!written.contains(secret), "a secret on disk: {written}");
        assert!(!said.contains(secret), "a secret on the screen: {said}");
    }

    let second = run(&args, "sk-live-789\nsk-test-000\n2\n\n");
    let said = stderr(&second);
    assert_eq!(second.status.code(), Some(0), "{said}");
    assert!(
        !said.contains("sk-live-789") && !said.contains("sk-test-000"),
        "{said}"
    );
    let result = result(&second);
    assert_eq!(
        values(&result),
        [json!("sk-live-789"), json!("sk-test-000"), json!(2)]
    );
    assert_eq!(
        field(&result, "custom"),
        [json!(true), json!(false), json!(false)]
    );
}
