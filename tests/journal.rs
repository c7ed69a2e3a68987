//! `--journal`: the person's answers kept on disk as they are given, so that a run cut off
//! half-way resumes where they were, and never mixes the answers of two requests. (The arrow-key
//! UI after kill -9 is in `terminal.rs`.)

mod common;

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::*;
use serde_json::{Value as Json, json};

fn journal_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("journals");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.journal"));
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `ask --journal journal request`, which must be refused before anything is asked,
/// saying `says` on stderr and in an `invalid` result.
fn assert_refused(journal: &Path, request: &str, says: &str) {
    let output = run(
        &["ask", "--journal", journal.to_str().unwrap(), request],
        "1\n",
    );
    let said = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{said}");
    let refused = result(&output);
    assert_eq!(refused["status"], "invalid");
    assert_eq!(refused["error"]["path"], "--journal");
    assert!(said.contains(says), "{said}");
    assert!(!said.contains('?'), "nothing is asked: {said}");
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
            "what was answered so far is kept in {journal_arg}: the same command resumes"
        )),
        "{}",
        stderr(&first)
    );
    let mode = std::fs::metadata(&journal).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "only its owner reads the answers");

    let second = run(&args, "3\n\n");
    let said = stderr(&second);
    assert_eq!(second.status.code(), Some(0), "{said}");
    // The answers kept as they were typed (the host sees lines), then at the review in words.
    assert!(said.contains("✔ Which environment?: 2\n"), "{said}");
    assert!(said.contains("✔ Release name?: Aurora\n"), "{said}");
    let resumed = said
        .find("Resumed where you left off; what you typed is kept:\n")
        .expect(&said);
    let asked = said.find("How many replicas?").expect(&said);
    assert!(
        resumed < asked,
        "said before the question asked next:\n{said}"
    );
    assert!(
        said.contains("  1. Which environment?: staging\n"),
        "{said}"
    );
    assert!(said.contains("  2. Release name?: Aurora\n"), "{said}");
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
    assert_refused(&path, &request, "is not an interview journal");
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
    assert!(
        said.contains("what you typed is kept:\n  ✔ user: ada\n"),
        "{said}"
    );
    assert!(
        !said.contains("user\n"),
        "an answered field is not asked again:\n{said}"
    );
    let reply = result(&second);
    assert_eq!(
        reply["content"],
        json!({"user": "ada", "password": "swordfish", "region": "us"})
    );
    assert!(!journal.exists());
}

/// A file with no newline at the end looks like a journal whose last line was torn; it is
/// refused and keeps every byte, through a hard link too.
#[test]
fn a_file_without_a_newline_is_neither_cut_nor_removed() {
    let request = write_request(
        "journal_token",
        &json!({"question": "Which environment?", "options": ["dev", "staging"]}),
    );
    let path = journal_path("token");
    std::fs::write(&path, "ghp_TOKEN").unwrap();
    assert_refused(&path, &request, "is not an interview journal");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "ghp_TOKEN");

    let link = journal_path("token-link");
    std::fs::hard_link(&path, &link).unwrap();
    assert_refused(&link, &request, "has other names (hard links)");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "ghp_TOKEN");
    assert_eq!(std::fs::read_to_string(&link).unwrap(), "ghp_TOKEN");
}

/// Running the command again where nobody can answer (no terminal, no input) is not a
/// decision: the kept answers stay, and stderr says where.
#[test]
fn nobody_to_ask_keeps_the_journal_and_says_so() {
    let request = write_request("journal_unreached", &release());
    let journal = journal_path("unreached");
    let journal_arg = journal.to_str().unwrap();
    let args = ["ask", "--journal", journal_arg, &request];
    let first = run(&args, "2\n");
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    let kept = std::fs::read(&journal).unwrap();

    // Nothing on stdin, no terminal to open.
    let mut second = spawn_without_terminal(&args);
    drop(second.stdin.take());
    let second = second.wait_with_output().unwrap();
    assert_eq!(second.status.code(), Some(3), "{}", stderr(&second));
    assert_eq!(result(&second)["status"], "unavailable");
    assert_eq!(std::fs::read(&journal).unwrap(), kept, "the answer is kept");
    assert!(
        stderr(&second).contains(&format!(
            "nobody could be asked here; what was answered so far is kept in {journal_arg}: \
             the same command where a person can answer resumes from there"
        )),
        "{}",
        stderr(&second)
    );

    let third = run(&args, "Aurora\n3\n\n");
    assert_eq!(third.status.code(), Some(0), "{}", stderr(&third));
    assert_eq!(
        values(&result(&third)),
        [json!("staging"), json!("Aurora"), json!(3)]
    );
}

/// Two runs on one journal would interleave their replies: the second is refused at once,
/// and the first goes on to its answer with the journal intact.
#[test]
fn a_second_run_on_a_journal_in_use_is_refused_at_once() {
    let request = write_request("journal_busy", &release());
    let journal = journal_path("busy");
    let journal_arg = journal.to_str().unwrap();
    let args = ["ask", "--journal", journal_arg, &request];
    let mut first = spawn(&args);
    let mut input = first.stdin.take().unwrap();
    input.write_all(b"2\n").unwrap();
    input.flush().unwrap();
    // The first run has its answer on disk once the journal holds a reply line.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::fs::read_to_string(&journal).map_or(0, |j| j.lines().count()) < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the first run wrote no reply"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }

    let started = std::time::Instant::now();
    assert_refused(&journal, &request, "is in use by another interview run");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));

    input.write_all(b"Aurora\n3\n\n").unwrap();
    drop(input);
    let first = first.wait_with_output().unwrap();
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(
        values(&result(&first)),
        [json!("staging"), json!("Aurora"), json!(3)]
    );
    assert!(!journal.exists());
}

/// A journal made readable by others (or an empty file made for it) is made private when a
/// run takes it, before any answer is written.
#[test]
fn a_journal_taken_is_made_private() {
    let request = write_request("journal_private", &release());
    let journal = journal_path("private");
    std::fs::write(&journal, "").unwrap();
    std::fs::set_permissions(&journal, std::fs::Permissions::from_mode(0o644)).unwrap();
    let output = run(
        &["ask", "--journal", journal.to_str().unwrap(), &request],
        "2\n",
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let mode = std::fs::metadata(&journal).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}

/// A journal that cannot be written is said before the first question, not after the
/// person answered: a missing folder, and a file the disk takes no more bytes of.
#[test]
fn a_journal_that_cannot_be_written_is_said_before_anything_is_asked() {
    let request = write_request("journal_unwritable", &release());
    let missing = journal_path("missing")
        .with_file_name("no-such-folder")
        .join("j");
    assert_refused(&missing, &request, "does not exist");

    let full = journal_path("full");
    let mut command = interview();
    command
        .args(["ask", "--journal", full.to_str().unwrap(), &request])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit and signal are async-signal-safe. A file-size limit of 64 bytes makes
    // any write of a regular file past them fail (EFBIG), as a full disk would; the signal
    // it raises is ignored so that the write fails instead.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: 64,
                rlim_max: 64,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"2\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("cannot be written"),
        "{}",
        stderr(&output)
    );
    assert!(
        !stderr(&output).contains("Which environment?"),
        "{}",
        stderr(&output)
    );
}

/// A choice marked secret takes its typed answer in a hidden field, and a question whose id
/// names a secret is one: neither is written to the journal or drawn, and a resumed run asks
/// for both again. A secret choice's list is read hidden too, since its answer may be typed
/// there by habit: that line stays off the disk and the screen, and its pick is asked again.
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

    let first = run(&args, "sk-habit-1\n3\nsk-live-123\nsk-test-456\n");
    let said = stderr(&first);
    assert_eq!(first.status.code(), Some(1), "{said}");
    let written = std::fs::read_to_string(&journal).unwrap();
    for secret in ["sk-habit-1", "sk-live-123", "sk-test-456"] {
        assert!(!written.contains(secret), "a secret on disk: {written}");
        assert!(!said.contains(secret), "a secret on the screen: {said}");
    }

    let second = run(&args, "3\nsk-live-789\nsk-test-000\n2\n\n");
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

/// A typed line is played back only to the question it was typed to: a secret, asked again
/// since it is never kept, that takes the person another number of tries does not shift the
/// lines after it onto other questions; the person is asked from there instead.
#[test]
fn a_resumed_line_goes_only_to_the_question_it_was_typed_to() {
    let request = write_request(
        "journal_shifted",
        &json!({"questions": [
            {"id": "password", "question": "New password?", "min_length": 8},
            {"id": "env", "question": "Which environment?", "options": ["Dev", "Prod"]},
            {"id": "drop", "question": "Which tables may I drop?", "type": "multi_select",
             "options": ["users", "orders"], "required": false},
        ]}),
    );
    let journal = journal_path("shifted");
    let args = ["ask", "--journal", journal.to_str().unwrap(), &request];
    // A password refused once, then one accepted, then Prod; the input ends at the third.
    let first = run(&args, "short\nlongenough1\n2\n");
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));

    let second = run(&args, "longenough1\n1\n\n\n");
    let said = stderr(&second);
    assert_eq!(second.status.code(), Some(0), "{said}");
    assert!(
        said.contains("Which tables may I drop?"),
        "the third question is asked, not answered with a line typed to the second:\n{said}"
    );
    assert_eq!(
        values(&result(&second))[1..],
        [json!("Dev"), json!([])],
        "{said}"
    );
}
