//! An option's preview: a box of monospace text under the list, showing the entry under the
//! cursor. The box keeps one size for the whole list (the tallest and widest preview, within
//! the terminal), so that moving the cursor never makes the list jump.

use unicode_width::UnicodeWidthStr;

use super::render::{Line, truncate};
use super::theme::Theme;

/// The box's size for a list's previews: `None` when no option has one.
pub struct PreviewBox {
    /// Columns inside the borders.
    inner: usize,
    /// Text rows inside the borders.
    lines: usize,
}

impl PreviewBox {
    /// The box for `previews` (one per entry) in `width` columns.
    pub fn for_previews<'a>(
        previews: impl IntoIterator<Item = Option<&'a str>>,
        width: usize,
    ) -> Option<PreviewBox> {
        let mut widest = 0;
        let mut tallest = 0;
        let mut any = false;
        for preview in previews.into_iter().flatten() {
            any = true;
            tallest = tallest.max(preview.lines().count().max(1));
            widest = widest.max(preview.lines().map(str::width).max().unwrap_or(0));
        }
        any.then(|| PreviewBox {
            // Two columns of indent, a border and a space on each side.
            inner: widest.max(16).min(width.saturating_sub(6)).max(1),
            lines: tallest,
        })
    }

    /// Rows the box takes when it may use at most `rows` (borders included): at least 3, and
    /// never more than half the rows a list needs too.
    pub fn rows(&self, rows: usize) -> usize {
        (self.lines + 2).min((rows / 2).max(3))
    }

    /// The box around `preview` in `rows` rows: lines cut to the box with "…", and the last
    /// text row saying how many lines did not fit.
    pub fn draw(&self, preview: Option<&str>, rows: usize, theme: &Theme) -> Vec<Line> {
        let inner = self.inner;
        let text_rows = rows.saturating_sub(2).max(1);
        let edge = |left: &str, right: &str| {
            Line::new().push(
                format!("  {left}{}{right}", "─".repeat(inner + 2)),
                theme.muted,
            )
        };
        let row = |text: String, style| {
            let pad = inner.saturating_sub(text.width());
            Line::new()
                .push("  │ ", theme.muted)
                .push(format!("{text}{}", " ".repeat(pad)), style)
                .push(" │", theme.muted)
        };
        let mut lines = vec![edge("┌", "┐")];
        let Some(preview) = preview else {
            lines.push(row(truncate("(no preview)", inner), theme.muted));
            lines.extend((1..text_rows).map(|_| row(String::new(), theme.text)));
            lines.push(edge("└", "┘"));
            return lines;
        };
        let all: Vec<&str> = preview.lines().collect();
        let shown = if all.len() > text_rows {
            text_rows - 1
        } else {
            all.len()
        };
        for text in &all[..shown] {
            lines.push(row(truncate(text, inner), theme.text));
        }
        if shown < all.len() {
            let more = format!("… {} more lines", all.len() - shown);
            lines.push(row(truncate(&more, inner), theme.muted));
        }
        while lines.len() < text_rows + 1 {
            lines.push(row(String::new(), theme.text));
        }
        lines.push(edge("└", "┘"));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.text.as_str()).collect())
            .collect()
    }

    #[test]
    fn one_size_for_every_entry_and_kept_to_the_terminal() {
        let previews = [Some("fn main() {}\n"), None, Some("a\nb\nc\nd\ne")];
        let size = PreviewBox::for_previews(previews, 40).unwrap();
        assert_eq!(size.rows(100), 7);
        assert_eq!(size.rows(8), 4, "at most half the rows");
        let theme = Theme::new(false);
        let short = texts(&size.draw(previews[0], 7, &theme));
        let none = texts(&size.draw(None, 7, &theme));
        assert_eq!(short.len(), 7);
        assert_eq!(none.len(), 7);
        assert!(short[1].contains("fn main() {}"));
        assert!(none[1].contains("(no preview)"));
        let cut = texts(&size.draw(previews[2], 4, &theme));
        assert_eq!(cut[1], format!("  │ a{} │", " ".repeat(15)));
        assert!(cut[2].contains("… 4 more lines"), "{cut:?}");
        let narrow = PreviewBox::for_previews([Some("x".repeat(100).as_str())], 30).unwrap();
        let row = &texts(&narrow.draw(Some(&"x".repeat(100)), 3, &theme))[1];
        assert_eq!(row.width(), 30);
        assert!(row.contains('…'));
    }

    #[test]
    fn no_previews_no_box() {
        assert!(PreviewBox::for_previews([None, None], 80).is_none());
    }
}
