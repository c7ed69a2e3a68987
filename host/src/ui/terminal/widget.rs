//! What every terminal widget does: take keys, draw its body, and say its answer in one line.

use super::keys::Key;
use super::render::Line;
use super::theme::Theme;

/// What a widget may draw into.
pub struct Ctx<'a> {
    /// Columns.
    pub width: usize,
    /// Rows left for the widget's body.
    pub rows: usize,
    pub theme: &'a Theme,
}

/// A widget's body: lines, and the text cursor (line, column) when it shows one.
#[derive(Default)]
pub struct Body {
    pub lines: Vec<Line>,
    pub cursor: Option<(usize, usize)>,
}

/// One interactive widget.
pub trait Widget {
    type Reply;
    /// Handles a key; `Some` ends the widget with that reply.
    fn handle(&mut self, key: Key, page: usize) -> Option<Self::Reply>;
    /// Draws the body within `ctx`.
    fn body(&mut self, ctx: &Ctx) -> Body;
    /// The key hints line.
    fn hint(&self) -> String;
    /// A message shown in place (a limit not met), until the next key.
    fn notice(&self) -> Option<&str> {
        None
    }
    /// The answer in a few words, for the line the widget collapses to.
    fn summary(&self, reply: &Self::Reply) -> Option<String>;
}

/// The filter being typed, as the body's first line with the cursor at its end.
pub fn filter_line(filter: Option<&String>, body: &mut Body, theme: &Theme) {
    if let Some(filter) = filter {
        body.lines.push(
            Line::new()
                .push("/ ", theme.cursor)
                .push(filter.clone(), theme.text),
        );
        body.cursor = Some((
            body.lines.len() - 1,
            2 + unicode_width::UnicodeWidthStr::width(filter.as_str()),
        ));
    }
}

/// The line that says how many entries are hidden above (`↑`) or below (`↓`) a list.
pub fn more(arrow: &str, count: usize, theme: &Theme) -> Line {
    Line::new().push(format!("  {arrow} {count} more"), theme.muted)
}

/// The marker in front of the entry under the cursor.
pub const POINTER: &str = "❯ ";
/// The same width, for the other entries.
pub const NO_POINTER: &str = "  ";
