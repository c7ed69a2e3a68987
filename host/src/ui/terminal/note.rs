//! A note on a pick: Tab opens a one-line editor under a choice list, and the note goes back
//! with whatever is picked ("Staging", note "only after the release").

use super::editor::Editor;
use super::keys::Key;
use super::render::Line;
use super::theme::Theme;
use super::widget::Body;

/// The note of a select or multi-select: offered or not, being typed or not.
pub struct Note {
    offered: bool,
    text: String,
    editor: Option<Editor>,
}

/// What a key did to the note while its editor was open.
#[derive(Debug, PartialEq, Eq)]
pub enum NoteKey {
    /// Enter: the note is done, and the pick goes with it.
    Submit,
    /// Typing, or Esc back to the list (the note is kept).
    Handled,
}

impl Note {
    /// A note where `offered`, holding `initial` (an earlier answer's note).
    pub fn new(offered: bool, initial: Option<&str>) -> Self {
        Note {
            offered,
            text: initial.unwrap_or_default().to_string(),
            editor: None,
        }
    }

    /// The editor is open: keys go to the note.
    pub fn is_editing(&self) -> bool {
        self.editor.is_some()
    }

    /// Opens the editor (Tab), where notes are offered; false when they are not.
    pub fn open(&mut self) -> bool {
        if self.offered {
            self.editor = Some(Editor::new(&self.text, false));
        }
        self.offered
    }

    /// A key while the editor is open.
    pub fn handle(&mut self, key: Key) -> NoteKey {
        let Some(editor) = &mut self.editor else {
            return NoteKey::Handled;
        };
        match key {
            Key::Enter => {
                self.text = editor.text().to_string();
                self.editor = None;
                return NoteKey::Submit;
            }
            Key::Esc | Key::Tab => {
                self.text = editor.text().to_string();
                self.editor = None;
            }
            key => {
                editor.handle(&key);
            }
        }
        NoteKey::Handled
    }

    /// The note to send: the text typed, trimmed, when there is any.
    pub fn value(&self) -> Option<String> {
        let text = match &self.editor {
            Some(editor) => editor.text(),
            None => &self.text,
        };
        Some(text.trim().to_string()).filter(|t| !t.is_empty())
    }

    /// Rows [`Note::draw`] takes.
    pub fn rows(&self) -> usize {
        usize::from(self.editor.is_some() || !self.text.trim().is_empty())
    }

    /// The note's line under the list: the editor with its cursor, or the note kept.
    pub fn draw(&self, body: &mut Body, width: usize, theme: &Theme) {
        const LABEL: &str = "  Note: ";
        match &self.editor {
            Some(editor) => {
                let (lines, (_, column)) = editor.view(false);
                body.cursor = Some((body.lines.len(), LABEL.len() + column));
                body.lines.push(
                    Line::new()
                        .push(LABEL, theme.cursor)
                        .push(lines.concat(), theme.text),
                );
            }
            None if !self.text.trim().is_empty() => {
                let room = width.saturating_sub(LABEL.len());
                body.lines.push(
                    Line::new()
                        .push(LABEL, theme.muted)
                        .push(super::render::truncate(self.text.trim(), room), theme.muted),
                );
            }
            None => {}
        }
    }

    /// The key hints while the note is typed, or the one that opens it.
    pub fn hint(&self) -> Option<&'static str> {
        match (&self.editor, self.offered) {
            (Some(_), _) => Some("Enter pick with this note · Esc back to the list"),
            (None, true) => Some("Tab note"),
            (None, false) => None,
        }
    }

    /// `answer`, with the note after it for the line left in the scrollback.
    pub fn summary(answer: String, note: Option<&String>) -> String {
        match note {
            Some(note) => format!("{answer} (note: {note})"),
            None => answer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_opens_enter_submits_esc_keeps() {
        let mut note = Note::new(true, None);
        assert!(note.open());
        for c in "after 5pm".chars() {
            note.handle(Key::Char(c));
        }
        assert_eq!(note.handle(Key::Esc), NoteKey::Handled);
        assert!(!note.is_editing());
        assert_eq!(note.value().as_deref(), Some("after 5pm"));
        note.open();
        note.handle(Key::Char('!'));
        assert_eq!(note.handle(Key::Enter), NoteKey::Submit);
        assert_eq!(note.value().as_deref(), Some("after 5pm!"));
    }

    #[test]
    fn not_offered_never_opens() {
        let mut note = Note::new(false, Some("kept"));
        assert!(!note.open());
        assert!(!note.is_editing());
        assert_eq!(note.hint(), None);
    }
}
