//! The plugin's request readers, natively: any text as the arguments of every tool name (every
//! dialect) and as an MCP elicitation. A request is judged within the plugin's own compute
//! budget; `check` says valid or invalid, with a place and a reason; and a valid request, asked
//! of a person who answers at random, ends in a result an agent can read.
#![no_main]

use std::time::{Duration, Instant};

use interview_fuzz::Bytes;
use interview_guest::model::*;
use interview_guest::ui::Ui;
use interview_guest::{elicit, tool};
use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;

const TOOLS: &[&str] = &[
    "interview",
    "ask_user",
    "AskUserQuestion",
    "request_user_input",
    "question",
    "interactive_form_question",
    "user_select",
    "ask_question",
    "ask_multi_select",
    "resume_structured",
];

/// The plugin's compute budget per call, which the host enforces.
const BUDGET: Duration = Duration::from_secs(2);

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    // The arguments are the bytes up to the first NUL; what follows drives the person.
    let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    let Ok(arguments) = std::str::from_utf8(&rest[..end]) else {
        return;
    };
    let person = rest.get(end + 1..).unwrap_or(&[]);
    if choice as usize % (TOOLS.len() + 1) == TOOLS.len() {
        let started = Instant::now();
        let elicitation = elicit::elicit(arguments, Some("fuzz"), &mut Person::new(person));
        assert!(
            started.elapsed() < BUDGET,
            "elicit took {:?}",
            started.elapsed()
        );
        let reply: Json = serde_json::from_str(&elicitation.reply).expect("the reply is JSON");
        assert!(reply.is_object());
        return;
    }
    let name = TOOLS[choice as usize % (TOOLS.len() + 1)];
    let started = Instant::now();
    let checked = tool::check(name, arguments);
    let valid = checked.valid;
    let checked: Json = serde_json::from_str(&checked.json).expect("JSON");
    assert!(
        started.elapsed() < BUDGET,
        "check took {:?}",
        started.elapsed()
    );
    match checked["status"].as_str() {
        Some("valid") if valid => {}
        Some("invalid") if !valid => {
            let message = checked["error"]["message"].as_str().unwrap_or("");
            assert!(!message.is_empty(), "an invalid request without a reason");
            return;
        }
        other => panic!("check said {other:?}"),
    }
    let settings = Settings {
        skip_response: None,
    };
    let started = Instant::now();
    let result = tool::call(name, arguments, &settings, &mut Person::new(person));
    assert!(
        started.elapsed() < BUDGET,
        "call took {:?}",
        started.elapsed()
    );
    let said = result.status;
    let result: Json = serde_json::from_str(&result.json).expect("the result is JSON");
    let status = result["status"].as_str().unwrap_or("");
    assert!(
        ["answered", "cancelled", "declined"].contains(&status) || result.get("signal").is_some(),
        "a valid request ended {status:?}: {result}"
    );
    assert_eq!(
        said.name(),
        status,
        "the status beside the JSON says what the JSON says"
    );
    assert!(
        result["text"].is_string(),
        "no text for the agent: {result}"
    );
});

/// A person who answers at random from the fuzzer's bytes, within what each widget offers,
/// and leaves after a number of steps (a person does not go back and forth for ever).
struct Person<'a> {
    bytes: Bytes<'a>,
    steps: usize,
}

impl<'a> Person<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Person {
            bytes: Bytes(bytes),
            steps: 0,
        }
    }

    /// A way out or around, or None to answer.
    fn nav(&mut self) -> Option<Nav> {
        self.steps += 1;
        if self.steps > 64 || self.bytes.is_empty() {
            return Some(Nav::Cancel);
        }
        match self.bytes.byte() % 16 {
            0 => Some(Nav::Back),
            1 => Some(Nav::Skip),
            2 => Some(Nav::Decline),
            _ => None,
        }
    }

    fn index(&mut self, count: usize) -> u32 {
        (usize::from(self.bytes.byte()) % count.max(1)) as u32
    }
}

impl Ui for Person<'_> {
    fn mode(&mut self) -> Mode {
        Mode::Widgets
    }
    fn select(&mut self, _: &Frame, request: &mut SelectRequest) -> SelectReply {
        // The question lends its options for each showing and must get them back: asked
        // again (back, a refused answer), it still has them.
        assert!(!request.options.is_empty(), "a select without its options");
        if let Some(nav) = self.nav() {
            return SelectReply::Nav(nav);
        }
        match self.bytes.byte() % 8 {
            0 => SelectReply::Other(self.bytes.text(20)),
            1 => SelectReply::Discuss,
            _ => SelectReply::Picked(Pick {
                index: self.index(request.options.len()),
                note: self.bytes.maybe_text(10),
            }),
        }
    }
    fn multi_select(&mut self, _: &Frame, request: &mut MultiSelectRequest) -> MultiSelectReply {
        assert!(
            !request.options.is_empty(),
            "a multi-select without its options"
        );
        if let Some(nav) = self.nav() {
            return MultiSelectReply::Nav(nav);
        }
        let picked = (0..request.options.len() as u32)
            .filter(|_| self.bytes.flag())
            .collect();
        MultiSelectReply::Picked(MultiPick {
            picked,
            other: self.bytes.maybe_text(10),
            note: self.bytes.maybe_text(10),
        })
    }
    fn text(&mut self, _: &Frame, _: &TextRequest) -> TextReply {
        match self.nav() {
            Some(nav) => TextReply::Nav(nav),
            None => TextReply::Submitted(self.bytes.text(40)),
        }
    }
    fn confirm(&mut self, _: &Frame, _: &ConfirmRequest) -> ConfirmReply {
        match self.nav() {
            Some(nav) => ConfirmReply::Nav(nav),
            None => ConfirmReply::Answered(self.bytes.flag()),
        }
    }
    fn number(&mut self, _: &Frame, _: &NumberRequest) -> NumberReply {
        match self.nav() {
            Some(nav) => NumberReply::Nav(nav),
            None => NumberReply::Entered(self.bytes.text(12)),
        }
    }
    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        if self.nav().is_some() {
            return ReviewReply::Cancel;
        }
        match self.bytes.byte() % 4 {
            0 if !request.items.is_empty() => ReviewReply::Edit(self.index(request.items.len())),
            1 if request.declinable => ReviewReply::Decline,
            _ => ReviewReply::Submit,
        }
    }
}
