//! The line mode, for dumb terminals, pipes and screen readers: the plugin writes numbered lists
//! and reads one answer a line, through a host that only writes text and reads lines. Defaults
//! are said in words, and the end of input cancels (never a silent default), except at the
//! review, where every question has its answer and it sends them.
//!
//! Commands on any question: `back`, `skip`, `quit` (or `exit`), `help`, and in a request that
//! can be declined (an MCP elicitation), `decline`. A line that is exactly an option's label
//! picks that option, before it is read as a command, except `quit`, `exit` and `decline`.

mod read;
mod show;

use crate::model::*;
use crate::ui::Ui;
use read::{Command, Reading, command, leaves, read_confirm, read_multi, read_review, read_select};

/// Where the line mode writes and reads: the host's `write` and `read-line`.
pub trait LineIo {
    fn write(&mut self, spans: &[Span]);
    fn read_line(&mut self, hidden: bool, answering: Option<&Frame>) -> LineRead;
}

/// The host's `write` and `read-line` imports.
pub struct ImportedLines;

impl LineIo for ImportedLines {
    fn write(&mut self, spans: &[Span]) {
        crate::bindings::interview::plugin::ui::write(spans)
    }
    fn read_line(&mut self, hidden: bool, answering: Option<&Frame>) -> LineRead {
        crate::bindings::interview::plugin::ui::read_line(hidden, answering)
    }
}

/// Why the line mode stopped reading: every later widget cancels at once.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Stop {
    /// The input ended: at the review, the answers are sent.
    Ended,
    /// Interrupted, or the person typed `quit`.
    Left,
}

/// The widgets of the `ui` interface, asked line by line through `io`.
pub struct Lines<I> {
    io: I,
    /// Written at the next read, so that a question and its list go out in one write.
    out: Vec<Span>,
    /// Hints already given, so that each is said once.
    hinted: Vec<&'static str>,
    /// The context of the request, once said; and whether it can be declined.
    context: Option<String>,
    declinable: bool,
    stop: Option<Stop>,
    /// The question being read, for the host to keep what is typed to it.
    answering: Option<Frame>,
    /// Every line is read hidden, lists' too: a secret choice's, whose own answer could be
    /// typed at the list's prompt out of habit (see [`Ui::hide_typing`]).
    hide_typing: bool,
}

impl<I: LineIo> Lines<I> {
    pub fn new(io: I) -> Self {
        Lines {
            io,
            out: Vec::new(),
            hinted: Vec::new(),
            context: None,
            declinable: false,
            stop: None,
            answering: None,
            hide_typing: false,
        }
    }

    /// Writes what is held, if anything.
    fn flush(&mut self) {
        if !self.out.is_empty() {
            self.io.write(&self.out);
            self.out.clear();
        }
    }

    /// Holds `text` in `tone`, joined to the span before when they are alike.
    fn put(&mut self, tone: Tone, text: &str) {
        match self.out.last_mut() {
            Some(last) if last.tone == tone => last.text.push_str(text),
            _ => self.out.push(Span {
                text: text.to_string(),
                tone,
            }),
        }
    }

    /// One line of text in `tone`.
    fn say(&mut self, tone: Tone, text: &str) {
        self.put(tone, text);
        self.put(Tone::Plain, "\n");
    }

    fn error(&mut self, message: &str) {
        self.say(Tone::Alert, &format!("! {message}"));
    }

    /// A hint said the first time it applies; `key` names it.
    fn hint(&mut self, key: &'static str, text: &str) {
        if !self.hinted.contains(&key) {
            self.hinted.push(key);
            self.say(Tone::Faint, text);
        }
    }

    /// Reads one line after `prompt`. The end of input, an interrupt, `quit` and `exit` are a
    /// cancel, and stop the reading; `decline` declines where it may. A line over the host's
    /// limit is refused, and asked for again.
    fn read(&mut self, prompt: &str, hidden: bool) -> Result<String, Nav> {
        if self.stop.is_some() {
            // A stopped UI shows nothing more.
            self.out.clear();
            return Err(Nav::Cancel);
        }
        loop {
            self.put(Tone::Plain, prompt);
            self.flush();
            match self
                .io
                .read_line(hidden || self.hide_typing, self.answering.as_ref())
            {
                LineRead::TooLong(limit) => self.error(&format!(
                    "That line is more than {limit} bytes; type a shorter answer."
                )),
                LineRead::Line(line) => {
                    return match leaves(&line, self.declinable) {
                        Some(Nav::Cancel) => {
                            self.stop = Some(Stop::Left);
                            Err(Nav::Cancel)
                        }
                        Some(nav) => Err(nav),
                        None => Ok(line),
                    };
                }
                ended => {
                    self.stop = Some(match ended {
                        LineRead::Ended => Stop::Ended,
                        _ => Stop::Left,
                    });
                    // The prompt's line is left open: end it.
                    self.say(Tone::Plain, "");
                    self.flush();
                    return Err(Nav::Cancel);
                }
            }
        }
    }

    /// Before a list's prompt whose typing is hidden: says so, once.
    fn hint_hidden_list(&mut self) {
        if self.hide_typing {
            self.hint(
                "hidden-list",
                "What you type here is not shown: type a number.",
            );
        }
    }

    /// After a pick typed unseen: which options it took, so that the person sees it.
    fn say_picked(&mut self, picked: &[u32], options: &[Choice]) {
        if !self.hide_typing {
            return;
        }
        let said: Vec<String> = picked
            .iter()
            .filter_map(|&i| Some(format!("{}. {}", i + 1, options.get(i as usize)?.label)))
            .collect();
        if !said.is_empty() {
            self.say(Tone::Faint, &format!("Picked: {}", said.join(", ")));
        }
    }

    /// Asks for the typed answer of the free-text entry.
    fn read_other(&mut self, current: Option<&str>) -> Result<String, Nav> {
        let prompt = match current {
            Some(current) => format!("Your answer (Enter keeps {current:?}): "),
            None => "Your answer: ".to_string(),
        };
        let line = self.read(&prompt, false)?;
        Ok(if line.trim().is_empty() {
            current.unwrap_or_default().to_string()
        } else {
            line
        })
    }

    /// Reads a text answer: one line, or lines up to an empty one; `None` for `help`.
    fn read_text(&mut self, request: &TextRequest) -> Option<TextReply> {
        let first = match self.read("> ", request.secret) {
            Ok(line) => line,
            Err(nav) => return Some(TextReply::Nav(nav)),
        };
        match command(&first) {
            Some(Command::Nav(nav)) => return Some(TextReply::Nav(nav)),
            Some(Command::Help) => return None,
            None => {}
        }
        if first.trim().is_empty() {
            return Some(TextReply::Submitted(
                request.initial.clone().unwrap_or_default(),
            ));
        }
        if !request.multiline {
            return Some(TextReply::Submitted(first));
        }
        // Several lines, up to an empty one (a double Enter ends the answer).
        let mut lines = vec![first];
        loop {
            match self.read("  ", request.secret) {
                Ok(line) if line.is_empty() => {
                    return Some(TextReply::Submitted(lines.join("\n")));
                }
                Ok(line) => lines.push(line),
                // Ending the input after typing is still a cancel: nothing is sent half-typed.
                Err(nav) => return Some(TextReply::Nav(nav)),
            }
        }
    }
}

impl<I> Drop for Lines<I> {
    fn drop(&mut self) {
        debug_assert!(
            self.out.is_empty(),
            "the line mode ended with text unwritten"
        );
    }
}

impl<I: LineIo> Ui for Lines<I> {
    fn mode(&mut self) -> Mode {
        Mode::Lines
    }

    fn hide_typing(&mut self, hidden: bool) {
        self.hide_typing = hidden;
    }

    fn select(&mut self, frame: &Frame, request: &mut SelectRequest) -> SelectReply {
        self.show_select(frame, request);
        self.show_footer(frame);
        self.hint_hidden_list();
        loop {
            let line = match self.read("> ", false) {
                Ok(line) => line,
                Err(nav) => return SelectReply::Nav(nav),
            };
            match read_select(&line, request, frame.required) {
                Reading::Reply(reply) => {
                    if let SelectReply::Picked(pick) = &reply {
                        self.say_picked(&[pick.index], &request.options);
                    }
                    return reply;
                }
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

    fn multi_select(
        &mut self,
        frame: &Frame,
        request: &mut MultiSelectRequest,
    ) -> MultiSelectReply {
        // Picks that were just refused are no default: Enter would only send them again.
        if frame.error.is_some() {
            request.selected.clear();
            request.other_text = None;
        }
        self.show_multi(frame, request);
        self.show_footer(frame);
        self.hint_hidden_list();
        loop {
            let line = match self.read("> ", false) {
                Ok(line) => line,
                Err(nav) => return MultiSelectReply::Nav(nav),
            };
            match read_multi(&line, request) {
                Reading::Reply(reply) => {
                    if let MultiSelectReply::Picked(pick) = &reply {
                        self.say_picked(&pick.picked, &request.options);
                    }
                    return reply;
                }
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
        // After an error the initial value is the refused answer: an editor would let the
        // person fix it, but a line cannot be edited, so it is no default here.
        let request = &TextRequest {
            initial: request.initial.clone().filter(|_| frame.error.is_none()),
            ..request.clone()
        };
        loop {
            self.show_frame(frame);
            if let Some(initial) = &request.initial {
                let shown = if request.secret { "(hidden)" } else { initial };
                self.say(Tone::Plain, &format!("(default: {shown})"));
            } else if let Some(placeholder) = &request.placeholder {
                self.say(Tone::Faint, &format!("(for example: {placeholder})"));
            }
            if request.multiline {
                self.hint("multiline", "Type your answer; an empty line ends it.");
            }
            if request.secret {
                self.hint("hidden", "What you type is not shown.");
            }
            self.show_footer(frame);
            if let Some(reply) = self.read_text(request) {
                return reply;
            }
        }
    }

    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        self.show_frame(frame);
        self.show_footer(frame);
        let choices = match request.initial {
            Some(true) => "[Y/n]",
            Some(false) => "[y/N]",
            None => "[y/n]",
        };
        loop {
            let line = match self.read(&format!("{choices} > "), false) {
                Ok(line) => line,
                Err(nav) => return ConfirmReply::Nav(nav),
            };
            match read_confirm(&line, request.initial, frame.required) {
                Reading::Reply(reply) => return reply,
                Reading::Help => self.show_frame(frame),
                Reading::TypeOther(_) | Reading::Invalid(_) => {
                    self.error("Type y for yes or n for no.")
                }
            }
        }
    }

    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        let initial = request.initial.filter(|_| frame.error.is_none());
        self.show_frame(frame);
        if let Some(initial) = initial {
            self.say(
                Tone::Plain,
                &format!("(default: {})", crate::decimal::Decimal(initial)),
            );
        }
        self.show_footer(frame);
        loop {
            let line = match self.read("> ", false) {
                Ok(line) => line,
                Err(nav) => return NumberReply::Nav(nav),
            };
            match command(&line) {
                Some(Command::Nav(nav)) => return NumberReply::Nav(nav),
                Some(Command::Help) => self.show_frame(frame),
                None if line.trim().is_empty() => {
                    return NumberReply::Entered(
                        initial
                            .map(|v| crate::decimal::Decimal(v).to_string())
                            .unwrap_or_default(),
                    );
                }
                None => return NumberReply::Entered(line),
            }
        }
    }

    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        self.show_review(request);
        loop {
            let line = match self.read("> ", false) {
                Ok(line) => line,
                Err(Nav::Decline) => return ReviewReply::Decline,
                // Every question has its answer: the end of input sends them, so that piped
                // answers need no extra line; an interrupt or `quit` still cancels.
                Err(_) if self.stop == Some(Stop::Ended) => return ReviewReply::Submit,
                Err(_) => return ReviewReply::Cancel,
            };
            match read_review(&line, request.items.len()) {
                Reading::Reply(reply) => return reply,
                Reading::Help => self.show_review(request),
                Reading::TypeOther(_) => {}
                Reading::Invalid(message) => self.error(&message),
            }
        }
    }
}

#[cfg(test)]
mod tests;
