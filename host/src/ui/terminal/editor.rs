//! A line editor: what a text, number or "Something else" field holds, and where its cursor is.
//! Moves by grapheme, so multi-byte and wide characters are one step and one cell pair.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use super::keys::Key;

/// Editable text with a cursor.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Editor {
    text: String,
    /// Byte index of the cursor, always on a grapheme boundary.
    cursor: usize,
    multiline: bool,
}

impl Editor {
    /// An editor holding `initial`, with the cursor at its end.
    pub fn new(initial: &str, multiline: bool) -> Self {
        let mut editor = Editor {
            text: String::new(),
            cursor: 0,
            multiline,
        };
        editor.insert(initial);
        editor
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Applies an editing key; false when the key is not an editing key.
    pub fn handle(&mut self, key: &Key) -> bool {
        match key {
            Key::Char(c) => self.insert(&c.to_string()),
            Key::Paste(text) => self.insert(text),
            Key::NewLine if self.multiline => self.insert("\n"),
            Key::Left => self.cursor = self.previous(self.cursor),
            Key::Right => self.cursor = self.next(self.cursor),
            Key::Home | Key::Ctrl('a') => self.cursor = self.line_start(),
            Key::End | Key::Ctrl('e') => self.cursor = self.line_end(),
            Key::Backspace | Key::Ctrl('h') => {
                let start = self.previous(self.cursor);
                self.remove(start, self.cursor);
            }
            Key::Delete | Key::Ctrl('d') => {
                let end = self.next(self.cursor);
                self.remove(self.cursor, end);
            }
            Key::Ctrl('w') => {
                let start = self.word_start();
                self.remove(start, self.cursor);
            }
            Key::Ctrl('u') => self.remove(self.line_start(), self.cursor),
            Key::Ctrl('k') => self.remove(self.cursor, self.line_end()),
            Key::Up if self.multiline => self.vertical(-1),
            Key::Down if self.multiline => self.vertical(1),
            _ => return false,
        }
        true
    }

    /// Inserts typed or pasted text, cleaned as agent text is: a paste can carry escape
    /// sequences (whole, bodies and all), controls and bidirectional overrides, and none of it
    /// may reach the screen. Line breaks stay only where several lines are allowed.
    pub fn insert(&mut self, text: &str) {
        let clean = if self.multiline {
            crate::sanitize::text(text)
        } else {
            crate::sanitize::line(text)
        };
        self.text.insert_str(self.cursor, &clean);
        self.cursor += clean.len();
    }

    /// The text's lines as shown (each grapheme as `•` when `masked`), and the cursor as
    /// (line, display column).
    pub fn view(&self, masked: bool) -> (Vec<String>, (usize, usize)) {
        let show = |s: &str| {
            if masked {
                "•".repeat(s.graphemes(true).count())
            } else {
                s.to_string()
            }
        };
        let before = &self.text[..self.cursor];
        let line = before.matches('\n').count();
        let column = show(before.rsplit('\n').next().unwrap_or("")).width();
        (self.text.split('\n').map(show).collect(), (line, column))
    }

    fn remove(&mut self, start: usize, end: usize) {
        self.text.replace_range(start..end, "");
        self.cursor = start;
    }

    fn previous(&self, at: usize) -> usize {
        self.text[..at]
            .grapheme_indices(true)
            .next_back()
            .map_or(0, |(i, _)| i)
    }

    fn next(&self, at: usize) -> usize {
        self.text[at..]
            .graphemes(true)
            .next()
            .map_or(at, |g| at + g.len())
    }

    fn line_start(&self) -> usize {
        self.text[..self.cursor].rfind('\n').map_or(0, |i| i + 1)
    }

    fn line_end(&self) -> usize {
        self.text[self.cursor..]
            .find('\n')
            .map_or(self.text.len(), |i| self.cursor + i)
    }

    /// The start of the word before the cursor (spaces before it included), as Ctrl-W deletes.
    fn word_start(&self) -> usize {
        let before = &self.text[..self.cursor];
        let trimmed = before.trim_end();
        trimmed.rfind(char::is_whitespace).map_or(0, |i| {
            i + trimmed[i..].chars().next().map_or(1, char::len_utf8)
        })
    }

    /// Moves to the line above (-1) or below (1), keeping the column where the line allows.
    fn vertical(&mut self, direction: isize) {
        let column = self.text[self.line_start()..self.cursor].width();
        let target_start = if direction < 0 {
            let start = self.line_start();
            if start == 0 {
                return;
            }
            self.text[..start - 1].rfind('\n').map_or(0, |i| i + 1)
        } else {
            let end = self.line_end();
            if end == self.text.len() {
                return;
            }
            end + 1
        };
        let line_end = self.text[target_start..]
            .find('\n')
            .map_or(self.text.len(), |i| target_start + i);
        let mut at = target_start;
        for (i, g) in self.text[target_start..line_end].grapheme_indices(true) {
            if self.text[target_start..target_start + i + g.len()].width() > column {
                break;
            }
            at = target_start + i + g.len();
        }
        self.cursor = at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(editor: &mut Editor, keys: &[Key]) {
        for key in keys {
            editor.handle(key);
        }
    }

    #[test]
    fn edits_by_grapheme_with_wide_characters() {
        let mut e = Editor::new("héllo 日本", false);
        keys(&mut e, &[Key::Left, Key::Backspace]);
        assert_eq!(e.text(), "héllo 本");
        assert_eq!(e.view(false).1, (0, 6));
        keys(
            &mut e,
            &[
                Key::Home,
                Key::Delete,
                Key::Char('H'),
                Key::End,
                Key::Char('!'),
            ],
        );
        assert_eq!(e.text(), "Héllo 本!");
        assert_eq!(e.view(false).1, (0, 9));
    }

    #[test]
    fn word_and_line_deletion() {
        let mut e = Editor::new("deploy to staging  ", false);
        e.handle(&Key::Ctrl('w'));
        assert_eq!(e.text(), "deploy to ");
        e.handle(&Key::Ctrl('u'));
        assert_eq!(e.text(), "");
    }

    #[test]
    fn pastes_are_cleaned_and_single_lines_stay_single() {
        let mut e = Editor::new("", false);
        e.handle(&Key::Paste(
            "a\x1b[31mb\nc\td\x1b]0;title\x07\u{202e}e".into(),
        ));
        assert_eq!(e.text(), "ab c de");
        let mut m = Editor::new("", true);
        m.handle(&Key::Paste("one\r\ntwo".into()));
        m.handle(&Key::NewLine);
        assert_eq!(m.text(), "one\ntwo\n");
        assert_eq!(m.view(false).1, (2, 0));
    }

    #[test]
    fn multiline_moves_between_lines_and_masks() {
        let mut e = Editor::new("first line\nsecond", true);
        keys(&mut e, &[Key::Up, Key::End]);
        assert_eq!(e.view(false).1, (0, 10));
        e.handle(&Key::Down);
        assert_eq!(e.view(false).1, (1, 6));
        let s = Editor::new("pässwörd", false);
        assert_eq!(s.view(true).0, ["••••••••"]);
    }
}
