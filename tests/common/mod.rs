//! What the command tests share: running `interview` with one compile cache (for the runs of
//! other components), and reading what it printed.
#![allow(dead_code)] // each test binary uses its own share of these

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value as Json;

#[cfg(feature = "postgres")]
pub mod postgres;
/// A build without PostgreSQL: every team test runs on SQLite.
#[cfg(all(feature = "team", not(feature = "postgres")))]
pub mod postgres {
    /// No database can be made: [`Database::create`] is always `None`.
    pub enum Database {}

    impl Database {
        pub fn create() -> Option<Database> {
            None
        }

        pub fn execute(&self, _: &str) {
            match *self {}
        }
    }
}
#[cfg(feature = "team-server")]
pub mod team;
pub mod term;

pub const DEPLOY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/deploy.json");

pub fn interview() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_interview"));
    // One cache for every test: a `--component` is compiled once, not once per run.
    command.env(
        "XDG_CACHE_HOME",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
    );
    command.env_remove("NO_COLOR");
    // An inbox folder of the tests' own, where none is open: an inbox the person running the
    // tests keeps open is never asked (tests of the inbox set their own).
    command.env(
        "INTERVIEW_INBOX",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/no-inbox"),
    );
    command
}

/// Starts `interview args` with every stream piped.
pub fn spawn(args: &[&str]) -> Child {
    interview()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `interview args` with `input` on stdin.
pub fn run(args: &[&str], input: &str) -> Output {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    // Written from a thread: the command may stop reading (and close stdin) early.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

pub fn result(output: &Output) -> Json {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

/// Each non-empty line of `stdout` as JSON (`serve` writes one result per line).
pub fn json_lines(stdout: &[u8]) -> Vec<Json> {
    stdout
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// One field of every answer: `field(&result, "value")`.
pub fn field(result: &Json, name: &str) -> Vec<Json> {
    result["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a[name].clone())
        .collect()
}

pub fn values(result: &Json) -> Vec<Json> {
    field(result, "value")
}

pub fn write_request(name: &str, request: &Json) -> String {
    let path = format!("{}/{name}.json", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&path, request.to_string()).unwrap();
    path
}

/// Starts `interview args` in a session of its own, with no controlling terminal.
pub fn spawn_without_terminal(args: &[&str]) -> Child {
    let mut command = interview();
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    without_terminal(&mut command).spawn().unwrap()
}

/// `command`, to be started in a session of its own, with no controlling terminal (as agents
/// start commands).
pub fn without_terminal(command: &mut Command) -> &mut Command {
    // SAFETY: setsid is async-signal-safe; the child gets a new session with no terminal.
    unsafe {
        command.pre_exec(|| {
            libc::setsid();
            Ok(())
        })
    }
}

/// Each line of `output`, read on a thread of its own (a test then waits with a timeout).
pub fn lines_of(output: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    lines_of_lines(std::io::BufReader::new(output).lines())
}

/// Each of `lines`, read on a thread of its own (a test then waits with a timeout).
pub fn lines_of_lines(
    lines: impl Iterator<Item = std::io::Result<String>> + Send + 'static,
) -> std::sync::mpsc::Receiver<String> {
    let (sender, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in lines {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    received
}
