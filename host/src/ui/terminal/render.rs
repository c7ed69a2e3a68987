//! The frame renderer: a frame (styled lines, and where the cursor goes) becomes the bytes that
//! turn the previous frame into it. Lines are wrapped by display width, only rows that changed
//! are rewritten, and the live region stays below the cursor's starting row (no alternate
//! screen), so what was answered stays in the scrollback.

use std::hash::{Hash, Hasher};

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

/// What one column of a row holds: a grapheme in a style. A wide grapheme is followed by a
/// cell with no text for the column it covers, so that a row's cells are its columns.
#[derive(Clone, Debug, PartialEq)]
struct Cell {
    text: String,
    style: Style,
}

impl Cell {
    /// The second column of a wide grapheme.
    fn is_tail(&self) -> bool {
        self.text.is_empty()
    }
}

/// One row of the terminal, a cell a column.
type Row = Vec<Cell>;

/// Columns of unchanged cells worth skipping with a cursor movement rather than rewriting.
const SKIP_AT_LEAST: usize = 4;

/// Draws frames into a live region and remembers what is on screen, so that each frame writes
/// only the cells that changed, moves the cursor once to reach them, and sets a style or hides
/// the cursor only when the terminal does not already have it so.
pub struct Renderer {
    width: usize,
    height: usize,
    /// The rows on screen now, top to bottom; `None` for a row whose content is unknown.
    shown: Vec<Option<Row>>,
    /// The row the terminal cursor is on, counted from the top of the live region.
    cursor_row: usize,
    /// The column the terminal cursor is on, when it is known.
    cursor_col: Option<usize>,
    /// The style the terminal writes in now, when it is known.
    style: Option<Style>,
    /// Whether the terminal shows its cursor now, when it is known.
    cursor_shown: Option<bool>,
    /// One-row blocks committed just above the live region, newest last. Since the live
    /// region never grows past `height - 1` rows, the newest of them is always still on
    /// screen, so it can be taken back ([`Renderer::reopen`]).
    committed: usize,
}

impl Renderer {
    pub fn new(width: u16, height: u16) -> Self {
        Renderer {
            width: width.max(1) as usize,
            height: height.max(1) as usize,
            shown: Vec::new(),
            cursor_row: 0,
            cursor_col: None,
            style: None,
            cursor_shown: None,
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
        // Hidden while drawing, so that it does not flicker across the rows being written.
        self.show_cursor(false, out);
        self.shift_rows(&rows, out);
        // The live region starts as the cursor's row, whatever it holds.
        let existing = self.shown.len().max(1);
        for (i, row) in rows.iter().enumerate() {
            if i >= existing {
                self.go_to_row(i - 1, out);
                self.set_style(Style::default(), out);
                out.extend_from_slice(b"\r\n");
                self.cursor_row = i;
                self.cursor_col = Some(0);
                self.update_row(None, row, out);
                continue;
            }
            let old = self.shown.get(i).cloned().flatten();
            if old.as_ref() != Some(row) {
                self.go_to_row(i, out);
                self.update_row(old.as_ref(), row, out);
            }
        }
        if self.shown.len() > rows.len() {
            // Rows left from a taller frame: clear everything below the new last row.
            self.go_to_row(rows.len(), out);
            self.set_style(Style::default(), out);
            out.extend_from_slice(b"\r\x1b[J");
            self.cursor_col = Some(0);
        }
        self.shown = rows.into_iter().map(Some).collect();
        if let Some((row, col)) = cursor {
            self.go_to_row(row, out);
            self.go_to_col(col, out);
            self.show_cursor(true, out);
        }
    }

    /// Rewrites the cells of the row the cursor is on that differ from `old` (all of them
    /// when it is unknown), in runs, and erases what is left past the new row's end.
    fn update_row(&mut self, old: Option<&Row>, new: &Row, out: &mut Vec<u8>) {
        let Some(old) = old else {
            self.go_to_col(0, out);
            self.write_cells(new, out);
            self.erase_line_end(out);
            return;
        };
        for (start, end) in changed_runs(old, new) {
            self.go_to_col(start, out);
            self.write_cells(&new[start..end], out);
        }
        if old.len() > new.len() {
            self.go_to_col(new.len(), out);
            self.erase_line_end(out);
        }
    }

    /// Writes `cells` where the cursor is.
    fn write_cells(&mut self, cells: &[Cell], out: &mut Vec<u8>) {
        for cell in cells.iter().filter(|c| !c.is_tail()) {
            // A space shows nothing of a style but its reverse video (no style here has a
            // background or an underline): it is written in whatever style is current.
            let blank = cell.text == " "
                && !cell.style.reverse
                && self.style.is_some_and(|now| !now.reverse);
            if !blank {
                self.set_style(cell.style, out);
            }
            out.extend_from_slice(cell.text.as_bytes());
        }
        let col = self.cursor_col.unwrap_or(0) + cells.len();
        // A write that reaches the last column leaves the terminal waiting to wrap, where
        // a cursor movement acts differently from one terminal to another: start over with CR.
        self.cursor_col = (col < self.width).then_some(col);
    }

    /// Erases from the cursor to the end of its row.
    fn erase_line_end(&mut self, out: &mut Vec<u8>) {
        if self.cursor_col.is_some() {
            // Erasing fills with the current background: the plain one.
            self.set_style(Style::default(), out);
            out.extend_from_slice(b"\x1b[K");
        }
    }

    /// Makes `style` the terminal's current one, unless it already is.
    fn set_style(&mut self, style: Style, out: &mut Vec<u8>) {
        if self.style == Some(style) {
            return;
        }
        let parameters = style.parameters();
        match (self.style, parameters.is_empty()) {
            (_, true) => out.extend_from_slice(b"\x1b[0m"),
            (Some(current), false) if current == Style::default() => {
                out.extend_from_slice(format!("\x1b[{parameters}m").as_bytes())
            }
            _ => out.extend_from_slice(format!("\x1b[0;{parameters}m").as_bytes()),
        }
        self.style = Some(style);
    }

    fn show_cursor(&mut self, shown: bool, out: &mut Vec<u8>) {
        if self.cursor_shown != Some(shown) {
            out.extend_from_slice(if shown { b"\x1b[?25h" } else { b"\x1b[?25l" });
            self.cursor_shown = Some(shown);
        }
    }

    /// When a block of rows moved up or down by one (a scrolled list), moves it on the
    /// terminal with delete-line and insert-line instead of rewriting every row of it. Deleting
    /// comes first, so that nothing is pushed off the bottom of the screen.
    fn shift_rows(&mut self, rows: &[Row], out: &mut Vec<u8>) {
        let Some((start, end, up)) = best_shift(&self.shown, rows) else {
            return;
        };
        let (delete, insert) = if up {
            (start, end - 1)
        } else {
            (end - 1, start)
        };
        // Lines come in with the current background: the plain one.
        self.set_style(Style::default(), out);
        self.go_to_row(delete, out);
        out.extend_from_slice(b"\x1b[M");
        self.go_to_row(insert, out);
        out.extend_from_slice(b"\x1b[L");
        self.shown.remove(delete);
        self.shown.insert(insert, None);
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
        self.set_style(Style::default(), out);
        out.extend_from_slice(b"\r\n");
        self.shown.clear();
        self.cursor_row = 0;
        self.cursor_col = Some(0);
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
        out.extend_from_slice(b"\x1b[A");
        self.shown.insert(0, None);
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
            self.cursor_col = Some(0);
            self.write_cells(&row, out);
            self.set_style(Style::default(), out);
            out.extend_from_slice(b"\x1b[K\r\n");
        }
        self.cursor_col = Some(0);
        self.committed = 0;
    }

    /// Erases the live region.
    pub fn clear(&mut self, out: &mut Vec<u8>) {
        if self.shown.is_empty() && self.cursor_row == 0 {
            return;
        }
        self.go_to_row(0, out);
        self.set_style(Style::default(), out);
        out.extend_from_slice(b"\r\x1b[J");
        self.shown.clear();
        self.cursor_row = 0;
        self.cursor_col = Some(0);
    }

    /// Moves the cursor to `row` of the live region, in one movement; its column stays.
    fn go_to_row(&mut self, row: usize, out: &mut Vec<u8>) {
        let (code, n) = match row.cmp(&self.cursor_row) {
            std::cmp::Ordering::Less => (b'A', self.cursor_row - row),
            std::cmp::Ordering::Greater => (b'B', row - self.cursor_row),
            std::cmp::Ordering::Equal => return,
        };
        csi(n, code, out);
        self.cursor_row = row;
    }

    /// Moves the cursor to column `col` of its row.
    fn go_to_col(&mut self, col: usize, out: &mut Vec<u8>) {
        match self.cursor_col {
            Some(now) if now == col => {}
            Some(now) if now < col => csi(col - now, b'C', out),
            _ => {
                out.push(b'\r');
                if col > 0 {
                    csi(col, b'C', out);
                }
            }
        }
        self.cursor_col = Some(col);
    }

    /// Wraps the frame's lines into rows of the terminal's width; the cursor as (row, column).
    fn layout(&self, frame: &Screen) -> (Vec<Row>, Option<(usize, usize)>) {
        let mut rows = Vec::new();
        let mut cursor = None;
        for (index, line) in frame.lines.iter().enumerate() {
            let first_row = rows.len();
            let mut row = Row::new();
            for span in &line.spans {
                for grapheme in span.text.graphemes(true) {
                    let w = grapheme.width();
                    if w == 0 {
                        // Nothing of its own to show: it goes with the cell before it.
                        if let Some(last) = row.iter_mut().rev().find(|c| !c.is_tail()) {
                            last.text.push_str(grapheme);
                        }
                        continue;
                    }
                    if row.len() + w > self.width && !row.is_empty() {
                        rows.push(std::mem::take(&mut row));
                    }
                    row.push(Cell {
                        text: grapheme.to_string(),
                        style: span.style,
                    });
                    for _ in 1..w {
                        row.push(Cell {
                            text: String::new(),
                            style: span.style,
                        });
                    }
                }
            }
            rows.push(row);
            if let Some((line_index, column)) = frame.cursor
                && line_index == index
            {
                // A cursor right after a full row goes to the start of the next one.
                let (r, c) = (column / self.width, column % self.width);
                while rows.len() <= first_row + r {
                    rows.push(Row::new());
                }
                cursor = Some((first_row + r, c));
            }
        }
        (rows, cursor)
    }
}

/// `CSI n <code>`, with the count left out when it is 1 (the default).
fn csi(n: usize, code: u8, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\x1b[");
    if n != 1 {
        out.extend_from_slice(n.to_string().as_bytes());
    }
    out.push(code);
}

/// The column ranges of `new` to write over `old`: the cells that differ, joined across short
/// stretches of unchanged ones, and widened over the tails of wide graphemes, old or new, so
/// that one is never half written (a new wide grapheme over an old one of the same style
/// has an unchanged tail, yet moves the cursor two columns).
fn changed_runs(old: &Row, new: &Row) -> Vec<(usize, usize)> {
    let differs = |col: usize| old.get(col) != new.get(col);
    // The columns a wide grapheme covers, in either row, go together.
    let tail = |col: usize| {
        old.get(col).is_some_and(Cell::is_tail) || new.get(col).is_some_and(Cell::is_tail)
    };
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut col = 0;
    while col < new.len() {
        if !differs(col) {
            col += 1;
            continue;
        }
        // A run never starts on a tail: equal heads have equal tails.
        let start = col;
        let mut end = col + 1;
        while end < new.len() && (differs(end) || tail(end)) {
            end += 1;
        }
        match runs.last_mut() {
            Some(last) if start < last.1 + SKIP_AT_LEAST => last.1 = end,
            _ => runs.push((start, end)),
        }
        col = end;
    }
    runs
}

/// The block `start..end` of rows that moved by one (up when `true`) and the shift saves
/// rewriting at least 3 rows, if there is one.
fn best_shift(old: &[Option<Row>], new: &[Row]) -> Option<(usize, usize, bool)> {
    // Rows are compared many times over: by a fingerprint each. A collision could only choose
    // a shift that saves less; the rows are compared whole when they are drawn.
    let fingerprint = |row: &Row| {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        for cell in row {
            cell.text.hash(&mut hasher);
            cell.style.hash(&mut hasher);
        }
        hasher.finish()
    };
    let old: Vec<Option<u64>> = old
        .iter()
        .map(|row| row.as_ref().map(fingerprint))
        .collect();
    let new: Vec<u64> = new.iter().map(fingerprint).collect();
    let n = old.len().min(new.len());
    let is = |old: Option<u64>, new: u64| old == Some(new);
    let mut best = None;
    let mut best_gain = 2;
    for start in 0..n {
        for end in start + 3..=n {
            for up in [true, false] {
                // Rows of the block that would be right after the shift, minus those right now.
                let moved = (start..end - 1)
                    .filter(|&i| {
                        if up {
                            is(old[i + 1], new[i])
                        } else {
                            is(old[i], new[i + 1])
                        }
                    })
                    .count();
                let stay = (start..end).filter(|&i| is(old[i], new[i])).count();
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

    fn text(row: &Row) -> String {
        row.iter().map(|cell| cell.text.as_str()).collect()
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
        assert!(
            !second.contains("three"),
            "an unchanged row is not written: {second:?}"
        );
        assert!(
            second.contains('>') && !second.contains("one") && !second.contains("two"),
            "of a changed row, only the cells that changed are: {second:?}"
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
        assert_eq!(
            (text(&rows[0]), text(&rows[1])),
            ("日本".into(), "語x".into())
        );
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
        // The cursor is still hidden and the style plain; from the last row up to the second,
        // clear below, and stay there.
        assert_eq!(out, "\x1b[A\r\x1b[J");
    }

    #[test]
    fn a_frame_taller_than_the_terminal_keeps_the_rows_near_the_cursor() {
        let mut renderer = Renderer::new(10, 3);
        let mut out = Vec::new();
        let mut frame = plain(&["1", "2", "3", "4", "5"]);
        frame.cursor = Some((4, 0));
        renderer.draw(&frame, &mut out);
        assert_eq!(renderer.shown.len(), 2);
        assert_eq!(text(renderer.shown[1].as_ref().unwrap()), "5");
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
        assert!(out.contains("\x1b[M") && out.contains("\x1b[L"), "{out:?}");
        assert!(
            out.contains("Option 11") && !out.contains("Option 5"),
            "only the new row is written: {out:?}"
        );
        // What is on screen is what was asked for.
        let expected = renderer
            .layout(&plain(&new.iter().map(String::as_str).collect::<Vec<_>>()))
            .0;
        assert_eq!(
            renderer.shown,
            expected.into_iter().map(Some).collect::<Vec<_>>()
        );
    }

    /// A list of `count` options, six at a time from `top`, with `selected` marked.
    fn list(top: usize, selected: usize, count: usize, filter: &str) -> Screen {
        let theme = super::super::theme::Theme::new(true);
        let label = |i: usize| match i % 4 {
            0 => format!("Option {i}"),
            1 => format!("日本語 {i}"),
            2 => format!("e\u{301}te\u{301} {i}"),
            _ => format!("a label long enough to wrap, {i}"),
        };
        let mut lines = vec![
            Line::new()
                .push("Pick one ", theme.prompt)
                .push(filter, theme.text),
        ];
        for i in top..(top + 6).min(count) {
            let (mark, style) = if i == selected {
                ("❯ ", theme.selected)
            } else {
                ("  ", theme.text)
            };
            lines.push(
                Line::new()
                    .push(mark, theme.cursor)
                    .push(format!("{:>3}. ", i + 1), theme.muted)
                    .push(label(i), style),
            );
        }
        lines.push(Line::new().push("↑↓ move", theme.hint));
        Screen {
            lines,
            cursor: None,
        }
    }

    /// Whether the emulated terminal shows `expected` from its top row, cell for cell: text,
    /// attributes and colour (a space's style shows nothing, so it is not compared).
    fn assert_shows(terminal: &vt100::Parser, expected: &[Row], what: &str) {
        let screen = terminal.screen();
        let (rows, cols) = screen.size();
        for r in 0..rows.get() {
            for c in 0..cols.get() {
                let cell = screen.cell(r, c).unwrap();
                let want = expected.get(r as usize).and_then(|row| row.get(c as usize));
                let place = format!("{what}: row {r}, column {c}");
                match want {
                    None => assert!(!cell.has_contents(), "{place}: {:?} left", cell.contents()),
                    Some(want) if want.is_tail() => {
                        assert!(
                            cell.is_wide_continuation(),
                            "{place}: not a wide grapheme's"
                        )
                    }
                    Some(want) => {
                        assert_eq!(cell.contents(), want.text, "{place}");
                        if want.text != " " || want.style.reverse {
                            let colour = match want.style.colour {
                                Some(code) => vt100::Color::Idx(code - 30),
                                None => vt100::Color::Default,
                            };
                            assert_eq!(
                                (cell.bold(), cell.dim(), cell.inverse(), cell.fgcolor()),
                                (want.style.bold, want.style.dim, want.style.reverse, colour),
                                "{place}: {:?}",
                                want.text
                            );
                        }
                    }
                }
            }
        }
    }

    /// Frames drawn one after another and read back through a terminal emulator: however
    /// little each draw writes, the screen then shows exactly that frame. Covers moving the
    /// selection, scrolling, filtering (rows going and coming), wide and combining
    /// characters under changing neighbours, a visible cursor, and a resize.
    #[test]
    fn minimal_updates_leave_exactly_the_frame_on_screen() {
        let (width, height) = (24, 12);
        let size = |n: u16| std::num::NonZeroU16::new(n).unwrap();
        let mut terminal = vt100::Parser::new(size(height), size(width), 0);
        let mut renderer = Renderer::new(width, height);
        let mut frames = Vec::new();
        for selected in 0..14_usize {
            frames.push(list(selected.saturating_sub(5), selected, 14, ""));
        }
        for selected in (0..14).rev() {
            frames.push(list(selected.min(8), selected, 14, ""));
        }
        frames.push(list(0, 0, 3, "/日"));
        frames.push(list(0, 1, 1, "/日本"));
        frames.push(list(0, 0, 14, "日abcde1"));
        frames.push(list(0, 0, 14, "本abcde2"));
        frames.push(list(0, 0, 14, ""));
        let mut typing = list(0, 2, 14, "日本x");
        typing.cursor = Some((0, 14));
        frames.push(typing);
        let mut bytes = Vec::new();
        for (i, frame) in frames.iter().enumerate() {
            let mut out = Vec::new();
            renderer.draw(frame, &mut out);
            bytes.push(out.len());
            terminal.process(&out);
            assert_shows(&terminal, &renderer.layout(frame).0, &format!("frame {i}"));
        }
        assert_eq!(terminal.screen().cursor_position(), (0, 14));
        assert!(!terminal.screen().hide_cursor());
        // Moving the selection by one, without scrolling, rewrites two markers and labels:
        // less than a third of the whole frame.
        assert!(bytes[1..5].iter().all(|&n| n * 3 < bytes[0]), "{bytes:?}");

        let mut out = Vec::new();
        renderer.resize(20, height, &mut out);
        terminal.screen_mut().set_size(size(height), size(20));
        let frame = list(0, 3, 14, "");
        renderer.draw(&frame, &mut out);
        terminal.process(&out);
        assert_shows(&terminal, &renderer.layout(&frame).0, "after a resize");
    }

    #[test]
    fn truncation_by_width() {
        assert_eq!(truncate("hello world", 8), "hello w…");
        assert_eq!(truncate("日本語テキスト", 7), "日本語…");
        assert_eq!(truncate("short", 8), "short");
    }
}
