//! The arrow-key terminal UI, driven in a real pseudo-terminal and read back through a terminal
//! emulator (vt100): what a person sees, what the agent gets, and the terminal's state after.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::CommandBuilder;
use serde_json::{Value as Json, json};

mod common;
use common::term::*;

fn colours() -> Json {
    json!({"question": "Favourite colour?", "options": [
        {"label": "Red", "description": "Warm"}, {"label": "Green", "recommended": true}, {"label": "Blue"}
    ]})
}

#[test]
fn select_with_arrows_wrapping_and_enter() {
    let mut term = Term::start("select", &colours(), 24, 80, &[]);
    let screen = term.wait("Esc cancel");
    assert!(screen.contains("? Favourite colour?"), "{screen}");
    assert!(
        screen.contains("❯ 2. Green (recommended)"),
        "the cursor starts on the recommendation:\n{screen}"
    );
    assert!(
        screen.contains("  1. Red\n     Warm"),
        "descriptions under their label:\n{screen}"
    );
    term.key(UP);
    term.key(UP);
    term.wait("❯ 4. Something else");
    term.key(DOWN);
    term.wait("❯ 1. Red");
    term.key("3");
    term.wait("❯ 3. Blue");
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.code, 0, "{}", done.screen);
    assert_eq!(done.result["answer"], "Blue");
    assert_eq!(done.result["text"], "User selected: 3. Blue");
    assert!(
        done.screen.contains("✔ Favourite colour? › Blue"),
        "collapsed to one line:\n{}",
        done.screen
    );
    assert!(
        !done.screen.contains("Esc cancel"),
        "the widget is gone:\n{}",
        done.screen
    );
    assert!(done.restored, "{}", done.screen);
}

#[test]
fn something_else_opens_an_editor_in_place_and_esc_returns() {
    let mut term = Term::start("other", &colours(), 24, 80, &[]);
    term.wait("Esc cancel");
    term.key(END);
    term.key(ENTER);
    term.wait("Esc back to the list");
    term.send("Teal");
    term.wait("Something else (I'll explain): Teal");
    term.key(ESC);
    let screen = term.wait("/ filter");
    assert!(
        screen.contains("Something else (I'll explain): Teal"),
        "the text is kept:\n{screen}"
    );
    term.key(ENTER);
    term.wait("Esc back to the list");
    term.send(" green");
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.result["answer"], "Teal green");
    assert_eq!(done.result["answers"][0]["custom"], true);
}

#[test]
fn previews_follow_the_cursor_and_tab_adds_a_note() {
    let long = (1..=30)
        .map(|i| format!("line {i}"))
        .collect::<Vec<_>>()
        .join("\n");
    let request = json!({"question": "Which layout?", "options": [
        {"label": "Sidebar", "preview": "+--------+\n| menu   |\n+--------+"},
        {"label": "Tabs", "preview": format!("[ A ][ B ] {}\n{long}", "=".repeat(200))},
        {"label": "Plain"}
    ]});
    let mut term = Term::start("preview", &request, 20, 60, &[]);
    let screen = term.wait("Tab note");
    assert!(
        screen.contains("│ | menu   |"),
        "the preview of the option under the cursor, boxed:\n{screen}"
    );
    term.key(DOWN);
    let screen = term.wait("[ A ][ B ]");
    assert!(!screen.contains("| menu"), "{screen}");
    assert!(
        screen.lines().all(|line| unicode_width(line) <= 60),
        "kept to the terminal's width:\n{screen}"
    );
    assert!(
        screen.contains("more lines"),
        "cut to the rows there are:\n{screen}"
    );
    assert!(
        screen.contains("❯ 2. Tabs"),
        "the list stays in sight:\n{screen}"
    );
    term.key(DOWN);
    term.wait("(no preview)");
    term.key(UP);
    term.key("\t");
    term.wait("Enter pick with this note");
    term.send("with icons");
    term.wait("Note: with icons");
    term.key(ESC);
    let screen = term.wait("Tab note");
    assert!(
        screen.contains("Note: with icons"),
        "the note is kept:\n{screen}"
    );
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.code, 0, "{}", done.screen);
    assert_eq!(done.result["answer"], "Tabs");
    assert_eq!(done.result["answers"][0]["note"], "with icons");
    assert!(
        done.screen
            .contains("✔ Which layout? › Tabs (note: with icons)"),
        "{}",
        done.screen
    );
    assert!(done.restored, "{}", done.screen);
}

#[test]
fn filter_narrows_the_list_and_esc_clears_it() {
    let options: Vec<String> = (1..=60).map(|i| format!("Item {i:02}")).collect();
    let mut term = Term::start(
        "filter",
        &json!({"question": "Pick", "options": options, "other": false}),
        20,
        60,
        &[],
    );
    term.wait("↓");
    term.key("/");
    term.send("4");
    term.wait("/ 4");
    let screen = term.wait("Item 14");
    assert!(!screen.contains("Item 13"), "{screen}");
    term.send("2");
    let screen = term.wait("❯ 42. Item 42");
    assert!(!screen.contains("Item 41"), "{screen}");
    term.key(ESC);
    term.wait("Item 41");
    term.key(ENTER);
    assert_eq!(
        term.finish().result["answer"],
        "Item 42",
        "the cursor stayed on the filtered pick"
    );
}

#[test]
fn multi_select_toggles_all_and_enforces_limits_in_place() {
    let request = json!({"question": "Areas?", "multi": true, "options": ["Session", "Errors", "Devices", "Recovery"], "min_picks": 2, "max_picks": 3, "other": false});
    let mut term = Term::start("multi", &request, 24, 80, &[]);
    term.wait("Done (0 selected) · pick 2 to 3");
    term.key(" ");
    term.key(ENTER);
    term.wait("✖ Pick at least 2 options (1 picked).");
    term.key("a");
    term.wait("Done (4 selected)");
    term.key(ENTER);
    term.wait("✖ Pick at most 3 options (4 picked).");
    term.key(DOWN);
    term.key(" ");
    let screen = term.wait("Done (3 selected)");
    assert!(
        screen.contains("[x] Session") && screen.contains("[ ] Errors"),
        "{screen}"
    );
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(
        done.result["answer"],
        json!(["Session", "Devices", "Recovery"])
    );
    assert!(
        done.screen
            .contains("✔ Areas? › Session, Devices, Recovery"),
        "{}",
        done.screen
    );
}

#[test]
fn text_is_a_real_line_editor() {
    let request = json!({"question": "Name?", "placeholder": "first and last"});
    let mut term = Term::start("text", &request, 24, 80, &[]);
    term.wait("› first and last");
    term.send("Ada King");
    term.wait("› Ada King");
    term.key(HOME);
    term.send("X");
    term.wait("› XAda King");
    term.key("\x05"); // Ctrl-E
    term.key("\x17"); // Ctrl-W
    term.wait("› XAda \n");
    term.key("\x01"); // Ctrl-A
    term.key("\x1b[3~"); // Delete
    term.send("Lovelace, 日本");
    term.key("\x1b[200~ pasted\x1b[31m\ntext\x1b[201~");
    let screen = term.wait("pasted");
    // Typed and pasted at the cursor, which Ctrl-A and Delete left at the start; the paste's
    // escape sequence goes whole (its body too), and its line break becomes a space.
    assert!(
        screen.contains("› Lovelace, 日本 pasted textAda "),
        "{screen}"
    );
    term.key(END);
    term.key("\x15"); // Ctrl-U: everything before the cursor
    term.send("Ada");
    term.key(ENTER);
    assert_eq!(term.finish().result["answer"], "Ada");
}

/// A paste longer than an answer may be (the request limit) is refused in place, and what
/// was typed before stays; a far longer one streams through in bounded memory.
#[test]
fn a_paste_over_the_limit_is_refused_and_the_text_before_kept() {
    let request = json!({"question": "Log?"});
    let mut term = Term::start("long_paste", &request, 24, 80, &[]);
    term.wait("? Log?");
    term.send("kept");
    term.wait("› kept");
    let limit = 8 << 20;
    let mut paste = b"\x1b[200~".to_vec();
    paste.resize(paste.len() + limit + 1, b'x');
    paste.extend_from_slice(b"\x1b[201~");
    term.writer.write_all(&paste).unwrap();
    term.writer.flush().unwrap();
    let screen = term.wait(&format!("✖ That paste is more than {limit} bytes"));
    assert!(screen.contains("› kept\n"), "{screen}");
    term.send("!");
    term.wait("› kept!");
    term.send("\x1b[200~");
    let block = vec![b'x'; 1 << 20];
    for _ in 0..100 {
        term.writer.write_all(&block).unwrap();
    }
    term.send("\x1b[201~");
    term.wait("✖ That paste");
    let kib = term.peak_kib();
    assert!(kib < 100 << 10, "held {kib} KiB for a 100 MiB paste");
    term.key(ENTER);
    assert_eq!(term.finish().result["answer"], "kept!");
}

#[test]
fn multiline_text_takes_new_lines_and_enter_submits() {
    let mut term = Term::start(
        "multiline",
        &json!({"question": "Notes?", "multiline": true}),
        24,
        80,
        &[],
    );
    term.wait("Alt-Enter");
    term.send("one");
    term.key(ALT_ENTER);
    term.send("two");
    term.key("\n"); // Ctrl-J
    term.send("three");
    term.wait("  three");
    term.key(ENTER);
    assert_eq!(term.finish().result["answer"], "one\ntwo\nthree");
}

#[test]
fn confirm_and_number_with_errors_in_place() {
    let request = json!({"questions": [
        {"question": "Deploy now?", "type": "confirm"},
        {"question": "Replicas?", "type": "integer", "min": 1, "max": 5, "default": 2},
    ]});
    let mut term = Term::start("confirm", &request, 24, 80, &[]);
    let screen = term.wait("yes    no");
    // Nothing comes before the first question: no way back is offered.
    assert!(!screen.contains("Shift-Tab back"), "{screen}");
    term.key(ENTER);
    term.wait("✖ Press y for yes or n for no.");
    term.key("y");
    let screen = term.wait("› 2  (a whole number from 1 to 5)");
    assert!(screen.contains("Shift-Tab back"), "{screen}");
    // The answer left in the scrollback reads as it was offered.
    assert!(screen.contains("✔ Deploy now? › yes"), "{screen}");
    term.key(UP);
    term.key(UP);
    term.wait("› 4");
    term.send("0");
    term.key(ENTER);
    term.wait("✖ 40 is more than 5. Enter a whole number from 1 to 5.");
    term.key("\x08"); // Backspace
    term.key(ENTER);
    term.wait("Review your answers");
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.code, 0);
    assert_eq!(done.result["answers"][1]["value"], 4);
}

#[test]
fn a_batch_goes_back_reviews_and_reads_like_a_transcript() {
    let request = json!({"questions": [
        {"header": "Deploy", "question": "Which environment?", "options": ["Dev", "Staging", "Prod"]},
        {"header": "Checks", "question": "Which checks?", "multi": true, "options": ["Unit", "Lint"]},
        {"header": "Notes", "question": "Anything else?", "required": false},
    ]});
    let mut term = Term::start("batch", &request, 30, 80, &[]);
    term.wait("Question 1 of 3 · Deploy");
    term.key(DOWN);
    term.key(ENTER);
    term.wait("Question 2 of 3 · Checks");
    term.key(LEFT);
    let screen = term.wait("Question 1 of 3 · Deploy");
    assert!(
        screen.contains("❯ 2. Staging"),
        "the earlier answer is preselected:\n{screen}"
    );
    term.key(DOWN);
    term.key(ENTER);
    term.wait("Question 2 of 3");
    term.key(" ");
    term.key(ENTER);
    term.wait("Question 3 of 3 · Notes");
    term.key(SHIFT_TAB);
    term.wait("[x] Unit");
    term.key(ENTER);
    term.wait("Question 3 of 3");
    term.send("none");
    term.key(ENTER);
    let screen = term.wait("Review your answers");
    assert!(
        screen.contains("1. Deploy  Prod") && screen.contains("3. Notes   none"),
        "{screen}"
    );
    assert!(screen.contains("❯ Submit"), "{screen}");
    term.key("1");
    term.wait("Question 1 of 3 · Deploy");
    term.key(HOME);
    term.key(ENTER);
    let screen = term.wait("Review your answers");
    assert!(screen.contains("1. Deploy  Dev"), "{screen}");
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.code, 0, "{}", done.screen);
    assert_eq!(done.result["answers"][0]["value"], "Dev");
    // One line per question with its final answer: going back and the review took the earlier
    // lines back.
    let transcript: Vec<&str> = done.screen.lines().filter(|l| l.starts_with('✔')).collect();
    assert_eq!(
        transcript,
        [
            "✔ Which environment? › Dev",
            "✔ Which checks? › Unit",
            "✔ Anything else? › none",
            "✔ 3 answers sent"
        ],
        "{}",
        done.screen
    );
    assert!(done.restored);
}

#[test]
fn a_secret_is_never_drawn() {
    let request = json!({"questions": [
        {"id": "token", "header": "Token", "question": "Your API token?", "isSecret": true, "min_length": 10},
        {"id": "region", "header": "Region", "question": "Which region?", "options": ["eu", "us"]},
    ]});
    let mut term = Term::start_with(
        "secret",
        &request,
        30,
        80,
        &[],
        "ask --tool request_user_input",
    );
    term.wait("Your API token?");
    term.send("hunter2");
    term.wait("•••••••");
    term.key(ENTER);
    term.wait("Type at least 10 characters (this is 7).");
    term.send("-and-more");
    term.key(ENTER);
    term.wait("Which region?");
    term.key(ENTER);
    let screen = term.wait("Review your answers");
    assert!(screen.contains("•••••• (hidden)"), "{screen}");
    term.key("1");
    term.wait("Your API token?");
    term.key(ENTER);
    term.wait("Review your answers");
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.code, 0, "{}", done.screen);
    assert_eq!(
        done.result["native"]["answers"]["token"]["answers"],
        json!(["user_note: hunter2-and-more"]),
        "the value is still in the result"
    );
    assert!(
        done.screen.contains("✔ Your API token? › •••••• (hidden)"),
        "{}",
        done.screen
    );
    for part in ["hunter", "and-more"] {
        assert!(
            !done.output.contains(part),
            "{part:?} reached the terminal:\n{}",
            done.output
        );
    }
}

#[test]
fn a_tiny_terminal_still_works() {
    let mut term = Term::start("tiny", &colours(), 5, 20, &[]);
    let screen = term.wait("❯");
    assert!(screen.lines().all(|l| unicode_width(l) <= 20), "{screen}");
    assert!(
        screen.contains("❯ 2. Green\n"),
        "the badge gives way before the label:\n{screen}"
    );
    term.key(DOWN);
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.result["answer"], "Blue");
}

#[test]
fn a_terminal_that_reports_no_size_is_drawn_at_80_by_24() {
    let request_path = write_request_file("unsized", &colours());
    let result = request_path.with_extension("out.json");
    let _ = std::fs::remove_file(&result);
    let command = format!(
        "{} ask {} > {}",
        env!("CARGO_BIN_EXE_interview"),
        request_path.display(),
        result.display()
    );
    let mut term = Term::run_in(&command, result, (0, 0), (24, 80), &[]);
    let screen = term.wait("❯ 2. Green");
    assert!(screen.contains("1. Red"), "{screen}");
    term.key(DOWN);
    term.key(ENTER);
    assert_eq!(term.finish().result["answer"], "Blue");
}

fn unicode_width(line: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(line)
}

#[test]
fn resizing_reflows_at_once() {
    let request = json!({"question": "Pick a long one", "options": ["An option with a rather long label that needs room", "Short"]});
    let mut term = Term::start("resize", &request, 24, 100, &[]);
    term.wait("rather long label that needs room");
    term.resize(24, 30);
    let screen = term.wait("…");
    assert!(screen.lines().all(|l| unicode_width(l) <= 30), "{screen}");
    assert_eq!(
        screen.matches("Pick a long one").count(),
        1,
        "drawn once, not twice:\n{screen}"
    );
    term.key(ENTER);
    assert_eq!(
        term.finish().result["answer"],
        "An option with a rather long label that needs room"
    );
}

#[test]
fn wide_characters_and_hostile_labels() {
    let request = json!({"question": "選んでください\x1b]0;owned\x07\x1b[2J", "options": [
        {"label": "日本語のオプション", "description": "説明\x1b[8mhidden"},
        {"label": "evil\x1b[1A\x1b[2K\rlabel"},
    ]});
    let mut term = Term::start("wide", &request, 24, 40, &[]);
    let screen = term.wait("↑↓ move");
    assert!(
        screen
            .lines()
            .any(|l| l == "↑↓ move · Enter select · Esc cancel"),
        "the hint line fits one row, the middle hints giving way to Esc:\n{screen}"
    );
    assert!(screen.contains("? 選んでください"), "{screen}");
    assert!(
        screen.contains("❯ 1. 日本語のオプション\n     説明hidden"),
        "{screen}"
    );
    assert!(screen.contains("  2. evillabel"), "{screen}");
    assert_eq!(
        term.screen.lock().unwrap().callbacks().titles,
        0,
        "no window title from the agent"
    );
    term.key(ENTER);
    assert_eq!(term.finish().result["answer"], "日本語のオプション");
}

#[test]
fn ten_thousand_options() {
    let options: Vec<String> = (1..=10_000).map(|i| format!("Option {i}")).collect();
    let mut term = Term::start(
        "many",
        &json!({"question": "Pick", "options": options, "other": false}),
        24,
        80,
        &[],
    );
    term.wait("↓ ");
    term.key(END);
    term.wait("❯ 10000. Option 10000");
    term.key(PAGE_DOWN);
    term.key(UP);
    term.key(UP);
    let screen = term.wait("❯  9998. Option 9998");
    assert!(screen.contains("↑ "), "{screen}");
    term.key(ENTER);
    assert_eq!(term.finish().result["answer"], "Option 9998");
}

#[test]
fn esc_cancels_with_exit_1_and_a_clean_terminal() {
    let request = json!({"questions": [{"question": "A?", "options": ["x"]}, {"question": "B?"}]});
    let mut term = Term::start("esc", &request, 24, 80, &[]);
    term.wait("Question 1 of 2");
    term.key(ENTER);
    term.wait("Question 2 of 2");
    term.key(ESC);
    let done = term.finish();
    assert_eq!(done.code, 1);
    assert_eq!(done.result["status"], "cancelled");
    assert_eq!(
        done.result["answers"].as_array().unwrap().len(),
        1,
        "the answers so far"
    );
    assert!(done.screen.contains("✖ Cancelled"), "{}", done.screen);
    assert!(done.restored, "{}", done.screen);
}

#[test]
fn ctrl_c_and_sigterm_interrupt_with_exit_130_and_a_clean_terminal() {
    let mut term = Term::start("ctrl-c", &json!({"question": "Name?"}), 24, 80, &[]);
    term.wait("Esc cancel");
    term.send("half typed");
    term.key(CTRL_C);
    let done = term.finish();
    assert_eq!(done.code, 130);
    assert_eq!(done.result["status"], "cancelled");
    assert!(done.screen.contains("✖ Interrupted"), "{}", done.screen);
    assert!(done.restored, "{}", done.screen);

    let term = Term::start("sigterm", &json!({"question": "Name?"}), 24, 80, &[]);
    term.wait("Esc cancel");
    term.signal(libc::SIGTERM);
    let done = term.finish();
    assert_eq!(done.code, 130, "{}", done.screen);
    assert!(done.restored, "{}", done.screen);
}

#[test]
fn no_color_keeps_attributes_but_drops_colours() {
    let mut term = Term::start("no-color", &colours(), 24, 80, &[("NO_COLOR", "1")]);
    term.wait("Esc cancel");
    {
        let parser = term.screen.lock().unwrap();
        let screen = parser.screen();
        for row in 0..24 {
            for col in 0..80 {
                if let Some(cell) = screen.cell(row, col) {
                    assert_eq!(
                        cell.fgcolor(),
                        vt100::Color::Default,
                        "colour at {row},{col}"
                    );
                }
            }
        }
    }
    term.key(ENTER);
    term.finish();
    let mut term = Term::start("colour", &colours(), 24, 80, &[]);
    term.wait("Esc cancel");
    let coloured = {
        let parser = term.screen.lock().unwrap();
        let row = parser
            .screen()
            .contents()
            .lines()
            .position(|l| l.starts_with('❯'))
            .unwrap() as u16;
        parser.screen().cell(row, 0).map(|c| c.fgcolor())
    };
    assert_ne!(
        coloured,
        Some(vt100::Color::Default),
        "the pointer is coloured without NO_COLOR"
    );
    term.key(ENTER);
    term.finish();
}

#[test]
fn numbered_mode_on_request() {
    let mut term = Term::start_with("numbered", &colours(), 24, 80, &[], "ask --numbered");
    term.wait("> ");
    term.send("3\r");
    let done = term.finish();
    assert_eq!(done.result["answer"], "Blue");
    let mut term = Term::start("dumb", &colours(), 24, 80, &[("TERM", "dumb")]);
    let screen = term.wait("> ");
    assert!(screen.contains("  1. Red"), "{screen}");
    term.send("1\r");
    assert_eq!(term.finish().result["answer"], "Red");
}

#[test]
fn bytes_per_arrow_key_stay_small() {
    for count in [10, 10_000] {
        let options: Vec<String> = (1..=count).map(|i| format!("Option {i}")).collect();
        let request = json!({"question": "Pick", "options": options});
        let mut term = Term::start(&format!("bytes-{count}"), &request, 24, 80, &[]);
        term.wait("Esc cancel");
        // Far enough down that, with 10,000 options, every key scrolls the list.
        for _ in 0..30 {
            term.send(DOWN);
        }
        // 30 steps down a list of `count` options and "Something else", wrapping at the end.
        let entries = count + 1;
        let width = entries.to_string().len();
        term.wait(&format!("❯ {:>width$}. ", 30 % entries + 1));
        let before = term.settle();
        term.key(DOWN);
        let after = term.settle();
        let per_key = after - before;
        let limit = if count == 10 { 200 } else { 400 };
        assert!(
            per_key < limit,
            "{count} options: {per_key} bytes for one arrow key"
        );
        term.key(ENTER);
        term.finish();
    }
}

#[test]
fn a_terminal_that_hangs_up_ends_the_request_instead_of_spinning() {
    let request = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("terminal/hangup.json");
    std::fs::create_dir_all(request.parent().unwrap()).unwrap();
    std::fs::write(
        &request,
        json!({"questions": [{"question": "A?", "options": ["x"]}, {"question": "B?"}]})
            .to_string(),
    )
    .unwrap();
    let result = request.with_extension("out.json");
    let _ = std::fs::remove_file(&result);
    let pty = open_pty(24, 80);
    let mut command = CommandBuilder::new("sh");
    let script = format!(
        "exec {} ask {} > {}",
        env!("CARGO_BIN_EXE_interview"),
        request.display(),
        result.display()
    );
    command.args(["-c", &script]);
    command.env("TERM", "xterm-256color");
    command.env(
        "XDG_CACHE_HOME",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
    );
    let mut child = pty.slave.spawn_command(command).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let mut writer = pty.master.take_writer().unwrap();
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("Esc cancel") {
        let n = reader.read(&mut buffer).unwrap();
        seen.extend_from_slice(&buffer[..n]);
    }
    writer.write_all(b"\r").unwrap();
    while !String::from_utf8_lossy(&seen).contains("B?") {
        let n = reader.read(&mut buffer).unwrap();
        seen.extend_from_slice(&buffer[..n]);
    }
    // The terminal goes away while the second question is open.
    drop((reader, writer, pty.master));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "still running after the hangup"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.exit_code(), 130);
    let result: Json = serde_json::from_str(&std::fs::read_to_string(&result).unwrap()).unwrap();
    assert_eq!(result["status"], "cancelled");
    assert_eq!(
        result["answers"][0]["value"], "x",
        "the answer given before the hangup is kept"
    );
}

#[test]
fn a_panic_gives_the_terminal_back() {
    let fixture = PathBuf::from(env!("CARGO_BIN_EXE_interview"))
        .parent()
        .unwrap()
        .join("examples/forced_panic");
    assert!(
        fixture.exists(),
        "{} is built by `cargo test` (all targets)",
        fixture.display()
    );
    let mut term = Term::run(
        &format!("{} 2>/dev/null", fixture.display()),
        PathBuf::new(),
        24,
        80,
        &[],
    );
    term.wait("Panic now?");
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.code, 101, "{}", done.screen);
    assert!(done.restored, "{}", done.screen);
}

/// Runs `tests/serve_driver.py` (an agent runtime in Python) in the terminal with `requests`:
/// the results it got, one per request.
fn serve(
    name: &str,
    requests: &[Json],
    options: &str,
    person: impl FnOnce(&mut Term),
) -> (Vec<Json>, String) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("terminal");
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join(format!("{name}.requests"));
    let lines: Vec<String> = requests.iter().map(Json::to_string).collect();
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let out = dir.join(format!("{name}.results"));
    let command = format!(
        "python3 {driver} {bin} {out} {options} < {input}",
        driver = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/serve_driver.py"),
        bin = env!("CARGO_BIN_EXE_interview"),
        out = out.display(),
        input = input.display(),
    );
    let mut term = Term::run(&command, PathBuf::new(), 30, 100, &[]);
    person(&mut term);
    let done = term.finish();
    let results = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (results, done.screen)
}

#[test]
fn serve_answers_a_session_driven_from_another_language() {
    let requests = [
        json!({"question": "Your name?"}),
        json!({"tool": "ask_question", "arguments": {"question": "Layout?", "options": ["Card", "List"]}}),
        json!({"question": "Continue?", "type": "confirm"}),
        json!({"question": "Asked after quit?"}),
    ];
    let (results, screen) = serve("serve", &requests, "--numbered", |term| {
        term.wait("Your name?");
        term.send("Ada\r");
        term.wait("Let's discuss this");
        term.send("2\r");
        term.wait("Continue?");
        term.send("quit\r");
    });
    assert_eq!(results.len(), 4, "one result per request:\n{screen}");
    assert_eq!(results[0]["answer"], "Ada");
    assert_eq!(results[1]["text"], "User selected: 2. List");
    // `quit` ends the session: the request it was typed at and every later one are
    // cancelled, nothing more is asked, and the session ends cleanly when its input does.
    assert_eq!(results[2]["status"], "cancelled");
    assert_eq!(results[3]["status"], "cancelled");
    assert!(!screen.contains("Asked after quit?"), "{screen}");
    assert!(screen.contains("the session is over"), "{screen}");
    assert!(screen.contains("SERVE EXIT 0 LEFT 0"), "{screen}");
}

#[test]
fn serve_state_mode_ends_on_quit_with_every_later_state_passed_back_unanswered() {
    let requests = [
        json!({"step": 1, "question": "What is your name?"}),
        json!({"step": 2, "question": "Never asked"}),
        json!({"step": 3, "next_question": {"question": "Nor this", "options": ["A", "B"]}}),
    ];
    let (results, screen) = serve("state-quit", &requests, "--numbered --state", |term| {
        term.wait("What is your name?");
        term.send("exit\r");
    });
    assert_eq!(
        results,
        [
            json!({"step": 1, "question": "What is your name?", "response": null}),
            json!({"step": 2, "question": "Never asked", "response": null}),
            json!({"step": 3, "next_question": {"question": "Nor this", "options": ["A", "B"]},
                   "response": null}),
        ],
        "{screen}"
    );
    assert!(!screen.contains("Never asked"), "{screen}");
    assert!(screen.contains("the session is over"), "{screen}");
    assert!(screen.contains("SERVE EXIT 0 LEFT 0"), "{screen}");
}

#[test]
fn serve_with_the_arrow_key_ui() {
    let requests = [
        json!({"question": "Colour?", "options": ["Red", "Green"]}),
        json!({"question": "Size?", "type": "integer", "min": 1, "max": 9}),
        contact_form(),
    ];
    let (results, screen) = serve("serve-terminal", &requests, "", |term| {
        term.wait("Esc cancel");
        term.key(DOWN);
        term.key(ENTER);
        term.wait("Size?");
        term.send("7");
        term.key(ENTER);
        // An MCP client's elicitation, in the same session.
        term.wait("Your full name");
        term.key(CTRL_X);
    });
    assert_eq!(results[0]["answer"], "Green");
    assert_eq!(results[1]["answer"], 7);
    assert_eq!(
        results[2],
        json!({"jsonrpc": "2.0", "id": 2, "result": {"action": "decline"}})
    );
    assert!(
        screen.contains("✔ Colour? › Green") && screen.contains("✔ Size? › 7"),
        "{screen}"
    );
}

#[test]
fn serve_state_mode_follows_a_workflow() {
    let requests = [
        json!({"step": 1, "question": "What is your name?"}),
        json!({}),
        json!({"step": 2, "next_question": {"question": "Tea or coffee?", "options": ["Tea", "Coffee"]}, "response": "old"}),
        json!({"step": 3, "done": true}),
        json!({"question": "Never asked"}),
    ];
    let (results, screen) = serve("state", &requests, "--numbered --state", |term| {
        term.wait("What is your name?");
        term.send("Ada\r");
        term.wait("Tea or coffee?");
        term.send("coffee\r");
    });
    assert_eq!(
        results.len(),
        4,
        "the completed state ends the session:\n{screen}"
    );
    assert_eq!(
        results[0],
        json!({"step": 1, "question": "What is your name?", "response": "Ada"})
    );
    assert_eq!(results[1], json!({}), "an empty state passes through");
    assert_eq!(results[2]["response"], "Coffee");
    assert_eq!(results[3], json!({"step": 3, "done": true}));
    assert!(
        screen.contains("the state is empty"),
        "a warning for the empty state:\n{screen}"
    );
    assert!(!screen.contains("Never asked"), "{screen}");
}

#[test]
fn ctrl_s_skips_an_optional_question_and_only_an_optional_one() {
    let request = json!({"questions": [
        {"id": "colour", "question": "Colour?", "options": ["Red", "Green"], "required": false},
        {"id": "size", "question": "Size?", "options": ["S", "M"]},
    ]});
    let mut term = Term::start("skip", &request, 24, 100, &[]);
    let screen = term.wait("Ctrl-S skip");
    assert!(screen.contains("Colour? (optional)"), "{screen}");
    term.key("\x13"); // Ctrl-S
    let screen = term.wait("Question 2 of 2");
    assert!(
        !screen.contains("Ctrl-S skip"),
        "a required question cannot be skipped:\n{screen}"
    );
    term.key("\x13");
    term.key(ENTER);
    term.wait("Review your answers");
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.result["answers"][0]["value"], Json::Null);
    assert_eq!(done.result["answers"][0]["skipped"], true);
    assert_eq!(
        done.result["answers"][1]["value"], "S",
        "Ctrl-S did nothing on the required one"
    );
}

/// The specification's contact-form elicitation, as the conformance suite has it.
fn contact_form() -> Json {
    let case = include_str!("conformance/elicit_spec_contact_form.json");
    serde_json::from_str::<Json>(case).unwrap()["elicit"].clone()
}

#[test]
fn an_elicitation_form_shows_its_server_once_checks_formats_and_submits() {
    let mut term = Term::start_with(
        "elicit",
        &contact_form(),
        24,
        100,
        &[],
        "elicit --server crm",
    );
    let screen = term.wait("Your full name");
    assert!(
        screen.contains("crm asks: Please provide your contact information"),
        "{screen}"
    );
    assert!(
        screen.contains("Ctrl-X decline"),
        "the key is offered: {screen}"
    );
    term.send("Monalisa Octocat");
    term.key(ENTER);
    term.wait("Your email address");
    term.wait("name@example.com");
    term.send("octocat at github");
    term.key(ENTER);
    term.wait("Type an email address, like name@example.com.");
    for _ in 0.."octocat at github".len() {
        term.send("\x7f");
    }
    term.send("octocat@github.com");
    term.key(ENTER);
    term.wait("Your age");
    term.send("30");
    term.key(ENTER);
    let screen = term.wait("Review your answers");
    assert!(
        screen.contains("Decline"),
        "the review offers Decline: {screen}"
    );
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.code, 0, "{}", done.screen);
    assert_eq!(
        done.result,
        json!({"jsonrpc": "2.0", "id": 2, "result": {"action": "accept",
            "content": {"name": "Monalisa Octocat", "email": "octocat@github.com", "age": 30}}})
    );
    assert_eq!(
        done.screen.matches("crm asks:").count(),
        1,
        "the context is printed once: {}",
        done.screen
    );
    assert!(done.screen.contains("✔ 3 answers sent"), "{}", done.screen);
    assert!(done.restored, "{}", done.screen);
}

#[test]
fn ctrl_x_declines_an_elicitation_and_only_an_elicitation() {
    let mut term = Term::start_with("decline", &contact_form(), 24, 100, &[], "elicit");
    term.wait("Your full name");
    term.send("Ada");
    term.key(ENTER);
    term.wait("Your email address");
    term.key(CTRL_X);
    let done = term.finish();
    assert_eq!(done.code, 5, "{}", done.screen);
    assert_eq!(done.result["result"], json!({"action": "decline"}));
    assert!(done.screen.contains("✖ Declined"), "{}", done.screen);
    assert!(done.restored, "{}", done.screen);

    // In an agent's request there is nothing to decline: Ctrl-X does nothing and is not offered.
    let mut term = Term::start("no_decline", &json!({"question": "Name?"}), 24, 100, &[]);
    let screen = term.wait("Name?");
    assert!(!screen.contains("Ctrl-X"), "{screen}");
    term.key(CTRL_X);
    term.send("Bo");
    term.key(ENTER);
    let done = term.finish();
    assert_eq!((done.code, done.result["answer"].clone()), (0, json!("Bo")));
}

#[test]
fn ctrl_c_dismisses_an_elicitation_with_exit_130_and_a_clean_terminal() {
    let mut term = Term::start_with("elicit_interrupt", &contact_form(), 24, 100, &[], "elicit");
    term.wait("Your full name");
    term.send("Ada");
    term.key(CTRL_C);
    let done = term.finish();
    assert_eq!(done.code, 130, "{}", done.screen);
    assert_eq!(done.result["result"], json!({"action": "cancel"}));
    assert!(done.screen.contains("✖ Interrupted"), "{}", done.screen);
    assert!(done.restored, "{}", done.screen);
}

#[test]
fn the_way_to_decline_stays_in_sight_on_a_narrow_terminal() {
    let form = json!({"message": "Pick", "requestedSchema": {"type": "object", "properties": {
        "tags": {"type": "array", "items": {"enum": ["a", "b"]}}}}});
    let mut term = Term::start_with("narrow_decline", &form, 24, 80, &[], "elicit");
    let screen = term.wait("Esc cancel");
    let hint = screen.lines().find(|l| l.contains("Esc cancel")).unwrap();
    assert!(
        hint.ends_with("Esc cancel · Ctrl-S skip · Ctrl-X decline"),
        "{screen}"
    );
    assert!(hint.starts_with("↑↓ move"), "{screen}");
    term.key(CTRL_X);
    assert_eq!(term.finish().code, 5);
}

#[test]
fn a_form_without_fields_is_accepted_or_declined_on_one_screen() {
    let consent = json!({"message": "May I restart the build server?",
        "requestedSchema": {"type": "object", "properties": {}}});
    let mut term = Term::start_with("consent", &consent, 24, 80, &[], "elicit");
    let screen = term.wait("Accept this request?");
    assert!(
        screen.contains("May I restart the build server?"),
        "{screen}"
    );
    term.key(DOWN);
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(
        (done.code, done.result.clone()),
        (5, json!({"action": "decline"}))
    );
    assert!(done.restored, "{}", done.screen);
}

/// kill -9 half-way through a batch: nothing can restore anything, but every answer given was
/// on the disk before the plugin saw it. The same command resumes from the journal: the
/// answers are shown as answered, the first unanswered question is asked, and the journal is
/// removed once the result is written.
#[test]
fn kill_9_then_the_same_command_resumes_from_the_journal() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("terminal");
    std::fs::create_dir_all(&dir).unwrap();
    let journal = dir.join("kill-9.journal");
    let _ = std::fs::remove_file(&journal);
    let request = json!({"questions": [
        colours(),
        {"question": "Release name?"},
        {"question": "Ship it?", "type": "confirm"},
    ]});
    let command = format!("ask --journal {}", journal.display());

    let mut term = Term::start_with("kill-9", &request, 24, 80, &[], &command);
    term.wait("Esc cancel");
    term.key(ENTER);
    term.wait("Release name?");
    term.send("Aurora");
    term.key(ENTER);
    term.wait("Ship it?");
    term.signal(libc::SIGKILL);
    let killed = term.finish();
    assert_eq!(killed.code, 137, "{}", killed.screen);
    assert!(journal.exists(), "{}", killed.screen);

    let mut term = Term::start_with("kill-9", &request, 24, 80, &[], &command);
    let screen = term.wait("Ship it?");
    assert!(
        screen.contains("Resumed where you left off; your 2 answers are kept:"),
        "{screen}"
    );
    assert!(screen.contains("✔ Favourite colour? › Green"), "{screen}");
    assert!(screen.contains("✔ Release name? › Aurora"), "{screen}");
    term.key("y");
    term.wait("Submit");
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.code, 0, "{}", done.screen);
    let answers: Vec<&Json> = done.result["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["value"])
        .collect();
    assert_eq!(answers, [&json!("Green"), &json!("Aurora"), &json!(true)]);
    assert!(!journal.exists(), "removed once the result is written");
    assert!(done.restored, "{}", done.screen);
}

/// Ctrl-Z, a SIGTSTP from elsewhere, and a SIGSTOP (which cannot be caught), each followed by
/// `fg`, in a shell with job control. While stopped, the terminal is the shell's again (canonical
/// mode, echo); continued, the question is drawn again where the person was, and answering goes
/// on as if nothing happened.
#[test]
fn suspended_with_ctrl_z_or_sigtstp_then_fg_restores_and_redraws() {
    for (name, stop) in [
        ("ctrl-z", "ctrl-z"),
        ("sigtstp", "SIGTSTP"),
        ("sigstop", "SIGSTOP"),
    ] {
        let request = write_request_file(name, &colours());
        let result = request.with_extension("out.json");
        let _ = std::fs::remove_file(&result);
        let command = format!(
            "set -m; {bin} ask {request} > {result}; printf 'STOPPED=%s ' $?; \
             stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; \
             printf 'WHILE STOPPED\\n'; fg > /dev/null",
            bin = env!("CARGO_BIN_EXE_interview"),
            request = request.display(),
            result = result.display(),
        );
        let mut term = Term::run(&command, result, 30, 80, &[]);
        term.wait("Esc cancel");
        term.key(DOWN);
        term.wait("❯ 3. Blue");
        match stop {
            "ctrl-z" => term.key("\x1a"),
            "SIGTSTP" => term.signal(libc::SIGTSTP),
            _ => term.signal(libc::SIGSTOP),
        }
        let screen = term.wait("WHILE STOPPED");
        let stopped = screen.split("STOPPED=").nth(1).unwrap();
        // 128 + the signal that stopped it: SIGTSTP for a stop the UI made itself.
        let code = if stop == "SIGSTOP" { "147 " } else { "148 " };
        assert!(stopped.starts_with(code), "{name}: stopped:\n{screen}");
        if stop != "SIGSTOP" {
            assert!(
                stopped.contains(" icanon echo "),
                "{name}: the terminal is given back before stopping:\n{screen}"
            );
            assert!(
                !screen
                    .split("WHILE STOPPED")
                    .next()
                    .unwrap()
                    .contains("Esc cancel"),
                "{name}: the question is erased before stopping:\n{screen}"
            );
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while !term
            .contents()
            .split("WHILE STOPPED")
            .nth(1)
            .is_some_and(|after| after.contains("❯ 3. Blue") && after.contains("Esc cancel"))
        {
            assert!(
                Instant::now() < deadline,
                "{name}: never drawn again:\n{}",
                term.contents()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        term.key(UP);
        term.key(ENTER);
        let done = term.finish();
        assert_eq!(done.code, 0, "{name}: {}", done.screen);
        assert_eq!(done.result["answer"], "Green", "{name}");
        assert!(done.restored, "{name}: {}", done.screen);
    }
}

/// An agent that starts interview as a background job of its terminal (a process group of
/// its own, as `codex exec` does, or `&` in a shell): interview never touches the terminal, so
/// it is neither stopped (SIGTTOU, SIGTTIN) nor takes keys from the program in front; nobody
/// is asked, at once. With the request in a file (keys from standard input) and on standard
/// input (keys from `/dev/tty`).
#[test]
fn a_background_job_leaves_the_terminal_to_the_program_in_front() {
    let request = write_request_file("background", &colours());
    for (name, input) in [
        ("file", request.display().to_string()),
        ("stdin", format!("- < {}", request.display())),
    ] {
        let result = request.with_extension(format!("{name}.out.json"));
        let _ = std::fs::remove_file(&result);
        // `set -m`: the job gets a process group of its own, not the terminal's foreground.
        let command = format!(
            "bash -c 'set -m; {bin} ask {input} > {result} & wait $!'",
            bin = env!("CARGO_BIN_EXE_interview"),
            result = result.display(),
        );
        let term = Term::run(&command, result, 24, 80, &[]);
        let started = Instant::now();
        let finished = term.finish();
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "{name}: took {:?}",
            started.elapsed()
        );
        assert_eq!(finished.code, 3, "{name}:\n{}", finished.screen);
        assert_eq!(finished.result["status"], "unavailable", "{name}");
        assert!(
            finished.screen.contains("not the job in the foreground"),
            "{name}:\n{}",
            finished.screen
        );
        assert!(
            !finished.output.contains("Favourite colour?"),
            "{name}: nothing drawn"
        );
        assert!(finished.restored, "{name}: the terminal as it was");
    }
}

/// `--tty PATH` into a terminal where a shell sits at its prompt would split the keys between
/// the shell and interview: refused, saying who reads there. Once the shell runs a program
/// that leaves the keys alone, the same terminal is taken.
#[test]
fn a_terminal_with_a_shell_at_its_prompt_is_not_taken() {
    let pty = open_pty(24, 80);
    let mut shell = CommandBuilder::new("bash");
    shell.args(["--norc", "--noprofile", "-i"]);
    shell.env("PS1", "prompt$ ");
    let mut child = pty.slave.spawn_command(shell).unwrap();
    let path = pty.master.tty_name().expect("a pseudo-terminal has a name");
    let path = path.to_str().unwrap().to_string();
    let mut reader = pty.master.try_clone_reader().unwrap();
    let seen = Arc::new(Mutex::new(String::new()));
    let into = seen.clone();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buffer) {
            if n == 0 {
                break;
            }
            into.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
    });
    let wait_for = |text: &str| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !seen.lock().unwrap().contains(text) {
            assert!(Instant::now() < deadline, "{text:?} never shown");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    wait_for("prompt$ ");
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_interview"))
        .args(["mcp", "--tty", &path])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(
        said.contains(&format!(
            "{path} is in use: bash waits for the keys typed there"
        )),
        "{said}"
    );

    let mut writer = pty.master.take_writer().unwrap();
    writer.write_all(b"echo sleeping; sleep 60\r").unwrap();
    wait_for("sleeping");
    std::thread::sleep(Duration::from_millis(200));
    let taken = std::process::Command::new(env!("CARGO_BIN_EXE_interview"))
        .args(["mcp", "--tty", &path])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&taken.stderr);
    assert!(!said.contains("is in use"), "{said}");
    assert!(
        said.contains("did not initialize"),
        "served until stdin ended: {said}"
    );
    child.kill().unwrap();
}
