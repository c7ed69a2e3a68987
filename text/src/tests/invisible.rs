//! The table of invisible characters against Unicode's own data: every code point, so that the
//! table is exactly the characters its rule names and a change of Unicode version shows here.

use icu_properties::props::{DefaultIgnorableCodePoint, GeneralCategory};
use icu_properties::{CodePointMapData, CodePointSetData};

use crate::invisible::invisible;

/// The rule, from the property data: Cc, Cf, Zl, Zp or Default_Ignorable_Code_Point.
fn by_property(c: char) -> bool {
    matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    ) || CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
}

/// The table the rule gives, written as the source holds it, to paste when Unicode changes.
fn table_by_property() -> String {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
        if !by_property(c) {
            continue;
        }
        let c = u32::from(c);
        match ranges.last_mut() {
            // Surrogates are no chars: a range runs on across them.
            Some((_, end)) if *end + 1 == c || (*end == 0xd7ff && c == 0xe000) => *end = c,
            _ => ranges.push((c, c)),
        }
    }
    ranges
        .iter()
        .map(|(start, end)| format!("    (0x{start:04x}, 0x{end:04x}),\n"))
        .collect()
}

#[test]
fn the_table_is_unicodes_controls_format_characters_separators_and_ignorables() {
    let differ: Vec<String> = (0..=u32::from(char::MAX))
        .filter_map(char::from_u32)
        .filter(|&c| invisible(c) != by_property(c))
        .take(10)
        .map(|c| format!("U+{:04X}", u32::from(c)))
        .collect();
    assert!(
        differ.is_empty(),
        "the table differs from Unicode at {differ:?}; the ranges by property are:\n{}",
        table_by_property()
    );
}
