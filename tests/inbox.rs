//! `interview inbox`: a person answers in one terminal the questions of commands that cannot
//! ask where they run. The inbox runs in a real pseudo-terminal; the askers run with no
//! terminal at all, as agents start them; both find each other through `INTERVIEW_INBOX`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

use common::term::{CTRL_C, DOWN, ENTER, Term};
use common::{interview, lines_of, values, without_terminal, write_request};

/// A folder of its own for one test's inboxes and askers.
struct Place(tempfile::TempDir);

impl Place {
    fn new() -> Place {
        Place(tempfile::tempdir().unwrap())
    }

    fn dir(&self) -> &str {
        self.0.path().to_str().unwrap()
    }

    /// `interview inbox` in a terminal of its own.
    fn inbox(&self) -> Term {
        let command = format!("{} inbox", env!("CARGO_BIN_EXE_interview"));
        let result = self.0.path().join("inbox.out");
        let term = Term::run(
            &command,
            result,
            30,
            100,
            &[("INTERVIEW_INBOX", self.dir())],
        );
        term.wait("Waiting for questions");
        term
    }

    /// `interview args` as an agent starts it: no terminal, in a session of its own.
    fn asker(&self, args: &[&str]) -> Child {
        self.spawn(args, Stdio::null())
    }

    /// `interview args` with no terminal, `stdin` as its standard input.
    fn spawn(&self, args: &[&str], stdin: Stdio) -> Child {
        let mut command = interview();
        command
            .args(args)
            .env("INTERVIEW_INBOX", self.dir())
            .current_dir(self.0.path())
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        without_terminal(&mut command).spawn().unwrap()
    }

    /// An inbox and an asker of the deploy request, its first question answered (Production)
    /// and the second shown.
    fn first_question_answered(&self) -> (Term, Child) {
        let mut inbox = self.inbox();
        let asker = self.asker(&["ask", &deploy()]);
        inbox.wait("? Where to deploy?");
        inbox.key(DOWN);
        inbox.key(ENTER);
        inbox.wait("? Which checks?");
        (inbox, asker)
    }

    fn sockets(&self) -> usize {
        std::fs::read_dir(self.0.path())
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".sock")
            })
            .count()
    }
}

fn deploy() -> String {
    write_request(
        "inbox-deploy",
        &json!({"questions": [
            {"id": "env", "question": "Where to deploy?", "options": ["Staging", "Production"]},
            {"id": "checks", "question": "Which checks?", "multi": true,
             "options": ["Unit tests", "Lint", "Load test"]},
        ]}),
    )
}

/// The asker's result and exit code, once it ends (within a minute).
fn finished(child: Child) -> (Json, i32, String) {
    let output = wait_with_timeout(child, Duration::from_secs(60));
    let result = serde_json::from_slice(&output.stdout).unwrap_or(Json::Null);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (result, output.status.code().unwrap_or(-1), stderr)
}

fn wait_with_timeout(mut child: Child, patience: Duration) -> Output {
    let deadline = Instant::now() + patience;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the command did not end within {patience:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Answers the deploy request's two questions: Production, then Lint, then submits.
fn answer_deploy(inbox: &mut Term) {
    inbox.wait("? Where to deploy?");
    inbox.key(DOWN);
    inbox.key(ENTER);
    answer_checks(inbox);
}

/// Answers the deploy request's second question (Lint), then submits.
fn answer_checks(inbox: &mut Term) {
    inbox.wait("? Which checks?");
    inbox.key(DOWN);
    inbox.key(" ");
    inbox.key(ENTER);
    inbox.wait("Review your answers");
    inbox.key(ENTER);
}

#[test]
fn an_agent_without_a_terminal_is_answered_in_the_open_inbox() {
    let place = Place::new();
    let mut inbox = place.inbox();
    let request = deploy();
    let asker = place.asker(&["ask", &request]);
    let screen = inbox.wait("? Where to deploy?");
    let folder = place
        .0
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(screen.contains("── interview ask asks · in "), "{screen}");
    assert!(
        screen.contains(&folder),
        "who asks names the folder: {screen}"
    );
    answer_deploy(&mut inbox);
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(result["status"], "answered");
    assert_eq!(values(&result), [json!("Production"), json!(["Lint"])]);
    inbox.wait("✔ Sent to interview ask");
    // Ctrl-C is a signal once the question's raw mode is over.
    std::thread::sleep(Duration::from_millis(500));
    // (The signal stops the test's shell too, so the inbox's end is read off the screen.)
    inbox.send(CTRL_C);
    inbox.wait("interview inbox: closed.");
    let deadline = Instant::now() + Duration::from_secs(10);
    while place.sockets() > 0 {
        assert!(
            Instant::now() < deadline,
            "a closed inbox removes its socket"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn closing_the_inbox_mid_batch_keeps_the_answers_for_the_next_inbox() {
    let place = Place::new();
    let (mut inbox, asker) = place.first_question_answered();
    inbox.send(CTRL_C);
    let closed = inbox.finish();
    assert!(closed.restored);
    assert!(
        closed.screen.contains("interview inbox: closed"),
        "{}",
        closed.screen
    );

    // The asker still waits: closing the inbox is not an answer.
    std::thread::sleep(Duration::from_millis(500));
    let mut asker = asker;
    assert!(
        asker.try_wait().unwrap().is_none(),
        "the asker waits for the next inbox"
    );

    let mut inbox = place.inbox();
    let screen = inbox.wait("? Which checks?");
    assert!(screen.contains("your answer is kept"), "{screen}");
    assert!(screen.contains("Production"), "{screen}");
    assert!(
        !screen.contains("has stopped"),
        "the asker is alive: {screen}"
    );
    inbox.key(DOWN);
    inbox.key(" ");
    inbox.key(ENTER);
    inbox.wait("Review your answers");
    inbox.key(ENTER);
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!("Production"), json!(["Lint"])]);
}

#[test]
fn closing_the_inbox_that_asks_hands_the_question_to_another_open_one_with_its_answers() {
    let place = Place::new();
    let (mut first, asker) = place.first_question_answered();
    let mut second = place.inbox();
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !second.contents().contains("Where to deploy?"),
        "asked in two inboxes at once: {}",
        second.contents()
    );
    first.send(CTRL_C);
    first.finish();
    let screen = second.wait("? Which checks?");
    assert!(screen.contains("your answer is kept"), "{screen}");
    assert!(screen.contains("Production"), "{screen}");
    answer_checks(&mut second);
    let screen = second.wait("Sent to");
    assert!(
        !screen.contains("stopped waiting"),
        "the asker never stopped: {screen}"
    );
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!("Production"), json!(["Lint"])]);
}

#[test]
fn an_asker_killed_while_its_question_waits_withdraws_it_and_the_next_run_is_asked_afresh() {
    let place = Place::new();
    let mut inbox = place.inbox();
    let request = deploy();
    let mut asker = place.asker(&["ask", &request]);
    inbox.wait("? Where to deploy?");
    asker.kill().unwrap();
    asker.wait().unwrap();
    let screen = inbox.wait("stopped waiting: nothing was sent");
    assert!(
        !screen.contains("kept for 10 min"),
        "nothing was typed: {screen}"
    );
    inbox.wait("Waiting for questions");
    // Keys pressed on a question that is gone answer nothing, the next run's least of all.
    inbox.key("\x1b");
    inbox.key(ENTER);

    let started = Instant::now();
    let again = place.asker(&["ask", &request]);
    let screen = inbox.wait("── interview ask asks again");
    assert!(
        screen.contains("this is a new run, asked afresh"),
        "{screen}"
    );
    answer_deploy(&mut inbox);
    let (result, code, stderr) = finished(again);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!("Production"), json!(["Lint"])]);
    assert!(
        started.elapsed() > Duration::from_millis(400),
        "nobody was asked"
    );
}

#[test]
fn a_retry_within_the_window_is_shown_what_was_answered_to_the_run_that_went_away() {
    let place = Place::new();
    let (mut inbox, mut asker) = place.first_question_answered();
    asker.kill().unwrap();
    asker.wait().unwrap();
    inbox.wait("What you answered is kept for 10 min, should it ask again.");

    let again = place.asker(&["ask", &deploy()]);
    let screen = inbox.wait("? Which checks?");
    assert!(screen.contains("asks again"), "{screen}");
    assert!(
        screen.contains("your answers to it are filled in"),
        "{screen}"
    );
    assert!(screen.contains("your answer is kept"), "{screen}");
    answer_checks(&mut inbox);
    let (result, code, stderr) = finished(again);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!("Production"), json!(["Lint"])]);
}

#[test]
fn a_whole_answer_that_reached_nobody_is_given_again_by_the_person_for_the_retry() {
    let place = Place::new();
    let mut inbox = place.inbox();
    let request = deploy();
    // An asker that stops as the person sends the whole answer, and is never heard again.
    let mut deaf = place.asker(&["ask", &request]);
    inbox.wait("? Where to deploy?");
    inbox.key(DOWN);
    inbox.key(ENTER);
    inbox.wait("? Which checks?");
    inbox.key(DOWN);
    inbox.key(" ");
    inbox.key(ENTER);
    inbox.wait("Review your answers");
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(deaf.id() as i32, libc::SIGSTOP) };
    inbox.key(ENTER);
    let screen = inbox.wait("before your answer reached it: nothing was sent");
    assert!(!screen.contains("answers sent"), "{screen}");
    deaf.kill().unwrap();
    deaf.wait().unwrap();

    // The retry gets the answers played back up to the review, where the person sends them.
    let mut again = place.asker(&["ask", &request]);
    let screen = inbox.wait("Review your answers");
    assert!(screen.contains("asks again"), "{screen}");
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        again.try_wait().unwrap().is_none(),
        "the retry was answered without the person"
    );
    inbox.key(ENTER);
    let (result, code, stderr) = finished(again);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!("Production"), json!(["Lint"])]);
}

#[test]
fn a_request_asked_again_an_hour_or_a_month_after_its_run_went_away_is_asked_afresh() {
    for hours in [1, 30 * 24] {
        let place = Place::new();
        let (mut inbox, mut asker) = place.first_question_answered();
        asker.kill().unwrap();
        asker.wait().unwrap();
        inbox.wait("stopped waiting: nothing was sent");
        move_clock(&place, hours * 3600);

        let again = place.asker(&["ask", &deploy()]);
        let screen = inbox.wait("? Where to deploy?\n");
        let shown = &screen[screen.rfind("asks again").expect(&screen)..];
        assert!(shown.contains("asked afresh"), "{hours} h: {shown}");
        assert!(!shown.contains("your answer is kept"), "{hours} h: {shown}");
        answer_deploy(&mut inbox);
        let (result, code, stderr) = finished(again);
        assert_eq!(code, 0, "{hours} h: {stderr}");
        assert_eq!(values(&result), [json!("Production"), json!(["Lint"])]);
    }
}

/// Moves the inbox's clock on by `seconds`: every run it keeps ended that much earlier.
fn move_clock(place: &Place, seconds: i64) {
    let db = rusqlite::Connection::open(place.0.path().join("inbox-team.sqlite3")).unwrap();
    db.busy_timeout(Duration::from_secs(10)).unwrap();
    let update = "UPDATE questions SET closed_at = closed_at - ?1";
    db.execute(update, [seconds * 1000]).unwrap();
}

#[test]
fn a_question_that_comes_while_another_is_answered_is_said_to_wait_under_it() {
    let place = Place::new();
    let mut inbox = place.inbox();
    let first = place.asker(&["ask", &deploy()]);
    inbox.wait("? Where to deploy?");
    let name = write_request("inbox-name", &json!({"question": "Name?"}));
    let second = place.asker(&["ask", &name]);
    let screen = inbox.wait("1 more waiting: interview ask");
    assert!(screen.contains("? Where to deploy?"), "{screen}");
    answer_deploy(&mut inbox);
    inbox.wait("? Name?");
    inbox.send("Ada");
    inbox.key(ENTER);
    let (result, code, stderr) = finished(second);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(result["answer"], "Ada");
    assert_eq!(finished(first).1, 0);
}

#[test]
fn two_inboxes_one_answer_and_the_other_inbox_lets_the_question_go() {
    let place = Place::new();
    let mut first = place.inbox();
    let mut second = place.inbox();
    let asker = place.asker(&["ask", &deploy()]);
    // Both are given the question; one asks it, the other leaves it to the first.
    let deadline = Instant::now() + Duration::from_secs(20);
    let (asking, idle) = loop {
        if first.contents().contains("Where to deploy?") {
            break (&mut first, &mut second);
        }
        if second.contents().contains("Where to deploy?") {
            break (&mut second, &mut first);
        }
        assert!(Instant::now() < deadline, "no inbox asked the question");
        std::thread::sleep(Duration::from_millis(20));
    };
    answer_deploy(asking);
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!("Production"), json!(["Lint"])]);
    std::thread::sleep(Duration::from_secs(3));
    let screen = idle.contents();
    assert!(
        !screen.contains("Where to deploy?"),
        "asked twice: {screen}"
    );
}

#[test]
fn ctrl_c_of_the_asker_withdraws_the_question_with_the_answers_given() {
    let place = Place::new();
    let (inbox, asker) = place.first_question_answered();
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(asker.id() as i32, libc::SIGINT) };
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 130, "{stderr}");
    assert_eq!(result["status"], "cancelled", "{result}");
    assert_eq!(result["answers"][0]["value"], "Production", "{result}");
    // The inbox gives the question up and waits for the next.
    let deadline = Instant::now() + Duration::from_secs(10);
    while inbox.contents().contains("? Which checks?") && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let screen = inbox.wait("Waiting for questions");
    assert!(!screen.contains("? Which checks?"), "{screen}");
}

#[test]
fn with_no_inbox_open_auto_is_unavailable_at_once_and_ui_inbox_waits_for_one() {
    let place = Place::new();
    let request = deploy();
    let started = Instant::now();
    let (result, code, _) = finished(place.asker(&["ask", &request]));
    assert_eq!(code, 3);
    assert_eq!(result["status"], "unavailable");
    assert!(started.elapsed() < Duration::from_secs(5));

    let mut waiting = place.asker(&["ask", "--ui", "inbox", &request]);
    std::thread::sleep(Duration::from_secs(1));
    assert!(
        waiting.try_wait().unwrap().is_none(),
        "--ui inbox waits for an inbox"
    );
    let mut inbox = place.inbox();
    answer_deploy(&mut inbox);
    let (result, code, stderr) = finished(waiting);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!("Production"), json!(["Lint"])]);
    // Its log said what it waited for, once.
    let said = stderr
        .matches("waiting for `interview inbox` to be opened")
        .count();
    assert_eq!(said, 1, "{stderr}");
}

#[test]
fn ui_inbox_after_an_inbox_closed_says_it_waits_for_one_to_open_and_is_answered_by_the_next() {
    let place = Place::new();
    // An inbox opened once leaves its tokens behind when it closes.
    let first = place.inbox();
    first.signal(libc::SIGTERM);
    assert_eq!(first.finish().code, 0);
    let waiting = place.asker(&["ask", "--ui", "inbox", &deploy()]);
    std::thread::sleep(Duration::from_secs(2));
    let mut inbox = place.inbox();
    answer_deploy(&mut inbox);
    let (result, code, stderr) = finished(waiting);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!("Production"), json!(["Lint"])]);
    assert!(
        stderr.contains("this machine's inbox (`interview inbox`) is not open; waiting for it"),
        "{stderr}"
    );
    assert!(!stderr.contains("cannot be reached"), "{stderr}");
}

#[test]
fn an_invalid_request_is_answered_without_bothering_the_inbox() {
    let place = Place::new();
    let inbox = place.inbox();
    let request = write_request("inbox-invalid", &json!({"questions": [{"question": 7}]}));
    let (result, code, _) = finished(place.asker(&["ask", "--ui", "inbox", &request]));
    assert_eq!(code, 2);
    assert_eq!(result["status"], "invalid");
    std::thread::sleep(Duration::from_millis(500));
    assert!(!inbox.contents().contains("asks"), "{}", inbox.contents());
}

#[test]
fn the_inbox_needs_a_terminal_of_its_own() {
    let place = Place::new();
    let output = wait_with_timeout(place.asker(&["inbox"]), Duration::from_secs(30));
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("needs a terminal of its own"), "{stderr}");
    assert_eq!(place.sockets(), 0);
}

#[test]
fn the_inbox_folder_socket_and_database_are_the_users_alone() {
    use std::os::unix::fs::PermissionsExt;
    let place = Place::new();
    let inbox_dir = place.0.path().join("nested");
    let command = format!("{} inbox", env!("CARGO_BIN_EXE_interview"));
    let term = Term::run(
        &command,
        place.0.path().join("out"),
        30,
        100,
        &[("INTERVIEW_INBOX", inbox_dir.to_str().unwrap())],
    );
    term.wait("Waiting for questions");
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&inbox_dir), 0o700);
    for file in ["inbox-team.sqlite3", "inbox-tokens.json"] {
        assert_eq!(mode(&inbox_dir.join(file)), 0o600, "{file}");
    }
    let socket: PathBuf = std::fs::read_dir(&inbox_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "sock"))
        .unwrap();
    assert_eq!(mode(&socket), 0o600);
    // The askers' tokens, removed by hand, are put back as they were, for the askers.
    let tokens = inbox_dir.join("inbox-tokens.json");
    let kept = std::fs::read_to_string(&tokens).unwrap();
    std::fs::remove_file(&tokens).unwrap();
    std::thread::sleep(Duration::from_millis(1_000));
    assert_eq!(std::fs::read_to_string(&tokens).unwrap(), kept);
    assert_eq!(mode(&tokens), 0o600);
}

#[test]
fn an_asker_does_not_trust_an_inbox_folder_that_others_may_enter() {
    use std::os::unix::fs::PermissionsExt;
    let place = Place::new();
    let inbox = place.inbox();
    let open_to_others = std::fs::Permissions::from_mode(0o755);
    std::fs::set_permissions(place.0.path(), open_to_others).unwrap();
    let (result, code, stderr) = finished(place.asker(&["ask", &deploy()]));
    assert_eq!(
        (code, &result["status"]),
        (3, &json!("unavailable")),
        "{result}"
    );
    assert!(
        stderr.contains("is open to other users (mode 755)"),
        "{stderr}"
    );
    assert!(!inbox.contents().contains("asks"), "{}", inbox.contents());
}

#[test]
fn an_inbox_that_cannot_serve_says_why_and_closes_at_once_on_ctrl_c_meanwhile() {
    let place = Place::new();
    // Something that is no socket where this machine's inbox listens.
    std::fs::write(place.0.path().join("inbox.sock"), "").unwrap();
    let command = format!("{} inbox", env!("CARGO_BIN_EXE_interview"));
    let env = [("INTERVIEW_INBOX", place.dir())];
    let open = || Term::run(&command, place.0.path().join("inbox.out"), 30, 100, &env);
    let failed = open().finish();
    assert_eq!(failed.code, 4, "{}", failed.screen);
    assert!(
        failed
            .screen
            .contains("the file exists, and is not a socket"),
        "{}",
        failed.screen
    );
    // Ctrl-C while it still tries: closed at once, not after it gave up. (The signal stops
    // the test's shell too, so the inbox's end is read off the screen.)
    let mut closing = open();
    std::thread::sleep(Duration::from_millis(500));
    closing.send(CTRL_C);
    let screen = closing.wait("interview inbox: closed.");
    assert!(!screen.contains("cannot reach"), "{screen}");
}

#[test]
fn an_inbox_folder_too_deep_for_a_socket_is_refused_by_the_inbox_and_its_askers_at_once() {
    let place = Place::new();
    let deep = place.0.path().join("d".repeat(120));
    let env = [("INTERVIEW_INBOX", deep.to_str().unwrap())];
    let command = format!("{} inbox", env!("CARGO_BIN_EXE_interview"));
    let failed = Term::run(&command, place.0.path().join("inbox.out"), 30, 100, &env).finish();
    assert_eq!(failed.code, 4, "{}", failed.screen);
    let flat = failed
        .screen
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("is longer than a Unix socket's path may be (107 bytes)"),
        "{flat}"
    );
    // An asker that would wait for the inbox learns at once that none can open there.
    let mut asker = interview();
    asker
        .args(["ask", "--ui", "inbox", &deploy()])
        .env("INTERVIEW_INBOX", &deep)
        .current_dir(place.0.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let (result, code, stderr) = finished(without_terminal(&mut asker).spawn().unwrap());
    assert!(started.elapsed() < Duration::from_secs(20), "it waited");
    assert_eq!(code, 3, "{result}{stderr}");
    assert!(
        stderr.contains("longer than a Unix socket's path"),
        "{stderr}"
    );
}

/// `interview mcp` run in `place` on pipes, initialized by a client (one without forms) that
/// names itself `client_info`: the server, what sends it a message, its replies, and its
/// reply to `initialize`.
fn mcp_client(
    place: &Place,
    client_info: Json,
) -> (
    Child,
    impl FnMut(Json),
    std::sync::mpsc::Receiver<String>,
    Json,
) {
    let mut server = place.spawn(&["mcp"], Stdio::piped());
    let mut stdin = server.stdin.take().unwrap();
    let replies = lines_of(server.stdout.take().unwrap());
    let mut send = move |message: Json| {
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client_info}}),
    );
    let reply = replies.recv_timeout(Duration::from_secs(60)).unwrap();
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    (server, send, replies, serde_json::from_str(&reply).unwrap())
}

/// An MCP client (one without forms) on `interview mcp`'s pipes: its call is asked in the
/// inbox, under the client's name, and the result comes back as the tool's.
#[test]
fn an_mcp_call_is_asked_in_the_inbox_under_the_clients_name() {
    let place = Place::new();
    let mut inbox = place.inbox();
    let client = json!({"name": "claude-code", "title": "Claude Code", "version": "2.1"});
    let (server, mut send, replies, reply) = mcp_client(&place, client);
    assert_eq!(reply["id"], 0, "{reply}");
    let patience = Duration::from_secs(60);
    let arguments: Json =
        serde_json::from_str(&std::fs::read_to_string(deploy()).unwrap()).unwrap();
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "interview", "arguments": arguments}}));
    let screen = inbox.wait("? Where to deploy?");
    assert!(screen.contains("── Claude Code asks · in "), "{screen}");
    answer_deploy(&mut inbox);
    let reply: Json = serde_json::from_str(&replies.recv_timeout(patience).unwrap()).unwrap();
    assert_eq!(reply["id"], 1, "{reply}");
    let result = &reply["result"]["structuredContent"];
    assert_eq!(result["status"], "answered", "{reply}");
    assert_eq!(values(result), [json!("Production"), json!(["Lint"])]);
    assert_eq!(reply["result"]["content"][0]["text"], result["text"]);
    drop(send);
    let _ = wait_with_timeout(server, Duration::from_secs(30));
}

#[test]
fn an_mcp_server_whose_client_goes_away_withdraws_its_call_and_ends() {
    let place = Place::new();
    let inbox = place.inbox();
    let client = json!({"name": "codex", "version": "0.1"});
    let (server, mut send, _replies, _) = mcp_client(&place, client);
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "interview", "arguments": {"question": "Your name?"}}}));
    inbox.wait("? Your name?");
    // The client ends: its input closes with the call still waiting.
    drop(send);
    let output = wait_with_timeout(server, Duration::from_secs(15));
    assert_eq!(output.status.code(), Some(0), "{}", common::stderr(&output));
    let screen = inbox.wait("withdrew this question");
    assert!(!screen.contains("Sent to"), "{screen}");
}

#[test]
fn serve_asks_each_line_in_the_inbox_and_an_elicitation_too() {
    let place = Place::new();
    let mut inbox = place.inbox();
    let mut serve = place.spawn(&["serve"], Stdio::piped());
    let mut stdin = serve.stdin.take().unwrap();
    let results = lines_of(serve.stdout.take().unwrap());
    let patience = Duration::from_secs(60);
    writeln!(stdin, r#"{{"question": "Your name?"}}"#).unwrap();
    inbox.wait("? Your name?");
    inbox.send("Ada\r");
    let first: Json = serde_json::from_str(&results.recv_timeout(patience).unwrap()).unwrap();
    assert_eq!(first["answers"][0]["value"], "Ada", "{first}");
    let elicitation = json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
        "params": {"message": "Pick a colour", "requestedSchema": {"type": "object",
            "properties": {"colour": {"type": "string", "enum": ["red", "green"]}},
            "required": ["colour"]}}});
    writeln!(stdin, "{elicitation}").unwrap();
    inbox.wait("Pick a colour");
    inbox.key(DOWN);
    inbox.key(ENTER);
    let screen = inbox.wait("Review your answers");
    assert!(screen.contains("green"), "{screen}");
    inbox.key(ENTER);
    let second: Json = serde_json::from_str(&results.recv_timeout(patience).unwrap()).unwrap();
    assert_eq!(second["id"], 7, "{second}");
    assert_eq!(
        second["result"],
        json!({"action": "accept", "content": {"colour": "green"}})
    );
    drop(stdin);
    let output = wait_with_timeout(serve, patience);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn serve_asks_in_an_inbox_opened_after_its_session_began() {
    let place = Place::new();
    let mut serve = place.spawn(&["serve"], Stdio::piped());
    let mut stdin = serve.stdin.take().unwrap();
    let results = lines_of(serve.stdout.take().unwrap());
    let patience = Duration::from_secs(60);
    // No inbox open, and no terminal: nobody can answer this one.
    writeln!(stdin, r#"{{"question": "Your name?"}}"#).unwrap();
    let first: Json = serde_json::from_str(&results.recv_timeout(patience).unwrap()).unwrap();
    assert_eq!(first["status"], "unavailable", "{first}");
    let mut inbox = place.inbox();
    inbox.wait("Waiting for questions");
    writeln!(stdin, r#"{{"question": "Your name?"}}"#).unwrap();
    inbox.wait("? Your name?");
    inbox.send("Ada\r");
    let second: Json = serde_json::from_str(&results.recv_timeout(patience).unwrap()).unwrap();
    assert_eq!(second["answers"][0]["value"], "Ada", "{second}");
    drop(stdin);
    let output = wait_with_timeout(serve, patience);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn serve_with_its_input_closed_at_once_gives_one_result_a_line_and_exits() {
    let place = Place::new();
    let mut inbox = place.inbox();
    let mut serve = place.spawn(&["serve"], Stdio::piped());
    let mut stdin = serve.stdin.take().unwrap();
    // Two requests and a blank line, and the input closed before anything is answered.
    writeln!(stdin, r#"{{"question": "Ship it?", "type": "confirm"}}"#).unwrap();
    writeln!(stdin, r#"{{"question": "Your name?"}}"#).unwrap();
    writeln!(stdin).unwrap();
    drop(stdin);
    inbox.wait("? Ship it?");
    inbox.key("y");
    // The second, cancelled by the person: a cancel for that line, and the session goes on.
    inbox.wait("? Your name?");
    inbox.key("\x1b");
    let output = wait_with_timeout(serve, Duration::from_secs(60));
    assert_eq!(output.status.code(), Some(0), "{}", common::stderr(&output));
    let results = common::json_lines(&output.stdout);
    let statuses: Vec<&Json> = results.iter().map(|r| &r["status"]).collect();
    assert_eq!(
        statuses,
        [&json!("answered"), &json!("cancelled"), &json!("invalid")],
        "{results:?}"
    );
    assert_eq!(results[0]["answer"], true);
}

#[test]
fn silent_connections_to_the_inbox_keep_no_asker_waiting() {
    let place = Place::new();
    let mut inbox = place.inbox();
    // More than the inbox reads at once, none of them saying anything.
    let silent: Vec<_> = (0..200).map(|_| socket(&place)).collect();
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let asker = place.asker(&["ask", &deploy()]);
    inbox.wait("? Where to deploy?");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "asked after {:?}",
        started.elapsed()
    );
    drop(silent);
    answer_deploy(&mut inbox);
    assert_eq!(finished(asker).1, 0);
}

/// The socket of the inbox open in `place`.
fn socket(place: &Place) -> std::os::unix::net::UnixStream {
    std::os::unix::net::UnixStream::connect(place.0.path().join("inbox.sock")).unwrap()
}

#[test]
fn keys_pressed_as_a_question_appears_are_not_its_answer() {
    let place = Place::new();
    let mut inbox = place.inbox();
    let first = write_request(
        "inbox-double-1",
        &json!({"question": "Double 1?", "options": ["a", "b"]}),
    );
    let second = write_request(
        "inbox-double-2",
        &json!({"question": "Double 2?", "options": ["c", "d"]}),
    );
    let one = place.asker(&["ask", &first]);
    inbox.wait("? Double 1?");
    let mut two = place.asker(&["ask", &second]);
    std::thread::sleep(Duration::from_millis(500));
    // Enter, and Enter again at once: the second press was meant for the first question.
    inbox.send(ENTER);
    std::thread::sleep(Duration::from_millis(50));
    inbox.send(ENTER);
    let (result, code, _) = finished(one);
    assert_eq!(
        (code, result["answers"][0]["value"].clone()),
        (0, json!("a"))
    );
    inbox.wait("? Double 2?");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        two.try_wait().unwrap().is_none(),
        "the second question took the stray key"
    );
    inbox.key(DOWN);
    inbox.key(ENTER);
    let (result, code, _) = finished(two);
    assert_eq!(
        (code, result["answers"][0]["value"].clone()),
        (0, json!("d"))
    );
}

#[test]
fn an_asker_that_withdraws_gets_the_answers_so_far_and_one_asking_the_same_is_asked_on() {
    let place = Place::new();
    let (mut inbox, first) = place.first_question_answered();
    // The same request, from the same folder, by another asker (an agent that retries).
    let request = deploy();
    let second = place.asker(&["ask", &request]);
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(first.id() as i32, libc::SIGINT) };
    let (result, code, stderr) = finished(first);
    assert_eq!(code, 130, "{stderr}");
    assert_eq!(result["status"], "cancelled");
    assert_eq!(values(&result), [json!("Production")]);
    // Asked on for the second asker, from where the person was.
    inbox.wait("your answer is kept");
    // The first asker's widget went with it: this one is the second's, drawn after that line.
    let screen = inbox.wait("? Which checks?");
    assert!(screen.contains("your answer is kept"), "{screen}");
    answer_checks(&mut inbox);
    let (result, code, stderr) = finished(second);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(result["status"], "answered", "{result}");
    assert_eq!(values(&result), [json!("Production"), json!(["Lint"])]);
}

#[test]
fn withdrawn_while_no_inbox_is_open_it_returns_the_answers_kept_and_is_asked_no_more() {
    let place = Place::new();
    let (mut inbox, asker) = place.first_question_answered();
    inbox.send(CTRL_C);
    inbox.finish();
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(asker.id() as i32, libc::SIGINT) };
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 130, "{stderr}");
    assert_eq!(result["status"], "cancelled");
    assert_eq!(values(&result), [json!("Production")]);
    let inbox = place.inbox();
    std::thread::sleep(Duration::from_secs(2));
    assert!(!inbox.contents().contains("asks"), "{}", inbox.contents());
}

#[test]
fn a_line_the_inbox_cannot_read_is_refused_and_who_asks_never_reaches_the_terminal_raw() {
    let place = &Place::new();
    let mut inbox = place.inbox();
    // What is no request, or comes without the askers' token, is refused.
    let shouted = exchange(place, b"{\"shout\": true}\n");
    assert!(!shouted.starts_with("HTTP/1.1 2"), "{shouted}");
    let untokened = "POST /api/steps HTTP/1.1\r\nHost: localhost\r\nContent-Type: \
                     application/json\r\nContent-Length: 15\r\nConnection: close\r\n\r\n\
                     {\"shout\": true}";
    assert!(exchange(place, untokened.as_bytes()).starts_with("HTTP/1.1 401"));

    // A step whose asker names itself with escapes shows them harmless.
    let tokens: Json = serde_json::from_str(
        &std::fs::read_to_string(place.0.path().join("inbox-tokens.json")).unwrap(),
    )
    .unwrap();
    let folder = place.dir();
    let step = json!({
        "key": "escapes", "run": "r1", "folder": folder, "to": null, "after": null,
        "deadline": null, "kind": "confirm",
        "from": {"client": null, "folder": folder, "server": null, "pid": 1,
                 "command": "ask\u{1b}]0;PWNED\u{7}\u{1b}[41m"},
        "view": {"request": {"initial": null}, "frame": {
            "place": null, "position": 1, "total": 1, "header": null, "prompt": "Plain?",
            "required": true, "mark_optional": false, "hint": null, "error": null,
            "context": null, "declinable": false}},
    })
    .to_string();
    let posted = format!(
        "POST /api/steps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{step}",
        tokens["agent"].as_str().unwrap(),
        step.len()
    );
    let answered = exchange(place, posted.as_bytes());
    assert!(answered.starts_with("HTTP/1.1 200"), "{answered}");
    let screen = inbox.wait("? Plain?");
    assert!(screen.contains("── interview ask"), "{screen}");
    assert!(
        !inbox.output().contains("PWNED\u{7}"),
        "an escape reached the terminal"
    );
    inbox.send(CTRL_C);
}

/// What the inbox's socket answers `bytes`, whole.
fn exchange(place: &Place, bytes: &[u8]) -> String {
    use std::io::Read;
    let mut connection = socket(place);
    connection.write_all(bytes).unwrap();
    // Not half-closed: a server may take that for the client gone. It closes once it answered.
    (connection.set_read_timeout(Some(Duration::from_secs(15)))).unwrap();
    let mut answer = String::new();
    let _ = connection.read_to_string(&mut answer);
    answer
}

#[test]
fn an_invalid_elicitation_is_answered_without_bothering_the_inbox() {
    let place = Place::new();
    let inbox = place.inbox();
    let request = write_request(
        "inbox-bad-elicit",
        &json!({"message": 5, "requestedSchema": "no"}),
    );
    let (reply, code, _) = finished(place.asker(&["elicit", "--ui", "inbox", &request]));
    assert_eq!(code, 2, "{reply}");
    std::thread::sleep(Duration::from_millis(500));
    assert!(!inbox.contents().contains("asks"), "{}", inbox.contents());
}
