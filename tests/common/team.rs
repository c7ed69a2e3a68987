//! A team inbox of a test's own: its database (SQLite, or PostgreSQL when
//! `INTERVIEW_TEST_POSTGRES` names a server), its tokens, and `interview inbox serve` on it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

/// A team inbox's database with its tokens, and the server on it.
pub struct Team {
    pub dir: tempfile::TempDir,
    pub db: String,
    /// The PostgreSQL database of this test's, when the tests run on one.
    pub database: Option<super::postgres::Database>,
    pub agent: String,
    pub ann: String,
    pub bob: String,
    pub server: Option<Child>,
    pub url: String,
}

pub fn interview(args: &[&str]) -> Output {
    super::interview().args(args).output().unwrap()
}

impl Team {
    pub fn new() -> Team {
        let dir = tempfile::tempdir().unwrap();
        let database = super::postgres::Database::create();
        let db = match &database {
            #[cfg(feature = "postgres")]
            Some(database) => database.url.clone(),
            _ => dir.path().join("team.sqlite3").display().to_string(),
        };
        let token = |who: &[&str]| {
            let mut args = vec!["inbox", "token", "add", "--db", &db];
            args.extend_from_slice(who);
            let output = interview(&args);
            assert!(output.status.success(), "{}", super::stderr(&output));
            String::from_utf8(output.stdout).unwrap().trim().to_owned()
        };
        let agent = token(&["--agent", "ci"]);
        let ann = token(&["--person", "ann", "--group", "ops"]);
        let bob = token(&["--person", "bob"]);
        let mut team = Team {
            db,
            database,
            dir,
            agent,
            ann,
            bob,
            server: None,
            url: String::new(),
        };
        team.start("127.0.0.1:0");
        team
    }

    /// A new token of `who`'s (`--agent NAME [--to NAME]...`, `--person NAME`).
    pub fn token(&self, who: &[&str]) -> String {
        let mut args = vec!["inbox", "token", "add", "--db", &self.db];
        args.extend_from_slice(who);
        let output = interview(&args);
        assert!(output.status.success(), "{}", super::stderr(&output));
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    }

    /// Starts the server on `listen` and reads its address from what it says.
    pub fn start(&mut self, listen: &str) {
        self.start_with(listen, &[]);
    }

    /// Starts the server on `listen` with `extra` options.
    pub fn start_with(&mut self, listen: &str, extra: &[&str]) {
        self.start_in(super::interview(), listen, extra);
    }

    /// Starts the server on `listen` with `extra` options, as `command` runs it.
    pub fn start_in(&mut self, mut command: std::process::Command, listen: &str, extra: &[&str]) {
        let mut server = command
            .args(["inbox", "serve", "--db", &self.db, "--listen", listen])
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let said = first_line(server.stderr.take().unwrap());
        let url = said
            .split_once("listens on ")
            .map(|(_, url)| url.trim().trim_end_matches('/').to_owned())
            .unwrap_or_else(|| panic!("the server said: {said}"));
        self.url = url;
        self.server = Some(server);
    }

    /// Kills the server at once, as a crash would.
    pub fn kill(&mut self) {
        let mut server = self.server.take().unwrap();
        server.kill().unwrap();
        server.wait().unwrap();
    }

    pub fn ask(&self, request: &str, extra: &[&str]) -> Child {
        self.ask_as(&self.agent, request, extra)
    }

    /// `interview ask --inbox` here with the agent's token `token`.
    pub fn ask_as(&self, token: &str, request: &str, extra: &[&str]) -> Child {
        let path = self.dir.path().join("request.json");
        std::fs::write(&path, request).unwrap();
        let mut command = super::interview();
        command
            .args(["ask", path.to_str().unwrap(), "--inbox", &self.url])
            .args(extra)
            .env("INTERVIEW_INBOX_TOKEN", token)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        super::without_terminal(&mut command).spawn().unwrap()
    }

    /// `GET path` with `token`: the status and the JSON body.
    pub fn get(&self, token: &str, path: &str) -> (u16, Json) {
        let response = ureq::get(&format!("{}{path}", self.url))
            .set("authorization", &format!("Bearer {token}"))
            .call();
        read(response)
    }

    /// Answers `question`'s step `seq` with `reply` as `token`'s holder.
    pub fn answer(&self, token: &str, question: &Json, reply: Json) -> (u16, Json) {
        let path = format!(
            "{}/api/questions/{}/steps/{}/reply",
            self.url, question["question"], question["seq"]
        );
        let response = ureq::post(&path)
            .set("authorization", &format!("Bearer {token}"))
            .send_json(reply);
        read(response)
    }

    /// The open questions `token`'s holder sees.
    pub fn open(&self, token: &str) -> Vec<Json> {
        let (status, body) = self.get(token, "/api/questions");
        assert_eq!(status, 200, "{body}");
        body["questions"].as_array().unwrap().clone()
    }

    /// Waits until `token`'s holder sees a question whose step comes after `after`.
    pub fn next_question(&self, token: &str, after: i64) -> Json {
        let started = Instant::now();
        loop {
            if let Some(q) = self
                .open(token)
                .into_iter()
                .find(|q| q["seq"].as_i64() > Some(after))
            {
                return q;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no question came"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Moves the inbox's clock on by `ms`: every question closed that much earlier.
    pub fn move_clock(&self, ms: i64) {
        self.execute(&format!(
            "UPDATE questions SET closed_at = closed_at - {ms}"
        ));
    }

    /// Runs `sql` on the inbox's database, behind the server's back.
    pub fn execute(&self, sql: &str) {
        match &self.database {
            Some(database) => database.execute(sql),
            None => {
                rusqlite::Connection::open(&self.db)
                    .unwrap()
                    .execute_batch(sql)
                    .unwrap();
            }
        }
    }

    /// `interview mcp --inbox` here, initialized as the client `pipes`: the process, a way to
    /// send it a message, and its replies.
    #[allow(clippy::type_complexity)]
    pub fn mcp(
        &self,
    ) -> (
        Child,
        impl FnMut(Json),
        std::io::Lines<BufReader<std::process::ChildStdout>>,
    ) {
        let mut command = super::interview();
        command
            .args(["mcp", "--inbox", &self.url])
            .env("INTERVIEW_INBOX_TOKEN", &self.agent)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut mcp = super::without_terminal(&mut command).spawn().unwrap();
        let mut stdin = mcp.stdin.take().unwrap();
        let mut replies = BufReader::new(mcp.stdout.take().unwrap()).lines();
        let mut send = move |message: Json| writeln!(stdin, "{message}").unwrap();
        send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "pipes", "version": "1"}}}),
        );
        let initialized: Json = serde_json::from_str(&replies.next().unwrap().unwrap()).unwrap();
        assert_eq!(initialized["id"], 0);
        send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        (mcp, send, replies)
    }

    pub fn audit(&self) -> Vec<Json> {
        let output = interview(&["inbox", "audit", "--db", &self.db]);
        assert!(output.status.success(), "{}", super::stderr(&output));
        super::json_lines(&output.stdout)
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        if let Some(mut server) = self.server.take() {
            let _ = server.kill();
            let _ = server.wait();
        }
    }
}

/// The first line a child says on `stream`.
pub fn first_line(stream: impl std::io::Read) -> String {
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).unwrap();
    line
}

pub fn read(response: Result<ureq::Response, ureq::Error>) -> (u16, Json) {
    let response = match response {
        Ok(response) => response,
        Err(ureq::Error::Status(_, response)) => response,
        Err(error) => panic!("{error}"),
    };
    (response.status(), response.into_json().unwrap())
}

pub fn finished(child: Child) -> (Json, i32, String) {
    let output = child.wait_with_output().unwrap();
    let result = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            super::stderr(&output)
        )
    });
    (
        result,
        output.status.code().unwrap(),
        super::stderr(&output),
    )
}
