//! Where everything goes on the screen: the header, the question, the widget's body in the
//! rows left, the error, and the key hints squeezed into one row.

use unicode_width::UnicodeWidthStr;

use super::render::{self, Line, Screen};
use super::theme::Theme;
use super::widget::{Ctx, Widget};
use crate::ui::Frame;

/// One draw of `widget` for `frame` (None: the review) at `size` (columns, rows): the header,
/// the question, the widget's body, the error, and the key hints; and the page size for
/// PgUp/PgDn.
pub fn layout<W: Widget>(
    frame: Option<&Frame>,
    widget: &mut W,
    theme: &Theme,
    size: (usize, usize),
) -> (Screen, usize) {
    let (width, height) = size;
    let mut lines = heading(frame, widget.title(), theme);
    let error = widget
        .notice()
        .map(str::to_string)
        .or_else(|| frame.and_then(|f| f.error.clone()));
    // One row always, however narrow the terminal: the hints are the first to give way, the
    // ones in the middle first, so that the way out (cancel, skip, decline) stays in sight.
    let widget_hint = widget.hint();
    let mut hints: Vec<&str> = widget_hint.split(" · ").collect();
    // Nothing comes before the first question, so it offers no way back.
    if !has_previous(frame) {
        hints.retain(|hint| *hint != BACK);
    }
    let mut ways_out = 1;
    for (offered, hint) in [
        (skippable(frame), "Ctrl-S skip"),
        (declinable(frame), "Ctrl-X decline"),
    ] {
        if offered {
            hints.push(hint);
            ways_out += 1;
        }
    }
    let hint = squeeze(hints, ways_out, width);
    let hint = render::fit(&Line::new().push(hint, theme.hint), width);
    let fixed: usize = lines
        .iter()
        .chain([&hint])
        .map(|l| rows_of(l, width))
        .sum::<usize>()
        + usize::from(error.is_some());
    let rows = height.saturating_sub(1 + fixed).max(1);
    let body = widget.body(&Ctx { width, rows, theme });
    let cursor = body
        .cursor
        .map(|(line, column)| (lines.len() + line, column));
    lines.extend(body.lines);
    if let Some(error) = error {
        lines.push(Line::new().push(format!("✖ {error}"), theme.error));
    }
    lines.push(hint);
    (Screen { lines, cursor }, (rows / 2).max(1))
}

/// `hints` joined with ` · ` in `width` columns where they fit: hints are dropped from the
/// middle (after the first, before the last `keep` ones), right to left, until they do.
fn squeeze(mut hints: Vec<&str>, keep: usize, width: usize) -> String {
    let joined = |hints: &[&str]| hints.join(" · ");
    while joined(&hints).width() > width && hints.len() > keep + 1 {
        hints.remove(hints.len() - keep - 1);
    }
    joined(&hints)
}

/// The header line (`Question 2 of 4 · Deploy`) and the question, or without a question,
/// the widget's own title.
fn heading(frame: Option<&Frame>, title: &str, theme: &Theme) -> Vec<Line> {
    let Some(frame) = frame else {
        return vec![
            Line::new()
                .push("? ", theme.cursor)
                .push(title.to_string(), theme.prompt),
        ];
    };
    let mut lines = Vec::new();
    if let Some(place) = &frame.place {
        lines.push(Line::new().push(place.clone(), theme.header));
    }
    for (i, text) in frame.prompt.lines().enumerate() {
        let lead = if i == 0 { "? " } else { "  " };
        lines.push(
            Line::new()
                .push(lead, theme.cursor)
                .push(text.to_string(), theme.prompt),
        );
    }
    if frame.mark_optional
        && let Some(last) = lines.last_mut()
    {
        last.spans.push(render::Span {
            text: " (optional)".into(),
            style: theme.muted,
        });
    }
    lines
}

/// The hint for going back to the previous question, which every widget offers.
const BACK: &str = "Shift-Tab back";

/// Whether there is something to go back to: a question after the first (or the review).
fn has_previous(frame: Option<&Frame>) -> bool {
    frame.is_none_or(|f| f.position > 1)
}

/// An optional question can be skipped (a review cannot).
pub(super) fn skippable(frame: Option<&Frame>) -> bool {
    frame.is_some_and(|f| !f.required)
}

/// A question of a declinable request offers Ctrl-X (the review offers its own entry).
pub(super) fn declinable(frame: Option<&Frame>) -> bool {
    frame.is_some_and(|f| f.declinable)
}

/// Rows a line takes at `width` columns.
fn rows_of(line: &Line, width: usize) -> usize {
    line.width().div_ceil(width.max(1)).max(1)
}

#[cfg(test)]
mod tests {
    use super::squeeze;
    use crate::ui::terminal::confirm::Confirm;
    use crate::ui::terminal::testing::{frame, screen};
    use crate::ui::{ConfirmRequest, Frame};

    #[test]
    fn the_first_question_offers_no_way_back() {
        let hints = |frame: &Frame| {
            let mut confirm = Confirm::new(&ConfirmRequest { initial: None });
            screen(Some(frame), &mut confirm, 200, 20)
                .last()
                .cloned()
                .unwrap()
        };
        let first = frame("Deploy?");
        assert_eq!(
            hints(&first),
            "y yes · n no · ←→ choose · Enter confirm · Esc cancel"
        );
        let second = Frame {
            position: 2,
            total: 2,
            place: Some("Question 2 of 2".into()),
            ..first
        };
        assert_eq!(
            hints(&second),
            "y yes · n no · ←→ choose · Enter confirm · Shift-Tab back · Esc cancel"
        );
    }

    #[test]
    fn hints_give_way_from_the_middle_and_keep_the_ways_out() {
        let hints = vec![
            "↑↓ move",
            "Space toggle",
            "a all",
            "Enter done",
            "Esc cancel",
            "Ctrl-X decline",
        ];
        assert_eq!(
            squeeze(hints.clone(), 2, 200),
            "↑↓ move · Space toggle · a all · Enter done · Esc cancel · Ctrl-X decline"
        );
        assert_eq!(
            squeeze(hints.clone(), 2, 52),
            "↑↓ move · Space toggle · Esc cancel · Ctrl-X decline"
        );
        assert_eq!(
            squeeze(hints, 2, 5),
            "↑↓ move · Esc cancel · Ctrl-X decline"
        );
    }
}
