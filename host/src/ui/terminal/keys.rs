//! Keys as the widgets see them: decoded from the terminal's bytes, or from crossterm's
//! events (the fuzz targets').

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// One key, or a paste, or a resize.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    Up,
    Down,
    Left,
    Right,
    Home,
    End,
    PageUp,
    PageDown,
    Enter,
    /// A new line in a multi-line editor (Alt-Enter, Ctrl-J).
    NewLine,
    Tab,
    BackTab,
    Backspace,
    Delete,
    Esc,
    Char(char),
    /// Ctrl with a letter, lower case (`Ctrl('a')`).
    Ctrl(char),
    Paste(String),
    /// A bracketed paste longer than an answer may be, dropped as it came.
    PasteTooLong,
    Resize(u16, u16),
    /// Ctrl-C, or a signal asking the process to stop.
    Interrupt,
    /// Ctrl-Z: suspend, as the terminal does outside raw mode.
    Suspend,
    /// The screen must be drawn whole again (the process was stopped and continued).
    Redraw,
}

impl Key {
    /// The key of a terminal event, if it is one the UI uses.
    pub fn from_event(event: Event) -> Option<Key> {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => from_key(key),
            Event::Paste(text) => Some(Key::Paste(text)),
            // A size of nothing is a terminal that stopped saying its size, not one to draw in.
            Event::Resize(w, h) if w > 0 && h > 0 => Some(Key::Resize(w, h)),
            _ => None,
        }
    }
}

fn from_key(key: KeyEvent) -> Option<Key> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Key::Interrupt,
        KeyCode::Char('j') if ctrl => Key::NewLine,
        KeyCode::Char('p') if ctrl => Key::Up,
        KeyCode::Char('n') if ctrl => Key::Down,
        KeyCode::Char('z') if ctrl => Key::Suspend,
        KeyCode::Char(c) if ctrl => Key::Ctrl(c.to_ascii_lowercase()),
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter if alt => Key::NewLine,
        KeyCode::Enter => Key::Enter,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Delete => Key::Delete,
        KeyCode::Esc => Key::Esc,
        _ => return None,
    })
}
