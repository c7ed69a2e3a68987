//! The numbered line mode: for dumb terminals, pipes and screen readers. Lists are numbered,
//! one answer is one line, defaults are said in words, and the end of input cancels (never a
//! silent default).
//!
//! Commands on any question: `back`, `skip`, `quit` (or `exit`), `help`, and in a request that
//! can be declined (an MCP elicitation), `decline`. A line that is exactly an option's label
//! picks that option, before it is read as a command, except `quit`, `exit` and `decline`.

mod answers;
mod show;

use std::collections::HashSet;
use std::io::Write;

use super::*;
use crate::input::{Input, LineReader, LineSource};
use answers::{Command, Reading, command, read_multi, read_select};

/// A line-by-line UI: prompts and lists to `out`, answers from `input`.
pub struct NumberedUi {
    input: Box<dyn LineSource>,
    out: Box<dyn Write>,
    style: Style,
    /// A line read ahead by [`Ui::mode`] to find out whether anyone is there.
    peeked: Option<Input>,
    /// Whether [`Ui::mode`] has looked for a person yet: it reads ahead only once.
    probed: bool,
    /// Hints already given, so that each is said once.
    hinted: HashSet<&'static str>,
    /// The context of the request being asked, once said; and whether it can be declined.
    context: Option<String>,
    declinable: bool,
    stop: Option<StopReason>,
}

impl NumberedUi {
    /// Reads answers from `input` and writes to `out`; `colour` adds bold and dim attributes.
    pub fn new(input: impl LineSource + 'static, out: impl Write + 'static, colour: bool) -> Self {
        NumberedUi {
            input: Box::new(input),
            // Held until an answer is read or the request ends: a question and its list go
            // out in one write, not two a line (each a system call, and a terminal's redraw).
            out: Box::new(std::io::BufWriter::new(out)),
            style: Style { on: colour },
            peeked: None,
            probed: false,
            hinted: HashSet::new(),
            context: None,
            declinable: false,
            stop: None,
        }
    }

    /// Answers from standard input, prompts to standard error.
    pub fn stdio() -> Self {
        let (lines, _) = LineReader::stdin();
        NumberedUi::new(lines, std::io::stderr(), false)
    }

    fn next_input(&mut self) -> Input {
        let _ = self.out.flush();
        self.peeked
            .take()
            .unwrap_or_else(|| self.input.next_input())
    }

    /// Reads one line after `prompt`; the end of input or an interrupt is a cancel, and so is
    /// `quit`, which also says the person has left; `decline` declines where it may.
    /// A line over the reader's limit is refused, and asked for again.
    fn read(&mut self, prompt: &str) -> Result<String, Nav> {
        let input = loop {
            self.say_inline(prompt);
            match self.next_input() {
                Input::TooLong(limit) => {
                    // The same words as the Python and npm hosts' line UIs.
                    self.error(&format!(
                        "That line is more than {limit} bytes; type a shorter answer."
                    ))
                }
                input => break input,
            }
        };
        match input {
            Input::Line(line) if matches!(line.trim().to_lowercase().as_str(), "quit" | "exit") => {
                self.stop.get_or_insert(StopReason::Quit);
                Err(Nav::Cancel)
            }
            Input::Line(line) if self.declinable && line.trim().eq_ignore_ascii_case("decline") => {
                Err(Nav::Decline)
            }
            Input::Line(line) => Ok(line),
            other => {
                self.stop.get_or_insert(match other {
                    Input::Interrupted => StopReason::Interrupted,
                    _ => StopReason::Ended,
                });
                self.say("");
                Err(Nav::Cancel)
            }
        }
    }

    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    fn say_inline(&mut self, text: &str) {
        let _ = write!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn error(&mut self, message: &str) {
        let line = self.style.error(&format!("! {message}"));
        self.say(&line);
    }

    /// A hint said the first time it applies; `key` names it.
    fn hint(&mut self, key: &'static str, text: &str) {
        if self.hinted.insert(key) {
            let line = self.style.dim(text);
            self.say(&line);
        }
    }

    /// Asks for the typed answer of the "Something else" entry.
    fn read_other(&mut self, current: Option<&str>) -> Result<String, Nav> {
        let prompt = match current {
            Some(current) => format!("Your answer (Enter keeps {current:?}): "),
            None => "Your answer: ".to_string(),
        };
        let line = self.read(&prompt)?;
        Ok(if line.trim().is_empty() {
            current.unwrap_or_default().to_string()
        } else {
            line
        })
    }

    /// Reads a text answer: one line, or lines up to an empty one.
    fn read_text(&mut self, request: &TextRequest) -> TextReply {
        let first = match self.read("> ") {
            Ok(line) => line,
            Err(nav) => return TextReply::Nav(nav),
        };
        if let Some(Command::Nav(nav)) = command(first.trim()) {
            return TextReply::Nav(nav);
        }
        if first.trim().is_empty() {
            return TextReply::Submitted(request.initial.clone().unwrap_or_default());
        }
        if !request.multiline {
            return TextReply::Submitted(first);
        }
        // Several lines, up to an empty one (a double Enter ends the answer).
        let mut lines = vec![first];
        loop {
            match self.read("  ") {
                Ok(line) if line.is_empty() => return TextReply::Submitted(lines.join("\n")),
                Ok(line) => lines.push(line),
                // Ending the input after typing is still a cancel: nothing is sent half-typed.
                Err(nav) => return TextReply::Nav(nav),
            }
        }
    }
}

/// After an error, a text or number widget's initial value is the rejected answer: an editor
/// would let the person fix it, but a line cannot be edited, so it is no default here.
fn without_rejected_draft<R, T>(
    frame: &Frame,
    mut request: R,
    initial: impl Fn(&mut R) -> &mut Option<T>,
) -> R {
    if frame.error.is_some() {
        *initial(&mut request) = None;
    }
    request
}

impl Drop for NumberedUi {
    fn drop(&mut self) {
        let _ = self.out.flush();
    }
}

impl Ui for NumberedUi {
    /// The input ended, was interrupted, or the person quit; a stopped UI shows nothing more
    /// and cancels every question.
    fn stop_reason(&self) -> Option<StopReason> {
        self.stop
    }

    /// The next request's context is said again, even when it is the same.
    fn finished(&mut self) {
        self.context = None;
        self.declinable = false;
        let _ = self.out.flush();
    }

    fn resumed(&mut self, answered: &[Given]) {
        self.say("");
        let line = self.style.dim(&super::resumed_heading(answered.len()));
        self.say(&line);
        for given in answered {
            let (title, answer) = super::resumed_line(given);
            self.say(&format!("  ✔ {title}: {answer}"));
        }
        let _ = self.out.flush();
    }

    fn mode(&mut self) -> UiMode {
        // With a pipe or file, nobody may be there: input that ends before its first line
        // means no person can answer, so say so at once rather than cancel.
        // Asked again (a host may ask before the plugin does), the answer is the same.
        if !self.input.is_terminal() && !self.probed {
            self.probed = true;
            self.peeked = Some(self.input.next_input());
        }
        if self.peeked == Some(Input::End) {
            return UiMode::Unavailable(Absence::NoInput);
        }
        UiMode::Numbered
    }

    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        if self.stop.is_some() {
            return SelectReply::Nav(Nav::Cancel);
        }
        self.show_select(frame, request);
        self.show_footer(frame);
        loop {
            let line = match self.read("> ") {
                Ok(line) => line,
                Err(nav) => return SelectReply::Nav(nav),
            };
            match read_select(&line, request, frame.required) {
                Reading::Reply(reply) => return reply,
                Reading::TypeOther(_) => {
                    return match self.read_other(request.other_text.as_deref()) {
                        Ok(text) => SelectReply::Other(text),
                        Err(nav) => SelectReply::Nav(nav),
                    };
                }
                Reading::Help => self.show_select(frame, request),
                Reading::Invalid(message) => self.error(&message),
            }
        }
    }

    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply {
        if self.stop.is_some() {
            return MultiSelectReply::Nav(Nav::Cancel);
        }
        // Picks that were just refused are no default: Enter would only send them again.
        let request = &if frame.error.is_some() {
            MultiSelectRequest {
                selected: Vec::new(),
                other_text: None,
                ..request.clone()
            }
        } else {
            request.clone()
        };
        self.show_multi(frame, request);
        self.show_footer(frame);
        loop {
            let line = match self.read("> ") {
                Ok(line) => line,
                Err(nav) => return MultiSelectReply::Nav(nav),
            };
            match read_multi(&line, request) {
                Reading::Reply(reply) => return reply,
                Reading::TypeOther(picked) => {
                    return match self.read_other(request.other_text.as_deref()) {
                        Ok(text) => MultiSelectReply::Picked(MultiPick {
                            picked,
                            other: Some(text),
                            note: None,
                        }),
                        Err(nav) => MultiSelectReply::Nav(nav),
                    };
                }
                Reading::Help => self.show_multi(frame, request),
                Reading::Invalid(message) => self.error(&message),
            }
        }
    }

    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        if self.stop.is_some() {
            return TextReply::Nav(Nav::Cancel);
        }
        let request = &without_rejected_draft(frame, request.clone(), |r| &mut r.initial);
        self.show_frame(frame);
        if let Some(initial) = &request.initial {
            let shown = if request.secret {
                "(hidden)".to_string()
            } else {
                initial.clone()
            };
            self.say(&format!("(default: {shown})"));
        } else if let Some(placeholder) = &request.placeholder {
            let line = self.style.dim(&format!("(for example: {placeholder})"));
            self.say(&line);
        }
        if request.multiline {
            self.hint("multiline", "Type your answer; an empty line ends it.");
        }
        self.show_footer(frame);
        if request.secret {
            self.input.set_echo(false);
        }
        let reply = self.read_text(request);
        if request.secret {
            self.input.set_echo(true);
            if self.input.is_terminal() {
                self.say("");
            }
        }
        reply
    }

    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        if self.stop.is_some() {
            return ConfirmReply::Nav(Nav::Cancel);
        }
        self.show_frame(frame);
        self.show_footer(frame);
        let choices = match request.initial {
            Some(true) => "[Y/n]",
            Some(false) => "[y/N]",
            None => "[y/n]",
        };
        loop {
            let line = match self.read(&format!("{choices} > ")) {
                Ok(line) => line,
                Err(nav) => return ConfirmReply::Nav(nav),
            };
            let word = line.trim().to_lowercase();
            match (word.as_str(), request.initial) {
                ("y" | "yes", _) => return ConfirmReply::Answered(true),
                ("n" | "no", _) => return ConfirmReply::Answered(false),
                ("", Some(initial)) => return ConfirmReply::Answered(initial),
                // As on every optional question: an empty line with no default skips it.
                ("", None) if !frame.required => return ConfirmReply::Nav(Nav::Skip),
                _ => match command(&word) {
                    Some(Command::Nav(nav)) => return ConfirmReply::Nav(nav),
                    Some(Command::Help) => self.show_frame(frame),
                    None => self.error("Type y for yes or n for no."),
                },
            }
        }
    }

    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        if self.stop.is_some() {
            return ReviewReply::Cancel;
        }
        let items = &request.items;
        self.show_review(request);
        loop {
            let line = match self.read("> ") {
                Ok(line) => line,
                Err(Nav::Decline) => return ReviewReply::Decline,
                // Every question has its answer: the end of input sends them, so that piped
                // answers need no extra line; an interrupt still cancels.
                Err(_) if self.stop == Some(StopReason::Ended) => return ReviewReply::Submit,
                Err(_) => return ReviewReply::Cancel,
            };
            let typed = line.trim();
            match (typed.parse::<usize>(), command(typed)) {
                _ if typed.is_empty() => return ReviewReply::Submit,
                (Ok(n), _) if (1..=items.len()).contains(&n) => {
                    return ReviewReply::Edit(n as u32 - 1);
                }
                (_, Some(Command::Nav(Nav::Back))) if !items.is_empty() => {
                    return ReviewReply::Edit(items.len() as u32 - 1);
                }
                (_, Some(Command::Nav(Nav::Cancel))) => return ReviewReply::Cancel,
                (_, Some(Command::Help)) => self.show_review(request),
                _ if items.is_empty() => self.error("Press Enter to accept."),
                _ => self.error(&format!(
                    "Press Enter to send, or type a number from 1 to {} to change an answer.",
                    items.len()
                )),
            }
        }
    }

    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        if self.stop.is_some() {
            return NumberReply::Nav(Nav::Cancel);
        }
        let request = &without_rejected_draft(frame, *request, |r| &mut r.initial);
        self.show_frame(frame);
        if let Some(initial) = request.initial {
            self.say(&format!("(default: {initial})"));
        }
        self.show_footer(frame);
        loop {
            let line = match self.read("> ") {
                Ok(line) => line,
                Err(nav) => return NumberReply::Nav(nav),
            };
            match command(line.trim()) {
                Some(Command::Nav(nav)) => return NumberReply::Nav(nav),
                Some(Command::Help) => self.show_frame(frame),
                None if line.trim().is_empty() => {
                    return NumberReply::Entered(
                        request.initial.map(|v| v.to_string()).unwrap_or_default(),
                    );
                }
                None => return NumberReply::Entered(line),
            }
        }
    }
}

/// Terminal attributes, or none.
struct Style {
    on: bool,
}

impl Style {
    fn wrap(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    fn bold(&self, text: &str) -> String {
        self.wrap("1", text)
    }
    fn dim(&self, text: &str) -> String {
        self.wrap("2", text)
    }
    fn error(&self, text: &str) -> String {
        self.wrap("1;31", text)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::rc::Rc;

    use super::*;
    use crate::ui::testing::frame;

    /// Inputs as a reader gives them, then the end.
    struct Given(VecDeque<Input>);

    impl LineSource for Given {
        fn next_input(&mut self) -> Input {
            self.0.pop_front().unwrap_or(Input::End)
        }
        fn is_terminal(&self) -> bool {
            false
        }
    }

    #[derive(Clone, Default)]
    struct Screen(Rc<RefCell<Vec<u8>>>);

    impl Write for Screen {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn secret() -> TextRequest {
        TextRequest {
            multiline: false,
            placeholder: None,
            initial: None,
            secret: true,
            min_length: None,
            max_length: None,
        }
    }

    #[test]
    fn a_line_over_the_limit_is_refused_and_asked_for_again() {
        let screen = Screen::default();
        let inputs = [Input::TooLong(8), Input::Line("hunter2".into())];
        let mut ui = NumberedUi::new(Given(inputs.into()), screen.clone(), false);
        let reply = ui.text(&frame("Token?", true), &secret());
        assert_eq!(reply, TextReply::Submitted("hunter2".into()));
        let shown = String::from_utf8(screen.0.borrow().clone()).unwrap();
        assert!(
            shown.contains("> ! That line is more than 8 bytes; type a shorter answer.\n> "),
            "{shown}"
        );
    }

    #[test]
    fn the_end_of_input_after_a_line_over_the_limit_cancels() {
        let inputs = [Input::Line("fits".into()), Input::TooLong(8)];
        let mut ui = NumberedUi::new(Given(inputs.into()), std::io::sink(), false);
        let multiline = TextRequest {
            multiline: true,
            secret: false,
            ..secret()
        };
        let reply = ui.text(&frame("Notes?", true), &multiline);
        assert_eq!(reply, TextReply::Nav(Nav::Cancel));
        assert_eq!(ui.stop_reason(), Some(StopReason::Ended));
    }
}
