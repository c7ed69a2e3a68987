//! What the fuzz targets share: widget requests made from the fuzzer's bytes, and the checks
//! every reply must pass whatever the person did.

use interview_host::ask::Choice;

use interview_host::ui::{
    Frame, MultiSelectReply, MultiSelectRequest, NumberRequest, Options, ReviewItem, ReviewReply,
    ReviewRequest, SelectReply, SelectRequest, TextRequest,
};

/// The fuzzer's bytes, read from the front; past the end, zeros.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// Up to `max` bytes of text (lossy UTF-8).
    pub fn text(&mut self, max: usize) -> String {
        let n = (self.byte() as usize).min(max).min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        String::from_utf8_lossy(head).into_owned()
    }

    pub fn maybe_text(&mut self, max: usize) -> Option<String> {
        self.flag().then(|| self.text(max))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What is left.
    pub fn rest(&self) -> &[u8] {
        self.0
    }
}

pub fn frame(b: &mut Bytes) -> Frame {
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

/// 1 to 16 options; labels are numbered so that they differ, as the plugin guarantees.
fn options(b: &mut Bytes) -> Options {
    let count = 1 + usize::from(b.byte() % 16);
    (0..count)
        .map(|i| Choice {
            label: format!("{i} {}", b.text(12)),
            value: format!("v{i}"),
            description: b.maybe_text(20),
            preview: b.maybe_text(40),
            recommended: b.flag(),
        })
        .collect()
}

pub fn select(b: &mut Bytes) -> SelectRequest {
    let options = options(b);
    SelectRequest {
        selected: b.flag().then(|| u32::from(b.byte()) % options.len() as u32),
        options,
        other_label: b.maybe_text(12),
        other_text: b.maybe_text(12),
        discuss_label: b.maybe_text(12),
        notes: b.flag(),
        note: b.maybe_text(12),
    }
}

pub fn multi_select(b: &mut Bytes) -> MultiSelectRequest {
    let options = options(b);
    let selected: Vec<u32> = (0..options.len() as u32).filter(|_| b.flag()).collect();
    let min = b.flag().then(|| u32::from(b.byte() % 4));
    let max = b.flag().then(|| min.unwrap_or(0) + u32::from(b.byte() % 8));
    MultiSelectRequest {
        options,
        selected,
        other_label: b.maybe_text(12),
        other_text: b.maybe_text(12),
        min_picks: min,
        max_picks: max,
        notes: b.flag(),
        note: b.maybe_text(12),
    }
}

pub fn text(b: &mut Bytes) -> TextRequest {
    let min = b.flag().then(|| u32::from(b.byte() % 8));
    TextRequest {
        multiline: b.flag(),
        placeholder: b.maybe_text(20),
        initial: b.maybe_text(30),
        secret: b.flag(),
        min_length: min,
        max_length: b.flag().then(|| min.unwrap_or(0) + u32::from(b.byte())),
    }
}

pub fn number(b: &mut Bytes) -> NumberRequest {
    let bound = |b: &mut Bytes| b.flag().then(|| f64::from(b.byte() as i8) / 4.0);
    NumberRequest {
        initial: bound(b),
        min: bound(b),
        max: bound(b),
        exclusive_min: bound(b),
        exclusive_max: bound(b),
        integer: b.flag(),
    }
}

pub fn review(b: &mut Bytes) -> ReviewRequest {
    let count = usize::from(b.byte() % 6);
    ReviewRequest {
        items: (0..count)
            .map(|_| ReviewItem {
                header: b.maybe_text(12),
                prompt: b.text(30),
                answer: b.text(30),
            })
            .collect(),
        context: b.maybe_text(20),
        declinable: b.flag(),
    }
}

/// A select reply names an option that exists.
pub fn check_select(request: &SelectRequest, reply: &SelectReply) {
    if let SelectReply::Picked(pick) = reply {
        assert!(
            (pick.index as usize) < request.options.len(),
            "picked {} of {} options",
            pick.index,
            request.options.len()
        );
    }
}

/// A multi-select reply names options that exist, each once.
pub fn check_multi_select(request: &MultiSelectRequest, reply: &MultiSelectReply) {
    if let MultiSelectReply::Picked(pick) = reply {
        let mut seen = std::collections::HashSet::new();
        for &i in &pick.picked {
            assert!((i as usize) < request.options.len(), "picked {i}");
            assert!(seen.insert(i), "picked {i} twice");
        }
    }
}

/// A review reply changes an answer that is listed, and declines only where that is offered.
pub fn check_review(request: &ReviewRequest, reply: &ReviewReply) {
    match reply {
        ReviewReply::Edit(i) => assert!((*i as usize) < request.items.len(), "edit {i}"),
        ReviewReply::Decline => assert!(request.declinable, "declined an undeclinable review"),
        ReviewReply::Submit | ReviewReply::Cancel => {}
        ReviewReply::TimeUp => panic!("a person's reply is never the host's time-up"),
    }
}

/// The command's reading of request lines, and the MCP server's judging of them: the command is
/// a binary crate, so these modules are compiled here from its source files, as they are.
#[allow(dead_code)]
#[path = "../../src/input.rs"]
pub mod input;

#[allow(dead_code)]
#[path = "../../src/mcp/lines.rs"]
pub mod mcp_lines;
