//! The sanitizer, on any text: nothing that could drive a terminal survives, and cleaning is
//! done once and for all.
#![no_main]

use interview_text::sanitize;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for (name, clean, newlines) in [
        ("line", sanitize::line as fn(&str) -> String, false),
        ("text", sanitize::text, true),
        ("block", sanitize::block, true),
    ] {
        let once = clean(text);
        for c in once.chars() {
            assert!(
                !c.is_control() || (newlines && c == '\n'),
                "{name}: {c:?} survived in {once:?}"
            );
            assert!(
                !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}' | '\u{feff}'),
                "{name}: {c:?} survived in {once:?}"
            );
        }
        assert_eq!(clean(&once), once, "{name} is not idempotent on {text:?}");
    }
});
