//! Every arrow-key widget, under any sequence of terminal events (keys with any modifiers,
//! pastes, resizes) decoded as the terminal UI decodes them, drawn at any size after each one:
//! nothing panics, and a reply names only what was offered.
#![no_main]

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use interview_fuzz::*;
use interview_host::internals::keys::Key;
use interview_host::internals::theme::Theme;
use interview_host::internals::widget::Widget;
use interview_host::internals::{confirm, layout, multi_select, number, review, select, text};
use interview_host::ui::{ConfirmRequest, Frame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let frame = frame(&mut b);
    match b.byte() % 6 {
        0 => {
            let request = select(&mut b);
            let reply = drive(&mut b, &frame, select::Select::new(&request));
            if let Some(reply) = reply {
                check_select(&request, &reply);
            }
        }
        1 => {
            let request = multi_select(&mut b);
            let reply = drive(
                &mut b,
                &frame,
                multi_select::MultiSelect::new(&request, frame.hint.as_deref()),
            );
            if let Some(reply) = reply {
                check_multi_select(&request, &reply);
            }
        }
        2 => {
            let request = text(&mut b);
            drive(
                &mut b,
                &frame,
                text::Text::new(&request, frame.hint.as_deref()),
            );
        }
        3 => {
            let request = number(&mut b);
            drive(
                &mut b,
                &frame,
                number::Number::new(&request, frame.hint.as_deref()),
            );
        }
        4 => {
            let request = ConfirmRequest {
                initial: b.flag().then(|| b.flag()),
            };
            drive(&mut b, &frame, confirm::Confirm::new(&request));
        }
        _ => {
            let request = review(&mut b);
            let mut widget = review::Review::new(&request);
            let theme = Theme::new(true);
            while !b.is_empty() {
                let size = size(&mut b);
                let _ = layout(None, &mut widget, &theme, size);
                if let Some(key) = event(&mut b).and_then(Key::from_event)
                    && let Some(reply) = widget.handle(key, 3)
                {
                    check_review(&request, &reply);
                    return;
                }
            }
        }
    }
});

/// Feeds events to `widget` until it replies or the bytes run out, laying it out after each.
fn drive<W: Widget>(b: &mut Bytes, frame: &Frame, mut widget: W) -> Option<W::Reply> {
    let theme = Theme::new(b.flag());
    while !b.is_empty() {
        let size = size(b);
        let (screen, page) = layout(Some(frame), &mut widget, &theme, size);
        if let Some((row, _)) = screen.cursor {
            assert!(row < screen.lines.len(), "the cursor is below the frame");
        }
        if let Some(key) = event(b).and_then(Key::from_event)
            && let Some(reply) = widget.handle(key, page)
        {
            let _ = widget.summary(&reply);
            return Some(reply);
        }
    }
    None
}

/// A terminal of 1 to 160 columns and 1 to 60 rows.
fn size(b: &mut Bytes) -> (usize, usize) {
    (
        1 + usize::from(b.byte() % 160),
        1 + usize::from(b.byte() % 60),
    )
}

/// A terminal event, as crossterm reports one.
fn event(b: &mut Bytes) -> Option<Event> {
    let modifiers = KeyModifiers::from_bits_truncate(b.byte());
    let code = match b.byte() % 24 {
        0 => KeyCode::Up,
        1 => KeyCode::Down,
        2 => KeyCode::Left,
        3 => KeyCode::Right,
        4 => KeyCode::Home,
        5 => KeyCode::End,
        6 => KeyCode::PageUp,
        7 => KeyCode::PageDown,
        8 => KeyCode::Enter,
        9 => KeyCode::Tab,
        10 => KeyCode::BackTab,
        11 => KeyCode::Backspace,
        12 => KeyCode::Delete,
        13 => KeyCode::Esc,
        14 => KeyCode::F(b.byte()),
        15 => return Some(Event::Paste(b.text(40))),
        16 => return Some(Event::Resize(u16::from(b.byte()), u16::from(b.byte()))),
        17 => KeyCode::Char(' '),
        18 => KeyCode::Char(char::from(b'0' + b.byte() % 10)),
        _ => KeyCode::Char(b.text(4).chars().next().unwrap_or('a')),
    };
    Some(Event::Key(KeyEvent::new(code, modifiers)))
}
