//! A person answers a team inbox's questions in a terminal (`interview inbox --team URL`): the
//! real server on 127.0.0.1, the real `interview ask --inbox URL` with no terminal, and the
//! inbox in a pseudo-terminal, read off its screen. On SQLite; on PostgreSQL when
//! `INTERVIEW_TEST_POSTGRES` names a server.

mod common;

use common::team::{Team, finished};
use common::term::{CTRL_C, DOWN, ENTER, Term};
use common::values;
use serde_json::{Value as Json, json};
use std::process::Child;

const BATCH: &str = r#"{"questions": [
    {"header": "Env", "question": "Where to?", "options": ["dev", "staging", "prod"]},
    {"header": "Migrate", "question": "Run the migrations?", "type": "confirm"}]}"#;

const REPLICAS: &str =
    r#"{"question": "How many replicas?", "type": "number", "min": 1, "max": 9, "integer": true}"#;

/// `token`'s holder's inbox, with the replicas question of an agent's on it.
fn replicas_asked(team: &Team, token: &str) -> (Term, Child) {
    let inbox = inbox(team, token);
    let asker = team.ask(REPLICAS, &[]);
    inbox.wait("How many replicas?");
    (inbox, asker)
}

/// `interview inbox --team` in a terminal of its own, as `token`'s holder.
fn inbox(team: &Team, token: &str) -> Term {
    inbox_with(team, token, "")
}

/// [`inbox`], with `options` after the URL.
fn inbox_with(team: &Team, token: &str, options: &str) -> Term {
    let command = format!(
        "{} inbox --team {} {options}",
        env!("CARGO_BIN_EXE_interview"),
        team.url
    );
    let term = Term::run(
        &command,
        team.dir.path().join("inbox.out"),
        30,
        100,
        &[("INTERVIEW_INBOX_TOKEN", token)],
    );
    term.wait("Waiting for questions");
    term
}

#[test]
fn a_person_answers_a_teams_batch_in_their_terminal_and_the_agent_gets_those_answers() {
    let team = Team::new();
    let mut inbox = inbox(&team, &team.ann);
    let asker = team.ask(BATCH, &[]);
    let screen = inbox.wait("Where to?");
    assert!(screen.contains("── ci asks"), "{screen}");
    inbox.key(DOWN);
    inbox.key(ENTER);
    inbox.wait("Run the migrations?");
    inbox.key("y");
    inbox.wait("Review your answers");
    inbox.key(ENTER);
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(result["status"], "answered");
    assert_eq!(values(&result), [json!("staging"), json!(true)]);
    inbox.wait("✔ Sent to ci");
    // Every step was answered once, by ann.
    let answers: Vec<Json> = (team.audit().into_iter())
        .filter(|event| event["event"] == "answered")
        .collect();
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert!(answers.iter().all(|a| a["actor"] == "ann"), "{answers:?}");
    inbox.signal(libc::SIGTERM);
    let closed = inbox.finish();
    assert!(
        closed.screen.contains("interview inbox: closed."),
        "{}",
        closed.screen
    );
    // One UI for the whole request: each answer collapsed to one line, the review to none.
    assert_eq!(
        closed.screen.matches("→ Where to? › staging").count(),
        1,
        "{}",
        closed.screen
    );
    assert_eq!(closed.code, 0, "{}", closed.screen);
    assert!(closed.restored, "{}", closed.screen);
}

#[test]
fn an_answer_the_askers_plugin_refuses_is_never_shown_as_taken_and_is_asked_again_with_why() {
    let team = Team::new();
    let (mut inbox, asker) = replicas_asked(&team, &team.bob);
    inbox.key("42");
    inbox.key(ENTER);
    let screen = inbox.wait("42 is more than 9");
    // What was sent is said as sent; only the asker's plugin says whether it is taken.
    assert!(screen.contains("→ How many replicas? › 42"), "{screen}");
    assert!(!screen.contains("✔ How many replicas?"), "{screen}");
    inbox.key(&"\u{7f}".repeat(2));
    inbox.key("3");
    inbox.key(ENTER);
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!(3)]);
    let screen = inbox.wait("✔ Sent to ci");
    assert!(screen.contains("→ How many replicas? › 3"), "{screen}");
    inbox.signal(libc::SIGTERM);
    assert_eq!(inbox.finish().code, 0);
}

#[test]
fn a_question_answered_on_the_page_meanwhile_leaves_the_terminal_and_what_was_typed_is_not_sent() {
    let team = Team::new();
    let (mut inbox, asker) = replicas_asked(&team, &team.bob);
    inbox.key("7");
    let question = team.next_question(&team.ann, 0);
    let (status, body) = team.answer(&team.ann, &question, json!({"entered": "3"}));
    assert_eq!(status, 200, "{body}");
    inbox.wait("answered elsewhere or withdrawn meanwhile");
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!(3)]);
    inbox.wait("Waiting for questions");
    let answers: Vec<Json> = (team.audit().into_iter())
        .filter(|event| event["event"] == "answered")
        .collect();
    assert!(answers.iter().all(|a| a["actor"] == "ann"), "{answers:?}");
    inbox.signal(libc::SIGTERM);
    assert_eq!(inbox.finish().code, 0);
}

#[test]
fn ctrl_c_on_a_question_closes_the_inbox_and_leaves_the_question_open_for_the_team() {
    let team = Team::new();
    let (mut inbox, asker) = replicas_asked(&team, &team.bob);
    inbox.key("5");
    inbox.send(CTRL_C);
    let closed = inbox.finish();
    assert!(
        closed.screen.contains("interview inbox: closed."),
        "{}",
        closed.screen
    );
    assert!(closed.restored, "{}", closed.screen);
    // Nothing was sent: the question waits for the next person, who answers it.
    let question = team.next_question(&team.ann, 0);
    assert_eq!(question["kind"], "number");
    let (status, body) = team.answer(&team.ann, &question, json!({"entered": "2"}));
    assert_eq!(status, 200, "{body}");
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!(2)]);
}

#[test]
fn an_agents_token_cannot_answer_and_is_told_so_before_anything_is_shown() {
    let team = Team::new();
    let term = Term::run(
        &format!(
            "{} inbox --team {}",
            env!("CARGO_BIN_EXE_interview"),
            team.url
        ),
        team.dir.path().join("inbox.out"),
        30,
        100,
        &[("INTERVIEW_INBOX_TOKEN", &team.agent)],
    );
    let closed = term.finish();
    assert_eq!(closed.code, 2, "{}", closed.screen);
    assert!(
        closed.screen.contains("is the token of ci, an agent"),
        "{}",
        closed.screen
    );
}

#[test]
fn an_agents_text_reaches_the_terminal_without_its_control_sequences() {
    let team = Team::new();
    let mut inbox = inbox(&team, &team.ann);
    // An agent's token may put up any view of a widget's shape, whatever its text says.
    let view = json!({"frame": {"place": "Ops\u{1b}[2J", "position": 1, "total": 1,
        "header": null, "prompt": "Ship?\u{1b}]52;c;cGF5bG9hZA==\u{7} now", "required": true,
        "mark_optional": false, "hint": null, "error": null, "context": "\u{9b}31mred",
        "declinable": false}, "request": {"initial": null}});
    let step = json!({"key": "k", "run": "r", "from": {"client": "ci\u{1b}]0;title\u{7}"},
        "folder": "/src\u{1b}[8m", "kind": "confirm", "view": view});
    let response = ureq::post(&format!("{}/api/steps", team.url))
        .set("authorization", &format!("Bearer {}", team.agent))
        .send_json(step);
    assert_eq!(common::team::read(response).0, 200);
    inbox.wait("Ship?");
    inbox.key("y");
    inbox.wait("Ship?");
    let output = inbox.output();
    for sequence in [
        "\u{1b}]52",
        "\u{1b}[2J",
        "\u{9b}",
        "\u{1b}]0;title",
        "\u{1b}[8m",
    ] {
        assert!(
            !output.contains(sequence),
            "{sequence:?} reached the terminal"
        );
    }
    inbox.signal(libc::SIGTERM);
    assert!(inbox.finish().restored);
}

#[test]
fn numbered_the_plugin_draws_a_teams_widgets_in_lines_and_reads_each_answer_typed() {
    let team = Team::new();
    let mut inbox = inbox_with(&team, &team.ann, "--numbered");
    let asker = team.ask(BATCH, &[]);
    let screen = inbox.wait("3. prod");
    assert!(screen.contains("Question 1 of 2 · Env"), "{screen}");
    assert!(screen.contains("2. staging"), "{screen}");
    // A number past the list is refused by the line mode, and asked again.
    inbox.send("7\r");
    inbox.wait("from 1 to");
    inbox.send("2\r");
    inbox.wait("Run the migrations?");
    inbox.send("y\r");
    inbox.wait("Review your answers");
    inbox.send("\r");
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!("staging"), json!(true)]);
    inbox.wait("✔ Sent to ci");
    // Only the answers reached the server: one reply a step, ann's.
    let answers: Vec<Json> = (team.audit().into_iter())
        .filter(|event| event["event"] == "answered")
        .collect();
    let replies: Vec<&Json> = answers.iter().map(|a| &a["detail"]).collect();
    assert_eq!(
        replies,
        [
            &json!({"picked": 1}),
            &json!({"answered": true}),
            &json!({"review": "submit"})
        ]
    );
    inbox.signal(libc::SIGTERM);
    assert_eq!(inbox.finish().code, 0);
}

#[test]
fn keys_typed_while_the_next_widget_is_on_its_way_never_answer_it() {
    let team = Team::new();
    let mut inbox = inbox(&team, &team.ann);
    let asker = team.ask(BATCH, &[]);
    inbox.wait("Where to?");
    // A double Enter, in one write: the first answers the question on the screen.
    inbox.send("\r\r");
    inbox.wait("Run the migrations?");
    std::thread::sleep(std::time::Duration::from_millis(700));
    let answered = |team: &Team| {
        (team.audit().into_iter())
            .filter(|event| event["event"] == "answered")
            .count()
    };
    assert_eq!(answered(&team), 1, "{}", inbox.contents());
    inbox.key("n");
    inbox.wait("Review your answers");
    inbox.key(ENTER);
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!("dev"), json!(false)]);
    inbox.signal(libc::SIGTERM);
    assert!(inbox.finish().restored);
}

#[test]
fn ctrl_c_while_the_asker_judges_a_reply_closes_the_inbox_at_once() {
    let team = Team::new();
    let mut inbox = inbox(&team, &team.ann);
    let asker = team.ask(BATCH, &[]);
    inbox.wait("Where to?");
    // The asker is held: the reply is taken, and its next widget does not come.
    let pid = asker.id() as libc::pid_t;
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(pid, libc::SIGSTOP) };
    inbox.key(ENTER);
    inbox.wait("→ Where to? › dev");
    std::thread::sleep(std::time::Duration::from_millis(300));
    inbox.send(CTRL_C);
    inbox.wait("interview inbox: closed.");
    // SAFETY: as above.
    unsafe { libc::kill(pid, libc::SIGCONT) };
    // The question waits for the team, at its next step.
    let question = team.next_question(&team.ann, 1);
    assert_eq!(question["kind"], "confirm");
    let (status, body) = team.answer(&team.ann, &question, json!({"answered": true}));
    assert_eq!(status, 200, "{body}");
    let review = team.next_question(&team.ann, question["seq"].as_i64().unwrap());
    let (status, body) = team.answer(&team.ann, &review, json!({"review": "submit"}));
    assert_eq!(status, 200, "{body}");
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!("dev"), json!(true)]);
}

#[test]
fn a_token_revoked_while_a_question_is_up_ends_the_inbox_saying_so() {
    let team = Team::new();
    let mut inbox = inbox(&team, &team.bob);
    let mut asker = team.ask(REPLICAS, &[]);
    inbox.wait("How many replicas?");
    let output = common::team::interview(&["inbox", "token", "revoke", "bob", "--db", &team.db]);
    assert!(output.status.success(), "{}", common::stderr(&output));
    // The server remembers a token for a short while: the reply is refused once it forgets.
    std::thread::sleep(std::time::Duration::from_secs(2));
    inbox.send("4\r");
    let closed = inbox.finish();
    assert_eq!(closed.code, 4, "{}", closed.screen);
    assert!(closed.screen.contains("revoked"), "{}", closed.screen);
    assert!(closed.restored, "{}", closed.screen);
    asker.kill().unwrap();
    asker.wait().unwrap();
}

#[test]
fn a_question_this_terminal_cannot_draw_is_said_once_and_passed_over() {
    let team = Team::new();
    let first = inbox(&team, &team.ann);
    let mut asker = team.ask(REPLICAS, &[]);
    first.wait("How many replicas?");
    first.signal(libc::SIGTERM);
    first.finish();
    // A view of a later server's, with a field this one does not know.
    team.execute(
        r#"UPDATE steps SET view = '{"frame": {"place": null, "position": 1, "total": 1,
            "header": null, "prompt": "New?", "required": true, "mark_optional": false,
            "hint": null, "error": null, "context": null, "declinable": false},
            "request": {"initial": null, "integer": false, "unit": "pods"}}'"#,
    );
    let again = inbox(&team, &team.ann);
    again.wait("cannot be shown here");
    std::thread::sleep(std::time::Duration::from_secs(2));
    let screen = again.contents();
    assert_eq!(
        screen.matches("cannot be shown here").count(),
        1,
        "{screen}"
    );
    assert_eq!(screen.matches("── ci asks").count(), 0, "{screen}");
    again.signal(libc::SIGTERM);
    assert_eq!(again.finish().code, 0);
    asker.kill().unwrap();
    asker.wait().unwrap();
}

/// A proxy to the server at `url` that passes everything, but drops the response to the first
/// reply a person posts (`POST /q/…/reply`) and closes that connection: the reply is taken,
/// and its sender never hears so.
fn proxy_losing_a_replys_response(url: &str) -> String {
    use std::io::{Read, Write};
    use std::net::{Shutdown, TcpListener, TcpStream};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let proxy = format!("http://{}", listener.local_addr().unwrap());
    let server = url.trim_start_matches("http://").to_owned();
    let lost = Arc::new(AtomicBool::new(false));
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let upstream = TcpStream::connect(&server).unwrap();
            let mute = Arc::new(AtomicBool::new(false));
            let (mut from_client, mut to_server) =
                (client.try_clone().unwrap(), upstream.try_clone().unwrap());
            let (muting, lost) = (mute.clone(), lost.clone());
            std::thread::spawn(move || {
                let mut buffer = vec![0; 1 << 16];
                while let Ok(read @ 1..) = from_client.read(&mut buffer) {
                    if buffer[..read].windows(7).any(|w| w == b"/reply ")
                        && !lost.swap(true, Ordering::SeqCst)
                    {
                        muting.store(true, Ordering::SeqCst);
                    }
                    if to_server.write_all(&buffer[..read]).is_err() {
                        return;
                    }
                }
            });
            let (mut from_server, mut to_client) = (upstream, client);
            std::thread::spawn(move || {
                let mut buffer = vec![0; 1 << 16];
                while let Ok(read @ 1..) = from_server.read(&mut buffer) {
                    if mute.load(Ordering::SeqCst) {
                        let _ = to_client.shutdown(Shutdown::Both);
                        return;
                    }
                    if to_client.write_all(&buffer[..read]).is_err() {
                        return;
                    }
                }
            });
        }
    });
    proxy
}

#[test]
fn a_reply_whose_response_was_lost_is_sent_again_and_known_for_the_persons_own() {
    let mut team = Team::new();
    team.url = proxy_losing_a_replys_response(&team.url);
    let mut inbox = inbox(&team, &team.ann);
    let asker = team.ask(REPLICAS, &[]);
    inbox.wait("How many replicas?");
    inbox.send("3\r");
    inbox.wait("sending again");
    let screen = inbox.wait("✔ Sent to ci");
    assert!(!screen.contains("already answered"), "{screen}");
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(values(&result), [json!(3)]);
    inbox.signal(libc::SIGTERM);
    assert_eq!(inbox.finish().code, 0);
}

#[test]
fn the_line_under_the_keys_says_who_else_asks_as_questions_come() {
    let team = Team::new();
    let mut inbox = inbox(&team, &team.ann);
    let first = team.ask(REPLICAS, &[]);
    inbox.wait("How many replicas?");
    assert!(!inbox.contents().contains("more waiting"));
    let second = team.ask(BATCH, &[]);
    inbox.wait("1 more waiting: ci");
    inbox.send("2\r");
    inbox.wait("Where to?");
    let (result, code, stderr) = finished(first);
    assert_eq!((code, values(&result)), (0, vec![json!(2)]), "{stderr}");
    inbox.signal(libc::SIGTERM);
    assert_eq!(inbox.finish().code, 0);
    let mut second = second;
    second.kill().unwrap();
    second.wait().unwrap();
}

#[test]
fn a_request_asked_again_by_a_new_run_says_so_above_its_question() {
    let team = Team::new();
    let asker = team.ask(REPLICAS, &[]);
    team.next_question(&team.bob, 0);
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(asker.id() as libc::pid_t, libc::SIGINT) };
    let (_, code, stderr) = finished(asker);
    assert_eq!(code, 130, "{stderr}");
    let mut inbox = inbox(&team, &team.bob);
    let again = team.ask(REPLICAS, &[]);
    let screen = inbox.wait("How many replicas?");
    assert!(screen.contains("── ci asks again"), "{screen}");
    assert!(
        screen.contains(
            "the run that asked this moments ago stopped waiting; this is a new run, asked afresh"
        ),
        "{screen}"
    );
    inbox.send("4\r");
    let (result, code, stderr) = finished(again);
    assert_eq!((code, values(&result)), (0, vec![json!(4)]), "{stderr}");
    inbox.signal(libc::SIGTERM);
    assert_eq!(inbox.finish().code, 0);
}

#[test]
fn an_asker_gone_or_withdrawing_mid_batch_is_told_apart_and_what_was_answered_is_kept() {
    let mut team = Team::new();
    // A server that hears nothing from an asker for 2 s takes it for gone.
    let listen = team.url.trim_start_matches("http://").to_owned();
    team.kill();
    team.start_with(&listen, &["--asker-grace", "2s"]);
    let mut inbox = inbox(&team, &team.ann);

    // Killed after the first answer: it went away, and nothing reached it.
    let mut asker = team.ask(BATCH, &[]);
    inbox.wait("Where to?");
    inbox.key(DOWN);
    inbox.key(ENTER);
    inbox.wait("Run the migrations?");
    asker.kill().unwrap();
    asker.wait().unwrap();
    inbox.wait(
        "✖ ci stopped waiting: nothing was sent to it. What you answered is kept for 10 min, \
         should it ask again.",
    );

    // Its retry is shown the answer given, and asks for the rest.
    let again = team.ask(BATCH, &[]);
    let screen = inbox.wait("Run the migrations?");
    let shown = &screen[screen.rfind("── ci asks again").expect(&screen)..];
    assert!(
        shown.contains("the answers given to it are filled in, and the last one is asked again"),
        "{shown}"
    );

    // Withdrawn by Ctrl-C: what was answered went back with it.
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(again.id() as libc::pid_t, libc::SIGINT) };
    let (result, code, stderr) = finished(again);
    assert_eq!(code, 130, "{stderr}");
    assert_eq!(values(&result)[0], json!("staging"), "{result}");
    inbox.wait(
        "✖ ci withdrew this question: what you answered went back with it, and is kept for \
         10 min, should it ask again.",
    );
    inbox.signal(libc::SIGTERM);
    assert_eq!(inbox.finish().code, 0);
}

#[test]
fn a_team_inbox_on_a_unix_socket_is_asked_and_answered_through_the_file() {
    let mut team = Team::new();
    team.kill();
    let socket = team.dir.path().join("inbox.sock");
    let listen = format!("unix:{}", socket.display());
    team.start(&listen);
    assert_eq!(team.url, listen);
    let mut inbox = inbox(&team, &team.ann);
    let asker = team.ask(REPLICAS, &[]);
    inbox.wait("How many replicas?");
    inbox.send("3\r");
    let (result, code, stderr) = finished(asker);
    assert_eq!((code, values(&result)), (0, vec![json!(3)]), "{stderr}");
    inbox.wait("✔ Sent to ci");
    // Each request still needs its token.
    let (_, code, stderr) = finished(team.ask_as("itk_0000", REPLICAS, &[]));
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains("refused"), "{stderr}");
    // A second server cannot take the socket of a live one.
    let second =
        common::team::interview(&["inbox", "serve", "--db", &team.db, "--listen", &listen]);
    assert!(!second.status.success());
    assert!(
        common::stderr(&second).contains("a server listens on it already"),
        "{}",
        common::stderr(&second)
    );
    inbox.signal(libc::SIGTERM);
    assert_eq!(inbox.finish().code, 0);
    // The audit says where a request came from: a socket has no address.
    let answered = (team.audit().into_iter())
        .find(|event| event["event"] == "answered")
        .unwrap();
    assert_eq!(answered["address"], "unix", "{answered}");
    // A socket address without a path is no address.
    let output = common::team::interview(&["ask", "--inbox", "unix:", "request.json"]);
    assert_eq!(output.status.code(), Some(2), "{}", common::stderr(&output));
    assert!(common::stderr(&output).contains("not a team inbox's address"));
    // A server that stops removes its socket; one that was killed leaves a file that the
    // next server replaces.
    let mut server = team.server.take().unwrap();
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(server.id() as libc::pid_t, libc::SIGTERM) };
    server.wait().unwrap();
    assert!(!socket.exists());
    team.start(&listen);
    team.kill();
    assert!(socket.exists());
    // One that cannot start after binding (a tool it does not know) removes it too.
    let output = common::team::interview(&[
        "inbox",
        "serve",
        "--db",
        &team.db,
        "--listen",
        &listen,
        "--tools",
        "no_such_tool",
    ]);
    assert!(!output.status.success());
    assert!(!socket.exists(), "{}", common::stderr(&output));
    // A server removes only the file it bound: not one put in its place meanwhile.
    team.start(&listen);
    std::fs::remove_file(&socket).unwrap();
    std::fs::write(&socket, "another's").unwrap();
    let mut server = team.server.take().unwrap();
    // SAFETY: as above.
    unsafe { libc::kill(server.id() as libc::pid_t, libc::SIGTERM) };
    server.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&socket).unwrap(), "another's");
    std::fs::remove_file(&socket).unwrap();
    team.start(&listen);
    let mut again = self::inbox(&team, &team.ann);
    let asker = team.ask(REPLICAS, &[]);
    again.wait("How many replicas?");
    again.send("5\r");
    let (result, code, stderr) = finished(asker);
    assert_eq!((code, values(&result)), (0, vec![json!(5)]), "{stderr}");
    again.signal(libc::SIGTERM);
    assert_eq!(again.finish().code, 0);
}
