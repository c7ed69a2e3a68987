//! The frame renderer: a frame (styled lines, and where the cursor goes) becomes the bytes that
//! turn the previous frame into it. Lines are wrapped by display width, only rows that changed
//! are rewritten, and the live region stays below the cursor's starting row (no alternate
//! screen), so what was answered stays in the scrollback.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use super::theme::Style;

/// A run of text in one style.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    pub text: String,
    pub style: Style,
}

/// One logical line; it wraps onto as many rows as the width needs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Line {
    pub spans: Vec<Span>,
}

impl Line {
    pub fn new() -> Self {
        Line::default()
    }

    /// Adds `text` in `style`.
    pub fn push(mut self, text: impl Into<String>, style: Style) -> Self {
        self.spans.push(Span {
            text: text.into(),
            style,
        });
        self
    }

    /// The display width of the whole line.
    pub fn width(&self) -> usize {
        self.spans.iter().map(|s| s.text.width()).sum()
    }
}

/// What one draw shows: lines, and the cursor's place (line, display column) when it is visible.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Screen {
    pub lines: Vec<Line>,
    pub cursor: Option<(usize, usize)>,
}

/// `line` cut to `width` columns, the last span ending in "…" when it was longer.
pub fn fit(line: &Line, width: usize) -> Line {
    let mut room = width;
    let mut fitted = Line::new();
    for span in &line.spans {
        if room == 0 {
            break;
        }
        let text = truncate(&span.text, room);
        room = room.saturating_sub(text.width());
        fitted.spans.push(Span {
            text,
            style: span.style,
        });
    }
    fitted
}

/// Cuts `text` to at most `width` columns, ending in "…" when it was longer.
pub fn truncate(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for grapheme in text.graphemes(true) {
        let w = grapheme.width();
        if used + w + 1 > width {
            break;
        }
        out.push_str(grapheme);
        used += w;
    }
    if width > 0 {
        out.push('…');
    }
    out
}

/// Rows as printed: the bytes of each row, styles included.
type Rows = Vec<String>;

/// Draws frames into a live region and remembers what is on screen.
pub struct Renderer {
    width: usize,
    height: usize,
    /// The rows on screen now, top to bottom.
    shown: Rows,
    /// The row the terminal cursor is on, counted from the top of the live region.
    cursor_row: usize,
    /// One-row blocks committed just above the live region, newest last. Since the live
    /// region never grows past `height - 1` rows, the newest of them is always still on
    /// screen, so it can be taken back ([`Renderer::reopen`]).
    committed: usize,
}

/// A row whose content is unknown: never equal to a row being drawn.
const UNKNOWN: &str = "\0";

impl Renderer {
    pub fn new(width: u16, height: u16) -> Self {
        Renderer {
            width: width.max(1) as usize,
            height: height.max(1) as usize,
            shown: Vec::new(),
            cursor_row: 0,
            committed: 0,
        }
    }

    /// The terminal size changed: what is on screen can no longer be trusted, so the next draw
    /// clears the live region and draws it whole.
    pub fn resize(&mut self, width: u16, height: u16, out: &mut Vec<u8>) {
        self.clear(out);
        // The terminal may have reflowed the rows above: they are no longer ours to take back.
        self.committed = 0;
        self.width = width.max(1) as usize;
        self.height = height.max(1) as usize;
    }

    /// Rows available to a frame.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// Appends to `out` the bytes that turn what is shown into `frame`.
    pub fn draw(&mut self, frame: &Screen, out: &mut Vec<u8>) {
        let (mut rows, mut cursor) = self.layout(frame);
        // A frame taller than the terminal could not be redrawn (the cursor cannot go above the
        // screen): keep the rows nearest the cursor.
        let keep = self.height.saturating_sub(1).max(1);
        if rows.len() > keep {
            let cut = match cursor {
                Some((row, _)) if row >= keep => row + 1 - keep,
                _ => 0,
            };
            rows = rows.into_iter().skip(cut).take(keep).collect();
            cursor = cursor.map(|(row, col)| (row - cut, col));
        }
        out.extend_from_slice(b"\x1b[?25l");
        self.shift_rows(&rows, out);
        self.go_to_row(0, out);
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                if i < self.shown.len() {
                    out.extend_from_slice(b"\x1b[1B");
                } else {
                    out.extend_from_slice(b"\r\n");
                }
                self.cursor_row = i;
            }
            if self.shown.get(i) != Some(row) {
                out.push(b'\r');
                out.extend_from_slice(row.as_bytes());
                out.extend_from_slice(b"\x1b[0m\x1b[K");
            }
        }
        if self.shown.len() > rows.len() {
            // Rows left from a taller frame: clear everything below the new last row.
            if !rows.is_empty() {
                out.extend_from_slice(b"\x1b[1B");
                self.cursor_row = rows.len();
            }
            out.extend_from_slice(b"\r\x1b[J");
        }
        self.shown = rows;
        match cursor {
            Some((row, col)) => {
                self.go_to_row(row, out);
                out.push(b'\r');
                if col > 0 {
                    out.extend_from_slice(format!("\x1b[{col}C").as_bytes());
                }
                out.extend_from_slice(b"\x1b[?25h");
            }
            None => {
                let last = self.shown.len().saturating_sub(1);
                self.go_to_row(last, out);
            }
        }
    }

    /// When a block of rows moved up or down by one (a scrolled list), moves it on the
    /// terminal with delete-line and insert-line instead of rewriting every row of it. Deleting
    /// comes first, so that nothing is pushed off the bottom of the screen.
    fn shift_rows(&mut self, rows: &[String], out: &mut Vec<u8>) {
        let Some((start, end, up)) = best_shift(&self.shown, rows) else {
            return;
        };
        let (delete, insert) = if up {
            (start, end - 1)
        } else {
            (end - 1, start)
        };
        self.go_to_row(delete, out);
        out.extend_from_slice(b"\x1b[1M");
        self.go_to_row(insert, out);
        out.extend_from_slice(b"\x1b[1L");
        self.shown.remove(delete);
        self.shown.insert(insert, UNKNOWN.to_string());
    }

    /// Leaves `line`, cut to one row, in the scrollback in place of the live region; the next
    /// frame starts below it. It can be taken back with [`Renderer::reopen`].
    pub fn commit_line(&mut self, line: &Line, out: &mut Vec<u8>) {
        let one_row = Screen {
            lines: vec![fit(line, self.width)],
            cursor: None,
        };
        self.draw(&one_row, out);
        self.go_to_row(0, out);
        out.extend_from_slice(b"\r\n");
        self.shown.clear();
        self.cursor_row = 0;
        self.committed += 1;
    }

    /// Takes back the newest committed line into the live region, to be drawn over; false
    /// when there is none.
    pub fn reopen(&mut self, out: &mut Vec<u8>) -> bool {
        if self.committed == 0 {
            return false;
        }
        self.committed -= 1;
        self.go_to_row(0, out);
        out.extend_from_slice(b"\x1b[1A");
        self.shown.insert(0, UNKNOWN.to_string());
        self.cursor_row = 0;
        true
    }

    /// Prints `lines` whole (however many rows) in place of the live region and leaves them in
    /// the scrollback; the next frame starts below them.
    pub fn print(&mut self, lines: &[Line], out: &mut Vec<u8>) {
        self.clear(out);
        let (rows, _) = self.layout(&Screen {
            lines: lines.to_vec(),
            cursor: None,
        });
        for row in rows {
            out.extend_from_slice(row.as_bytes());
            out.extend_from_slice(b"\x1b[0m\x1b[K\r\n");
        }
        self.committed = 0;
    }

    /// Erases the live region.
    pub fn clear(&mut self, out: &mut Vec<u8>) {
        if self.shown.is_empty() && self.cursor_row == 0 {
            return;
        }
        self.go_to_row(0, out);
        out.extend_from_slice(b"\r\x1b[J");
        self.shown.clear();
        self.cursor_row = 0;
    }

    fn go_to_row(&mut self, row: usize, out: &mut Vec<u8>) {
        if row < self.cursor_row {
            out.extend_from_slice(format!("\x1b[{}A", self.cursor_row - row).as_bytes());
        } else if row > self.cursor_row {
            out.extend_from_slice(format!("\x1b[{}B", row - self.cursor_row).as_bytes());
        }
        self.cursor_row = row;
    }

    /// Wraps the frame's lines into rows of the terminal's width; the cursor as (row, column).
    fn layout(&self, frame: &Screen) -> (Rows, Option<(usize, usize)>) {
        let mut rows = Vec::new();
        let mut cursor = None;
        for (index, line) in frame.lines.iter().enumerate() {
            let first_row = rows.len();
            let mut row = String::new();
            let mut used = 0;
            for span in &line.spans {
                let (open, close) = span.style.codes();
                row.push_str(&open);
                for grapheme in span.text.graphemes(true) {
                    let w = grapheme.width();
                    if used + w > self.width && used > 0 {
                        row.push_str(close);
                        rows.push(std::mem::take(&mut row));
                        row.push_str(&open);
                        used = 0;
                    }
                    row.push_str(grapheme);
                    used += w;
                }
                row.push_str(close);
            }
            rows.push(row);
            if let Some((line_index, column)) = frame.cursor
                && line_index == index
            {
                // A cursor right after a full row goes to the start of the next one.
                let (r, c) = (column / self.width, column % self.width);
                while rows.len() <= first_row + r {
                    rows.push(String::new());
                }
                cursor = Some((first_row + r, c));
            }
        }
        (rows, cursor)
    }
}

/// The block `start..end` of rows that moved by one (up when `true`) and the shift saves
/// rewriting at least 3 rows, if there is one.
fn best_shift(old: &[String], new: &[String]) -> Option<(usize, usize, bool)> {
    let n = old.len().min(new.len());
    let same = |i: usize| old[i] == new[i];
    let mut best = None;
    let mut best_gain = 2;
    for start in 0..n {
        for end in start + 3..=n {
            for up in [true, false] {
                // Rows of the block that would be right after the shift, minus those right now.
                let moved = (start..end - 1)
                    .filter(|&i| {
                        if up {
                            new[i] == old[i + 1]
                        } else {
                            new[i + 1] == old[i]
                        }
                    })
                    .count();
                let stay = (start..end).filter(|&i| same(i)).count();
                let gain = moved as isize - stay as isize;
                if gain > best_gain {
                    best_gain = gain;
                    best = Some((start, end, up));
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(lines: &[&str]) -> Screen {
        Screen {
            lines: lines
                .iter()
                .map(|l| Line::new().push(*l, Style::default()))
                .collect(),
            cursor: None,
        }
    }

    #[test]
    fn only_changed_rows_are_rewritten() {
        let mut renderer = Renderer::new(20, 10);
        let mut out = Vec::new();
        renderer.draw(&plain(&["> one", "  two", "  three"]), &mut out);
        let first = String::from_utf8(out.clone()).unwrap();
        assert!(first.contains("> one") && first.contains("three"));
        out.clear();
        renderer.draw(&plain(&["  one", "> two", "  three"]), &mut out);
        let second = String::from_utf8(out).unwrap();
        assert!(second.contains("  one") && second.contains("> two"));
        assert!(
            !second.contains("three"),
            "an unchanged row is not written: {second:?}"
        );
    }

    #[test]
    fn wraps_by_display_width_and_places_the_cursor() {
        let renderer = Renderer::new(4, 10);
        let frame = Screen {
            lines: vec![Line::new().push("日本語x", Style::default())],
            cursor: Some((0, 6)),
        };
        let (rows, cursor) = renderer.layout(&frame);
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert!(rows[0].contains("日本") && rows[1].contains("語x"));
        assert_eq!(cursor, Some((1, 2)));
    }

    #[test]
    fn a_shorter_frame_clears_what_is_left() {
        let mut renderer = Renderer::new(20, 10);
        let mut out = Vec::new();
        renderer.draw(&plain(&["a", "b", "c"]), &mut out);
        out.clear();
        renderer.draw(&plain(&["a"]), &mut out);
        let out = String::from_utf8(out).unwrap();
        // Up to the top, row 0 unchanged, one down, clear below, back up to the last row.
        assert_eq!(out, "\x1b[?25l\x1b[2A\x1b[1B\r\x1b[J\x1b[1A");
    }

    #[test]
    fn a_frame_taller_than_the_terminal_keeps_the_rows_near_the_cursor() {
        let mut renderer = Renderer::new(10, 3);
        let mut out = Vec::new();
        let mut frame = plain(&["1", "2", "3", "4", "5"]);
        frame.cursor = Some((4, 0));
        renderer.draw(&frame, &mut out);
        assert_eq!(renderer.shown.len(), 2);
        assert!(renderer.shown[1].contains('5'));
    }

    #[test]
    fn a_scrolled_list_is_shifted_not_rewritten() {
        let list = |first: usize| {
            let mut lines: Vec<String> = (first..first + 10)
                .map(|i| format!("  Option {i}"))
                .collect();
            lines.push("hints".into());
            lines
        };
        let mut renderer = Renderer::new(40, 20);
        let mut out = Vec::new();
        let old = list(1);
        renderer.draw(
            &plain(&old.iter().map(String::as_str).collect::<Vec<_>>()),
            &mut out,
        );
        out.clear();
        let new = list(2);
        renderer.draw(
            &plain(&new.iter().map(String::as_str).collect::<Vec<_>>()),
            &mut out,
        );
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("\x1b[1M") && out.contains("\x1b[1L"),
            "{out:?}"
        );
        assert!(
            out.contains("Option 11") && !out.contains("Option 5"),
            "only the new row is written: {out:?}"
        );
        // What is on screen is what was asked for.
        assert_eq!(
            renderer.shown,
            renderer
                .layout(&plain(&new.iter().map(String::as_str).collect::<Vec<_>>()))
                .0
        );
    }

    #[test]
    fn truncation_by_width() {
        assert_eq!(truncate("hello world", 8), "hello w…");
        assert_eq!(truncate("日本語テキスト", 7), "日本語…");
        assert_eq!(truncate("short", 8), "short");
    }
}
