//! `interview mcp` with clients that declare forms but cannot show every form: the server
//! judges by the client's name what its form UI really shows, as the real clients were seen to.

mod common;

use std::io::Write;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value as Json, json};

use common::{lines_of, spawn_without_terminal};

/// A client with form elicitation, under `name`, on the server's pipes; its questions' reply.
struct Client {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Client {
    fn start(name: &str) -> Client {
        Client::serving(name, &["mcp"])
    }

    /// A client called `name` of `interview args`.
    fn serving(name: &str, args: &[&str]) -> Client {
        let mut child = spawn_without_terminal(args);
        let stdin = child.stdin.take().unwrap();
        let lines = lines_of(child.stdout.take().unwrap());
        let mut client = Client {
            child,
            stdin,
            lines,
        };
        client.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {"elicitation": {"form": {}}},
            "clientInfo": {"name": name, "version": "1"}}}),
        );
        assert_eq!(client.next()["id"], 0);
        client.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        client
    }

    fn send(&mut self, message: Json) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn next(&self) -> Json {
        let line = self.lines.recv_timeout(Duration::from_secs(60)).unwrap();
        serde_json::from_str(&line).unwrap()
    }

    /// Calls the tool with `arguments`; the first message back.
    fn call(&mut self, arguments: Json) -> Json {
        self.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "interview", "arguments": arguments}}));
        self.next()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn codex_is_not_sent_a_form_it_would_answer_with_nothing() {
    let mut codex = Client::start("codex-mcp-client");
    let reply = codex.call(json!({"question": "Which checks?", "multi_select": true,
        "options": ["lint", "test"]}));
    assert_eq!(reply["id"], 1, "no form was sent first: {reply}");
    assert_eq!(
        reply["result"]["structuredContent"]["status"], "unavailable",
        "{reply}"
    );
    // The inbox was asked first, and none was open: the model can tell the user so.
    assert_eq!(
        reply["result"]["structuredContent"]["reason"], "no-inbox",
        "{reply}"
    );

    // A form it shows as it is: one required choice, nothing to type.
    let mut codex = Client::start("codex-mcp-client");
    let asked = codex.call(json!({"question": "Which database?", "options": ["a", "b"],
        "allow_other": false, "notes": false}));
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
}

#[test]
fn claude_code_gets_its_forms_without_line_breaks() {
    let mut claude = Client::start("claude-code");
    let asked = claude.call(json!({"question": "Which database?\nThink of the load.",
        "options": ["a", "b"]}));
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    let form = asked["params"].to_string();
    assert!(!form.contains("\\n"), "{form}");
    assert!(
        form.contains("Which database? Think of the load."),
        "{form}"
    );
}

#[test]
fn a_form_dismissed_at_once_tells_the_model_the_client_could_not_show_it() {
    // Only forms (`--ui elicit`), as a headless client dismisses them (`claude -p`).
    let mut headless = Client::serving("claude-code", &["mcp", "--ui", "elicit"]);
    let asked = headless.call(json!({"question": "Force-push?", "type": "confirm"}));
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    headless.send(json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "cancel"}}));
    let reply = headless.next();
    let result = &reply["result"]["structuredContent"];
    assert_eq!(
        (&result["status"], &result["reason"]),
        (&json!("unavailable"), &json!("form-dismissed")),
        "{reply}"
    );
    assert!(
        result["text"]
            .as_str()
            .unwrap()
            .contains("dismissed the question form at once"),
        "{reply}"
    );
}
