//! `interview mcp` as a client sees it over its pipes, byte for byte: every request gets a
//! reply under its id, whatever the line looked like, and the connection goes on after it.

mod common;

use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value as Json, json};

use common::{lines_of, spawn_without_terminal, stderr};

/// How long a reply may take: a request left unanswered fails the test instead of hanging it.
const PATIENCE: Duration = Duration::from_secs(60);

/// A client on the server's pipes, initialized.
struct Client {
    child: Child,
    stdin: ChildStdin,
    /// The server's stdout, line by line, read on a thread of its own.
    replies: mpsc::Receiver<String>,
}

impl Client {
    /// Starts `interview mcp`; a line before the handshake is answered like any other.
    fn start(before_handshake: &[u8]) -> Client {
        let mut child = spawn_without_terminal(&["mcp"]);
        let stdin = child.stdin.take().unwrap();
        let replies = lines_of(child.stdout.take().unwrap());
        let mut client = Client {
            child,
            stdin,
            replies,
        };
        if !before_handshake.is_empty() {
            let reply = client.ask(before_handshake);
            assert_eq!(reply["error"]["code"], -32700, "{reply}");
        }
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "pipes", "version": "1"}}});
        let reply = client.ask(initialize.to_string().as_bytes());
        assert_eq!(reply["id"], 0, "{reply}");
        assert!(reply["result"]["serverInfo"].is_object(), "{reply}");
        client.send(br#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#);
        client
    }

    fn send(&mut self, line: &[u8]) {
        self.stdin.write_all(line).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends `line` and reads the one reply line.
    fn ask(&mut self, line: &[u8]) -> Json {
        self.send(line);
        self.reply()
    }

    fn reply(&mut self) -> Json {
        let reply = self
            .replies
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|e| panic!("no reply ({e})"));
        serde_json::from_str(&reply).unwrap()
    }

    /// `tools/list` under `id` is answered: the connection is still in step.
    fn still_answers(&mut self, id: u32) {
        let list = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"});
        let reply = self.ask(list.to_string().as_bytes());
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["result"]["tools"][0]["name"], "interview", "{reply}");
    }

    /// The peak memory of the server so far, in KiB.
    fn peak_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// Closes stdin, as a client that is done; the server ends with 0 and says `said` on stderr.
    fn finish(self, said: &[&str]) {
        drop(self.stdin);
        drop(self.replies);
        let output = self.child.wait_with_output().unwrap();
        let log = stderr(&output);
        assert_eq!(output.status.code(), Some(0), "{log}");
        for words in said {
            assert!(log.contains(words), "stderr lacks {words:?}:\n{log}");
        }
    }
}

/// The error of a reply: its code and message; the reply has an `"id"` member (JSON-RPC 2.0
/// requires one, null when the id could not be read).
fn error_of(reply: &Json, id: Json) -> (i64, String) {
    assert_eq!(reply.get("id"), Some(&id), "{reply}");
    assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
    let code = reply["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("{reply}"));
    (
        code,
        reply["error"]["message"].as_str().unwrap().to_string(),
    )
}

#[test]
fn a_request_the_sdk_cannot_read_is_answered_under_its_id_and_the_next_is_answered_too() {
    let mut client = Client::start(b"\x00not json");
    let nested = format!(
        r#"{{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {{"a": {}{}}}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let cases: Vec<(Vec<u8>, Json, i64, &str)> = vec![
        (
            br#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": "x"}"#.to_vec(),
            json!(1),
            -32600,
            "\"params\" must be an object",
        ),
        (
            br#"{"jsonrpc": "1.0", "id": "two", "method": "tools/list"}"#.to_vec(),
            json!("two"),
            -32600,
            "\"jsonrpc\" must be \"2.0\"",
        ),
        (
            b"\x00{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/list\"}".to_vec(),
            json!(3),
            -32700,
            "Parse error",
        ),
        (
            b"{\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"tools/call\", \"params\": {\"name\": \"interview\", \"arguments\": {\"question\": \"Caf\xe9?\"}}}".to_vec(),
            json!(4),
            -32700,
            "not UTF-8",
        ),
        (nested.into_bytes(), json!(5), -32700, "recursion limit"),
        (b"hello".to_vec(), Json::Null, -32700, "Parse error"),
    ];
    for (n, (line, id, code, words)) in cases.into_iter().enumerate() {
        let reply = client.ask(&line);
        let (got, message) = error_of(&reply, id);
        assert_eq!(got, code, "{reply}");
        assert!(message.contains(words), "{reply}");
        client.still_answers(100 + n as u32);
    }
    // A batch: every request in it answered under its id, every member that is no message
    // under null, a notification not at all; in one array, as JSON-RPC answers a batch.
    let batch = json!([{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}, 1,
        {"jsonrpc": "2.0", "method": "notifications/progress"}]);
    let replies = client.ask(batch.to_string().as_bytes());
    let replies = replies.as_array().expect("an array answers a batch");
    let ids: Vec<&Json> = replies.iter().map(|reply| &reply["id"]).collect();
    assert_eq!(ids, [&json!(7), &Json::Null]);
    for reply in replies {
        assert_eq!(reply["error"]["code"], -32600, "{reply}");
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .contains("batches")
        );
    }
    client.still_answers(200);
    client.finish(&["line 1: Parse error", "\"params\" must be an object"]);
}

#[test]
fn a_line_past_the_limit_is_answered_under_its_id_however_late_the_id_comes() {
    let mut client = Client::start(b"");
    // The Python SDK writes the id last, after the params; and the line is past rmcp's own cap
    // (16 MiB) too, where rmcp drops a line without a reply.
    let long = format!(
        r#"{{"method": "tools/call", "params": {{"name": "interview", "arguments": {{"question": "{}"}}}}, "jsonrpc": "2.0", "id": "late"}}"#,
        "a".repeat(20 << 20)
    );
    let reply = client.ask(long.as_bytes());
    let (code, message) = error_of(&reply, json!("late"));
    assert_eq!(code, -32600, "{reply}");
    assert!(
        message.contains("more than the limit of 8388608"),
        "{reply}"
    );
    client.still_answers(1);
    client.finish(&["more than the limit"]);
}

#[test]
fn an_endless_line_is_dropped_past_the_limit_without_growing_memory() {
    let mut client = Client::start(b"");
    client.still_answers(1);
    let before = client.peak_kib();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..64 {
        client.stdin.write_all(&chunk).unwrap();
    }
    let reply = client.ask(b"");
    let (code, _) = error_of(&reply, Json::Null);
    assert_eq!(code, -32600, "{reply}");
    let grown = client.peak_kib().saturating_sub(before);
    assert!(
        grown < 24 << 10,
        "a 64 MiB line took {grown} KiB; the limit is 8 MiB"
    );
    client.still_answers(2);
    client.finish(&[]);
}
