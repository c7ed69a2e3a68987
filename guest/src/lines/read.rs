//! What a typed line means: a number, a range, a label, a note after a colon, a command, or the
//! person's own answer. This is the only reader of typed lines: every host hands its lines here,
//! so the same line means the same in each of them.
//!
//! A number is ASCII digits and nothing else (`+3`, `²` and `٣` are words, not numbers); a label
//! matches whatever its case, in any script (`élan` names `Élan`).

use crate::model::*;

/// What one line means to a widget.
#[derive(Debug, PartialEq)]
pub(super) enum Reading<R> {
    Reply(R),
    /// The free-text entry was picked, with these other picks: ask for its text.
    TypeOther(Vec<u32>),
    /// `help`: show the question again.
    Help,
    /// Not an answer: say why, and read another line.
    Invalid(String),
}

/// The words that do the same on every question.
pub(super) enum Command {
    Nav(Nav),
    Help,
}

pub(super) fn command(word: &str) -> Option<Command> {
    Some(match word.trim().to_lowercase().as_str() {
        "back" => Command::Nav(Nav::Back),
        "skip" => Command::Nav(Nav::Skip),
        "quit" | "exit" => Command::Nav(Nav::Cancel),
        "help" | "?" => Command::Help,
        _ => return None,
    })
}

/// The words that leave the whole request, read before anything else on any line: an option
/// labelled "Quit" cannot keep a person in.
pub(super) fn leaves(line: &str, declinable: bool) -> Option<Nav> {
    match line.trim().to_lowercase().as_str() {
        "quit" | "exit" => Some(Nav::Cancel),
        "decline" if declinable => Some(Nav::Decline),
        _ => None,
    }
}

/// A whole number in ASCII digits; `Some(None)` for digits too many to be any option.
fn number(text: &str) -> Option<Option<usize>> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok())
}

/// The option a typed line names: its label, whatever the case, or its value (a form's `const`).
fn label_index(options: &[Choice], typed: &str) -> Option<u32> {
    let folded = typed.to_lowercase();
    options
        .iter()
        .position(|o| o.label.trim().to_lowercase() == folded)
        .or_else(|| options.iter().position(|o| o.value == typed))
        .map(|i| i as u32)
}

/// The numbered entries after the options of a select: the free-text and discuss entries.
pub(super) fn select_extras(request: &SelectRequest) -> Vec<&str> {
    request
        .other_label
        .iter()
        .chain(&request.discuss_label)
        .map(String::as_str)
        .collect()
}

pub(super) fn read_select(
    line: &str,
    request: &SelectRequest,
    required: bool,
) -> Reading<SelectReply> {
    let typed = line.trim();
    let count = request.options.len();
    let total = count + select_extras(request).len();
    let pick = |index: u32, note: Option<String>| {
        Reading::Reply(SelectReply::Picked(Pick { index, note }))
    };
    if typed.is_empty() {
        return match (request.selected, &request.other_text) {
            (Some(i), _) => pick(i, request.note.clone()),
            (None, Some(text)) => Reading::Reply(SelectReply::Other(text.clone())),
            _ if required => Reading::Invalid(format!("Type a number from 1 to {total}.")),
            _ => Reading::Reply(SelectReply::Nav(Nav::Skip)),
        };
    }
    if let Some(n) = number(typed) {
        let other = request.other_label.is_some();
        let n = n.unwrap_or(usize::MAX);
        return match n {
            n if (1..=count).contains(&n) => pick(n as u32 - 1, None),
            n if other && n == count + 1 => Reading::TypeOther(Vec::new()),
            n if request.discuss_label.is_some() && n == count + 1 + usize::from(other) => {
                Reading::Reply(SelectReply::Discuss)
            }
            _ => Reading::Invalid(format!(
                "There is no option {typed}; type a number from 1 to {total}."
            )),
        };
    }
    if let Some(i) = label_index(&request.options, typed) {
        return pick(i, None);
    }
    if let Some((before, note)) = split_note(typed, request.notes)
        && let Some(Some(n)) = number(before)
        && (1..=count).contains(&n)
    {
        return pick(n as u32 - 1, Some(note));
    }
    match command(typed) {
        Some(Command::Nav(nav)) => Reading::Reply(SelectReply::Nav(nav)),
        Some(Command::Help) => Reading::Help,
        None if request.other_label.is_some() => {
            Reading::Reply(SelectReply::Other(typed.to_string()))
        }
        None => Reading::Invalid(format!("Type a number from 1 to {total}.")),
    }
}

pub(super) fn read_multi(line: &str, request: &MultiSelectRequest) -> Reading<MultiSelectReply> {
    let typed = line.trim();
    let count = request.options.len();
    let total = count + usize::from(request.other_label.is_some());
    let noted = |picked: Vec<u32>, other: Option<String>, note: Option<String>| {
        Reading::Reply(MultiSelectReply::Picked(MultiPick {
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
    // A label first: an option may be called "None".
    if let Some(i) = label_index(&request.options, typed) {
        return reply(vec![i], None);
    }
    if typed.eq_ignore_ascii_case("none") {
        return reply(Vec::new(), None);
    }
    match picks(typed, total) {
        Some(Ok(picked)) if picked.contains(&(count as u32)) => {
            return Reading::TypeOther(
                picked
                    .into_iter()
                    .filter(|&i| (i as usize) < count)
                    .collect(),
            );
        }
        Some(Ok(picked)) => return reply(picked, None),
        Some(Err(message)) => return Reading::Invalid(message),
        None => {}
    }
    if let Some((numbers, note)) = split_note(typed, request.notes)
        && let Some(Ok(picked)) = picks(numbers, count)
    {
        return noted(picked, None, Some(note));
    }
    match command(typed) {
        Some(Command::Nav(nav)) => Reading::Reply(MultiSelectReply::Nav(nav)),
        Some(Command::Help) => Reading::Help,
        None if request.other_label.is_some() => reply(Vec::new(), Some(typed.to_string())),
        None => Reading::Invalid("Type the numbers of your choices, like 1, 3 or 2-4.".into()),
    }
}

/// Numbers and ranges (`1, 3 5-7`) as 0-based indices below `total`; `None` when the line is
/// not a list of numbers at all, `Some(Err)` when it is, but names an entry that is not there.
fn picks(line: &str, total: usize) -> Option<Result<Vec<u32>, String>> {
    let missing = |n: &dyn std::fmt::Display| {
        Some(Err(format!(
            "There is no option {n}; the options are 1 to {total}."
        )))
    };
    let mut picked = Vec::new();
    let mut seen = vec![false; total];
    for token in line.split([',', ' ', '\t']).filter(|t| !t.is_empty()) {
        let (first, last) = match token.split_once('-') {
            Some((a, b)) => (number(a.trim())?, number(b.trim())?),
            None => (number(token)?, number(token)?),
        };
        let (Some(first), Some(last)) = (first, last) else {
            return missing(&token);
        };
        let (low, high) = (first.min(last), first.max(last));
        if low == 0 {
            return missing(&0);
        }
        if high > total {
            return missing(&if low > total { low } else { total + 1 });
        }
        for n in low..=high {
            if !std::mem::replace(&mut seen[n - 1], true) {
                picked.push(n as u32 - 1);
            }
        }
    }
    Some(Ok(picked))
}

/// A line that ends in a note (`2: only on weekdays`), where notes are offered: the part before
/// the colon, and the note.
fn split_note(typed: &str, offered: bool) -> Option<(&str, String)> {
    let (picks, note) = typed.split_once(':').filter(|_| offered)?;
    let note = note.trim();
    (!note.is_empty()).then(|| (picks.trim(), note.to_string()))
}

/// What a line means at the review of `items` answers.
pub(super) fn read_review(line: &str, items: usize) -> Reading<ReviewReply> {
    let typed = line.trim();
    if typed.is_empty() {
        return Reading::Reply(ReviewReply::Submit);
    }
    match (number(typed), command(typed)) {
        (Some(Some(n)), _) if (1..=items).contains(&n) => {
            Reading::Reply(ReviewReply::Edit(n as u32 - 1))
        }
        (_, Some(Command::Nav(Nav::Back))) if items > 0 => {
            Reading::Reply(ReviewReply::Edit(items as u32 - 1))
        }
        (_, Some(Command::Nav(Nav::Cancel))) => Reading::Reply(ReviewReply::Cancel),
        (_, Some(Command::Help)) => Reading::Help,
        _ if items == 0 => Reading::Invalid("Press Enter to accept.".into()),
        _ => Reading::Invalid(format!(
            "Press Enter to send, or type a number from 1 to {items} to change an answer."
        )),
    }
}

/// What a line means to a confirm whose Enter takes `initial`.
pub(super) fn read_confirm(
    line: &str,
    initial: Option<bool>,
    required: bool,
) -> Reading<ConfirmReply> {
    let word = line.trim().to_lowercase();
    match (word.as_str(), initial) {
        ("y" | "yes", _) => Reading::Reply(ConfirmReply::Answered(true)),
        ("n" | "no", _) => Reading::Reply(ConfirmReply::Answered(false)),
        ("", Some(initial)) => Reading::Reply(ConfirmReply::Answered(initial)),
        // As on every optional question: an empty line with no default skips it.
        ("", None) if !required => Reading::Reply(ConfirmReply::Nav(Nav::Skip)),
        _ => match command(&word) {
            Some(Command::Nav(nav)) => Reading::Reply(ConfirmReply::Nav(nav)),
            Some(Command::Help) => Reading::Help,
            None => Reading::Invalid("Type y for yes or n for no.".into()),
        },
    }
}
