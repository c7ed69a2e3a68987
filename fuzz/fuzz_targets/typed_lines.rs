//! The plugin's line mode, natively, under any lines typed for any widget: nothing panics,
//! every line is read or refused in words, and a reply names only what was offered. What it
//! writes goes nowhere; its replies are checked.
#![no_main]

use std::collections::VecDeque;

use interview_fuzz::Bytes;
use interview_guest::lines::{LineIo, Lines};
use interview_guest::model::*;
use interview_guest::ui::Ui;
use libfuzzer_sys::fuzz_target;

/// Lines typed, then the end of the input.
struct Typed(VecDeque<String>);

impl LineIo for Typed {
    fn write(&mut self, _: &[Span]) {}
    fn read_line(&mut self, _: bool, _: Option<&Frame>) -> LineRead {
        self.0.pop_front().map_or(LineRead::Ended, LineRead::Line)
    }
}

fn frame(b: &mut Bytes) -> Frame {
    Frame {
        position: 1 + u32::from(b.byte() % 4),
        total: 4,
        header: b.maybe_text(20),
        place: b.maybe_text(30),
        prompt: b.text(60),
        required: b.flag(),
        mark_optional: b.flag(),
        hint: b.maybe_text(20),
        error: b.maybe_text(30),
        context: b.maybe_text(30),
        declinable: b.flag(),
    }
}

/// 1 to 16 options with labels that differ, as the plugin guarantees.
fn options(b: &mut Bytes) -> Vec<Choice> {
    (0..1 + usize::from(b.byte() % 16))
        .map(|i| {
            let label = format!("{}{i}", b.text(8));
            Choice {
                value: label.to_lowercase(),
                label,
                description: b.maybe_text(20),
                preview: b.maybe_text(40),
                recommended: b.flag(),
            }
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let frame = frame(&mut b);
    let widget = b.byte() % 6;
    let request_bytes = b.byte();
    let (head, typed) = b
        .rest()
        .split_at(usize::from(request_bytes).min(b.rest().len()));
    let mut b = Bytes(head);
    let lines = String::from_utf8_lossy(typed)
        .split('\n')
        .map(str::to_string)
        .collect();
    let mut ui = Lines::new(Typed(lines));
    match widget {
        0 => {
            let options = options(&mut b);
            // An earlier typed answer only where typed answers are allowed, as the plugin asks.
            let other_label = b.maybe_text(12);
            let mut request = SelectRequest {
                selected: b.flag().then(|| u32::from(b.byte()) % options.len() as u32),
                options,
                other_text: b.maybe_text(12).filter(|_| other_label.is_some()),
                other_label,
                discuss_label: b.maybe_text(12),
                notes: b.flag(),
                note: b.maybe_text(12),
            };
            match ui.select(&frame, &mut request) {
                SelectReply::Picked(pick) => {
                    assert!((pick.index as usize) < request.options.len());
                    assert!(pick.note.is_none() || request.notes || request.note.is_some());
                }
                SelectReply::Other(_) => assert!(request.other_label.is_some()),
                SelectReply::Discuss => assert!(request.discuss_label.is_some()),
                SelectReply::Nav(nav) => {
                    assert!(nav != Nav::Decline || frame.declinable);
                }
            }
        }
        1 => {
            let options = options(&mut b);
            let other_label = b.maybe_text(12);
            let mut request = MultiSelectRequest {
                selected: (0..options.len() as u32).filter(|_| b.flag()).collect(),
                options,
                other_text: b.maybe_text(12).filter(|_| other_label.is_some()),
                other_label,
                min_picks: b.flag().then(|| u32::from(b.byte() % 4)),
                max_picks: b.flag().then(|| u32::from(b.byte() % 8)),
                notes: b.flag(),
                note: b.maybe_text(12),
            };
            if let MultiSelectReply::Picked(pick) = ui.multi_select(&frame, &mut request) {
                let count = request.options.len() as u32;
                assert!(pick.picked.iter().all(|&i| i < count), "{pick:?}");
                let mut unique = pick.picked.clone();
                unique.sort_unstable();
                unique.dedup();
                assert_eq!(unique.len(), pick.picked.len(), "a pick named twice");
                assert!(pick.other.is_none() || request.other_label.is_some());
            }
        }
        2 => {
            let request = TextRequest {
                multiline: b.flag(),
                placeholder: b.maybe_text(20),
                initial: b.maybe_text(30),
                secret: b.flag(),
                min_length: None,
                max_length: None,
            };
            // One line, or the lines up to an empty one, or Enter's default.
            if let TextReply::Submitted(text) = ui.text(&frame, &request) {
                let default = request.initial.as_ref() == Some(&text);
                assert!(request.multiline || default || !text.contains('\n'));
            }
        }
        3 => {
            let request = NumberRequest {
                initial: b.flag().then(|| f64::from(b.byte() as i8) / 4.0),
                min: None,
                max: None,
                exclusive_min: None,
                exclusive_max: None,
                integer: b.flag(),
            };
            ui.number(&frame, &request);
        }
        4 => {
            let request = ConfirmRequest {
                initial: b.flag().then(|| b.flag()),
            };
            ui.confirm(&frame, &request);
        }
        _ => {
            let items = (0..usize::from(b.byte() % 6))
                .map(|_| ReviewItem {
                    header: b.maybe_text(12),
                    prompt: b.text(30),
                    answer: b.text(30),
                })
                .collect::<Vec<_>>();
            let request = ReviewRequest {
                declinable: frame.declinable,
                context: frame.context.clone(),
                items,
            };
            match ui.review(&request) {
                ReviewReply::Edit(n) => assert!((n as usize) < request.items.len()),
                ReviewReply::Decline => assert!(request.declinable),
                ReviewReply::Submit | ReviewReply::Cancel => {}
                ReviewReply::TimeUp => panic!("a typed line is never the host's time-up"),
            }
        }
    }
});
