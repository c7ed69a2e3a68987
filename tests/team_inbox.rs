//! The team inbox end to end: the real `interview inbox serve` on 127.0.0.1, the real
//! `interview ask --inbox URL` with no terminal, and a person answering through the HTTP API as
//! the page does. On SQLite; on PostgreSQL instead when `INTERVIEW_TEST_POSTGRES` names a
//! server (CI runs them both ways).

mod common;

use common::team::{Team, finished, first_line, interview, read};

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

const BATCH: &str = r#"{"questions": [
    {"header": "Env", "question": "Where to?", "options": ["dev", "staging", "prod"]},
    {"header": "Migrate", "question": "Run the migrations?", "type": "confirm"}]}"#;

const REPLICAS: &str =
    r#"{"question": "How many replicas?", "type": "number", "min": 1, "max": 9, "integer": true}"#;

#[test]
fn a_question_for_a_group_is_answered_once_by_a_member_and_a_refused_answer_is_asked_again() {
    let team = Team::new();
    let asker = team.ask(REPLICAS, &["--to", "ops"]);
    let question = team.next_question(&team.ann, 0);
    assert_eq!(question["kind"], "number");
    assert_eq!(question["frame"]["prompt"], "How many replicas?");
    // Bob is not in ops: he neither sees it nor can answer it.
    assert!(team.open(&team.bob).is_empty());
    let (status, body) = team.answer(&team.bob, &question, json!({"entered": "2"}));
    assert_eq!(status, 404, "{body}");
    // An agent's token may not answer, nor a person's ask.
    let (status, _) = team.answer(&team.agent, &question, json!({"entered": "2"}));
    assert_eq!(status, 403);
    // A reply that is no number question's is refused before it is kept.
    let (status, body) = team.answer(&team.ann, &question, json!({"picked": 0}));
    assert_eq!(status, 400, "{body}");

    // Out of range: the plugin, on the asking side, refuses it and asks again with its error.
    let (status, body) = team.answer(&team.ann, &question, json!({"entered": "42"}));
    assert_eq!((status, &body["accepted"]), (200, &json!(true)), "{body}");
    let (status, body) = team.answer(&team.ann, &question, json!({"entered": "3"}));
    assert_eq!(status, 409, "a step takes one answer: {body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("already answered by ann")
    );
    let again = team.next_question(&team.ann, question["seq"].as_i64().unwrap());
    assert_eq!(again["question"], question["question"]);
    let error = again["frame"]["error"].as_str().unwrap_or_default();
    assert!(error.contains('9'), "the plugin's error is shown: {again}");

    let (status, body) = team.answer(&team.ann, &again, json!({"entered": "3"}));
    assert_eq!(status, 200, "{body}");
    let (result, code, stderr) = finished(asker);
    assert_eq!(
        (code, &result["status"]),
        (0, &json!("answered")),
        "{stderr}"
    );
    assert_eq!(common::values(&result), [json!(3)]);
    assert!(
        team.open(&team.ann).is_empty(),
        "a finished question leaves the list"
    );

    let audit = team.audit();
    let events: Vec<(&str, &str)> = audit
        .iter()
        .map(|e| (e["event"].as_str().unwrap(), e["actor"].as_str().unwrap()))
        .collect();
    let asking: Vec<_> = events
        .iter()
        .filter(|(event, _)| !event.starts_with("token"))
        .copied()
        .collect();
    assert_eq!(
        asking,
        [
            ("asked", "ci"),
            ("step", "ci"),
            ("answered", "ann"),
            ("step", "ci"),
            ("answered", "ann"),
            ("finished", "ci"),
        ]
    );
    let answered = audit.iter().filter(|e| e["event"] == "answered");
    let answers: Vec<&Json> = answered.map(|e| &e["detail"]).collect();
    assert_eq!(
        answers,
        [&json!({"entered": "42"}), &json!({"entered": "3"})]
    );
    assert!(
        audit
            .iter()
            .all(|e| e["at"].as_str().unwrap().ends_with('Z'))
    );
}

#[test]
fn a_server_killed_and_restarted_loses_no_acknowledged_answer_and_the_asker_carries_on() {
    let mut team = Team::new();
    let asker = team.ask(BATCH, &[]);
    let first = team.next_question(&team.bob, 0);
    let (status, _) = team.answer(&team.bob, &first, json!({"picked": 2}));
    assert_eq!(status, 200);
    let second = team.next_question(&team.bob, first["seq"].as_i64().unwrap());
    // Killed while the asker waits on the second step; started again on the same address.
    let listen = team.url.trim_start_matches("http://").to_owned();
    team.kill();
    std::thread::sleep(Duration::from_millis(500));
    team.start(&listen);
    let again = team.next_question(&team.bob, first["seq"].as_i64().unwrap());
    assert_eq!(again["seq"], second["seq"], "the same step, not a new one");
    let (status, body) = team.answer(&team.bob, &again, json!({"answered": true}));
    assert_eq!(status, 200, "{body}");
    let review = team.next_question(&team.bob, again["seq"].as_i64().unwrap());
    assert_eq!(review["kind"], "review");
    let (status, _) = team.answer(&team.bob, &review, json!({"review": "submit"}));
    assert_eq!(status, 200);
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(common::values(&result), [json!("prod"), json!(true)]);
}

#[test]
fn a_token_the_server_does_not_know_is_said_plainly_to_the_model_too() {
    let team = Team::new();
    let path = team.dir.path().join("request.json");
    std::fs::write(&path, REPLICAS).unwrap();
    let output = common::interview()
        .args(["ask", path.to_str().unwrap(), "--inbox", &team.url])
        .env("INTERVIEW_INBOX_TOKEN", "itk_forged")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = common::stderr(&output);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    let result = common::result(&output);
    assert_eq!(
        (&result["status"], &result["reason"]),
        (&json!("unavailable"), &json!("inbox-refused"))
    );
    assert!(
        result["text"]
            .as_str()
            .unwrap()
            .contains("refused this agent"),
        "{result}"
    );
    assert!(
        stderr.contains("not known here, or was revoked"),
        "{stderr}"
    );
    // No token at all: said before anything is asked.
    let output = common::interview()
        .args(["ask", path.to_str().unwrap(), "--inbox", &team.url])
        .env_remove("INTERVIEW_INBOX_TOKEN")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(4));
    assert!(common::stderr(&output).contains("INTERVIEW_INBOX_TOKEN"));
}

/// Starts an asker of `BATCH`, answers its first question (`prod`), and kills it with SIGKILL
/// once it has put up the second: an agent that died mid-request.
fn asker_killed_after_the_first_answer(team: &Team, extra: &[&str]) -> Json {
    let mut first_asker = team.ask(BATCH, extra);
    let first = team.next_question(&team.bob, 0);
    let (status, _) = team.answer(&team.bob, &first, json!({"picked": 2}));
    assert_eq!(status, 200);
    let second = team.next_question(&team.bob, first["seq"].as_i64().unwrap());
    first_asker.kill().unwrap();
    first_asker.wait().unwrap();
    second
}

#[test]
fn an_asker_killed_mid_request_is_withdrawn_and_its_retry_is_shown_what_was_answered() {
    for extra in [&[][..], &["--journal", "answers.journal"][..]] {
        let mut team = Team::new();
        // A server that hears nothing from an asker for 2 s takes it for gone.
        let listen = team.url.trim_start_matches("http://").to_owned();
        team.kill();
        team.start_with(&listen, &["--asker-grace", "2s"]);
        let extra: Vec<String> = extra
            .iter()
            .map(|a| match *a {
                "answers.journal" => team.dir.path().join(a).display().to_string(),
                a => a.to_string(),
            })
            .collect();
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let second = asker_killed_after_the_first_answer(&team, &extra);
        // Nobody answers for nothing: the question leaves every list, and an answer to it is
        // told why.
        wait_until_empty(&team, &team.bob);
        let (status, body) = team.answer(&team.bob, &second, json!({"answered": false}));
        assert_eq!(status, 409, "{body}");
        assert!(
            body["error"].as_str().unwrap().contains("withdrawn"),
            "{body}"
        );
        // The retry: a question of its own, asked again, with the first answer played back.
        let again = team.ask(BATCH, &extra);
        let open = team.next_question(&team.bob, 0);
        assert_ne!(open["question"], second["question"], "with {extra:?}");
        assert_eq!(open["again_of"], second["question"], "with {extra:?}");
        assert_eq!(open["resumed"], true, "with {extra:?}");
        assert_eq!(open["frame"]["prompt"], "Run the migrations?");
        let (status, _) = team.answer(&team.bob, &open, json!({"answered": false}));
        assert_eq!(status, 200);
        let review = team.next_question(&team.bob, open["seq"].as_i64().unwrap());
        let (status, _) = team.answer(&team.bob, &review, json!({"review": "submit"}));
        assert_eq!(status, 200);
        let (result, code, stderr) = finished(again);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(common::values(&result), [json!("prod"), json!(false)]);
        let events: Vec<Json> = team
            .audit()
            .into_iter()
            .map(|e| e["event"].clone())
            .collect();
        assert!(events.contains(&json!("withdrawn")), "{events:?}");
        assert!(events.contains(&json!("resumed")), "{events:?}");
    }
}

/// Waits until `token`'s holder sees no open question.
fn wait_until_empty(team: &Team, token: &str) {
    let started = Instant::now();
    while !team.open(token).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the question stayed open"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Sends `asker` SIGINT, as Ctrl-C of its process group does: it ends cancelled, exit 130.
fn interrupted(asker: std::process::Child) {
    // SAFETY: kill sends a signal to a child of ours.
    unsafe { libc::kill(asker.id() as i32, libc::SIGINT) };
    let (result, code, stderr) = finished(asker);
    assert_eq!(
        (code, &result["status"]),
        (130, &json!("cancelled")),
        "{stderr}"
    );
}

#[test]
fn ctrl_c_before_the_server_answers_at_all_is_a_cancel_not_a_missing_inbox() {
    let mut team = Team::new();
    // A server that takes the connection and never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    team.url = format!("http://{}", silent.local_addr().unwrap());
    let asker = team.ask(REPLICAS, &[]);
    std::thread::sleep(Duration::from_millis(700));
    interrupted(asker);
}

#[test]
fn ctrl_c_of_the_asker_withdraws_its_question_at_once_and_a_retry_is_asked_afresh() {
    let team = Team::new();
    let asker = team.ask(REPLICAS, &[]);
    let question = team.next_question(&team.bob, 0);
    interrupted(asker);
    assert!(team.open(&team.bob).is_empty(), "withdrawn at once");
    let (status, body) = team.answer(&team.bob, &question, json!({"entered": "4"}));
    assert_eq!(status, 409, "{body}");
    // Asked again: a new question of the same request, nothing played back.
    let again = team.ask(REPLICAS, &[]);
    let open = team.next_question(&team.bob, 0);
    assert_ne!(open["question"], question["question"]);
    assert_eq!(open["again_of"], question["question"]);
    assert_eq!(open["resumed"], false);
    let (status, _) = team.answer(&team.bob, &open, json!({"entered": "4"}));
    assert_eq!(status, 200);
    let (result, code, _) = finished(again);
    assert_eq!((code, common::values(&result)), (0, vec![json!(4)]));
}

/// A proxy to the server at `url`, through which every request passes except one taking a
/// question off the list (`POST …/finish`), which is held and never reaches the server: a
/// server slow to tidy its list.
fn proxy_holding_finishes(url: &str) -> String {
    use std::io::Read;
    use std::net::{TcpListener, TcpStream};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let proxy = format!("http://{}", listener.local_addr().unwrap());
    let server = url.trim_start_matches("http://").to_owned();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let upstream = TcpStream::connect(&server).unwrap();
            let (mut from_client, mut to_server) =
                (client.try_clone().unwrap(), upstream.try_clone().unwrap());
            std::thread::spawn(move || {
                let mut buffer = vec![0; 1 << 16];
                while let Ok(read @ 1..) = from_client.read(&mut buffer) {
                    // Held: the connection stays open, and this request unsent.
                    if buffer[..read].windows(8).any(|w| w == b"/finish ") {
                        return;
                    }
                    if to_server.write_all(&buffer[..read]).is_err() {
                        return;
                    }
                }
            });
            let (mut from_server, mut to_client) = (upstream, client);
            std::thread::spawn(move || std::io::copy(&mut from_server, &mut to_client));
        }
    });
    proxy
}

#[test]
fn the_asker_writes_its_result_before_it_takes_its_question_off_the_list() {
    let mut team = Team::new();
    team.url = proxy_holding_finishes(&team.url);
    let mut asker = team.ask(REPLICAS, &[]);
    let question = team.next_question(&team.bob, 0);
    let (status, body) = team.answer(&team.bob, &question, json!({"entered": "4"}));
    assert_eq!(status, 200, "{body}");
    // The agent has its answer while the asker still waits on the server to close the
    // question (for up to ten seconds, held as it is here).
    let lines = common::lines_of(asker.stdout.take().unwrap());
    let line = (lines.recv_timeout(Duration::from_secs(5)))
        .expect("the result is written before the question is closed");
    let result: Json = serde_json::from_str(&line).unwrap();
    assert_eq!(common::values(&result), vec![json!(4)], "{result}");
    assert!(
        asker.try_wait().unwrap().is_none(),
        "still closing the question"
    );
    // A close that hangs is given up in its ten seconds, not its connection's timeout.
    let started = Instant::now();
    while asker.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the asker waited on the close past its patience"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn what_was_answered_to_a_run_an_hour_or_a_month_ago_is_never_played_back() {
    for hours in [1, 30 * 24] {
        let team = Team::new();
        let asker = team.ask(BATCH, &[]);
        let first = team.next_question(&team.bob, 0);
        let (status, _) = team.answer(&team.bob, &first, json!({"picked": 2}));
        assert_eq!(status, 200);
        team.next_question(&team.bob, first["seq"].as_i64().unwrap());
        // SAFETY: kill sends a signal to a child of ours.
        unsafe { libc::kill(asker.id() as i32, libc::SIGTERM) };
        let (result, code, _) = finished(asker);
        assert_eq!((code, &result["status"]), (130, &json!("cancelled")));
        team.move_clock(hours * 3_600_000);

        let again = team.ask(BATCH, &[]);
        let open = team.next_question(&team.bob, 0);
        assert_eq!(open["again_of"], first["question"], "{hours} h");
        assert_eq!(open["resumed"], false, "{hours} h");
        assert_eq!(
            open["frame"]["prompt"], "Where to?",
            "{hours} h: asked afresh"
        );
        let (status, _) = team.answer(&team.bob, &open, json!({"picked": 0}));
        assert_eq!(status, 200);
        let next = team.next_question(&team.bob, open["seq"].as_i64().unwrap());
        let (status, _) = team.answer(&team.bob, &next, json!({"answered": true}));
        assert_eq!(status, 200);
        let review = team.next_question(&team.bob, next["seq"].as_i64().unwrap());
        team.answer(&team.bob, &review, json!({"review": "submit"}));
        let (result, code, stderr) = finished(again);
        assert_eq!(code, 0, "{hours} h: {stderr}");
        assert_eq!(common::values(&result), [json!("dev"), json!(true)]);
    }
}

#[test]
fn an_mcp_call_the_client_cancels_is_withdrawn_from_the_team_at_once() {
    let team = Team::new();
    let (mut mcp, mut send, mut replies) = team.mcp();
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "interview", "arguments": {"question": "Ship it?", "type": "confirm"}}}),
    );
    let question = team.next_question(&team.ann, 0);
    send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 1, "reason": "the user pressed Esc"}}),
    );
    wait_until_empty(&team, &team.ann);
    let (status, body) = team.answer(&team.ann, &question, json!({"answered": true}));
    assert_eq!(status, 409, "{body}");
    // The connection goes on: the next call is asked.
    send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "interview", "arguments": {"question": "Name?"}}}),
    );
    let next = team.next_question(&team.ann, 0);
    assert_eq!(next["frame"]["prompt"], "Name?");
    let (status, _) = team.answer(&team.ann, &next, json!({"submitted": "Ada"}));
    assert_eq!(status, 200);
    let reply: Json = loop {
        let line: Json = serde_json::from_str(&replies.next().unwrap().unwrap()).unwrap();
        if line["id"] == 2 {
            break line;
        }
    };
    assert_eq!(
        reply["result"]["structuredContent"]["answer"], "Ada",
        "{reply}"
    );
    mcp.kill().unwrap();
    mcp.wait().unwrap();
}

#[test]
fn serve_asks_each_line_through_the_team_inbox_in_turn() {
    let team = Team::new();
    let mut command = common::interview();
    command
        .args(["serve", "--inbox", &team.url, "--to", "ann"])
        .env("INTERVIEW_INBOX_TOKEN", &team.agent)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut serve = common::without_terminal(&mut command).spawn().unwrap();
    let mut stdin = serve.stdin.take().unwrap();
    writeln!(stdin, "{REPLICAS}").unwrap();
    writeln!(stdin, r#"{{"question": "Release name?"}}"#).unwrap();
    drop(stdin);
    let first = team.next_question(&team.ann, 0);
    assert!(team.open(&team.bob).is_empty(), "addressed to ann alone");
    let (status, _) = team.answer(&team.ann, &first, json!({"entered": "5"}));
    assert_eq!(status, 200);
    let started = Instant::now();
    let second = loop {
        let open = team.open(&team.ann);
        if let Some(q) = open
            .into_iter()
            .find(|q| q["question"] != first["question"])
        {
            break q;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no second question"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(second["frame"]["prompt"], "Release name?");
    let (status, _) = team.answer(&team.ann, &second, json!({"submitted": "Ada"}));
    assert_eq!(status, 200);
    let output = serve.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
    let results = common::json_lines(&output.stdout);
    let values: Vec<Json> = results.iter().flat_map(common::values).collect();
    assert_eq!(values, [json!(5), json!("Ada")]);
}

#[test]
fn an_mcp_call_is_asked_in_the_team_inbox_under_the_clients_name() {
    let team = Team::new();
    let (mut mcp, mut send, mut replies) = team.mcp();
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "interview", "arguments": {"question": "Ship it?", "type": "confirm"}}}),
    );
    let question = team.next_question(&team.ann, 0);
    assert_eq!(question["from"]["client"], "pipes 1");
    assert_eq!(question["from"]["command"], "mcp");
    let (status, _) = team.answer(&team.ann, &question, json!({"answered": true}));
    assert_eq!(status, 200);
    let reply: Json = serde_json::from_str(&replies.next().unwrap().unwrap()).unwrap();
    assert_eq!(reply["id"], 1, "{reply}");
    let result = &reply["result"]["structuredContent"];
    assert_eq!(common::values(result), [json!(true)], "{reply}");
    mcp.kill().unwrap();
    mcp.wait().unwrap();
}

#[test]
fn the_same_mcp_call_made_again_while_the_last_ones_question_closes_asks_the_person_again() {
    let mut team = Team::new();
    team.url = proxy_holding_finishes(&team.url);
    let (mut mcp, mut send, replies) = team.mcp();
    let replies = common::lines_of_lines(replies);
    let call = |id: u32| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "interview", "arguments": {"question": "Ship it?", "type": "confirm"}}})
    };
    let reply = |id: u32| -> Json {
        let line = (replies.recv_timeout(Duration::from_secs(30))).expect("a reply came");
        let reply: Json = serde_json::from_str(&line).unwrap();
        assert_eq!(reply["id"], id, "{reply}");
        reply["result"]["structuredContent"].clone()
    };
    send(call(1));
    let first = team.next_question(&team.ann, 0);
    let (status, _) = team.answer(&team.ann, &first, json!({"answered": true}));
    assert_eq!(status, 200);
    assert_eq!(common::values(&reply(1)), [json!(true)]);

    // The first question is not closed yet (its close is held): the same call is a new
    // question for the person, not the first one's answer handed back.
    send(call(2));
    let second = team.next_question(&team.ann, 0);
    assert_ne!(second["question"], first["question"]);
    let (status, _) = team.answer(&team.ann, &second, json!({"answered": false}));
    assert_eq!(status, 200);
    assert_eq!(common::values(&reply(2)), [json!(false)]);
    mcp.kill().unwrap();
    mcp.wait().unwrap();
}

#[test]
fn sigterm_ends_interview_mcp_and_withdraws_the_questions_its_calls_wait_on() {
    let team = Team::new();
    let (mut mcp, mut send, _replies) = team.mcp();
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "interview", "arguments": {"question": "Ship it?", "type": "confirm"}}}),
    );
    team.next_question(&team.ann, 0);
    // SAFETY: kill sends a signal to a child of ours.
    unsafe { libc::kill(mcp.id() as i32, libc::SIGTERM) };
    let started = Instant::now();
    let status = loop {
        if let Some(status) = mcp.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "interview mcp went on after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(130));
    assert!(
        team.open(&team.ann).is_empty(),
        "its question was left open"
    );
}

#[test]
fn the_page_signs_a_person_in_with_a_cookie_only_their_token_earns() {
    let team = Team::new();
    let login = |token: &str, proto: Option<&str>| {
        let mut request = ureq::post(&format!("{}/login", team.url));
        if let Some(proto) = proto {
            request = request.set("x-forwarded-proto", proto);
        }
        match request.send_json(json!({ "token": token })) {
            Ok(response) | Err(ureq::Error::Status(_, response)) => response,
            Err(error) => panic!("{error}"),
        }
    };
    let signed_in = login(&team.ann, None);
    assert_eq!(signed_in.status(), 200);
    let cookie = signed_in.header("set-cookie").unwrap().to_owned();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));
    assert!(!cookie.contains("Secure"), "{cookie}");
    let behind_tls = login(&team.ann, Some("https"));
    assert!(
        behind_tls
            .header("set-cookie")
            .unwrap()
            .ends_with("; Secure")
    );
    // The cookie is the person's token: the API takes it as the page sends it.
    let pair = cookie.split(';').next().unwrap();
    let listed = ureq::get(&format!("{}/api/questions", team.url))
        .set("cookie", pair)
        .call()
        .unwrap();
    assert_eq!(listed.status(), 200);
    // An agent's token, or none that is known, signs nobody in.
    assert_eq!(login(&team.agent, None).status(), 403);
    assert_eq!(login("itk_unknown", None).status(), 401);
}

/// Runs `openssl args` in `dir`.
fn openssl(dir: &std::path::Path, args: &[&str]) {
    let output = std::process::Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
}

#[test]
fn an_asker_reaches_the_server_behind_a_tls_proxy_trusting_the_systems_certificates() {
    let team = Team::new();
    let dir = team.dir.path();
    // A certificate authority of the test's own, and the proxy's certificate for localhost.
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    openssl(
        dir,
        &[
            &["req", "-x509"][..],
            &ec,
            &[
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem",
                "-days",
                "1",
                "-subj",
                "/CN=interview test CA",
            ],
        ]
        .concat(),
    );
    openssl(
        dir,
        &[
            &["req"][..],
            &ec,
            &[
                "-keyout",
                "key.pem",
                "-out",
                "leaf.csr",
                "-subj",
                "/CN=localhost",
            ],
        ]
        .concat(),
    );
    std::fs::write(
        dir.join("leaf.ext"),
        "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "cert.pem",
            "-days",
            "1",
            "-extfile",
            "leaf.ext",
        ],
    );
    let port = team.url.rsplit(':').next().unwrap();
    let mut proxy = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/team/tls_proxy.py"
        ))
        .args(["cert.pem", "key.pem", port])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let https = format!(
        "https://localhost:{}",
        first_line(proxy.stdout.take().unwrap()).trim()
    );

    let path = dir.join("request.json");
    std::fs::write(&path, REPLICAS).unwrap();
    let ask = |ca: &str| {
        let mut command = common::interview();
        command
            .args(["ask", path.to_str().unwrap(), "--inbox", &https])
            .env("INTERVIEW_INBOX_TOKEN", &team.agent)
            .env("SSL_CERT_FILE", dir.join(ca))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        common::without_terminal(&mut command).spawn().unwrap()
    };
    // A server whose certificate the system does not trust is not talked to.
    let mut distrusting = ask("cert.pem.missing");
    let said = first_line(distrusting.stderr.take().unwrap());
    assert!(said.contains("cannot be reached"), "{said}");
    assert!(said.to_lowercase().contains("certificate"), "{said}");
    distrusting.kill().unwrap();
    distrusting.wait().unwrap();

    let trusting = ask("ca.pem");
    let question = team.next_question(&team.ann, 0);
    let (status, _) = team.answer(&team.ann, &question, json!({"entered": "6"}));
    assert_eq!(status, 200);
    let (result, code, stderr) = finished(trusting);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(common::values(&result), [json!(6)]);
    proxy.kill().unwrap();
    proxy.wait().unwrap();
}

#[test]
fn an_agents_token_names_whom_it_asks_by_default_and_it_may_ask_no_one_else() {
    let team = Team::new();
    let ops_bot = team.token(&["--agent", "ops-bot", "--to", "ops"]);
    let listed = interview(&["inbox", "token", "list", "--db", &team.db]);
    let listed = common::json_lines(&listed.stdout);
    let entry = listed.iter().find(|t| t["name"] == "ops-bot").unwrap();
    assert_eq!(entry["to"], json!(["ops"]), "{entry}");

    // Naming nobody, its question is for ops: Ann (in ops) has it, Bob does not.
    let asker = team.ask_as(&ops_bot, REPLICAS, &[]);
    let question = team.next_question(&team.ann, 0);
    assert_eq!(question["to"], "ops");
    assert!(team.open(&team.bob).is_empty(), "bob is not in ops");
    let (status, body) = team.answer(&team.ann, &question, json!({"entered": "2"}));
    assert_eq!(status, 200, "{body}");
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(common::values(&result), [json!(2)]);

    // Naming someone else is refused before anything is asked, saying why.
    let (result, code, stderr) = finished(team.ask_as(&ops_bot, REPLICAS, &["--to", "bob"]));
    assert_eq!(
        (code, &result["reason"]),
        (3, &json!("inbox-refused")),
        "{stderr}"
    );
    assert!(
        stderr.contains(r#"ops-bot's token asks only ops, not "bob""#),
        "{stderr}"
    );
    assert!(team.open(&team.bob).is_empty());
}

#[test]
fn a_question_for_nobody_there_is_refused_naming_the_name() {
    let team = Team::new();
    let (result, code, stderr) = finished(team.ask(REPLICAS, &["--to", "carol & co"]));
    assert_eq!(
        (code, &result["status"], &result["reason"]),
        (3, &json!("unavailable"), &json!("unknown-addressee")),
        "{stderr}"
    );
    // Not told to open an inbox: the name is what was wrong.
    let text = result["text"].as_str().unwrap();
    assert!(text.contains("nobody by the name"), "{text}");
    assert!(!text.contains("interview inbox"), "{text}");
    assert!(
        stderr.contains(r#"nobody here is named "carol & co""#),
        "{stderr}"
    );
    assert!(team.open(&team.ann).is_empty());
    assert!(team.audit().iter().all(|e| e["event"] != "asked"));
}

/// A webhook on 127.0.0.1 that answers every POST with 200 and hands over its JSON body, and
/// its `Idempotency-Key`.
struct Hook {
    url: String,
    bodies: std::sync::mpsc::Receiver<(Option<String>, Json)>,
}

impl Hook {
    fn start(path: &str) -> Hook {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}{path}", listener.local_addr().unwrap());
        let (sent, bodies) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let mut reader = BufReader::new(stream);
                let (mut length, mut key) = (0, None);
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        break;
                    }
                    if let Some((name, value)) = line.split_once(':')
                        && name.eq_ignore_ascii_case("content-length")
                    {
                        length = value.trim().parse().unwrap();
                    }
                    if let Some((name, value)) = line.split_once(':')
                        && name.eq_ignore_ascii_case("idempotency-key")
                    {
                        key = Some(value.trim().to_owned());
                    }
                    if line == "\r\n" {
                        break;
                    }
                }
                let mut body = vec![0; length];
                std::io::Read::read_exact(&mut reader, &mut body).unwrap();
                let _ = reader.get_mut().write_all(
                    b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok",
                );
                if sent
                    .send((key, serde_json::from_slice(&body).unwrap()))
                    .is_err()
                {
                    return;
                }
            }
        });
        Hook { url, bodies }
    }

    /// The next notice's idempotency key, and its body.
    fn next_keyed(&self) -> (Option<String>, Json) {
        self.bodies
            .recv_timeout(Duration::from_secs(30))
            .expect("the webhook was told nothing")
    }
}

#[test]
fn unanswered_by_its_deadline_a_question_escalates_with_a_webhook_then_the_asker_gets_what_was_answered()
 {
    let mut team = Team::new();
    team.kill();
    team.start_with(
        "127.0.0.1:0",
        &["--public-url", "https://inbox.example.com/"],
    );
    let (for_bob, for_ops) = (Hook::start("/bob"), Hook::start("/ops"));
    for (name, hook) in [("bob", &for_bob), ("ops", &for_ops)] {
        let added = interview(&[
            "inbox", "hook", "add", "--db", &team.db, "--for", name, &hook.url,
        ]);
        assert!(added.status.success(), "{}", common::stderr(&added));
    }
    let asked = Instant::now();
    let asker = team.ask(
        BATCH,
        &["--to", "bob", "--deadline", "5s", "--escalate-to", "ops"],
    );
    let first = team.next_question(&team.bob, 0);
    assert!(team.open(&team.ann).is_empty(), "for Bob first");
    // Bob is told (within a second: the servers send notices as they sweep), and answers.
    let (key, told) = for_bob.next_keyed();
    // Each notice with a key of its own, the same for every try of it.
    let key = key.expect("an Idempotency-Key");
    assert!(
        key.starts_with(&format!("interview-notice-{}-", first["question"])),
        "{key}"
    );
    let link = format!("https://inbox.example.com/q/{}/", first["question"]);
    assert_eq!(
        told["blocks"][1]["elements"][0]["url"],
        json!(link),
        "{told}"
    );
    let section = told["blocks"][0]["text"]["text"].as_str().unwrap();
    assert!(section.contains("Where to?"), "{told}");
    let (status, _) = team.answer(&team.bob, &first, json!({"picked": 1}));
    assert_eq!(status, 200);
    let second = team.next_question(&team.bob, first["seq"].as_i64().unwrap());

    // Nobody answered by the deadline: the question leaves Bob's list for ops's (Ann's).
    let escalated = team.next_question(&team.ann, first["seq"].as_i64().unwrap());
    assert!(asked.elapsed() >= Duration::from_secs(5));
    assert_eq!(
        escalated["seq"], second["seq"],
        "the same step, for ops now"
    );
    assert_eq!(escalated["to"], "ops");
    assert!(team.open(&team.bob).is_empty());
    let (escalation_key, told) = for_ops.next_keyed();
    assert_ne!(escalation_key, Some(key), "another notice, another key");
    let section = told["blocks"][0]["text"]["text"].as_str().unwrap();
    assert!(section.starts_with("Nobody answered in time"), "{told}");
    assert!(section.contains("Run the migrations?"), "{told}");

    // Nobody answered in as long again: the asker gets `unavailable`, with Bob's answer.
    let (result, code, stderr) = finished(asker);
    assert!(asked.elapsed() >= Duration::from_secs(10));
    assert_eq!(
        (code, &result["status"]),
        (3, &json!("unavailable")),
        "{stderr}"
    );
    assert_eq!(result["reason"], "timed-out");
    assert_eq!(common::values(&result), [json!("staging")]);
    let text = result["text"].as_str().unwrap();
    assert!(
        text.starts_with("No human answered in the time allowed"),
        "{text}"
    );
    assert!(
        team.open(&team.ann).is_empty(),
        "an expired question leaves every list"
    );
    let (status, body) = team.answer(&team.ann, &escalated, json!({"answered": true}));
    assert_eq!(status, 409, "too late: {body}");

    let audit = team.audit();
    let events: Vec<&str> = audit.iter().map(|e| e["event"].as_str().unwrap()).collect();
    for event in ["hook-added", "escalated", "expired", "notified"] {
        assert!(events.contains(&event), "{event} in {events:?}");
    }
    assert_eq!(events.iter().filter(|e| **e == "notified").count(), 2);
    assert!(
        audit.iter().all(|e| !e.to_string().contains("/ops\"")),
        "a hook's path is not kept in the audit"
    );
}

#[test]
fn a_deadline_or_escalation_that_cannot_be_kept_is_refused_before_asking() {
    let team = Team::new();
    for (extra, said) in [
        (&["--deadline", "soon"][..], "invalid --deadline 'soon'"),
        (&["--deadline", "31d"][..], "invalid --deadline '31d'"),
        (
            &["--escalate-to", "ops"][..],
            "--escalate-to needs --deadline",
        ),
        (
            &["--to", "ops", "--deadline", "1m", "--escalate-to", "ops"][..],
            "--escalate-to names whom --to names",
        ),
    ] {
        let (_, code, stderr) = finished_or_usage(team.ask(REPLICAS, extra));
        assert_eq!(code, 2, "{extra:?}: {stderr}");
        assert!(stderr.contains(said), "{extra:?}: {stderr}");
    }
    // Without --inbox, the team's options are a mistake, said as one.
    let path = team.dir.path().join("alone.json");
    std::fs::write(&path, REPLICAS).unwrap();
    let alone = interview(&["ask", path.to_str().unwrap(), "--deadline", "1m"]);
    assert_eq!(alone.status.code(), Some(2));
    let said = common::stderr(&alone);
    assert!(
        said.contains("--deadline is for questions asked through a team inbox"),
        "{said}"
    );
    let asker = team.ask(
        REPLICAS,
        &["--deadline", "1m", "--escalate-to", "nobody-here"],
    );
    let (result, code, stderr) = finished(asker);
    assert_eq!(
        (code, &result["status"]),
        (3, &json!("unavailable")),
        "{stderr}"
    );
    assert!(
        stderr.contains(r#"--escalate-to: nobody here is named "nobody-here""#),
        "{stderr}"
    );
}

/// How a child that may have stopped at its command line ended: its stdout, exit code, stderr.
fn finished_or_usage(child: Child) -> (String, i32, String) {
    let output = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        output.status.code().unwrap(),
        common::stderr(&output),
    )
}

/// The server's resident memory, in KiB.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn thousands_of_idle_half_sent_and_stalled_connections_from_a_stranger_keep_nobody_out() {
    // This test holds thousands of sockets: as many as its hard limit lets it.
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: reading and raising this process's own soft limit to its hard one.
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
    let mut team = Team::new();
    let listen = team.url.trim_start_matches("http://").to_owned();
    team.kill();
    // The server as a service usually runs: 1,024 open files.
    let mut command = common::interview();
    // SAFETY: setrlimit is async-signal-safe; it lowers only the child's own limit.
    unsafe {
        use std::os::unix::process::CommandExt;
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1024,
                rlim_max: 1024,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    team.start_in(command, &listen, &[]);
    let server: std::net::SocketAddr = listen.parse().unwrap();
    let pid = team.server.as_ref().unwrap().id();
    let before = resident_kib(pid);

    let connect = || std::net::TcpStream::connect_timeout(&server, Duration::from_secs(2)).ok();
    let mut held = Vec::new();
    // Idle: opened and never written to. (A server that stops accepting stops the test here:
    // each connection would wait out its timeout.)
    held.extend((0..3_100).map_while(|_| connect()));
    // Half-sent: a request head that never ends.
    held.extend((0..1_900).map_while(|_| {
        let mut stream = connect()?;
        stream
            .write_all(b"GET /api/questions HTTP/1.1\r\nHost: inbox\r\nX-Slow: ")
            .ok()?;
        Some(stream)
    }));
    // Stalled bodies: 16 MiB announced, 1 MiB sent, no token.
    let chunk = vec![b'x'; 1 << 20];
    held.extend((0..100).map_while(|_| {
        let mut stream = connect()?;
        stream
            .set_write_timeout(Some(Duration::from_secs(2)))
            .ok()?;
        let head = "POST /api/steps HTTP/1.1\r\nHost: inbox\r\nContent-Type: application/json\r\n\
                    Content-Length: 16777216\r\n\r\n";
        stream.write_all(head.as_bytes()).ok()?;
        let _ = stream.write_all(&chunk);
        Some(stream)
    }));
    assert!(
        held.len() >= 4_600,
        "only {} connections were made",
        held.len()
    );

    // A person's request is served at once, every time: well under the 10 s after which a
    // stalled connection's head times out, which is what a person kept out would wait. (3 s,
    // not 1: the tests run side by side on two cores.)
    for _ in 0..5 {
        let started = Instant::now();
        let response = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(5))
            .build()
            .get(&format!("{}/api/questions", team.url))
            .set("authorization", &format!("Bearer {}", team.ann))
            .call();
        let took = started.elapsed();
        let (status, _) = read(response);
        assert_eq!(status, 200);
        assert!(took < Duration::from_secs(3), "served after {took:?}");
    }
    let after = resident_kib(pid);
    assert!(
        after < 200 * 1024,
        "the server holds {after} KiB ({before} KiB before)"
    );
    drop(held);
}

#[test]
fn an_answer_over_ten_megabytes_reaches_its_asker_and_one_over_the_limit_is_refused() {
    let team = Team::new();
    let asker = team.ask(r#"{"question": "Paste the log"}"#, &[]);
    let question = team.next_question(&team.ann, 0);
    // Over the limit: refused as it streams in (413, or the connection closed on the rest of
    // the body), and the asker still waits.
    let path = format!(
        "{}/api/questions/{}/steps/{}/reply",
        team.url, question["question"], question["seq"]
    );
    let refused = ureq::post(&path)
        .set("authorization", &format!("Bearer {}", team.ann))
        .send_json(json!({"submitted": "y".repeat((17 << 20) + 1)}));
    match refused {
        Err(ureq::Error::Status(code, _)) => assert_eq!(code, 413),
        Err(ureq::Error::Transport(_)) => {}
        Ok(response) => panic!("taken: {}", response.status()),
    }
    let log = "x".repeat(11 << 20);
    let (status, body) = team.answer(&team.ann, &question, json!({"submitted": log}));
    assert_eq!(status, 200, "{body}");
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(result["answer"].as_str().map(str::len), Some(11 << 20));
}

#[test]
fn the_audit_writes_agent_text_with_its_invisible_and_control_characters_escaped() {
    let team = Team::new();
    let step = json!({"key": "k", "run": "r", "from": {"client": "ci\u{202e}txt.exe\u{9b}31m\u{200b}"},
        "folder": "/src\u{1b}]0;x\u{7}", "kind": "confirm",
        "view": confirm_view("Ship?")});
    let response = ureq::post(&format!("{}/api/steps", team.url))
        .set("authorization", &format!("Bearer {}", team.agent))
        .send_json(step);
    assert_eq!(read(response).0, 200);
    let output = interview(&["inbox", "audit", "--db", &team.db]);
    let printed = String::from_utf8(output.stdout).unwrap();
    for raw in ['\u{202e}', '\u{9b}', '\u{200b}', '\u{1b}', '\u{7}'] {
        assert!(!printed.contains(raw), "{raw:?} printed raw: {printed}");
    }
    assert!(printed.contains("\\u202e"), "{printed}");
}

/// The status line of a GET of `path` on `server` naming `host`, over a raw connection.
fn status_for_host(server: &str, path: &str, host: &str, token: &str) -> String {
    let mut stream = std::net::TcpStream::connect(server).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    std::io::Read::read_to_string(&mut stream, &mut response).unwrap();
    response.lines().next().unwrap_or_default().to_owned()
}

#[test]
fn a_request_naming_another_host_is_refused_against_dns_rebinding() {
    let mut team = Team::new();
    let listen = team.url.trim_start_matches("http://").to_owned();
    team.kill();
    team.start_with(
        &listen,
        &[
            "--public-url",
            "https://inbox.example.com",
            "--allow-host",
            "inbox.lan",
        ],
    );
    for (host, expected) in [
        ("attacker.example", "421"),
        ("inbox.example.com.attacker.example", "421"),
        ("inbox.example.com", "200"),
        ("INBOX.LAN:8470", "200"),
        ("localhost:8470", "200"),
        (listen.as_str(), "200"),
    ] {
        let status = status_for_host(&listen, "/api/questions", host, &team.ann);
        assert!(status.contains(expected), "{host}: {status}");
    }
}

#[test]
fn a_secret_answer_reaches_its_asker_and_is_kept_nowhere_after() {
    let team = Team::new();
    let asker = team.ask(r#"{"question": "The deploy token?", "secret": true}"#, &[]);
    let question = team.next_question(&team.ann, 0);
    assert_eq!(question["request"]["secret"], true, "{question}");
    let (status, _) = team.answer(
        &team.ann,
        &question,
        json!({"submitted": "s3cr3t-value-42"}),
    );
    assert_eq!(status, 200);
    let (result, code, stderr) = finished(asker);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(result["answer"], "s3cr3t-value-42");
    let audit = interview(&["inbox", "audit", "--db", &team.db]);
    let printed = String::from_utf8(audit.stdout).unwrap();
    assert!(!printed.contains("s3cr3t-value-42"), "{printed}");
    assert!(printed.contains(r#""secret":"given""#), "{printed}");
}

#[test]
fn a_db_path_that_is_not_a_team_inbox_is_never_touched_nor_made() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name).display().to_string();
    fn everything(db: &str) -> [Vec<&str>; 5] {
        [
            vec!["inbox", "serve", "--db", db, "--listen", "127.0.0.1:0"],
            vec!["inbox", "token", "add", "--db", db, "--agent", "ci"],
            vec!["inbox", "token", "list", "--db", db],
            vec!["inbox", "hook", "list", "--db", db],
            vec!["inbox", "audit", "--db", db],
        ]
    }
    // A copy of a file that is no database: not made private, not written.
    let passwd = file("passwd");
    std::fs::write(&passwd, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    std::fs::set_permissions(&passwd, std::fs::Permissions::from_mode(0o644)).unwrap();
    for args in everything(&passwd) {
        let output = interview(&args);
        assert_eq!(output.status.code(), Some(4), "{args:?}");
        let said = common::stderr(&output);
        assert!(said.contains("not an SQLite database"), "{args:?}: {said}");
    }
    let meta = std::fs::metadata(&passwd).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o644);
    assert_eq!(
        std::fs::read_to_string(&passwd).unwrap(),
        "root:x:0:0:root:/root:/bin/bash\n"
    );

    // Another program's SQLite database: read nowhere, changed nowhere.
    let other = file("app.sqlite3");
    let app = rusqlite::Connection::open(&other).unwrap();
    app.execute_batch("CREATE TABLE accounts (id INTEGER); PRAGMA user_version = 7;")
        .unwrap();
    drop(app);
    let before = std::fs::read(&other).unwrap();
    for args in everything(&other) {
        let output = interview(&args);
        assert_eq!(output.status.code(), Some(4), "{args:?}");
        assert!(
            common::stderr(&output).contains("another program's SQLite database"),
            "{args:?}: {}",
            common::stderr(&output)
        );
    }
    assert_eq!(std::fs::read(&other).unwrap(), before, "the file changed");
    assert!(!dir.path().join("app.sqlite3-wal").exists());

    // A path that names nothing: only `token add` makes a database there.
    let typo = file("tema.sqlite3");
    for args in everything(&typo)
        .into_iter()
        .filter(|a| a[1] != "token" || a[2] != "add")
    {
        let output = interview(&args);
        assert_eq!(output.status.code(), Some(4), "{args:?}");
        assert!(
            common::stderr(&output).contains("no team inbox database at"),
            "{args:?}: {}",
            common::stderr(&output)
        );
        assert!(!std::path::Path::new(&typo).exists(), "{args:?} made it");
    }
    let made = interview(&["inbox", "token", "add", "--db", &typo, "--agent", "ci"]);
    assert!(made.status.success(), "{}", common::stderr(&made));
    let listed = interview(&["inbox", "token", "list", "--db", &typo]);
    assert!(listed.status.success(), "{}", common::stderr(&listed));
}

#[test]
fn the_database_can_be_named_by_an_environment_variable_and_kept_off_the_command_line() {
    let team = Team::new();
    let output = common::interview()
        .args(["inbox", "token", "list", "--db-env", "TEAM_DB"])
        .env("TEAM_DB", &team.db)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
    let listed = String::from_utf8(output.stdout).unwrap();
    assert!(listed.contains("\"ann\""), "{listed}");
    let output = interview(&["inbox", "token", "list", "--db-env", "NO_SUCH_VARIABLE_SET"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(common::stderr(&output).contains("NO_SUCH_VARIABLE_SET"));
}

/// A confirm widget's view, as an asker puts it up.
fn confirm_view(prompt: &str) -> Json {
    json!({"frame": {"place": null, "position": 1, "total": 1, "header": null, "prompt": prompt,
        "required": true, "mark_optional": false, "hint": null, "error": null, "context": null,
        "declinable": false}, "request": {"initial": null}})
}

#[test]
fn a_view_not_of_its_widgets_shape_is_refused_and_never_reaches_the_list() {
    let team = Team::new();
    let post = |view: Json| {
        let step = json!({"key": "k", "run": "r", "from": {}, "kind": "confirm", "view": view});
        read(
            ureq::post(&format!("{}/api/steps", team.url))
                .set("authorization", &format!("Bearer {}", team.agent))
                .send_json(step),
        )
    };
    let mut hostile = confirm_view("Ship?");
    hostile["frame"]["prompt"] = json!({"toString": "boom"});
    let (status, body) = post(hostile);
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("confirm widget"),
        "{body}"
    );
    assert!(team.open(&team.ann).is_empty());
    let (status, body) = post(confirm_view("Ship?"));
    assert_eq!(status, 200, "{body}");
    assert_eq!(team.open(&team.ann)[0]["frame"]["prompt"], "Ship?");
}

#[test]
fn one_agents_askers_hold_no_more_polls_than_it_may_and_one_turned_away_still_gets_its_answer() {
    let mut team = Team::new();
    team.kill();
    team.start_with("127.0.0.1:0", &["--polls-per-agent", "1"]);
    let post = |token: &str, key: &str| {
        let step = json!({"key": key, "run": "r", "from": {}, "kind": "confirm",
            "view": confirm_view("Ship?")});
        let (status, body) = read(
            ureq::post(&format!("{}/api/steps", team.url))
                .set("authorization", &format!("Bearer {token}"))
                .send_json(step),
        );
        assert_eq!(status, 200, "{body}");
        format!("/api/steps/{}/{}", body["question"], body["seq"])
    };
    let (first, second) = (post(&team.agent, "one"), post(&team.agent, "two"));
    std::thread::scope(|threads| {
        let holding = threads.spawn(|| team.get(&team.agent, &format!("{first}?wait=3")));
        std::thread::sleep(Duration::from_millis(500));
        let busy = ureq::get(&format!("{}{second}?wait=3", team.url))
            .set("authorization", &format!("Bearer {}", team.agent))
            .call();
        let Err(ureq::Error::Status(429, busy)) = busy else {
            panic!("a second poll of the agent's was not turned away: {busy:?}");
        };
        assert_eq!(busy.header("retry-after"), Some("2"));
        let said = busy.into_json::<Json>().unwrap()["error"].to_string();
        assert!(said.contains("ci has 1 askers waiting") && said.contains("--polls-per-agent"));
        // Another agent's askers are not held back by this one's.
        let other = interview(&[
            "inbox", "token", "add", "--db", &team.db, "--agent", "laptop",
        ]);
        let other = String::from_utf8(other.stdout).unwrap().trim().to_owned();
        let (status, body) = team.get(&other, &format!("{}?wait=1", post(&other, "three")));
        assert_eq!(
            (status, body["state"].as_str()),
            (200, Some("waiting")),
            "{body}"
        );
        assert_eq!(holding.join().unwrap().1["state"], "waiting");
    });
    // Two askers of the agent's at once: the second's polls are turned away while the first
    // waits, and it is answered all the same once the first is.
    let asking = |prompt: &str| {
        let started = Instant::now();
        loop {
            let open = team.open(&team.ann);
            if let Some(q) = open.into_iter().find(|q| q["frame"]["prompt"] == prompt) {
                return q;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "{prompt} never came"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    let first = team.ask(r#"{"question": "First?", "type": "confirm"}"#, &[]);
    let asked = asking("First?");
    let second = team.ask(r#"{"question": "Second?", "type": "confirm"}"#, &[]);
    let also = asking("Second?");
    std::thread::sleep(Duration::from_secs(1));
    for (question, yes) in [(&also, false), (&asked, true)] {
        let (status, body) = team.answer(&team.ann, question, json!({"answered": yes}));
        assert_eq!(status, 200, "{body}");
    }
    for (asker, yes) in [(first, true), (second, false)] {
        let (result, code, stderr) = finished(asker);
        assert_eq!(
            (code, &result["answer"]),
            (0, &json!(yes)),
            "{result} {stderr}"
        );
        assert!(!stderr.contains("cannot be reached"), "{stderr}");
    }
}
