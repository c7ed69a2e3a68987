//! Sizes and times of the plugin and the command: `cargo bench`.
//!
//! Each figure is a median of repeated runs, measured in-process with `Instant` (the command
//! as a whole process, warm cache). Run on an idle machine; the README lists reference figures.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use interview_host::ui::scripted::{ScriptedUi, Step};
use interview_host::{EMBEDDED_COMPONENT, NoPerson, Plugin, SelectReply};

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time(runs: usize, mut f: impl FnMut()) -> Duration {
    f(); // warm-up
    median(
        (0..runs)
            .map(|_| {
                let started = Instant::now();
                f();
                started.elapsed()
            })
            .collect(),
    )
}

fn report(what: &str, value: impl std::fmt::Display) {
    println!("{what:<58} {value}");
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would pass nothing: measure only
    // when asked to.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let one_question =
        r#"{"question": "Which environment?", "options": ["dev", "staging", "prod"]}"#;
    let cache = tempfile::tempdir().unwrap();

    report("component size (bytes)", EMBEDDED_COMPONENT.len());
    let compile = time(5, || {
        Plugin::builder().cache_dir(None).build().unwrap();
    });
    report(
        "compile the component (Cranelift, no cache)",
        format!("{compile:.2?}"),
    );
    Plugin::builder()
        .cache_dir(Some(cache.path().into()))
        .build()
        .unwrap();
    let cached_file = std::fs::read_dir(cache.path())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    report(
        "precompiled cache file (bytes)",
        std::fs::metadata(&cached_file).unwrap().len(),
    );
    let cached = time(20, || {
        Plugin::builder()
            .cache_dir(Some(cache.path().into()))
            .build()
            .unwrap();
    });
    report(
        "load from the cache (engine + deserialize)",
        format!("{cached:.2?}"),
    );

    let plugin = Plugin::builder()
        .cache_dir(Some(cache.path().into()))
        .build()
        .unwrap();
    let instantiate = time(200, || {
        plugin.session(NoPerson).unwrap();
    });
    report("instantiate a session", format!("{instantiate:.2?}"));

    let mut session = plugin.session(ScriptedUi::new([])).unwrap();
    let call = time(2000, || {
        session
            .ui_mut()
            .push([Step::Select(SelectReply::Picked(1))]);
        session.call("interview", one_question).unwrap();
    });
    report(
        "one call through the host (one select, scripted answer)",
        format!("{call:.2?}"),
    );

    let options: Vec<String> = (0..10_000).map(|i| format!("\"option {i}\"")).collect();
    let big = format!(
        r#"{{"question": "Pick one", "options": [{}]}}"#,
        options.join(",")
    );
    let big_call = time(50, || {
        session
            .ui_mut()
            .push([Step::Select(SelectReply::Picked(9_999))]);
        session.call("interview", &big).unwrap();
    });
    report(
        "one call with 10,000 options (parse, validate, lower)",
        format!("{big_call:.2?}"),
    );

    let request = cache.path().join("request.json");
    std::fs::write(&request, one_question).unwrap();
    let command = || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_interview"))
            .args(["ask", request.to_str().unwrap()])
            .env("XDG_CACHE_HOME", cache.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"2\n").unwrap();
        assert!(child.wait().unwrap().success());
    };
    let wall = time(20, command);
    report(
        "`interview ask`, one numbered question, warm cache (wall)",
        format!("{wall:.2?}"),
    );
    let baseline = time(20, || {
        let mut child = Command::new("head")
            .arg("-n1")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"2\n").unwrap();
        assert!(child.wait().unwrap().success());
    });
    report(
        "baseline: `head -n1` reading the same answer (wall)",
        format!("{baseline:.2?}"),
    );
}
