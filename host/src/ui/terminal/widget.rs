//! What every terminal widget does: take keys, draw its body, and say its answer in one line.

use super::keys::Key;
use super::list::List;
use super::render::Line;
use super::render::truncate;
use super::theme::Theme;
use crate::ui::Nav;
use crate::ui::{ChoiceRef, Options};

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
    /// The title of a widget shown without a question (the review).
    fn title(&self) -> &str {
        ""
    }
    /// A message shown in place (a limit not met), until the next key.
    fn notice(&self) -> Option<&str> {
        None
    }
    /// The answer in a few words, for the line the widget collapses to.
    fn summary(&self, reply: &Self::Reply) -> Option<String>;
    /// The reply that leaves the widget by `nav`, where this widget has one (the review has
    /// a cancel, but no back or skip).
    fn nav(nav: Nav) -> Option<Self::Reply>;
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

/// Says so when the filter leaves no option: the extra entries ("Something else") always
/// stay, so an empty list is not the sign. `is_option` tells options from extra entries.
pub fn no_match_line(
    list: &List,
    is_option: impl Fn(usize) -> bool,
    body: &mut Body,
    theme: &Theme,
) {
    if list.filter.is_some() && !list.visible().iter().any(|&i| is_option(i)) {
        body.lines
            .push(Line::new().push("  No option matches the filter.", theme.muted));
    }
}

/// Draws the part of `list` that fits in `rows` rows into `body`: "↑ N more" when entries
/// are hidden above, each visible entry by `entry(index, under_cursor, body)`, and "↓ N more"
/// below. An entry takes `height(index)` rows.
pub fn list_window(
    list: &mut List,
    rows: usize,
    height: impl Fn(usize) -> usize,
    body: &mut Body,
    theme: &Theme,
    mut entry: impl FnMut(usize, bool, &mut Body),
) {
    let (range, above, below) = list.window(rows, height);
    if above {
        body.lines.push(more("↑", range.start, theme));
    }
    let current = list.current();
    for &index in &list.visible()[range.clone()] {
        entry(index, current == Some(index), body);
    }
    if below {
        body.lines
            .push(more("↓", list.visible().len() - range.end, theme));
    }
}

/// What `/` filters entry `index` of a choice list on: an option's label. The entries after
/// the options ("Something else", "Discuss") have none, and stay whatever is typed.
pub fn filtered_on(options: &Options, index: usize) -> Option<&str> {
    options.get(index).map(|o| o.label)
}

/// The description shown under an option: none when it is blank, which the agent sends for
/// "no description" as often as it leaves it out.
pub fn shown_description(option: ChoiceRef<'_>) -> Option<&str> {
    option.description.filter(|d| !d.trim().is_empty())
}

/// An option's description as the muted line under its label: on one line, `indent`
/// columns in, cut to `room` columns.
pub fn description_line(description: &str, indent: usize, room: usize, theme: &Theme) -> Line {
    let text = truncate(&description.replace('\n', " "), room);
    Line::new()
        .push(" ".repeat(indent), theme.text)
        .push(text, theme.muted)
}

/// The line that says how many entries are hidden above (`↑`) or below (`↓`) a list.
fn more(arrow: &str, count: usize, theme: &Theme) -> Line {
    Line::new().push(format!("  {arrow} {count} more"), theme.muted)
}

/// The marker in front of the entry under the cursor.
pub const POINTER: &str = "❯ ";
/// The same width, for the other entries.
pub const NO_POINTER: &str = "  ";
