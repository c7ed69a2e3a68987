//! Documented size limits: no request, however large, can make the plugin or its host exhaust
//! memory or draw for ever. The README lists the same numbers.

/// The arguments JSON, in bytes.
pub const MAX_REQUEST_BYTES: usize = 1 << 20;
/// Questions in one request.
pub const MAX_QUESTIONS: usize = 50;
/// Options of one question.
pub const MAX_OPTIONS: usize = 10_000;
/// Options of all questions together.
pub const MAX_TOTAL_OPTIONS: usize = 20_000;
/// Characters of a question's prompt.
pub const MAX_PROMPT_CHARS: usize = 4_000;
/// Characters of an id, a header, a label or a value.
pub const MAX_SHORT_CHARS: usize = 200;
/// Characters of a description, a placeholder or a default text.
pub const MAX_LONG_CHARS: usize = 2_000;
