//! The numbered (line by line) UI, under any lines typed for any widget: nothing panics, and a
//! reply names only what was offered. Its output goes nowhere; its answers are checked.
#![no_main]

use std::collections::VecDeque;

use interview_fuzz::*;
use interview_host::NumberedUi;
use interview_host::{ConfirmRequest, Ui};
use interview_host::{Input, LineSource};
use libfuzzer_sys::fuzz_target;

/// Lines typed at a terminal, then the end of the input.
struct Typed(VecDeque<String>);

impl LineSource for Typed {
    fn next_input(&mut self) -> Input {
        self.0.pop_front().map_or(Input::End, Input::Line)
    }
    fn is_terminal(&self) -> bool {
        true
    }
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
    let mut ui = NumberedUi::new(Typed(lines), std::io::sink(), b.flag());
    match widget {
        0 => {
            let request = select(&mut b);
            check_select(&request, &ui.select(&frame, &request));
        }
        1 => {
            let request = multi_select(&mut b);
            check_multi_select(&request, &ui.multi_select(&frame, &request));
        }
        2 => {
            ui.text(&frame, &text(&mut b));
        }
        3 => {
            ui.number(&frame, &number(&mut b));
        }
        4 => {
            let request = ConfirmRequest {
                initial: b.flag().then(|| b.flag()),
            };
            ui.confirm(&frame, &request);
        }
        _ => {
            let request = review(&mut b);
            check_review(&request, &ui.review(&request));
        }
    }
});
