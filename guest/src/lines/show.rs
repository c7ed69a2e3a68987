//! What the line mode says: the question and its place, the numbered list, defaults, hints said
//! once, and the review.

use super::read::select_extras;
use super::*;

impl<I: LineIo> Lines<I> {
    /// The request's context, the first time it is asked about: it stays the same for all of
    /// its questions.
    fn show_context(&mut self, context: Option<&str>, declinable: bool) {
        self.declinable = declinable;
        if let Some(context) = context.filter(|c| self.context.as_deref() != Some(*c)) {
            self.say(Tone::Plain, "");
            self.say(Tone::Strong, context);
            self.context = Some(context.to_string());
        }
    }

    /// The place line and the question.
    pub(super) fn show_frame(&mut self, frame: &Frame) {
        self.answering = Some(frame.clone());
        self.show_context(frame.context.as_deref(), frame.declinable);
        self.say(Tone::Plain, "");
        if let Some(place) = &frame.place {
            self.say(Tone::Faint, place);
        }
        let optional = if frame.mark_optional {
            " (optional)"
        } else {
            ""
        };
        self.say(Tone::Strong, &format!("{}{optional}", frame.prompt));
        if let Some(hint) = &frame.hint {
            self.say(Tone::Faint, &format!("({hint})"));
        }
    }

    /// Said last, just above the answer line: the error of the previous try, and the first
    /// time, the commands.
    pub(super) fn show_footer(&mut self, frame: &Frame) {
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

    fn show_list(&mut self, options: &[Choice], ticks: Option<&[u32]>, extras: &[&str]) {
        let width = (options.len() + extras.len()).to_string().len();
        for (i, option) in options.iter().enumerate() {
            let tick = match ticks {
                Some(ticked) if ticked.contains(&(i as u32)) => "[x] ",
                Some(_) => "[ ] ",
                None => "",
            };
            self.put(
                Tone::Plain,
                &format!("  {:>width$}. {tick}{}", i + 1, option.label),
            );
            if option.recommended {
                self.put(Tone::Faint, " (recommended)");
            }
            self.put(Tone::Plain, "\n");
            let pad = " ".repeat(width + 4 + tick.len());
            if let Some(description) = &option.description {
                for line in description.lines() {
                    self.say(Tone::Faint, &format!("{pad}{line}"));
                }
            }
            if let Some(preview) = &option.preview {
                self.show_preview(&pad, preview);
            }
        }
        for (k, extra) in extras.iter().enumerate() {
            let tick = if ticks.is_some() { "[ ] " } else { "" };
            self.say(
                Tone::Plain,
                &format!("  {:>width$}. {tick}{extra}", options.len() + k + 1),
            );
        }
    }

    /// An option's preview under it, each line behind a bar so that it reads as one block; a
    /// long one is cut, saying how many lines were left out.
    fn show_preview(&mut self, pad: &str, preview: &str) {
        const MOST: usize = 40;
        let mut lines = preview.lines();
        for line in lines.by_ref().take(MOST) {
            self.say(Tone::Plain, &format!("{pad}│ {line}"));
        }
        let more = lines.count();
        if more > 0 {
            self.say(Tone::Faint, &format!("{pad}│ … {more} more lines"));
        }
    }

    pub(super) fn show_select(&mut self, frame: &Frame, request: &SelectRequest) {
        self.show_frame(frame);
        let extras = select_extras(request);
        self.show_list(&request.options, None, &extras);
        let note = with_note(request.note.as_deref());
        match (request.selected, &request.other_text) {
            (Some(i), _) => {
                if let Some(option) = request.options.get(i as usize) {
                    let label = &option.label;
                    self.say(Tone::Plain, &format!("(default: {}. {label}{note})", i + 1));
                }
            }
            (None, Some(text)) => self.say(Tone::Plain, &format!("(default: {text})")),
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
        let key = if request.notes {
            "select note"
        } else {
            "select"
        };
        self.hint(key, hint);
    }

    pub(super) fn show_multi(&mut self, frame: &Frame, request: &MultiSelectRequest) {
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
            self.say(
                Tone::Plain,
                &format!("(default: {}{note})", picked.join(", ")),
            );
        }
        // `none` only where no pick is an answer: a question that needs one says so in its hint.
        let none = request.min_picks.unwrap_or(0) == 0;
        let hint = format!(
            "Type the numbers of your choices, like 1, 3 or 2-4{}.{}",
            if none { " (none for no pick)" } else { "" },
            if request.notes {
                " To add a note, write it after a colon: 1, 3: only on weekdays."
            } else {
                ""
            }
        );
        let key = match (none, request.notes) {
            (true, true) => "multi none note",
            (true, false) => "multi none",
            (false, true) => "multi note",
            (false, false) => "multi",
        };
        self.hint(key, &hint);
    }

    pub(super) fn show_review(&mut self, request: &ReviewRequest) {
        self.answering = None;
        self.show_context(request.context.as_deref(), request.declinable);
        let items = &request.items;
        if items.is_empty() {
            let or_decline = if request.declinable {
                ", type decline to refuse"
            } else {
                ""
            };
            self.say(
                Tone::Faint,
                &format!("Press Enter to accept{or_decline}, or quit."),
            );
            return;
        }
        self.say(Tone::Plain, "");
        self.say(Tone::Strong, "Review your answers");
        let width = items.len().to_string().len();
        for (i, item) in items.iter().enumerate() {
            let title = item
                .header
                .as_deref()
                .unwrap_or_else(|| item.prompt.lines().next().unwrap_or(""));
            self.say(
                Tone::Plain,
                &format!("  {:>width$}. {title}: {}", i + 1, item.answer),
            );
        }
        if request.declinable {
            self.hint(
                "form review",
                "Press Enter to send these answers, type a number to change one, `decline` to \
                 refuse, or quit.",
            );
        } else {
            self.hint(
                "review",
                "Press Enter to send these answers, type a number to change one, or quit.",
            );
        }
    }
}

/// An earlier note, said after the default it goes with.
fn with_note(note: Option<&str>) -> String {
    note.map(|n| format!("; note: {n}")).unwrap_or_default()
}
