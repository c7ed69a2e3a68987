//! Sizes and times of the plugin and the command: `cargo bench`.
//!
//! Each figure is a median of repeated runs, measured in-process with `Instant` (the command
//! as a whole process, warm cache). Run on an idle machine; the README lists reference figures.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use interview_host::internals::keys::Key;
use interview_host::internals::layout;
use interview_host::internals::render::Renderer;
use interview_host::internals::select::Select;
use interview_host::internals::theme::Theme;
use interview_host::internals::widget::Widget;
use interview_host::{
    Choice, ConfirmReply, EMBEDDED_COMPONENT, ElicitEnding, Frame, MultiPick, MultiSelectReply,
    NoPerson, NumberReply, Plugin, ReviewReply, SelectReply, SelectRequest, TextReply,
};
use interview_host::{ScriptedUi, Step};

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
            .push([Step::Select(SelectReply::picked(1))]);
        session.call("interview", one_question).unwrap();
    });
    report(
        "one call through the host (one select, scripted answer)",
        format!("{call:.2?}"),
    );

    let elicitation = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/elicitation.json"
    ))
    .unwrap();
    let elicit = time(2000, || {
        session.ui_mut().push([
            Step::Text(TextReply::Submitted("Ada Lovelace".into())),
            Step::Text(TextReply::Submitted("ada@example.com".into())),
            Step::Text(TextReply::Submitted("2026-12-24".into())),
            Step::Number(NumberReply::Entered("8".into())),
            Step::Select(SelectReply::picked(1)),
            Step::MultiSelect(MultiSelectReply::Picked(MultiPick {
                picked: vec![0, 1],
                other: None,
                note: None,
            })),
            Step::Confirm(ConfirmReply::Answered(false)),
            Step::Review(ReviewReply::Submit),
        ]);
        let reply = session.elicit(&elicitation, Some("venue")).unwrap();
        assert_eq!(reply.ending, ElicitEnding::Accepted);
    });
    report(
        "one elicitation through the host (7 fields, scripted)",
        format!("{elicit:.2?}"),
    );

    let options: Vec<String> = (0..10_000).map(|i| format!("\"option {i}\"")).collect();
    let big = format!(
        r#"{{"question": "Pick one", "options": [{}]}}"#,
        options.join(",")
    );
    let big_call = time(50, || {
        session
            .ui_mut()
            .push([Step::Select(SelectReply::picked(9_999))]);
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

    terminal();
}

fn select_request(count: usize) -> SelectRequest {
    let options = (1..=count)
        .map(|i| Choice {
            label: format!("Option {i}"),
            value: i.to_string(),
            description: None,
            preview: None,
            recommended: false,
        })
        .collect();
    SelectRequest {
        options,
        selected: None,
        other_label: Some("Something else".into()),
        other_text: None,
        discuss_label: None,
        notes: true,
        note: None,
    }
}

/// Plays `keys` on `widget` drawn at 80x24: bytes written and time per key, drawing only the
/// rows that changed, and the bytes of a full redraw of the same frames.
fn per_key(mut widget: impl Widget, keys: &[Key]) -> (usize, usize, Duration) {
    let theme = Theme::new(true);
    let frame = Frame {
        position: 1,
        total: 1,
        header: None,
        prompt: "Pick one".into(),
        required: true,
        hint: None,
        error: None,
        context: None,
        declinable: false,
    };
    let (mut diffed, mut full) = (Renderer::new(80, 24), Renderer::new(80, 24));
    let (mut diff_bytes, mut full_bytes) = (Vec::new(), Vec::new());
    let (screen, mut page) = layout(Some(&frame), &mut widget, &theme, (80, 24));
    diffed.draw(&screen, &mut Vec::new());
    full.draw(&screen, &mut Vec::new());
    let mut spent = Duration::ZERO;
    for key in keys {
        let started = Instant::now();
        widget.handle(key.clone(), page);
        let (screen, next_page) = layout(Some(&frame), &mut widget, &theme, (80, 24));
        diffed.draw(&screen, &mut diff_bytes);
        spent += started.elapsed();
        page = next_page;
        full.clear(&mut full_bytes);
        full.draw(&screen, &mut full_bytes);
    }
    let n = keys.len();
    (diff_bytes.len() / n, full_bytes.len() / n, spent / n as u32)
}

/// The terminal UI: what one key costs.
fn terminal() {
    for count in [10, 10_000] {
        let (diff, full, time) =
            per_key(Select::new(&select_request(count)), &vec![Key::Down; 500]);
        report(
            &format!("arrow key, {count} options: bytes written (full redraw)"),
            format!("{diff} ({full})"),
        );
        report(
            &format!("arrow key, {count} options: time per key"),
            format!("{time:.2?}"),
        );
    }
    let mut select = Select::new(&select_request(100_000));
    select.handle(Key::Char('/'), 10);
    let typing: Vec<Key> = "999"
        .chars()
        .map(Key::Char)
        .chain(vec![Key::Backspace; 3])
        .cycle()
        .take(60)
        .collect();
    let (diff, full, time) = per_key(select, &typing);
    report(
        "filter keystroke, 100,000 options: time per key",
        format!("{time:.2?}"),
    );
    report(
        "filter keystroke, 100,000 options: bytes (full redraw)",
        format!("{diff} ({full})"),
    );
}
