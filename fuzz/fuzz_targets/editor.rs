//! The line editor, under any keys and pastes: its text never holds a control character (a
//! line break only where several lines are allowed), and its cursor is always somewhere on it.
#![no_main]

use interview_host::internals::editor::Editor;
use interview_host::internals::keys::Key;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let multiline = first & 1 == 1;
    let text = String::from_utf8_lossy(rest);
    // The first line is the initial text; every other line is a key or a paste.
    let mut lines = text.split('\n');
    let mut editor = Editor::new(lines.next().unwrap_or(""), multiline);
    for line in lines {
        let key = match line.as_bytes().first() {
            Some(b'L') => Key::Left,
            Some(b'R') => Key::Right,
            Some(b'U') => Key::Up,
            Some(b'D') => Key::Down,
            Some(b'H') => Key::Home,
            Some(b'E') => Key::End,
            Some(b'B') => Key::Backspace,
            Some(b'X') => Key::Delete,
            Some(b'N') => Key::NewLine,
            Some(b'^') => Key::Ctrl(line.chars().nth(1).unwrap_or('a')),
            Some(b'P') => Key::Paste(line[1..].replace('\\', "\n")),
            _ => Key::Char(line.chars().next().unwrap_or(' ')),
        };
        editor.handle(&key);
        for c in editor.text().chars() {
            assert!(
                !c.is_control() || (multiline && c == '\n'),
                "{c:?} in {:?}",
                editor.text()
            );
        }
        let (lines, (row, column)) = editor.view(false);
        assert!(row < lines.len(), "cursor row {row} of {lines:?}");
        let width = unicode_width(&lines[row]);
        assert!(
            column <= width,
            "cursor column {column} past {:?}",
            lines[row]
        );
        let (masked, _) = editor.view(true);
        assert_eq!(masked.len(), lines.len());
    }
});

fn unicode_width(text: &str) -> usize {
    interview_host::internals::render::Line::new()
        .push(text.to_string(), Default::default())
        .width()
}
