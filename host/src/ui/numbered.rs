//! The numbered line mode: for dumb terminals, pipes and screen readers. Lists are numbered,
//! one answer is one line, defaults are said in words, and the end of input cancels (never a
//! silent default).
//!
//! Commands on any question: `back`, `skip`, `quit` (or `exit`), `help`, and in a request that
//! can be declined (an MCP elicitation), `decline`. A line that is exactly an option's label
//! picks that option, before it is read as a command, except `quit`, `exit` and `decline`.

use std::collections::HashSet;
use std::io::Write;

use super::*;
use crate::input::{Input, LineReader, LineSource};

/// Why a numbered UI stopped asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The input ended before the last answer.
    Ended,
    /// The process was interrupted (Ctrl-C, SIGTERM).
    Interrupted,
    /// The person typed `quit` or `exit`: they have left.
    Quit,
}

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
    stop: Option<Stop>,
}

impl NumberedUi {
    /// Reads answers from `input` and writes to `out`; `colour` adds bold and dim attributes.
    pub fn new(input: impl LineSource + 'static, out: impl Write + 'static, colour: bool) -> Self {
        NumberedUi {
            input: Box::new(input),
            out: Box::new(out),
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

    /// Why the UI stopped asking, if it did: the input ended, was interrupted, or the person
    /// quit. A stopped UI shows nothing more and cancels every question.
    pub fn stop(&self) -> Option<Stop> {
        self.stop
    }

    fn next_input(&mut self) -> Input {
        self.peeked
            .take()
            .unwrap_or_else(|| self.input.next_input())
    }

    /// Reads one line after `prompt`; the end of input or an interrupt is a cancel, and so is
    /// `quit`, which also says the person has left; `decline` declines where it may.
    fn read(&mut self, prompt: &str) -> Result<String, Nav> {
        self.say_inline(prompt);
        match self.next_input() {
            Input::Line(line) if matches!(line.trim().to_lowercase().as_str(), "quit" | "exit") => {
                self.stop.get_or_insert(Stop::Quit);
                Err(Nav::Cancel)
            }
            Input::Line(line) if self.declinable && line.trim().eq_ignore_ascii_case("decline") => {
                Err(Nav::Decline)
            }
            Input::Line(line) => Ok(line),
            other => {
                self.stop.get_or_insert(match other {
                    Input::Interrupted => Stop::Interrupted,
                    _ => Stop::Ended,
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

    /// The request's context, the first time it is asked about: it stays the same for all
    /// of its questions.
    fn show_context(&mut self, context: Option<&str>, declinable: bool) {
        self.declinable = declinable;
        if let Some(context) = context.filter(|c| self.context.as_deref() != Some(*c)) {
            self.say("");
            let line = self.style.bold(context);
            self.say(&line);
            self.context = Some(context.to_string());
        }
    }

    /// The header line and the question.
    fn show_frame(&mut self, frame: &Frame) {
        self.show_context(frame.context.as_deref(), frame.declinable);
        self.say("");
        let place = place(frame);
        if let Some(place) = place {
            let line = self.style.dim(&place);
            self.say(&line);
        }
        let optional = super::optional_mark(frame);
        let prompt = self.style.bold(&format!("{}{optional}", frame.prompt));
        self.say(&prompt);
        if let Some(hint) = &frame.hint {
            let line = self.style.dim(&format!("({hint})"));
            self.say(&line);
        }
    }

    /// Said last, just above the answer line: the error of the previous try, and the first
    /// time, the commands.
    fn show_footer(&mut self, frame: &Frame) {
        if let Some(error) = &frame.error {
            self.error(error);
        }
        // `skip` is said only where it works: on an optional question.
        match (frame.declinable, frame.required) {
            (true, true) => self.hint("form commands", "Commands: back, decline, quit, help."),
            (true, false) => self.hint(
                "form commands, skip",
                "Commands: back, skip, decline, quit, help.",
            ),
            (false, true) => self.hint("commands", "Commands: back, quit, help."),
            (false, false) => self.hint("commands, skip", "Commands: back, skip, quit, help."),
        }
    }

    fn show_list(&mut self, options: &[crate::Choice], ticks: Option<&[u32]>, extras: &[&str]) {
        let width = (options.len() + extras.len()).to_string().len();
        for (i, option) in options.iter().enumerate() {
            let tick = match ticks {
                Some(ticked) if ticked.contains(&(i as u32)) => "[x] ",
                Some(_) => "[ ] ",
                None => "",
            };
            let badge = if option.recommended {
                self.style.dim(" (recommended)")
            } else {
                String::new()
            };
            self.say(&format!(
                "  {:>width$}. {tick}{}{badge}",
                i + 1,
                option.label
            ));
            let pad = " ".repeat(width + 4 + tick.len());
            if let Some(description) = &option.description {
                for line in description.lines() {
                    let line = self.style.dim(&format!("{pad}{line}"));
                    self.say(&line);
                }
            }
            if let Some(preview) = &option.preview {
                self.show_preview(&pad, preview);
            }
        }
        for (k, extra) in extras.iter().enumerate() {
            let tick = if ticks.is_some() { "[ ] " } else { "" };
            self.say(&format!(
                "  {:>width$}. {tick}{extra}",
                options.len() + k + 1
            ));
        }
    }

    /// An option's preview under it, each line behind a bar so that it reads as one block;
    /// a long one is cut, saying how many lines were left out.
    fn show_preview(&mut self, pad: &str, preview: &str) {
        const MOST: usize = 40;
        let lines: Vec<&str> = preview.lines().collect();
        for line in lines.iter().take(MOST) {
            self.say(&format!("{pad}│ {line}"));
        }
        if lines.len() > MOST {
            let more = self
                .style
                .dim(&format!("{pad}│ … {} more lines", lines.len() - MOST));
            self.say(&more);
        }
    }

    fn show_select(&mut self, frame: &Frame, request: &SelectRequest) {
        self.show_frame(frame);
        let extras = select_extras(request);
        self.show_list(&request.options, None, &extras);
        let note = with_note(request.note.as_deref());
        match (request.selected, &request.other_text) {
            // Where the default is out of range (a plugin other than ours), none is said.
            (Some(i), _) => {
                if let Some(option) = request.options.get(i as usize) {
                    self.say(&format!("(default: {}. {}{note})", i + 1, option.label));
                }
            }
            (None, Some(text)) => self.say(&format!("(default: {text})")),
            _ => {}
        }
        let hint = match (request.other_label.is_some(), request.notes) {
            (true, true) => {
                "Type the number of your choice, or type your own answer. To add a note, write \
                 it after a colon: 2: only on weekdays."
            }
            (true, false) => "Type the number of your choice, or type your own answer.",
            (false, true) => {
                "Type the number of your choice. To add a note, write it after a colon: 2: only \
                 on weekdays."
            }
            (false, false) => "Type the number of your choice.",
        };
        self.hint(
            if request.notes {
                "select note"
            } else {
                "select"
            },
            hint,
        );
    }

    fn show_multi(&mut self, frame: &Frame, request: &MultiSelectRequest) {
        self.show_frame(frame);
        let extras: Vec<&str> = request.other_label.as_deref().into_iter().collect();
        self.show_list(&request.options, Some(&request.selected), &extras);
        if !request.selected.is_empty() || request.other_text.is_some() {
            let mut picked: Vec<String> = request
                .selected
                .iter()
                .map(|i| (i + 1).to_string())
                .collect();
            picked.extend(request.other_text.iter().cloned());
            let note = with_note(request.note.as_deref());
            self.say(&format!("(default: {}{note})", picked.join(", ")));
        }
        if request.notes {
            self.hint(
                "multi note",
                "Type the numbers of your choices, like 1, 3 or 2-4 (none for no pick). To add a \
                 note, write it after a colon: 1, 3: only on weekdays.",
            );
        } else {
            self.hint(
                "multi",
                "Type the numbers of your choices, like 1, 3 or 2-4 (none for no pick).",
            );
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

/// An earlier note, said after the default it goes with.
fn with_note(note: Option<&str>) -> String {
    note.map(|n| format!("; note: {n}")).unwrap_or_default()
}

/// A line that ends in a note (`2: only on weekdays`), where notes are offered: the part before
/// the colon, and the note.
fn split_note(typed: &str, offered: bool) -> Option<(&str, String)> {
    let (picks, note) = typed.split_once(':').filter(|_| offered)?;
    let note = note.trim();
    (!note.is_empty()).then(|| (picks.trim(), note.to_string()))
}

/// The numbered entries after the options: "Something else", "Let's discuss this".
fn select_extras(request: &SelectRequest) -> Vec<&str> {
    request
        .other_label
        .iter()
        .chain(&request.discuss_label)
        .map(String::as_str)
        .collect()
}

impl Ui for NumberedUi {
    /// The next request's context is said again, even when it is the same.
    fn finished(&mut self) {
        self.context = None;
        self.declinable = false;
    }

    fn resumed(&mut self, answered: &[Given]) {
        self.say("");
        let line = self.style.dim(&super::resumed_heading(answered.len()));
        self.say(&line);
        for given in answered {
            let (title, answer) = super::resumed_line(given);
            self.say(&format!("  ✔ {title}: {answer}"));
        }
    }

    fn mode(&mut self) -> UiMode {
        // With a pipe or file, nobody may be there: input that ends before its first line
        // means no person can answer, so say so at once rather than cancel.
        if !self.input.is_terminal() && !self.probed {
            self.probed = true;
            let first = self.input.next_input();
            let nobody = first == Input::End;
            self.peeked = Some(first);
            if nobody {
                return UiMode::Unavailable;
            }
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
                Line::Reply(reply) => return reply,
                Line::TypeOther(_) => {
                    return match self.read_other(request.other_text.as_deref()) {
                        Ok(text) => SelectReply::Other(text),
                        Err(nav) => SelectReply::Nav(nav),
                    };
                }
                Line::Help => self.show_select(frame, request),
                Line::Invalid(message) => self.error(&message),
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
                Line::Reply(reply) => return reply,
                Line::TypeOther(picked) => {
                    return match self.read_other(request.other_text.as_deref()) {
                        Ok(text) => MultiSelectReply::Picked(MultiPick {
                            picked,
                            other: Some(text),
                            note: None,
                        }),
                        Err(nav) => MultiSelectReply::Nav(nav),
                    };
                }
                Line::Help => self.show_multi(frame, request),
                Line::Invalid(message) => self.error(&message),
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
                Err(_) if self.stop == Some(Stop::Ended) => return ReviewReply::Submit,
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

impl NumberedUi {
    fn show_review(&mut self, request: &ReviewRequest) {
        self.show_context(request.context.as_deref(), request.declinable);
        let items = &request.items;
        if items.is_empty() {
            let or_decline = if request.declinable {
                ", type decline to refuse"
            } else {
                ""
            };
            let line = self
                .style
                .dim(&format!("Press Enter to accept{or_decline}, or quit."));
            self.say(&line);
            return;
        }
        self.say("");
        let title = self.style.bold("Review your answers");
        self.say(&title);
        let width = items.len().to_string().len();
        for (i, item) in items.iter().enumerate() {
            let title = super::short_title(item.header.as_deref(), &item.prompt);
            self.say(&format!("  {:>width$}. {title}: {}", i + 1, item.answer));
        }
        if request.declinable {
            self.hint(
                "form review",
                "Press Enter to send these answers, type a number to change one, `decline` to refuse, or quit.",
            );
        } else {
            self.hint(
                "review",
                "Press Enter to send these answers, type a number to change one, or quit.",
            );
        }
    }

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

/// What one line means to a widget.
#[derive(Debug, PartialEq)]
enum Line<R> {
    Reply(R),
    /// The "Something else" entry was picked, with these other picks: ask for its text.
    TypeOther(Vec<u32>),
    Help,
    Invalid(String),
}

enum Command {
    Nav(Nav),
    Help,
}

fn command(word: &str) -> Option<Command> {
    Some(match word.to_lowercase().as_str() {
        "back" => Command::Nav(Nav::Back),
        "skip" => Command::Nav(Nav::Skip),
        "quit" | "exit" => Command::Nav(Nav::Cancel),
        "help" | "?" => Command::Help,
        _ => return None,
    })
}

/// The option a typed line names: its label (any case), or its value (a form's `const`).
fn label_index(options: &[crate::Choice], typed: &str) -> Option<u32> {
    options
        .iter()
        .position(|o| o.label.trim().eq_ignore_ascii_case(typed))
        .or_else(|| options.iter().position(|o| o.value == typed))
        .map(|i| i as u32)
}

fn read_select(line: &str, request: &SelectRequest, required: bool) -> Line<SelectReply> {
    let typed = line.trim();
    let count = request.options.len();
    let total = count + select_extras(request).len();
    let pick =
        |index: u32, note: Option<String>| Line::Reply(SelectReply::Picked(Pick { index, note }));
    if typed.is_empty() {
        return match (request.selected, &request.other_text) {
            (Some(i), _) => pick(i, request.note.clone()),
            (None, Some(text)) => Line::Reply(SelectReply::Other(text.clone())),
            _ if required => Line::Invalid(format!("Type a number from 1 to {total}.")),
            _ => Line::Reply(SelectReply::Nav(Nav::Skip)),
        };
    }
    if let Ok(n) = typed.parse::<usize>() {
        let other = request.other_label.is_some();
        return match n {
            n if (1..=count).contains(&n) => pick(n as u32 - 1, None),
            n if other && n == count + 1 => Line::TypeOther(Vec::new()),
            n if request.discuss_label.is_some() && n == count + 1 + usize::from(other) => {
                Line::Reply(SelectReply::Discuss)
            }
            n => Line::Invalid(format!(
                "There is no option {n}; type a number from 1 to {total}."
            )),
        };
    }
    if let Some(i) = label_index(&request.options, typed) {
        return pick(i, None);
    }
    if let Some((number, note)) = split_note(typed, request.notes)
        && let Ok(n) = number.parse::<usize>()
        && (1..=count).contains(&n)
    {
        return pick(n as u32 - 1, Some(note));
    }
    match command(typed) {
        Some(Command::Nav(nav)) => Line::Reply(SelectReply::Nav(nav)),
        Some(Command::Help) => Line::Help,
        None if request.other_label.is_some() => Line::Reply(SelectReply::Other(typed.to_string())),
        None => Line::Invalid(format!("Type a number from 1 to {total}.")),
    }
}

fn read_multi(line: &str, request: &MultiSelectRequest) -> Line<MultiSelectReply> {
    let typed = line.trim();
    let count = request.options.len();
    let total = count + usize::from(request.other_label.is_some());
    let noted = |picked: Vec<u32>, other: Option<String>, note: Option<String>| {
        Line::Reply(MultiSelectReply::Picked(MultiPick {
            picked,
            other,
            note,
        }))
    };
    let reply = |picked: Vec<u32>, other: Option<String>| noted(picked, other, None);
    if typed.is_empty() {
        return noted(
            request.selected.clone(),
            request.other_text.clone(),
            request.note.clone(),
        );
    }
    if typed.eq_ignore_ascii_case("none") {
        return reply(Vec::new(), None);
    }
    match picks(typed, total) {
        Some(Ok(picked)) if picked.contains(&(count as u32)) => {
            return Line::TypeOther(
                picked
                    .into_iter()
                    .filter(|&i| (i as usize) < count)
                    .collect(),
            );
        }
        Some(Ok(picked)) => return reply(picked, None),
        Some(Err(message)) => return Line::Invalid(message),
        None => {}
    }
    if let Some(i) = label_index(&request.options, typed) {
        return reply(vec![i], None);
    }
    if let Some((numbers, note)) = split_note(typed, request.notes)
        && let Some(Ok(picked)) = picks(numbers, count)
    {
        return noted(picked, None, Some(note));
    }
    match command(typed) {
        Some(Command::Nav(nav)) => Line::Reply(MultiSelectReply::Nav(nav)),
        Some(Command::Help) => Line::Help,
        None if request.other_label.is_some() => reply(Vec::new(), Some(typed.to_string())),
        None => Line::Invalid("Type the numbers of your choices, like 1, 3 or 2-4.".into()),
    }
}

/// Numbers and ranges (`1, 3 5-7`) as 0-based indices below `total`; `None` when the line is
/// not a list of numbers at all, `Some(Err)` when it is, but names an entry that is not there.
fn picks(line: &str, total: usize) -> Option<Result<Vec<u32>, String>> {
    let mut picked = Vec::new();
    for token in line.split([',', ' ', '\t']).filter(|t| !t.is_empty()) {
        let (first, last) = match token.split_once('-') {
            Some((a, b)) => (
                a.trim().parse::<usize>().ok()?,
                b.trim().parse::<usize>().ok()?,
            ),
            None => {
                let n = token.parse::<usize>().ok()?;
                (n, n)
            }
        };
        for n in first.min(last)..=first.max(last) {
            if n == 0 || n > total {
                return Some(Err(format!(
                    "There is no option {n}; the options are 1 to {total}."
                )));
            }
            if !picked.contains(&(n as u32 - 1)) {
                picked.push(n as u32 - 1);
            }
        }
    }
    Some(Ok(picked))
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
    use super::*;
    use crate::Choice;

    fn options(labels: &[&str]) -> Vec<Choice> {
        labels
            .iter()
            .map(|l| Choice {
                label: l.to_string(),
                value: l.to_lowercase(),
                description: None,
                preview: None,
                recommended: false,
            })
            .collect()
    }

    fn select(labels: &[&str], other: bool, discuss: bool) -> SelectRequest {
        SelectRequest {
            options: options(labels),
            selected: None,
            other_label: other.then(|| "Something else".into()),
            other_text: None,
            discuss_label: discuss.then(|| "Discuss".into()),
            notes: false,
            note: None,
        }
    }

    #[test]
    fn a_note_follows_a_colon_where_notes_are_offered() {
        let noted = |index, note: &str| {
            Line::Reply(SelectReply::Picked(Pick {
                index,
                note: Some(note.into()),
            }))
        };
        let r = SelectRequest {
            notes: true,
            ..select(&["Red", "Green"], true, false)
        };
        assert_eq!(
            read_select("2: only at night", &r, true),
            noted(1, "only at night")
        );
        assert_eq!(read_select(" 1 :x: y ", &r, true), noted(0, "x: y"));
        // Not an option's number: a typed answer, as without notes.
        assert_eq!(
            read_select("9: teal", &r, true),
            Line::Reply(SelectReply::Other("9: teal".into()))
        );
        assert_eq!(
            read_select(
                "2: only at night",
                &select(&["Red", "Green"], true, false),
                true
            ),
            Line::Reply(SelectReply::Other("2: only at night".into()))
        );
        let earlier = SelectRequest {
            selected: Some(0),
            note: Some("kept".into()),
            ..r
        };
        assert_eq!(read_select("", &earlier, true), noted(0, "kept"));
        let multi = MultiSelectRequest {
            options: options(&["A", "B", "C"]),
            selected: vec![],
            other_label: None,
            other_text: None,
            min_picks: None,
            max_picks: None,
            notes: true,
            note: None,
        };
        assert_eq!(
            read_multi("1, 3: both, please", &multi),
            Line::Reply(MultiSelectReply::Picked(MultiPick {
                picked: vec![0, 2],
                other: None,
                note: Some("both, please".into()),
            }))
        );
    }

    #[test]
    fn select_lines() {
        let r = select(&["Red", "Green", "Back"], true, true);
        assert_eq!(
            read_select("2", &r, true),
            Line::Reply(SelectReply::picked(1))
        );
        assert_eq!(
            read_select(" green ", &r, true),
            Line::Reply(SelectReply::picked(1))
        );
        assert_eq!(read_select("4", &r, true), Line::TypeOther(vec![]));
        assert_eq!(
            read_select("5", &r, true),
            Line::Reply(SelectReply::Discuss)
        );
        assert!(
            matches!(read_select("6", &r, true), Line::Invalid(m) if m.contains("no option 6"))
        );
        // A label wins over a command of the same name.
        assert_eq!(
            read_select("back", &r, true),
            Line::Reply(SelectReply::picked(2))
        );
        assert_eq!(
            read_select("quit", &r, true),
            Line::Reply(SelectReply::Nav(Nav::Cancel))
        );
        assert_eq!(
            read_select("teal", &r, true),
            Line::Reply(SelectReply::Other("teal".into()))
        );
        assert!(matches!(read_select("", &r, true), Line::Invalid(_)));
        assert_eq!(
            read_select("", &r, false),
            Line::Reply(SelectReply::Nav(Nav::Skip))
        );
        let closed = select(&["Red"], false, false);
        assert!(matches!(
            read_select("teal", &closed, true),
            Line::Invalid(_)
        ));
        assert!(
            matches!(read_select("2", &closed, true), Line::Invalid(m) if m.contains("1 to 1"))
        );
        let with_default = SelectRequest {
            selected: Some(1),
            ..select(&["Red", "Green"], true, false)
        };
        assert_eq!(
            read_select("", &with_default, true),
            Line::Reply(SelectReply::picked(1))
        );
    }

    #[test]
    fn number_lists_and_ranges() {
        assert_eq!(picks("1, 3", 5), Some(Ok(vec![0, 2])));
        assert_eq!(picks("2-4", 5), Some(Ok(vec![1, 2, 3])));
        assert_eq!(picks("1 3,5 3", 5), Some(Ok(vec![0, 2, 4])));
        assert_eq!(picks("4-2", 5), Some(Ok(vec![1, 2, 3])));
        assert!(matches!(picks("1, 9", 5), Some(Err(m)) if m.contains("no option 9")));
        assert!(matches!(picks("0", 5), Some(Err(_))));
        assert_eq!(picks("1, kanban", 5), None);
    }

    #[test]
    fn multi_lines() {
        let r = MultiSelectRequest {
            options: options(&["A", "B", "C"]),
            selected: vec![2],
            other_label: Some("Something else".into()),
            other_text: None,
            min_picks: None,
            max_picks: None,
            notes: false,
            note: None,
        };
        let picked = |p: Vec<u32>, o: Option<&str>| {
            Line::Reply(MultiSelectReply::Picked(MultiPick {
                picked: p,
                other: o.map(Into::into),
                note: None,
            }))
        };
        assert_eq!(read_multi("", &r), picked(vec![2], None));
        assert_eq!(read_multi("1 2", &r), picked(vec![0, 1], None));
        assert_eq!(read_multi("none", &r), picked(vec![], None));
        assert_eq!(read_multi("1, 4", &r), Line::TypeOther(vec![0]));
        assert_eq!(read_multi("b", &r), picked(vec![1], None));
        assert_eq!(
            read_multi("something new", &r),
            picked(vec![], Some("something new"))
        );
        assert_eq!(
            read_multi("back", &r),
            Line::Reply(MultiSelectReply::Nav(Nav::Back))
        );
    }
}
