//! Characters that are not drawn as themselves: controls (Cc), format characters (Cf: bidi
//! controls, zero-width spaces and joiners, tags), the line and paragraph separators (Zl, Zp),
//! and every default-ignorable code point (fillers, variation selectors, the combining grapheme
//! joiner, reserved ranges Unicode keeps invisible). Decided by Unicode property, from a table
//! of ranges, so that a character no hand list thought of cannot slip through. This crate's
//! tests check the table against a Unicode property crate, character by character.

/// The ranges, inclusive, sorted and apart: Cc, Cf, Zl, Zp and Default_Ignorable_Code_Point
/// (Unicode 18, as this crate's test prints them when they change).
const RANGES: &[(u32, u32)] = &[
    (0x0000, 0x001f),
    (0x007f, 0x009f),
    (0x00ad, 0x00ad),
    (0x034f, 0x034f),
    (0x0600, 0x0605),
    (0x061c, 0x061c),
    (0x06dd, 0x06dd),
    (0x070f, 0x070f),
    (0x0890, 0x0891),
    (0x08e2, 0x08e2),
    (0x115f, 0x1160),
    (0x17b4, 0x17b5),
    (0x180b, 0x180f),
    (0x200b, 0x200f),
    (0x2028, 0x202e),
    (0x2060, 0x206f),
    (0x3164, 0x3164),
    (0xfe00, 0xfe0f),
    (0xfeff, 0xfeff),
    (0xffa0, 0xffa0),
    (0xfff0, 0xfffb),
    (0x110bd, 0x110bd),
    (0x110cd, 0x110cd),
    (0x13430, 0x1343f),
    (0x1bca0, 0x1bca3),
    (0x1d173, 0x1d17a),
    (0xe0000, 0xe0fff),
];

/// The table itself: the ranges of code points, inclusive and sorted, that [`invisible`] is
/// true of (for hosts in other languages, whose copies are generated from it).
pub fn ranges() -> &'static [(u32, u32)] {
    RANGES
}

/// Whether `c` is a control, a format character, a line or paragraph separator, or a
/// default-ignorable code point.
pub fn invisible(c: char) -> bool {
    let c = u32::from(c);
    // Printable ASCII is most text, and none of it is in the table.
    if (0x20..0x7f).contains(&c) {
        return false;
    }
    RANGES
        .binary_search_by(|&(start, end)| {
            if end < c {
                std::cmp::Ordering::Less
            } else if start > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}
