//! The README's samples are what the program does: its screens are drawn by answering its
//! example in a real pseudo-terminal, its numbered screen and result by the command itself, and
//! the plugin's size is the committed file's. A change to any of them fails here until the README
//! says it too.

use serde_json::Value as Json;

mod common;
use common::term::*;

const README: &str = include_str!("../README.md");

/// The README's ```text block that `starts` (its first line), as lines.
fn sample(starts: &str) -> Vec<&'static str> {
    let mut blocks = README.split("```text\n").skip(1);
    let block = blocks
        .find(|block| block.starts_with(starts))
        .unwrap_or_else(|| panic!("the README has no text sample starting {starts:?}"));
    let block = block.split("```").next().unwrap();
    block.lines().collect()
}

/// Whether `lines` are on `screen`, one under the other, as drawn (trailing blanks aside).
fn shows(screen: &str, lines: &[&str]) -> bool {
    let drawn: Vec<&str> = screen.lines().map(str::trim_end).collect();
    drawn.windows(lines.len()).any(|window| window == lines)
}

fn example() -> Json {
    serde_json::from_str(include_str!("../examples/deploy.json")).unwrap()
}

#[test]
fn the_readmes_terminal_screens_are_what_answering_its_example_draws() {
    let mut term = Term::start("readme", &example(), 30, 100, &[]);
    term.wait("Question 1 of 5");
    term.key(ENTER);
    term.wait("Question 2 of 5");
    term.key(DOWN);
    term.key(DOWN);
    term.key(" ");
    let multi = sample("✔ Which environment should I deploy to? › Staging\nQuestion 2");
    let screen = term.wait("Done (3 selected)");
    assert!(
        shows(&screen, &multi),
        "the README shows:\n{multi:#?}\nthe terminal:\n{screen}"
    );
    term.key(ENTER);
    term.wait("Question 3 of 5");
    term.key(ENTER);
    term.wait("Question 4 of 5");
    term.key(ENTER);
    term.wait("Question 5 of 5");
    term.send("Friday freeze");
    term.key(ENTER);
    let review = sample("? Review your answers");
    let screen = term.wait("❯ Submit");
    assert!(
        shows(&screen, &review),
        "the README shows:\n{review:#?}\nthe terminal:\n{screen}"
    );
    term.key(ENTER);
    let done = term.finish();
    assert_eq!(done.code, 0, "{}", done.screen);
    let transcript = sample("✔ Which environment should I deploy to? › Staging\n✔");
    assert!(
        shows(&done.screen, &transcript),
        "the README shows:\n{transcript:#?}\nthe terminal:\n{}",
        done.screen
    );
    // The result the README shows, as far as it shows it (up to its "...").
    let text = done.result["text"].as_str().unwrap();
    let shown = README
        .split_once(r#""text": ""#)
        .and_then(|(_, rest)| rest.split_once(r#"...""#))
        .map(|(shown, _)| shown.replace("\\n", "\n"))
        .expect("the README shows the result's text");
    assert!(
        text.starts_with(&shown),
        "README: {shown:?}\nresult: {text:?}"
    );
}

#[test]
fn the_readmes_numbered_screen_is_what_the_command_prints() {
    let numbered = sample("Question 1 of 5");
    let (typed, screen) = numbered.split_last().unwrap();
    let typed = typed
        .strip_prefix("> ")
        .expect("the README's sample ends at the prompt");
    let path = common::write_request("readme-numbered", &example());
    let output = common::run(&["ask", &path, "--numbered"], &format!("{typed}\n"));
    let printed = String::from_utf8_lossy(&output.stderr);
    let mut expected = screen.to_vec();
    expected.push(">");
    assert!(
        shows(&printed, &expected),
        "the README shows:\n{expected:#?}\nthe command printed:\n{printed}"
    );
}

#[test]
fn the_readme_gives_the_plugins_size_to_ten_kilobytes() {
    let bytes = std::fs::metadata(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/host/plugin/interview.wasm"
    ))
    .unwrap()
    .len();
    let said: u64 = README
        .split_once("host/plugin/interview.wasm`, ")
        .and_then(|(_, rest)| rest.split_once(" KB"))
        .and_then(|(kb, _)| kb.parse().ok())
        .expect("the README gives the plugin's size in KB");
    let rounded = (bytes + 5_000) / 10_000 * 10;
    assert_eq!(said, rounded, "the plugin is {bytes} bytes");
}
