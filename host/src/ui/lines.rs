//! The line mode's host side, for dumb terminals, pipes and screen readers: it writes what the
//! plugin writes and reads the lines typed. The plugin draws the numbered lists and says what
//! each line means, so every host reads a line the same way; this side only does the I/O: a
//! terminal's attributes for the plugin's tones, echo off for a secret, the line limit, and
//! noticing that nobody is there.

use std::io::Write;

use super::*;
use crate::input::{Input, LineReader, LineSource};

/// How long a pipe or file that has sent nothing yet is given to show it ends before the
/// question is drawn: a program closing its end at once (`< /dev/null`, an empty pipe) means
/// nobody is there, and is told apart from one that is still to write, or a person.
const NOBODY_PATIENCE: std::time::Duration = std::time::Duration::from_millis(500);

/// A line-by-line UI: the plugin's text to `out`, lines from `input`.
pub struct LineUi {
    input: Box<dyn LineSource>,
    out: Box<dyn Write>,
    /// Bold, dim and red for the plugin's tones.
    colour: bool,
    /// Whether [`Ui::mode`] found nobody there, once it looked: the answer stays the same for
    /// the rest of the UI's life (a request played back into a fresh instance asks again).
    nobody: Option<bool>,
    stop: Option<StopReason>,
}

impl LineUi {
    /// Reads lines from `input` and writes to `out`; `colour` shows the plugin's tones with a
    /// terminal's attributes.
    pub fn new(input: impl LineSource + 'static, out: impl Write + 'static, colour: bool) -> Self {
        LineUi {
            input: Box::new(input),
            // Held until a line is read: a question and its list go out in one write, not one
            // a line (each a system call, and a terminal's redraw).
            out: Box::new(std::io::BufWriter::new(out)),
            colour,
            nobody: None,
            stop: None,
        }
    }

    /// Lines from standard input, the plugin's text to standard error.
    pub fn stdio() -> Self {
        let (lines, _) = LineReader::stdin();
        LineUi::new(lines, std::io::stderr(), false)
    }

    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    fn next_input(&mut self) -> Input {
        let _ = self.out.flush();
        self.input.next_input()
    }
}

/// A terminal's attributes for a tone, with the code that ends them.
fn attributes(tone: Tone) -> Option<&'static str> {
    match tone {
        Tone::Plain => None,
        Tone::Strong => Some("\x1b[1m"),
        Tone::Faint => Some("\x1b[2m"),
        Tone::Alert => Some("\x1b[1;31m"),
    }
}

impl Drop for LineUi {
    fn drop(&mut self) {
        let _ = self.out.flush();
    }
}

impl Ui for LineUi {
    fn mode(&mut self) -> UiMode {
        // With a pipe or file, nobody may be there: input that ends before its first line means
        // no person can answer, so say so at once rather than cancel. Not waited for past a
        // moment: the question is drawn before any line comes, as a person needs it.
        // Asked again (a host may ask before the plugin does), the answer is the same.
        let input = &mut self.input;
        let nobody = *(self.nobody)
            .get_or_insert_with(|| !input.is_terminal() && input.ended_already(NOBODY_PATIENCE));
        match nobody {
            true => UiMode::Unavailable(Absence::NoInput),
            false => UiMode::Lines,
        }
    }

    // Written even once the input has stopped: the plugin ends the line its prompt left open,
    // and writes nothing more after that.
    fn write(&mut self, spans: &[Span]) {
        for span in spans {
            // Cleaned as every widget's text is: a second line of defence against a component
            // other than the built-in one.
            let text = sanitize::text(&span.text);
            match attributes(span.tone).filter(|_| self.colour) {
                // Each line set off alone, so that a line break never carries an attribute.
                Some(on) => {
                    for (i, line) in text.split('\n').enumerate() {
                        let _ = match (i, line.is_empty()) {
                            (0, true) => Ok(()),
                            (0, false) => write!(self.out, "{on}{line}\x1b[0m"),
                            (_, true) => writeln!(self.out),
                            (_, false) => write!(self.out, "\n{on}{line}\x1b[0m"),
                        };
                    }
                }
                None => {
                    let _ = write!(self.out, "{text}");
                }
            }
        }
    }

    fn read_line(&mut self, hidden: bool) -> LineRead {
        if let Some(stop) = self.stop {
            return match stop {
                StopReason::Interrupted => LineRead::Interrupted,
                StopReason::Ended => LineRead::Ended,
            };
        }
        if hidden {
            self.input.set_echo(false);
        }
        let input = self.next_input();
        if hidden {
            self.input.set_echo(true);
            // The Enter that ended the line was not echoed either.
            if self.input.is_terminal() {
                self.say("");
            }
        }
        match input {
            Input::Line(line) => LineRead::Line(line),
            Input::TooLong(limit) => LineRead::TooLong(limit as u64),
            Input::End => {
                self.stop = Some(StopReason::Ended);
                LineRead::Ended
            }
            Input::Interrupted => {
                self.stop = Some(StopReason::Interrupted);
                LineRead::Interrupted
            }
        }
    }

    /// The input ended or was interrupted; a stopped UI shows nothing more.
    fn stop_reason(&self) -> Option<StopReason> {
        self.stop
    }

    fn finished(&mut self) {
        let _ = self.out.flush();
    }

    /// What the person typed before, as typed: a line-mode host sees lines, not answers (the
    /// review says them in words).
    fn resumed(&mut self, answered: &[Given]) {
        self.say("");
        let heading = if answered.is_empty() {
            super::resumed_heading(0)
        } else {
            "Resumed where you left off; what you typed is kept:".to_string()
        };
        match attributes(Tone::Faint).filter(|_| self.colour) {
            Some(on) => self.say(&format!("{on}{heading}\x1b[0m")),
            None => self.say(&heading),
        }
        for given in answered {
            let (title, typed) = super::resumed_line(given);
            let typed = if typed.is_empty() { "(Enter)" } else { &typed };
            self.say(&format!("  ✔ {title}: {typed}"));
        }
        let _ = self.out.flush();
    }

    // The plugin draws the line mode's widgets itself, through `write` and `read-line`: these
    // are never called while `mode` says `lines`.
    widgets_that_cancel!();
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::rc::Rc;

    use super::*;

    /// Inputs as a reader gives them, then the end.
    struct Inputs(VecDeque<Input>, bool);

    impl LineSource for Inputs {
        fn next_input(&mut self) -> Input {
            self.0.pop_front().unwrap_or(Input::End)
        }
        fn is_terminal(&self) -> bool {
            self.1
        }
        fn ended_already(&mut self, _: std::time::Duration) -> bool {
            self.0.front().is_none_or(|first| *first == Input::End)
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

    fn span(text: &str, tone: Tone) -> Span {
        Span {
            text: text.into(),
            tone,
        }
    }

    #[test]
    fn tones_become_attributes_that_never_span_a_line_break() {
        let screen = Screen::default();
        let mut ui = LineUi::new(Inputs(VecDeque::new(), true), screen.clone(), true);
        ui.write(&[
            span("\nQuestion 1 of 2\n", Tone::Faint),
            span("Deploy?\x1b[2J", Tone::Strong),
            span("\n> ", Tone::Plain),
        ]);
        ui.finished();
        let shown = String::from_utf8(screen.0.borrow().clone()).unwrap();
        assert_eq!(
            shown,
            "\n\x1b[2mQuestion 1 of 2\x1b[0m\n\x1b[1mDeploy?\x1b[0m\n> "
        );
    }

    #[test]
    fn input_that_ends_at_once_is_nobody_and_a_stopped_ui_reads_nothing() {
        let mut ui = LineUi::new(Inputs(VecDeque::new(), false), std::io::sink(), false);
        assert_eq!(ui.mode(), UiMode::Unavailable(Absence::NoInput));
        assert_eq!(ui.mode(), UiMode::Unavailable(Absence::NoInput));

        let screen = Screen::default();
        let lines = [Input::Line("1".into()), Input::Interrupted];
        let mut ui = LineUi::new(Inputs(lines.into(), false), screen.clone(), false);
        assert_eq!(ui.mode(), UiMode::Lines);
        assert_eq!(ui.read_line(false), LineRead::Line("1".into()));
        assert_eq!(ui.read_line(false), LineRead::Interrupted);
        assert_eq!(ui.read_line(false), LineRead::Interrupted);
        assert_eq!(ui.stop_reason(), Some(StopReason::Interrupted));
        // The line the prompt left open is ended.
        ui.write(&[span("\n", Tone::Plain)]);
        ui.finished();
        assert_eq!(screen.0.borrow().as_slice(), b"\n");
    }

    #[test]
    fn a_ui_that_found_someone_there_says_so_again_once_its_input_has_ended() {
        let lines = [Input::Line("1".into())];
        let mut ui = LineUi::new(Inputs(lines.into(), false), std::io::sink(), false);
        assert_eq!(ui.mode(), UiMode::Lines);
        assert_eq!(ui.read_line(false), LineRead::Line("1".into()));
        assert_eq!(
            ui.mode(),
            UiMode::Lines,
            "asked again, by a request played back"
        );
    }

    #[test]
    fn a_line_over_the_limit_is_said_to_the_plugin() {
        let mut ui = LineUi::new(
            Inputs([Input::TooLong(8)].into(), true),
            std::io::sink(),
            false,
        );
        assert_eq!(ui.read_line(true), LineRead::TooLong(8));
        assert_eq!(ui.read_line(true), LineRead::Ended);
        assert_eq!(ui.stop_reason(), Some(StopReason::Ended));
    }
}
