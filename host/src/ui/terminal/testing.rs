//! Driving a widget without a terminal, for unit tests: keys in, replies and screens out, as
//! the run loop would. What only a real terminal shows (raw mode, redraws, resizes, signals)
//! is tested in a pseudo-terminal instead (`tests/terminal.rs`).

use super::keys::Key;
use super::layout;
use super::theme::Theme;
use super::widget::Widget;
use crate::ui::Frame;
pub use crate::ui::testing::options;

/// Plays `keys` on `widget`: the reply of the key that ends it, or None if none did.
pub fn play<W: Widget>(widget: &mut W, keys: impl IntoIterator<Item = Key>) -> Option<W::Reply> {
    keys.into_iter().find_map(|key| widget.handle(key, 5))
}

/// Each character of `text` as a key.
pub fn typed(text: &str) -> Vec<Key> {
    text.chars().map(Key::Char).collect()
}

/// What `widget` shows for `frame` (None: the review) at `width` x `height`, as plain text,
/// one string per row.
pub fn screen<W: Widget>(
    frame: Option<&Frame>,
    widget: &mut W,
    width: usize,
    height: usize,
) -> Vec<String> {
    let (screen, _) = layout(frame, widget, &Theme::new(false), (width, height));
    screen
        .lines
        .iter()
        .map(|line| line.spans.iter().map(|s| s.text.as_str()).collect())
        .collect()
}

/// The frame of a single required question.
pub fn frame(prompt: &str) -> Frame {
    crate::ui::testing::frame(prompt, true)
}
