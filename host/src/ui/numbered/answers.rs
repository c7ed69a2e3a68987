//! What a typed line means: a number, a range, a label, a note after a colon, a command, or
//! the person's own answer.

use super::*;

/// What one line means to a widget.
#[derive(Debug, PartialEq)]
pub(super) enum Reading<R> {
    Reply(R),
    /// The "Something else" entry was picked, with these other picks: ask for its text.
    TypeOther(Vec<u32>),
    Help,
    Invalid(String),
}

pub(super) enum Command {
    Nav(Nav),
    Help,
}

pub(super) fn command(word: &str) -> Option<Command> {
    Some(match word.to_lowercase().as_str() {
        "back" => Command::Nav(Nav::Back),
        "skip" => Command::Nav(Nav::Skip),
        "quit" | "exit" => Command::Nav(Nav::Cancel),
        "help" | "?" => Command::Help,
        _ => return None,
    })
}

/// The option a typed line names: its label (any case), or its value (a form's `const`).
fn label_index(options: &crate::Options, typed: &str) -> Option<u32> {
    options
        .iter()
        .position(|o| o.label.trim().eq_ignore_ascii_case(typed))
        .or_else(|| options.iter().position(|o| o.value == typed))
        .map(|i| i as u32)
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
    if let Ok(n) = typed.parse::<usize>() {
        let other = request.other_label.is_some();
        return match n {
            n if (1..=count).contains(&n) => pick(n as u32 - 1, None),
            n if other && n == count + 1 => Reading::TypeOther(Vec::new()),
            n if request.discuss_label.is_some() && n == count + 1 + usize::from(other) => {
                Reading::Reply(SelectReply::Discuss)
            }
            n => Reading::Invalid(format!(
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
    if let Some(i) = label_index(&request.options, typed) {
        return reply(vec![i], None);
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

/// A line that ends in a note (`2: only on weekdays`), where notes are offered: the part before
/// the colon, and the note.
fn split_note(typed: &str, offered: bool) -> Option<(&str, String)> {
    let (picks, note) = typed.split_once(':').filter(|_| offered)?;
    let note = note.trim();
    (!note.is_empty()).then(|| (picks.trim(), note.to_string()))
}

/// The numbered entries after the options: "Something else", "Let's discuss this".
pub(super) fn select_extras(request: &SelectRequest) -> Vec<&str> {
    request
        .other_label
        .iter()
        .chain(&request.discuss_label)
        .map(String::as_str)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::testing::options;

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
            Reading::Reply(SelectReply::Picked(Pick {
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
            Reading::Reply(SelectReply::Other("9: teal".into()))
        );
        assert_eq!(
            read_select(
                "2: only at night",
                &select(&["Red", "Green"], true, false),
                true
            ),
            Reading::Reply(SelectReply::Other("2: only at night".into()))
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
            Reading::Reply(MultiSelectReply::Picked(MultiPick {
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
            Reading::Reply(SelectReply::picked(1))
        );
        assert_eq!(
            read_select(" green ", &r, true),
            Reading::Reply(SelectReply::picked(1))
        );
        assert_eq!(read_select("4", &r, true), Reading::TypeOther(vec![]));
        assert_eq!(
            read_select("5", &r, true),
            Reading::Reply(SelectReply::Discuss)
        );
        assert!(
            matches!(read_select("6", &r, true), Reading::Invalid(m) if m.contains("no option 6"))
        );
        // A label wins over a command of the same name.
        assert_eq!(
            read_select("back", &r, true),
            Reading::Reply(SelectReply::picked(2))
        );
        assert_eq!(
            read_select("quit", &r, true),
            Reading::Reply(SelectReply::Nav(Nav::Cancel))
        );
        assert_eq!(
            read_select("teal", &r, true),
            Reading::Reply(SelectReply::Other("teal".into()))
        );
        assert!(matches!(read_select("", &r, true), Reading::Invalid(_)));
        assert_eq!(
            read_select("", &r, false),
            Reading::Reply(SelectReply::Nav(Nav::Skip))
        );
        let closed = select(&["Red"], false, false);
        assert!(matches!(
            read_select("teal", &closed, true),
            Reading::Invalid(_)
        ));
        assert!(
            matches!(read_select("2", &closed, true), Reading::Invalid(m) if m.contains("1 to 1"))
        );
        let with_default = SelectRequest {
            selected: Some(1),
            ..select(&["Red", "Green"], true, false)
        };
        assert_eq!(
            read_select("", &with_default, true),
            Reading::Reply(SelectReply::picked(1))
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
            Reading::Reply(MultiSelectReply::Picked(MultiPick {
                picked: p,
                other: o.map(Into::into),
                note: None,
            }))
        };
        assert_eq!(read_multi("", &r), picked(vec![2], None));
        assert_eq!(read_multi("1 2", &r), picked(vec![0, 1], None));
        assert_eq!(read_multi("none", &r), picked(vec![], None));
        assert_eq!(read_multi("1, 4", &r), Reading::TypeOther(vec![0]));
        assert_eq!(read_multi("b", &r), picked(vec![1], None));
        assert_eq!(
            read_multi("something new", &r),
            picked(vec![], Some("something new"))
        );
        assert_eq!(
            read_multi("back", &r),
            Reading::Reply(MultiSelectReply::Nav(Nav::Back))
        );
    }
}
