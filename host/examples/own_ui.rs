//! A UI of your own: the questions as chat messages, answered one line at a time.
//!
//! A UI only shows what the plugin gives it and reports what the person did; the plugin parses
//! the request, checks every answer (and asks again with an error in `frame.error` when it
//! refuses one), and writes the result. Everything a UI is given is already free of control
//! sequences.
//!
//! ```sh
//! printf '2\nRefactor the parser\n' | cargo run -p interview-host --example own_ui
//! ```

use std::io::BufRead;

use interview_host::Plugin;

use interview_host::ui::{
    ConfirmReply, ConfirmRequest, Frame, MultiPick, MultiSelectReply, MultiSelectRequest, Nav,
    NumberReply, NumberRequest, ReviewReply, ReviewRequest, SelectReply, SelectRequest, TextReply,
    TextRequest, Ui, UiMode,
};

/// Messages on stdout, replies from stdin. The end of input cancels: the plugin then returns
/// what was answered so far.
struct ChatUi {
    lines: std::io::Lines<std::io::StdinLock<'static>>,
}

impl ChatUi {
    fn say(&self, frame: &Frame) {
        if let Some(place) = &frame.place {
            println!("[{place}]");
        }
        if let Some(error) = &frame.error {
            println!("(not taken: {error})");
        }
        println!("bot: {}", frame.prompt);
        if let Some(hint) = &frame.hint {
            println!("     ({hint})");
        }
    }

    fn list(&self, options: &interview_host::ui::Options) {
        for (i, option) in options.iter().enumerate() {
            println!("     {}. {}", i + 1, option.label);
        }
    }

    /// The next line, or `None` at the end of input.
    fn reply(&mut self) -> Option<String> {
        let line = self.lines.next()?.ok()?;
        println!("you: {line}");
        Some(line)
    }
}

impl Ui for ChatUi {
    fn mode(&mut self) -> UiMode {
        UiMode::Widgets
    }

    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        self.say(frame);
        self.list(&request.options);
        let Some(line) = self.reply() else {
            return SelectReply::Nav(Nav::Cancel);
        };
        match line.trim().parse::<u32>() {
            Ok(n) if n >= 1 && (n as usize) <= request.options.len() => SelectReply::picked(n - 1),
            // Anything else is the person's own answer, where the question allows one; where
            // it does not, the plugin says so and asks again.
            _ => SelectReply::Other(line),
        }
    }

    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply {
        self.say(frame);
        self.list(&request.options);
        let Some(line) = self.reply() else {
            return MultiSelectReply::Nav(Nav::Cancel);
        };
        let picked = line
            .split(',')
            .filter_map(|n| n.trim().parse::<u32>().ok())
            .filter_map(|n| n.checked_sub(1))
            .collect();
        MultiSelectReply::Picked(MultiPick {
            picked,
            other: None,
            note: None,
        })
    }

    fn text(&mut self, frame: &Frame, _: &TextRequest) -> TextReply {
        self.say(frame);
        self.reply()
            .map_or(TextReply::Nav(Nav::Cancel), TextReply::Submitted)
    }

    fn confirm(&mut self, frame: &Frame, _: &ConfirmRequest) -> ConfirmReply {
        self.say(frame);
        match self.reply() {
            Some(line) => ConfirmReply::Answered(line.trim().starts_with(['y', 'Y'])),
            None => ConfirmReply::Nav(Nav::Cancel),
        }
    }

    fn number(&mut self, frame: &Frame, _: &NumberRequest) -> NumberReply {
        self.say(frame);
        self.reply()
            .map_or(NumberReply::Nav(Nav::Cancel), NumberReply::Entered)
    }

    fn review(&mut self, _: &ReviewRequest) -> ReviewReply {
        // A chat has no review screen: what was said is sent.
        ReviewReply::Submit
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ui = ChatUi {
        lines: std::io::stdin().lock().lines(),
    };
    let mut session = Plugin::load()?.session(ui)?;
    let result = session.call(
        "interview",
        r#"{"questions": [
            {"question": "Which task next?", "header": "Task",
             "options": ["Fix the flaky test", "Update the dependencies"]},
            {"question": "Anything I should know before starting?", "required": false}
        ]}"#,
    )?;
    let result: serde_json::Value = serde_json::from_str(&result.json)?;
    println!("{}", result["text"].as_str().unwrap_or_default());
    Ok(())
}
