//! The team inbox's own MCP endpoint (`/mcp`, Streamable HTTP) spoken to as a remote MCP client
//! speaks it, byte for byte over HTTP: who may call it, and a call answered by a person on the
//! team inbox, with its stream dropped and resumed. On SQLite; on PostgreSQL instead when
//! `INTERVIEW_TEST_POSTGRES` names a server. (The official SDKs' clients are driven against it
//! by `tests/mcp/python_sdk_remote.py`.)

mod common;

use std::io::{BufRead, BufReader};
use std::time::Duration;

use common::team::{Team, interview, read};
use serde_json::{Value as Json, json};

const ACCEPT: &str = "application/json, text/event-stream";
/// The revision these tests speak: the first with priming events, which resumed streams need.
const REVISION: &str = "2025-11-25";

fn initialize(id: u64) -> Json {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": REVISION, "capabilities": {},
        "clientInfo": {"name": "pipes", "version": "1.0"}}})
}

/// `POST /mcp` (with `query`) carrying `body`, with `token` when given and `extra` headers:
/// the response, whatever its status.
fn post(
    team: &Team,
    query: &str,
    token: Option<&str>,
    extra: &[(&str, &str)],
    body: &Json,
) -> ureq::Response {
    let mut request = ureq::post(&format!("{}/mcp{query}", team.url))
        .set("content-type", "application/json")
        .set("accept", ACCEPT)
        .set("mcp-protocol-version", REVISION);
    if let Some(token) = token {
        request = request.set("authorization", &format!("Bearer {token}"));
    }
    for (name, value) in extra {
        request = request.set(name, value);
    }
    match request.send_string(&body.to_string()) {
        Ok(response) | Err(ureq::Error::Status(_, response)) => response,
        Err(error) => panic!("{error}"),
    }
}

/// The status, `WWW-Authenticate` and body of a refused request.
fn refused(response: ureq::Response) -> (u16, Option<String>, String) {
    let status = response.status();
    assert!(status >= 400, "taken: {status}");
    let challenge = response.header("www-authenticate").map(str::to_owned);
    (status, challenge, response.into_string().unwrap())
}

#[test]
fn the_endpoint_takes_only_an_agents_token_from_anywhere_but_another_sites_page() {
    let team = Team::new();
    let hello = initialize(1);

    // No token: 401, pointing at the resource's metadata, which says what it is.
    let (status, challenge, body) = refused(post(&team, "", None, &[], &hello));
    assert_eq!(status, 401, "{body}");
    let metadata_url = format!("{}/.well-known/oauth-protected-resource/mcp", team.url);
    assert_eq!(
        challenge.as_deref(),
        Some(format!("Bearer resource_metadata=\"{metadata_url}\"").as_str())
    );
    let (status, metadata) = read(ureq::get(&metadata_url).call());
    assert_eq!(status, 200);
    assert_eq!(metadata["resource"], format!("{}/mcp", team.url));
    assert_eq!(metadata["bearer_methods_supported"], json!(["header"]));

    // A token the inbox does not know: 401, saying so.
    let (status, challenge, _) = refused(post(&team, "", Some("itk_nobodys"), &[], &hello));
    assert_eq!(status, 401);
    assert!(challenge.unwrap().ends_with(", error=\"invalid_token\""));

    // A person's token asks nothing, and neither does the page's cookie.
    let (status, _, body) = refused(post(&team, "", Some(&team.ann), &[], &hello));
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("asking takes an agent's token"), "{body}");
    let cookie = format!("interview_token={}", team.agent);
    let (status, _, _) = refused(post(&team, "", None, &[("cookie", &cookie)], &hello));
    assert_eq!(status, 401);

    // Another site's page, with an agent's token in hand, is refused; the inbox's own origin and
    // clients that send none are served.
    let foreign = [("origin", "https://elsewhere.example")];
    let (status, _, _) = refused(post(&team, "", Some(&team.agent), &foreign, &hello));
    assert_eq!(status, 403);
    let own = [("origin", team.url.as_str())];
    let taken = post(&team, "", Some(&team.agent), &own, &hello);
    assert_eq!(taken.status(), 200);
    assert!(taken.header("mcp-session-id").is_some());

    // A URL the endpoint cannot read is refused before anything is asked.
    let (status, _, body) = refused(post(&team, "?deadline=9w", Some(&team.agent), &[], &hello));
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("a span from 1s to 30d"), "{body}");
    let (status, _, body) = refused(post(&team, "?To=ops", Some(&team.agent), &[], &hello));
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        post(&team, "?to=ops&deadline=1h", Some(&team.agent), &[], &hello).status(),
        200
    );

    // An agent whose token names whom it asks may not name anyone else in the URL.
    let ops_bot = team.token(&["--agent", "ops-bot", "--to", "ops"]);
    let (status, _, body) = refused(post(&team, "?to=bob", Some(&ops_bot), &[], &hello));
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("asks only ops"), "{body}");
    assert_eq!(post(&team, "", Some(&ops_bot), &[], &hello).status(), 200);
}

/// One MCP session on the endpoint, initialized: its id.
fn session(team: &Team, query: &str) -> String {
    let token = Some(team.agent.as_str());
    let response = post(team, query, token, &[], &initialize(0));
    let id = response.header("mcp-session-id").unwrap().to_owned();
    let session = [("mcp-session-id", id.as_str())];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(
        post(team, query, token, &session, &initialized).status(),
        202
    );
    id
}

/// The events of an event stream, each its `id` (if any) and its data, as they come.
struct Events(BufReader<Box<dyn std::io::Read + Send + Sync>>);

impl Events {
    fn of(response: ureq::Response) -> Events {
        assert_eq!(
            response.content_type(),
            "text/event-stream",
            "{:?}",
            response.status()
        );
        Events(BufReader::new(response.into_reader()))
    }

    fn next(&mut self) -> Option<(Option<String>, String)> {
        let (mut id, mut data) = (None, String::new());
        loop {
            let mut line = String::new();
            if self.0.read_line(&mut line).unwrap() == 0 {
                return None;
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if id.is_some() || !data.is_empty() {
                    return Some((id, data));
                }
                continue;
            }
            if let Some(value) = line.strip_prefix("id:") {
                id = Some(value.trim().to_owned());
            } else if let Some(value) = line.strip_prefix("data:") {
                data.push_str(value.trim_start());
            }
        }
    }

    /// Reads on until the JSON-RPC response to `id`.
    fn response_to(&mut self, id: u64) -> Json {
        while let Some((_, data)) = self.next() {
            let Ok(message) = serde_json::from_str::<Json>(&data) else {
                continue;
            };
            if message["id"] == id {
                return message;
            }
        }
        panic!("the stream ended with no response to {id}");
    }
}

#[test]
fn a_call_is_the_persons_to_answer_and_a_dropped_stream_resumed_from_its_last_event_gets_it() {
    let team = Team::new();
    let session_id = session(&team, "?to=ops");
    let mut events = call(
        &team,
        "?to=ops",
        &team.agent,
        &session_id,
        7,
        "Roll back the release?",
    );
    // The stream's first event names it, for resuming it.
    let (first, _) = events.next().unwrap();
    let last_seen = first.expect("the stream's first event has no id");

    // Asked on the team inbox, of the group the endpoint's URL names, labelled with the agent's
    // token name and the client's name.
    let question = team.next_question(&team.ann, 0);
    assert_eq!(question["frame"]["prompt"], "Roll back the release?");
    assert_eq!(question["agent"], "ci");
    assert_eq!(question["to"], "ops");
    assert_eq!(question["from"]["client"], "pipes 1.0");
    assert_eq!(question["from"]["command"], "mcp");
    assert!(team.open(&team.bob).is_empty(), "bob is not in ops");

    // Another agent, even with the session's id in hand, can neither read its stream nor call
    // in it.
    let other = team.token(&["--agent", "other"]);
    let stolen = [
        ("mcp-session-id", session_id.as_str()),
        ("last-event-id", &last_seen),
    ];
    let again = tools_call(7, "Roll back the release?");
    let (status, _, _) = refused(post(&team, "", Some(&other), &stolen, &again));
    assert_eq!(status, 404);

    // The connection drops, and the client comes back with the last event it saw.
    drop(events);
    std::thread::sleep(Duration::from_millis(300));
    let resumed = ureq::get(&format!("{}/mcp?to=ops", team.url))
        .set("authorization", &format!("Bearer {}", team.agent))
        .set("accept", "text/event-stream")
        .set("mcp-protocol-version", REVISION)
        .set("mcp-session-id", &session_id)
        .set("last-event-id", &last_seen)
        .call()
        .unwrap();
    let mut resumed = Events::of(resumed);

    // The question waited all along: the person's answer comes on the resumed stream.
    assert_eq!(team.open(&team.ann).len(), 1, "the question was dropped");
    let (status, body) = team.answer(&team.ann, &question, json!({"answered": true}));
    assert_eq!(status, 200, "{body}");
    let reply = resumed.response_to(7);
    let result = &reply["result"]["structuredContent"];
    assert_eq!(result["status"], "answered", "{reply}");
    assert_eq!(result["answer"], true, "{reply}");
    assert!(team.open(&team.ann).is_empty());
}

#[test]
fn a_server_told_to_stop_withdraws_the_calls_it_was_asking_and_exits() {
    let mut team = Team::new();
    let session_id = session(&team, "");
    let mut events = call(&team, "", &team.agent, &session_id, 3, "Rotate the keys?");
    events.next().unwrap();
    let question = team.next_question(&team.ann, 0);

    let mut server = team.server.take().unwrap();
    // SAFETY: signalling a child of ours.
    unsafe { libc::kill(server.id() as i32, libc::SIGTERM) };
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = server.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the server did not stop"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    let withdrawn = team.audit().into_iter().any(|line| {
        line["event"] == "finished"
            && line["question"] == question["question"]
            && line["detail"]["status"] == "withdrawn"
    });
    assert!(withdrawn, "the question was left open");
}

#[test]
fn a_call_nobody_answers_by_the_deadline_its_url_gives_ends_unavailable_timed_out() {
    let team = Team::new();
    let session_id = session(&team, "?deadline=1s");
    let started = std::time::Instant::now();
    let mut asked = call(
        &team,
        "?deadline=1s",
        &team.agent,
        &session_id,
        4,
        "Approve the migration?",
    );
    let reply = asked.response_to(4);
    let result = &reply["result"]["structuredContent"];
    assert_eq!(result["status"], "unavailable", "{reply}");
    assert_eq!(result["reason"], "timed-out", "{reply}");
    assert!(started.elapsed() >= Duration::from_secs(1));
    let text = result["text"].as_str().unwrap();
    assert!(
        text.starts_with("No human answered in the time allowed"),
        "{text}"
    );
    assert!(
        team.open(&team.ann).is_empty(),
        "an expired question leaves the list"
    );
}

#[test]
fn a_client_of_a_revision_before_priming_events_is_sent_none() {
    let team = Team::new();
    // As Gemini CLI 0.61's MCP library starts: 2025-06-18, whose streams have no priming event,
    // and whose client reads every event's data as a message.
    let mut hello = initialize(1);
    hello["params"]["protocolVersion"] = json!("2025-06-18");
    let response = ureq::post(&format!("{}/mcp", team.url))
        .set("authorization", &format!("Bearer {}", team.agent))
        .set("content-type", "application/json")
        .set("accept", ACCEPT)
        .send_string(&hello.to_string())
        .unwrap();
    let mut events = Events::of(response);
    let (_, data) = events.next().unwrap();
    let first: Json = serde_json::from_str(&data).expect("an event without a message");
    assert_eq!(first["result"]["protocolVersion"], "2025-06-18", "{first}");
}

/// A `tools/call` of `interview` with a confirm `question`, as request `id`.
fn tools_call(id: u64, question: &str) -> Json {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": "interview", "arguments": {"question": question, "type": "confirm"}}})
}

/// Calls `tools/call` with a confirm `question` as request `id` in `session`: its event stream.
fn call(team: &Team, query: &str, token: &str, session: &str, id: u64, question: &str) -> Events {
    let session = [("mcp-session-id", session)];
    let request = tools_call(id, question);
    Events::of(post(team, query, Some(token), &session, &request))
}

#[test]
fn a_call_for_a_name_nobody_answers_for_is_told_so_and_asks_nobody() {
    let team = Team::new();
    let session_id = session(&team, "?to=nobody");
    let reply = call(&team, "?to=nobody", &team.agent, &session_id, 2, "Ship?").response_to(2);
    let result = &reply["result"]["structuredContent"];
    assert_eq!(result["status"], "unavailable", "{reply}");
    assert_eq!(result["reason"], "unknown-addressee", "{reply}");
    assert!(team.open(&team.ann).is_empty());
}

#[test]
fn one_agent_holds_only_so_many_calls_and_open_streams_and_people_are_never_locked_out() {
    let mut team = Team::new();
    team.kill();
    team.start_with("127.0.0.1:0", &["--polls-per-agent", "2"]);
    let session_id = session(&team, "");
    let mut first = call(&team, "", &team.agent, &session_id, 1, "One?");
    first.next().unwrap();
    let mut second = call(&team, "", &team.agent, &session_id, 2, "Two?");
    second.next().unwrap();

    // Two streams open: a third request of this agent's is told to come back.
    let third = tools_call(3, "Three?");
    let session = [("mcp-session-id", session_id.as_str())];
    let busy = post(&team, "", Some(&team.agent), &session, &third);
    assert_eq!(busy.status(), 429);
    assert_eq!(busy.header("retry-after"), Some("2"));
    // The person is not kept out, and has both questions (each is put up as its call's plugin
    // gets to it, after the stream opened).
    let started = std::time::Instant::now();
    while team.open(&team.ann).len() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the two calls were not asked"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // The streams drop, and their calls go on: a third call is refused its place, in words
    // the model reads.
    drop((first, second));
    std::thread::sleep(Duration::from_millis(300));
    let reply = call(&team, "", &team.agent, &session_id, 3, "Three?").response_to(3);
    let text = reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("as many as one agent may"), "{reply}");
    assert_eq!(team.open(&team.ann).len(), 2, "the third call asked");
}

#[test]
fn a_token_revoked_while_its_call_waits_ends_the_call() {
    let team = Team::new();
    let rev = team.token(&["--agent", "rev"]);
    let session_id = {
        let response = post(&team, "", Some(&rev), &[], &initialize(0));
        let id = response.header("mcp-session-id").unwrap().to_owned();
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        post(
            &team,
            "",
            Some(&rev),
            &[("mcp-session-id", &id)],
            &initialized,
        );
        id
    };
    let mut events = call(&team, "", &rev, &session_id, 5, "Rotate?");
    team.next_question(&team.ann, 0);
    let revoked = interview(&["inbox", "token", "revoke", "--db", &team.db, "rev"]);
    assert!(revoked.status.success());
    let started = std::time::Instant::now();
    let reply = events.response_to(5);
    assert!(started.elapsed() < Duration::from_secs(10));
    // Ended, and not with an answer. (What it says is the plugin's reading of a UI that
    // stopped: `cancelled`, which the person did not give; the plugin has no way yet to be
    // told that the inbox refused mid-call.)
    let result = &reply["result"]["structuredContent"];
    assert_ne!(result["status"], "answered", "{reply}");
    assert!(result["answers"].as_array().unwrap().is_empty(), "{reply}");
}

/// The stateless revision, whose clients may take a call's result as a task.
const STATELESS: &str = "2026-07-28";

/// The endpoint's URL where calls may run as tasks.
const AS_TASKS: &str = "?tasks=yes";

/// A request of the stateless revision to the endpoint with `query`, as `token`'s, declaring
/// the tasks extension when `tasks`: the JSON-RPC response, whether it came as JSON or on an
/// event stream.
fn stateless(
    team: &Team,
    query: &str,
    token: &str,
    (id, method): (u64, &str),
    params: Json,
    tasks: bool,
) -> Json {
    let mut capabilities = json!({});
    if tasks {
        capabilities["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
    }
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": STATELESS,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "pipes", "version": "1.0"},
    });
    // The revision names the method, and what it acts on, in headers too.
    let named = (params.get("name").or(params.get("taskId"))).and_then(Json::as_str);
    let mut request = ureq::post(&format!("{}/mcp{query}", team.url))
        .set("content-type", "application/json")
        .set("accept", ACCEPT)
        .set("mcp-protocol-version", STATELESS)
        .set("mcp-method", method)
        .set("authorization", &format!("Bearer {token}"));
    if let Some(name) = named {
        request = request.set("mcp-name", name);
    }
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let response = request.send_string(&body.to_string());
    let response = match response {
        Ok(response) | Err(ureq::Error::Status(_, response)) => response,
        Err(error) => panic!("{error}"),
    };
    if response.content_type() == "text/event-stream" {
        return Events::of(response).response_to(id);
    }
    serde_json::from_str(&response.into_string().unwrap()).unwrap()
}

/// `tasks/get` of task `id`, until `until` holds of it (within 20 s): the task.
fn task_until(team: &Team, token: &str, id: &str, until: impl Fn(&Json) -> bool) -> Json {
    let started = std::time::Instant::now();
    loop {
        let get = (90, "tasks/get");
        let got = stateless(team, AS_TASKS, token, get, json!({"taskId": id}), true);
        if until(&got["result"]) {
            return got["result"].clone();
        }
        assert!(started.elapsed() < Duration::from_secs(20), "{got}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_client_that_takes_tasks_gets_one_at_once_polls_it_to_the_persons_answer_and_may_cancel_it() {
    let team = Team::new();
    let call = |id, question| {
        let params = tools_call(id, question)["params"].clone();
        stateless(
            &team,
            AS_TASKS,
            &team.agent,
            (id, "tools/call"),
            params,
            true,
        )
    };

    // Answered at once with a task, not the result: the person has not seen it yet.
    let created = call(1, "Deploy on Friday?");
    let task = &created["result"];
    assert_eq!(task["resultType"], "task", "{created}");
    assert_eq!(task["status"], "working", "{created}");
    assert!(task["pollIntervalMs"].as_u64().is_some(), "{created}");
    let id = task["taskId"].as_str().unwrap().to_owned();
    assert!(id.len() >= 32, "a task id that could be guessed: {id}");

    // The question is on the team inbox; the task works until the person answers.
    let question = team.next_question(&team.ann, 0);
    assert_eq!(question["frame"]["prompt"], "Deploy on Friday?");
    assert_eq!(question["agent"], "ci");
    let working = task_until(&team, &team.agent, &id, |_| true);
    assert_eq!(working["status"], "working", "{working}");

    // Another agent cannot see it, nor cancel it: to it, there is no such task.
    let other = team.token(&["--agent", "other"]);
    for method in ["tasks/get", "tasks/cancel"] {
        let refused = stateless(
            &team,
            AS_TASKS,
            &other,
            (3, method),
            json!({"taskId": id}),
            true,
        );
        assert_eq!(refused["error"]["code"], -32602, "{method}: {refused}");
    }
    assert_eq!(team.open(&team.ann).len(), 1, "another agent withdrew it");

    let (status, body) = team.answer(&team.ann, &question, json!({"answered": true}));
    assert_eq!(status, 200, "{body}");
    let done = task_until(&team, &team.agent, &id, |t| t["status"] != "working");
    assert_eq!(done["status"], "completed", "{done}");
    let result = &done["result"]["structuredContent"];
    assert_eq!(result["status"], "answered", "{done}");
    assert_eq!(result["answer"], true, "{done}");
    assert!(
        done["ttlMs"].as_u64().is_some(),
        "a finished task is kept for a while: {done}"
    );

    // A task cancelled by its agent withdraws its question.
    let created = call(4, "Rotate the keys?");
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    team.next_question(&team.ann, 0);
    let cancel = (5, "tasks/cancel");
    let cancelled = stateless(
        &team,
        AS_TASKS,
        &team.agent,
        cancel,
        json!({"taskId": id}),
        true,
    );
    assert!(cancelled.get("error").is_none(), "{cancelled}");
    let ended = task_until(&team, &team.agent, &id, |t| t["status"] != "working");
    assert_eq!(ended["status"], "cancelled", "{ended}");
    assert!(
        team.open(&team.ann).is_empty(),
        "the cancelled task's question stayed"
    );

    // A client that does not take tasks, and one that does on a URL that does not allow
    // them (as Claude Code, which would move the call to the background and tell its model to
    // carry on without the answer), are answered as before, once the person has answered.
    for (query, declares) in [(AS_TASKS, false), ("", true)] {
        let params = tools_call(6, "Merge?")["params"].clone();
        let call = (6, "tools/call");
        let waiting = std::thread::scope(|scope| {
            let asking =
                scope.spawn(|| stateless(&team, query, &team.agent, call, params, declares));
            let question = team.next_question(&team.ann, 0);
            team.answer(&team.ann, &question, json!({"answered": false}));
            asking.join().unwrap()
        });
        let result = &waiting["result"];
        assert_eq!(result["structuredContent"]["answer"], false, "{waiting}");
        assert_ne!(result["resultType"], "task", "{waiting}");
    }
}

#[test]
fn the_urls_project_labels_the_calls_questions() {
    let team = Team::new();
    let session_id = session(&team, "?project=web-shop");
    let _events = call(
        &team,
        "?project=web-shop",
        &team.agent,
        &session_id,
        1,
        "Ship?",
    );
    let question = team.next_question(&team.ann, 0);
    assert_eq!(question["folder"], "web-shop", "{question}");
    let (status, listed) = team.get(&team.ann, "/api/questions?folder=web-shop");
    assert_eq!(status, 200);
    assert_eq!(listed["questions"].as_array().unwrap().len(), 1, "{listed}");
}
