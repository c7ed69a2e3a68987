//! `interview ask --ui web` as a process: what it says on stderr, how long it waits for a page,
//! what it gives the browser, and that it keeps serving when it runs out of file descriptors.
//! (The page itself, in a browser: `chromium.py` beside this file.)
#![cfg(feature = "web")]

#[path = "../common/mod.rs"]
mod common;
#[path = "../../host/tests/page/mod.rs"]
mod page;

use std::io::Read;
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

const ONE_QUESTION: &str = r#"{"question": "Which?", "options": ["a", "b"]}"#;

/// A running command, killed if a test fails before it ends.
struct Running(Option<Child>);

impl Running {
    fn child(&mut self) -> &mut Child {
        self.0.as_mut().expect("running")
    }

    /// Waits for the command for at most `limit`, killing it after that: (exit code, stdout,
    /// stderr).
    fn finish(mut self, limit: Duration) -> (Option<i32>, String, String) {
        let mut child = self.0.take().expect("running");
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > limit {
                let _ = child.kill();
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let output = child.wait_with_output().unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            common::stderr(&output),
        )
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Starts `interview ask --ui web args REQUEST` with the request in a file.
fn ask(name: &str, request: &str, args: &[&str], setup: impl FnOnce(&mut Command)) -> Running {
    let path = common::write_request(name, &serde_json::from_str::<Json>(request).unwrap());
    let mut command = common::interview();
    command
        .args(["ask", "--ui", "web"])
        .args(args)
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    setup(&mut command);
    Running(Some(command.spawn().unwrap()))
}

/// The address the command says on stderr (its first line).
fn said_address(running: &mut Running) -> String {
    let mut line = String::new();
    let mut stderr = running.child().stderr.take().unwrap();
    // One byte at a time: the rest of stderr stays in the pipe for `finish`.
    let mut byte = [0u8];
    while !line.ends_with('\n') && stderr.read(&mut byte).unwrap_or(0) == 1 {
        line.push(byte[0] as char);
    }
    running.child().stderr = Some(stderr);
    line.strip_prefix("The questions are at ")
        .unwrap_or_else(|| panic!("no address said: {line:?}"))
        .trim()
        .to_string()
}

#[test]
fn an_invalid_request_says_no_address() {
    let running = ask(
        "web-invalid",
        r#"{"question": "Which?", "options": 3}"#,
        &["--no-open"],
        |_| {},
    );
    let (code, stdout, stderr) = running.finish(Duration::from_secs(60));
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(!stderr.contains("The questions are at"), "{stderr}");
    assert_eq!(
        serde_json::from_str::<Json>(&stdout).unwrap()["status"],
        "invalid"
    );
}

#[test]
fn a_page_nobody_opens_is_unavailable_after_the_open_timeout() {
    let flag = ask(
        "web-unopened",
        ONE_QUESTION,
        &["--no-open", "--open-timeout", "1"],
        |_| {},
    );
    let by_env = ask(
        "web-unopened-env",
        ONE_QUESTION,
        &["--no-open"],
        |command| {
            command.env("INTERVIEW_OPEN_TIMEOUT", "1");
        },
    );
    for mut running in [flag, by_env] {
        let url = said_address(&mut running);
        let started = Instant::now();
        let (code, stdout, stderr) = running.finish(Duration::from_secs(20));
        assert_eq!(code, Some(3), "{stdout}{stderr}");
        assert!(
            started.elapsed() < Duration::from_secs(8),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(
            serde_json::from_str::<Json>(&stdout).unwrap()["status"],
            "unavailable"
        );
        assert!(
            stderr.contains(&format!("nobody opened {url} within")),
            "{stderr}"
        );
        assert!(stderr.contains("within 1 s"), "{stderr}");
    }
}

#[test]
fn no_browser_to_open_is_said_and_the_request_ends_unavailable() {
    let running = ask(
        "web-no-browser",
        ONE_QUESTION,
        &["--open-timeout", "1"],
        |command| {
            command
                .env("BROWSER", "/nonexistent/browser")
                .env("PATH", "/nonexistent");
        },
    );
    let (code, stdout, stderr) = running.finish(Duration::from_secs(60));
    assert_eq!(code, Some(3), "{stdout}{stderr}");
    assert!(
        stderr.contains("no browser could be opened (")
            && stderr.contains("open the address above"),
        "{stderr}"
    );
    assert!(stderr.contains("nobody opened"), "{stderr}");
}

#[test]
fn a_bad_open_timeout_is_bad_usage() {
    let running = ask(
        "web-bad-timeout",
        ONE_QUESTION,
        &["--open-timeout", "soon"],
        |_| {},
    );
    let (code, _, stderr) = running.finish(Duration::from_secs(60));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("'soon' for --open-timeout"), "{stderr}");
    // Longer than the clock can count: no timeout, not a panic.
    let forever = u64::MAX.to_string();
    let mut running = ask(
        "web-no-timeout",
        ONE_QUESTION,
        &["--no-open", "--open-timeout", &forever],
        |_| {},
    );
    said_address(&mut running);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        running.child().try_wait().unwrap().is_none(),
        "it still waits"
    );
}

#[test]
fn the_browser_is_given_a_private_file_and_never_the_secret() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("seen");
    let browser = dir.path().join("browser");
    // What the browser was given (every argument), the modes of the file and its directory,
    // and the file's text: written while the command waits for the page.
    std::fs::write(
        &browser,
        format!(
            "#!/bin/sh\n{{ printf 'arg %s\\n' \"$@\"; stat -c 'mode %a' \"$1\" \"$(dirname \"$1\")\"; \
             cat \"$1\"; }} > {0}.part 2>&1; mv {0}.part {0}\n",
            seen.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &browser,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let mut running = ask("web-browser", ONE_QUESTION, &[], |command| {
        command.env("BROWSER", &browser);
    });
    let url = said_address(&mut running);
    let (_, secret) = page::address(&url);
    let started = Instant::now();
    while !seen.exists() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(running);
    let seen = std::fs::read_to_string(&seen).expect("the browser was started");
    let args: Vec<&str> = seen
        .lines()
        .filter_map(|l| l.strip_prefix("arg "))
        .collect();
    assert_eq!(args.len(), 1, "{seen}");
    assert!(
        !args[0].contains(&secret),
        "the secret is on the command line: {seen}"
    );
    assert!(seen.contains("mode 600\nmode 700\n"), "{seen}");
    assert!(
        seen.contains(&format!("url={url}")),
        "the file forwards to the page: {seen}"
    );
}

#[test]
fn a_server_out_of_file_descriptors_keeps_serving() {
    let mut running = ask("web-emfile", ONE_QUESTION, &["--no-open"], |command| {
        // SAFETY: setrlimit is async-signal-safe; it lowers only the child's own limit.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 40,
                    rlim_max: 40,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    });
    let url = said_address(&mut running);
    let page = page::Page::open(&url);
    let server = std::net::SocketAddr::from(([127, 0, 0, 1], page.port));
    // Far more connections than the command has descriptors for, every one left idle. Past
    // the listen backlog, a connection waits for the server to accept: on a busy machine
    // that may take a SYN retry or two (1 s, 3 s).
    let idle: Vec<TcpStream> = (0..200)
        .map_while(|_| TcpStream::connect_timeout(&server, Duration::from_secs(5)).ok())
        .collect();
    assert_eq!(idle.len(), 200, "the server stopped accepting");
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    // After the page's first view (1, "waiting"): the question's, once it is up.
    let served = page.view(1, "t", Duration::from_secs(5));
    let took = started.elapsed();
    drop(idle);
    let (status, body) = served.unwrap_or_else(|e| panic!("not served after {took:?}: {e}"));
    assert_eq!(status, 200, "{body}");
    let view: Json = serde_json::from_str(&body).unwrap();
    assert_eq!(view["kind"], "select", "{view}");
    assert_eq!(view["frame"]["prompt"], "Which?");
    // The person answers, and the command finishes as usual.
    let reply = json!({ "seq": view["seq"], "tab": "t", "reply": { "picked": 1 } }).to_string();
    let (status, answer) = page.reply(&[("Content-Type", "application/json")], &reply);
    assert_eq!(status, 200, "{answer}");
    let (code, stdout, stderr) = running.finish(Duration::from_secs(20));
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert_eq!(
        serde_json::from_str::<Json>(&stdout).unwrap()["answer"],
        "b"
    );
}

#[test]
fn the_page_never_parses_text_as_html() {
    // The agent's text is untrusted: the page sets it as text (textContent), and has no call
    // that would read a string as HTML, whatever string it is.
    let mut running = ask("web-text-only", ONE_QUESTION, &["--no-open"], |_| {});
    let url = said_address(&mut running);
    let (port, _) = page::address(&url);
    let page::Answer {
        status, body: page, ..
    } = page::http(port, "GET", "/", &[], "", Duration::from_secs(5)).unwrap();
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("textContent"), "{page}");
    for parser in [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "DOMParser",
        "createContextualFragment",
        "setHTML",
    ] {
        assert!(!page.contains(parser), "the page calls {parser}");
    }
}
