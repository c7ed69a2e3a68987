//! Sizes and times of the plugin and the command: `cargo bench`.
//!
//! First the performance table: `interview` (as `cargo install --path .` builds and installs
//! it, or the executable `INTERVIEW_BENCH_EXE` names, such as `cargo xtask release`'s) and its
//! anchors (a native program that reads one line, and inquire's `Select`, copied as an
//! installer copies them) run in turns in the same pseudo-terminal, 40 pairs a row; each ratio
//! is the median of the pairs' ratios.
//! Then figures of the parts, measured in-process. Run on an idle machine.

mod pty;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use interview_host::ask::{Choice, ElicitEnding};
use interview_host::internals::keys::Key;
use interview_host::internals::layout;
use interview_host::internals::render::Renderer;
use interview_host::internals::select::Select;
use interview_host::internals::theme::Theme;
use interview_host::internals::widget::Widget;
use interview_host::ui::{
    Absence, ConfirmReply, Frame, MultiPick, MultiSelectReply, NoPerson, NumberReply, ReviewReply,
    SelectReply, SelectRequest, TextReply,
};
use interview_host::ui::{ScriptedUi, Step};
use interview_host::{EMBEDDED_COMPONENT, Plugin};

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
    let bin = tempfile::tempdir().unwrap();
    let interview = match std::env::var_os("INTERVIEW_BENCH_EXE") {
        Some(exe) => install(Path::new(&exe), bin.path()),
        None => installed_interview(bin.path()),
    };
    report(
        "the executable (bytes)",
        std::fs::metadata(&interview).unwrap().len(),
    );
    side_by_side(&interview, bin.path());
    let one_question =
        r#"{"question": "Which environment?", "options": ["dev", "staging", "prod"]}"#;
    let cache = tempfile::tempdir().unwrap();

    report("component size (bytes)", EMBEDDED_COMPONENT.len());
    // Once a process: the built-in plugin's engine and code are made at first use and shared.
    let started = Instant::now();
    let plugin = Plugin::load().unwrap();
    report(
        "load the built-in plugin (engine, code in place; once)",
        format!("{:.2?}", started.elapsed()),
    );
    // Another build of the plugin (`--component`) is compiled, then cached.
    let other = || Plugin::builder().component_bytes(EMBEDDED_COMPONENT);
    let compile = time(5, || {
        other().cache_dir(None).build().unwrap();
    });
    report(
        "compile the component (Cranelift, no cache)",
        format!("{compile:.2?}"),
    );
    other()
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
        other()
            .cache_dir(Some(cache.path().into()))
            .build()
            .unwrap();
    });
    report(
        "load from the cache (engine + deserialize)",
        format!("{cached:.2?}"),
    );

    let instantiate = time(200, || {
        plugin.session(NoPerson(Absence::NoTerminal)).unwrap();
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
    let big_call = |session: &mut interview_host::Session<ScriptedUi>| {
        time(50, || {
            session
                .ui_mut()
                .push([Step::Select(SelectReply::picked(9_999))]);
            session.call("interview", &big).unwrap();
        })
    };
    report(
        "one call with 10,000 options (parse, validate, lower)",
        format!("{:.2?}", big_call(&mut session)),
    );
    // The built-in code is compiled for the target's baseline processor; compiled here, the
    // same plugin uses this machine's features (what `-C target-cpu=native` gives the
    // built-in code).
    let native = other().cache_dir(None).build().unwrap();
    let mut native = native.session(ScriptedUi::new([])).unwrap();
    report(
        "  the same, compiled for this machine's processor",
        format!("{:.2?}", big_call(&mut native)),
    );

    let request = cache.path().join("request.json");
    std::fs::write(&request, one_question).unwrap();
    let command = || {
        let mut child = Command::new(&interview)
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
        "`interview ask`, one numbered question, from a pipe (wall)",
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
        place: None,
        prompt: "Pick one".into(),
        required: true,
        mark_optional: false,
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
    let request = select_request(100_000);
    let mut select = Select::new(&request);
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

/// How many pairs each row of the table is the median of.
const PAIRS: usize = 40;
const DOWN: &str = "\x1b[B";
const ESC: &str = "\x1b";

/// The README's table: each row `interview` beside its anchor, run in turns; the anchors are
/// installed in `bin` beside it.
fn side_by_side(interview: &Path, bin: &Path) {
    let anchors = Anchors::build(bin);
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let env = [("XDG_CACHE_HOME", cache.as_path())];
    let numbered = dir.path().join("numbered.json");
    std::fs::write(
        &numbered,
        r#"{"question": "Which environment?", "options": ["dev", "staging", "prod"]}"#,
    )
    .unwrap();
    let select = |count: usize| {
        let path = dir.path().join(format!("select-{count}.json"));
        let options: Vec<String> = (1..=count).map(|i| format!("\"Option {i}\"")).collect();
        std::fs::write(
            &path,
            format!(
                r#"{{"question": "Pick one", "options": [{}]}}"#,
                options.join(",")
            ),
        )
        .unwrap();
        path
    };
    println!(
        "{:<52} {:>10} {:>10} {:>7}",
        format!("median of {PAIRS} pairs"),
        "interview",
        "anchor",
        "ratio"
    );
    let question_in = |env: &[(&str, &Path)]| {
        let ours = whole_process(pty::Run::start(
            interview,
            &["ask", "--numbered", numbered.to_str().unwrap()],
            env,
        ));
        let theirs = whole_process(pty::Run::start(&anchors.line, &[], env));
        (ours, theirs)
    };
    let one_question = || question_in(&env);
    // A first run: a home and a cache folder of its own, empty, every time (the plugin was
    // compiled when `interview` was built; before, this run compiled it into the cache).
    let first_run = || {
        let fresh = tempfile::tempdir().unwrap();
        question_in(&[("HOME", fresh.path()), ("XDG_CACHE_HOME", fresh.path())])
    };
    first_run();
    let pairs: Vec<_> = (0..PAIRS).map(|_| first_run()).collect();
    row(
        "first run, one numbered question, fresh home (ms)",
        &pairs,
        ms,
    );
    let pairs: Vec<_> = (0..PAIRS).map(|_| one_question()).collect();
    row("whole process, one numbered question (ms)", &pairs, ms);
    // The same after both executables were read back from disk, as after a reboot: the page
    // cache then holds them partly in single pages, as it holds the linker's output.
    evict(interview);
    evict(&anchors.line);
    one_question();
    let pairs: Vec<_> = (0..PAIRS).map(|_| one_question()).collect();
    row(
        "  the same, executables read back from disk (ms)",
        &pairs,
        ms,
    );

    for count in [10, 10_000] {
        let request = select(count);
        let (mut frames, mut keys) = (Vec::new(), Vec::new());
        for _ in 0..PAIRS {
            let ours = arrow_keys(pty::Run::start(
                interview,
                &["ask", request.to_str().unwrap()],
                &env,
            ));
            let theirs = arrow_keys(pty::Run::start(
                &anchors.select,
                &[&count.to_string()],
                &env,
            ));
            frames.push((ours.0, theirs.0));
            keys.push((ours.1, theirs.1));
        }
        row(
            &format!("first frame, select of {count} options (ms)"),
            &frames,
            ms,
        );
        row(
            &format!("bytes per Down arrow, {count} options"),
            &keys,
            |b| b.to_string(),
        );
    }
}

/// Answers the numbered question once its prompt is up: the time from spawn to exit.
fn whole_process(mut run: pty::Run) -> Duration {
    run.wait_for("> ");
    run.send("2\r");
    run.exit()
}

/// The first frame (time from spawn to its last byte), then ten Down arrows: the bytes each
/// wrote, on average.
fn arrow_keys(mut run: pty::Run) -> (Duration, usize) {
    let (first_frame, _) = run.settle(Duration::from_millis(150));
    let presses = 10;
    let mut bytes = 0;
    for _ in 0..presses {
        run.send(DOWN);
        bytes += run.settle(Duration::from_millis(40)).1;
    }
    run.send(ESC);
    run.settle(Duration::from_millis(40));
    (first_frame, bytes / presses)
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

/// One row: the median of each side and the median of the pairs' ratios.
fn row<T: Copy + Ord + Into<Ratio>>(what: &str, pairs: &[(T, T)], show: impl Fn(T) -> String) {
    let mut ours: Vec<T> = pairs.iter().map(|p| p.0).collect();
    let mut theirs: Vec<T> = pairs.iter().map(|p| p.1).collect();
    let mut ratios: Vec<f64> = pairs
        .iter()
        .map(|&(a, b)| a.into().0 / b.into().0)
        .collect();
    ours.sort();
    theirs.sort();
    ratios.sort_by(f64::total_cmp);
    println!(
        "{what:<52} {:>10} {:>10} {:>6.2}x",
        show(ours[ours.len() / 2]),
        show(theirs[theirs.len() / 2]),
        ratios[ratios.len() / 2]
    );
}

/// A measure as a number, for ratios.
struct Ratio(f64);

impl From<Duration> for Ratio {
    fn from(d: Duration) -> Ratio {
        Ratio(d.as_secs_f64())
    }
}

impl From<usize> for Ratio {
    fn from(n: usize) -> Ratio {
        Ratio(n as f64)
    }
}

/// `interview` as a person installs it, `cargo install --path .` into `bin` (its default
/// features, the release profile, linked as cargo links it), built in this target folder.
fn installed_interview(bin: &Path) -> PathBuf {
    let root = bin.join("install");
    let status = Command::new(env!("CARGO"))
        .args(["install", "--quiet", "--locked", "--path", "."])
        .arg("--root")
        .arg(&root)
        .arg("--target-dir")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-install"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("running cargo install");
    assert!(status.success(), "cargo install failed");
    root.join("bin/interview")
}

/// A copy of `program` in `bin`, written as `cargo install` or a package manager writes one, which
/// is what a person runs. The linker's own output is not: it sits in the page cache as single
/// pages, where a copy sits in large folios, and every start maps the executable's code from
/// there: from single pages, `interview`'s 18 MB take a few tenths of a millisecond more to
/// start, the small anchors under a tenth more. A file read back from disk is partly in single
/// pages again; the table measures that case too.
fn install(program: &Path, bin: &Path) -> PathBuf {
    let installed = bin.join(program.file_name().unwrap());
    std::fs::copy(program, &installed).expect("copying an executable to install it");
    installed
}

/// Drops `program` from the page cache, so that its next start reads it from disk.
fn evict(program: &Path) {
    let file = std::fs::File::open(program).unwrap();
    // Written pages stay cached until they are on disk.
    file.sync_all().unwrap();
    // SAFETY: an open descriptor; the call only advises the kernel.
    let error = unsafe {
        libc::posix_fadvise(
            std::os::fd::AsRawFd::as_raw_fd(&file),
            0,
            0,
            libc::POSIX_FADV_DONTNEED,
        )
    };
    assert_eq!(error, 0, "posix_fadvise failed");
}

/// The anchors' programs, built in the bench profile beside this benchmark.
struct Anchors {
    line: PathBuf,
    select: PathBuf,
}

impl Anchors {
    /// Builds them and installs them in `bin`.
    fn build(bin: &Path) -> Anchors {
        let status = Command::new(env!("CARGO"))
            .args(["build", "--quiet", "--release", "--locked"])
            .args(["--example", "anchor_line", "--example", "anchor_select"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("running cargo to build the anchors");
        assert!(status.success(), "the anchors did not build");
        let examples = Path::new(env!("CARGO_BIN_EXE_interview"))
            .parent()
            .unwrap()
            .join("examples");
        Anchors {
            line: install(&examples.join("anchor_line"), bin),
            select: install(&examples.join("anchor_select"), bin),
        }
    }
}
