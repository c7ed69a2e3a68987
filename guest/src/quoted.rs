//! A text quoted in a message: `{:?}`'s look without `{:?}`'s machinery.
//!
//! `str`'s `Debug` carries Unicode's printable and grapheme tables and the formatter's escape
//! code, and every `{:?}` of a type brings its derived `Debug`: some 13 KB of the component for
//! a few error messages. [`Quoted`] writes what `{:?}` writes for the texts people and agents
//! send, and escapes whatever would not show as itself.

use std::fmt::{self, Write};

use crate::visible::invisible;

/// `text` in double quotes, with `"` and `\` escaped, line breaks, tabs and nulls as `\n`, `\r`,
/// `\t` and `\0`, and any other control or invisible character as its code point (`\u{200b}`), so that
/// a message shows every character of it: `"a \"b\""`, `"x\u{200b}y"`.
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                '\0' => f.write_str("\\0")?,
                c if invisible(c) => write!(f, "\\u{{{:x}}}", u32::from(c))?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

#[cfg(test)]
mod tests {
    use super::Quoted;

    #[test]
    fn quotes_as_debug_does_for_what_people_type() {
        for text in [
            "",
            "plain",
            "with \"quotes\" and \\",
            "two\nlines\r\tand a tab",
            "café, 日本語, 🙂",
            "bell\u{7}, escape\u{1b}[31m, null\u{0}",
            "zero\u{200b}width, bidi\u{202e}override, bom\u{feff}",
        ] {
            assert_eq!(Quoted(text).to_string(), format!("{text:?}"));
        }
    }
}
