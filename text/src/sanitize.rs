//! Text that comes from the agent is untrusted: before it reaches a terminal, every escape
//! sequence and control character is removed, so no label can move the cursor, recolour the
//! screen, set the window title, or hide text.

use crate::invisible;

/// Makes `text` safe to print; line breaks are kept (prompts and descriptions may use them).
pub fn text(text: &str) -> String {
    clean(text, true)
}

/// Makes `text` safe to print on one line: line breaks become spaces.
pub fn line(text: &str) -> String {
    clean(text, false)
}

/// Makes a monospace block (an option's preview) safe to print: lines are kept, and a tab
/// becomes the spaces up to the next multiple of 4 columns, so that indented code stays
/// indented.
pub fn block(text: &str) -> String {
    // split, not lines: a last line break is kept, so that cleaning twice is cleaning once.
    let expanded: Vec<String> = text
        .split('\n')
        .map(|line| {
            let mut out = String::with_capacity(line.len());
            for c in line.chars() {
                if c == '\t' {
                    let pad = 4 - out.chars().count() % 4;
                    out.extend(std::iter::repeat_n(' ', pad));
                } else {
                    out.push(c);
                }
            }
            out
        })
        .collect();
    clean(&expanded.join("\n"), true)
}

/// [`text()`] in place: a text with nothing to take out, as most are, keeps its buffer.
pub fn text_in_place(text: &mut String) {
    if !is_plain(text) {
        *text = clean(text, true);
    }
}

/// [`line()`] in place: a text with nothing to take out, as most are, keeps its buffer.
pub fn line_in_place(text: &mut String) {
    if !is_plain_line(text) {
        *text = clean(text, false);
    }
}

/// [`block()`] in place: a text with nothing to take out (and so no tab) keeps its buffer.
pub fn block_in_place(text: &mut String) {
    if !is_plain(text) {
        *text = block(text);
    }
}

/// Whether [`line()`] keeps `text` as it is, known without a copy: printable ASCII.
pub fn is_plain_line(text: &str) -> bool {
    plain(text, false)
}

/// Whether [`text()`] and [`block()`] keep `text` as it is, known without a copy: printable ASCII
/// and line breaks.
pub fn is_plain(text: &str) -> bool {
    plain(text, true)
}

/// Printable ASCII (and line breaks where they are kept): nothing to take out or change.
/// Eight bytes at a time, since every label of a list of thousands is looked at.
fn plain(text: &str, keep_newlines: bool) -> bool {
    let plain_byte = |b: &u8| (0x20..0x7f).contains(b) || (keep_newlines && *b == b'\n');
    let mut words = text.as_bytes().chunks_exact(8);
    let whole = words.by_ref().all(|word| {
        printable_word(u64::from_le_bytes(word.try_into().expect("eight bytes")))
            || word.iter().all(plain_byte)
    });
    whole && words.remainder().iter().all(plain_byte)
}

/// Whether all eight bytes of `word` are printable ASCII (0x20 to 0x7e). With the top bits
/// clear, adding to a byte never carries into the next, and its top bit then tells whether
/// it reached a bound.
fn printable_word(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOPS: u64 = ONES * 0x80;
    // A byte from 0x20 up reaches the top bit when 0x60 is added; DEL (0x7f) when 1 is.
    word & TOPS == 0 && (word + ONES * 0x60) & TOPS == TOPS && (word + ONES) & TOPS == 0
}

fn clean(text: &str, keep_newlines: bool) -> String {
    // Most texts are printable ASCII, which has nothing to take out: copied whole.
    if plain(text, keep_newlines) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' if keep_newlines => out.push('\n'),
            '\n' | '\t' => out.push(' '),
            '\x1b' => match chars.next() {
                Some('[') => skip_csi(&mut chars),
                Some(']' | 'P' | 'X' | '^' | '_') => skip_string(&mut chars),
                // A two-character escape (ESC 7, ESC c, ...): both characters go.
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut chars),
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            // Unicode's own line and paragraph separators are line breaks.
            '\u{2028}' | '\u{2029}' if keep_newlines => out.push('\n'),
            '\u{2028}' | '\u{2029}' => out.push(' '),
            c if hidden(c) => {}
            c => out.push(c),
        }
    }
    out
}

/// Characters that draw nothing, or change how the text around them reads: every
/// [invisible](invisible::invisible) one, by Unicode property (bidirectional controls ("Trojan
/// Source"), zero-width spaces, the byte order mark, the soft hyphen, tags, fillers). They could
/// hide text or make two labels look the same. Joiners (U+200C, U+200D) and variation selectors
/// stay: emoji and some scripts need them to be drawn right.
fn hidden(c: char) -> bool {
    invisible::invisible(c)
        && !matches!(c,
            '\u{200c}' | '\u{200d}' | '\u{180b}'..='\u{180d}' | '\u{180f}'
            | '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}')
}

/// Skips the rest of a control sequence: parameters and intermediates up to the final byte.
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars>) {
    for c in chars.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) {
            break;
        }
    }
}

/// Skips the rest of an OSC, DCS, SOS, PM or APC string, up to BEL or the string terminator.
fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars>) {
    while let Some(c) = chars.next() {
        match c {
            '\x07' | '\u{9c}' => break,
            '\x1b' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                break;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_plain_exactly_when_each_of_its_bytes_is() {
        let by_bytes = |text: &str, keep_newlines: bool| {
            text.bytes()
                .all(|b| (0x20..0x7f).contains(&b) || (keep_newlines && b == b'\n'))
        };
        // Every byte value at every place of a word and of the tail after it.
        for byte in 0..=0x7fu8 {
            for place in 0..12 {
                let mut bytes = *b"Option 1234 ";
                bytes[place] = byte;
                let text = std::str::from_utf8(&bytes).unwrap();
                for keep_newlines in [false, true] {
                    assert_eq!(
                        plain(text, keep_newlines),
                        by_bytes(text, keep_newlines),
                        "{text:?}"
                    );
                }
            }
        }
        for text in [
            "",
            "é",
            "caf\u{e9} au lait",
            "two\nlines of text",
            "\u{1b}[31mred\u{1b}[0m",
        ] {
            for keep_newlines in [false, true] {
                assert_eq!(
                    plain(text, keep_newlines),
                    by_bytes(text, keep_newlines),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn removes_escape_sequences_and_controls() {
        assert_eq!(line("\x1b[31mred\x1b[0m"), "red");
        assert_eq!(line("a\x1b]0;title\x07b"), "ab");
        assert_eq!(line("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b"), "alinkb");
        assert_eq!(line("x\x1bPdcs\x1b\\y"), "xy");
        assert_eq!(line("a\rb\x08c\x7fd\u{0}e"), "abcde");
        assert_eq!(line("\u{9b}2Jclear"), "clear");
        assert_eq!(line("abc\u{202e}fed"), "abcfed");
        assert_eq!(line("x\x1b7y"), "xy");
    }

    #[test]
    fn removes_what_draws_nothing_but_keeps_joiners() {
        assert_eq!(line("N\u{200b}o\u{feff}\u{ad}\u{2060}"), "No");
        assert_eq!(line("a\u{200f}b\u{2067}c\u{e0041}"), "abc");
        assert_eq!(text("one\u{2028}two\u{2029}"), "one\ntwo\n");
        assert_eq!(line("one\u{2028}two"), "one two");
        // A family emoji and a heart with its variation selector are drawn as one.
        assert_eq!(
            line("👨\u{200d}👩\u{200d}👧 ❤\u{fe0f}"),
            "👨\u{200d}👩\u{200d}👧 ❤\u{fe0f}"
        );
    }

    #[test]
    fn removes_invisible_characters_by_property() {
        // Tags, fillers, the combining grapheme joiner, Khmer inherent vowels, an Arabic number
        // sign, an Egyptian hieroglyph format control and a reserved default-ignorable.
        assert_eq!(
            line(
                "O\u{e0001}k\u{e0041}\u{3164}\u{115f}\u{ffa0}\u{34f}\u{17b4}\u{600}\u{13430}\u{fff0}!"
            ),
            "Ok!"
        );
        // Every character left is drawn as itself, but for the joiners and variation selectors.
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            let cleaned = line(&format!("a{c}b"));
            let kept = cleaned.chars().any(|k| k == c);
            if kept && invisible::invisible(c) {
                assert!(
                    matches!(c, '\u{200c}' | '\u{200d}') || is_variation_selector(c),
                    "U+{:04X} reaches the terminal",
                    u32::from(c)
                );
            }
        }
    }

    fn is_variation_selector(c: char) -> bool {
        matches!(c, '\u{180b}'..='\u{180d}' | '\u{180f}' | '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}')
    }

    #[test]
    fn keeps_text_and_chooses_line_breaks() {
        assert_eq!(text("one\ntwo\tthree"), "one\ntwo three");
        assert_eq!(line("one\r\ntwo"), "one two");
        assert_eq!(line("日本語 ✔ é"), "日本語 ✔ é");
    }

    #[test]
    fn a_block_keeps_its_indentation() {
        assert_eq!(block("fn x() {\n\tlet a;\n}"), "fn x() {\n    let a;\n}");
        assert_eq!(block("ab\tc\x1b[2Jd"), "ab  cd");
        assert_eq!(block("x\r\ny"), "x\ny");
        // Found by fuzzing: a control alone on the last line left a line break that a second
        // cleaning took away.
        assert_eq!(block("fn x() {\n\u{1}"), "fn x() {\n");
        assert_eq!(block(&block("fn x() {\n\u{1}")), "fn x() {\n");
    }

    #[test]
    fn in_place_cleans_as_a_copy_does() {
        let samples = [
            "plain",
            "two\nlines",
            "\x1b[31mred\x1b[0m",
            "tab\there",
            "日本語 ✔ é",
            "N\u{200b}o",
            "fn x() {\n\tlet a;\n}",
            "a\u{2028}b",
        ];
        type Copying = fn(&str) -> String;
        type InPlace = fn(&mut String);
        let cases: [(Copying, InPlace); 3] = [
            (line, line_in_place),
            (text, text_in_place),
            (block, block_in_place),
        ];
        for sample in samples {
            for (copy, in_place) in cases {
                let mut cleaned = sample.to_string();
                in_place(&mut cleaned);
                assert_eq!(cleaned, copy(sample), "{sample:?}");
            }
        }
    }

    #[test]
    fn what_is_plain_is_kept_as_it_is() {
        // The host copies an option's texts as they are when the test says so, and cleans
        // them only otherwise: the test must never say so of a text that cleaning changes.
        type Plain = fn(&str) -> bool;
        type Cleaning = fn(&str) -> String;
        let cases: [(Plain, Cleaning); 3] =
            [(is_plain_line, line), (is_plain, text), (is_plain, block)];
        let samples = [
            "plain",
            "two\nlines",
            "tab\there",
            "\x1b[31mred",
            "N\u{200b}o",
            "é",
        ];
        let mut kept = 0;
        for sample in samples {
            for (plain, clean) in cases {
                if plain(sample) {
                    assert_eq!(clean(sample), sample, "{sample:?}");
                    kept += 1;
                }
            }
        }
        // "plain" by all three tests, "two\nlines" by the two that keep line breaks.
        assert_eq!(kept, 5);
    }

    #[test]
    fn an_unterminated_sequence_swallows_only_itself() {
        assert_eq!(line("ok\x1b[12"), "ok");
        assert_eq!(line("ok\x1b"), "ok");
    }
}
