//! What a person sees of a text: labels that look the same to them are the same label, and a
//! text that shows nothing says nothing, whatever invisible characters it holds.

/// Characters that draw nothing by themselves: controls, format characters, the line and
/// paragraph separators and Unicode's default-ignorable code points (zero-width spaces and
/// joiners, bidirectional marks and overrides, the byte order mark, the soft hyphen, variation
/// selectors, tags, fillers), by Unicode property.
pub fn invisible(c: char) -> bool {
    interview_text::invisible::invisible(c)
}

/// Whether `text` shows nothing but blanks.
pub fn is_blank(text: &str) -> bool {
    text.chars().all(|c| c.is_whitespace() || invisible(c))
}

/// `text` as a person would tell it from another: without invisible characters, with runs of
/// blanks as one space, trimmed, and in lower case (a person may type a label to pick it).
/// Two texts that look alike compare (and hash) equal; a [blank](is_blank) text's is empty.
pub fn comparable(text: &str) -> Comparable<'_> {
    // Printable ASCII words with single spaces between them differ from their comparable form
    // only in case, which is folded as they are compared: no copy (a list may hold thousands).
    if is_plain(text.as_bytes()) {
        return Comparable::Plain(text);
    }
    let mut out = String::with_capacity(text.len());
    for word in text.split(char::is_whitespace) {
        let before = out.len();
        if !out.is_empty() {
            out.push(' ');
        }
        let start = out.len();
        // Most labels are plain ASCII, whose only invisible characters are controls: no
        // intermediate strings for them.
        if word.is_ascii() {
            out.extend(
                word.bytes()
                    .filter(|b| !b.is_ascii_control())
                    .map(|b| char::from(b.to_ascii_lowercase())),
            );
        } else {
            let shown: String = word.chars().filter(|&c| !invisible(c)).collect();
            out.push_str(&shown.to_lowercase());
        }
        if out.len() == start {
            out.truncate(before);
        }
    }
    Comparable::Folded(out)
}

/// Printable ASCII, not empty, whose spaces are single and between words: one pass.
fn is_plain(bytes: &[u8]) -> bool {
    // A space may not come first, so the text starts as if after one.
    let mut after_space = true;
    for &b in bytes {
        if !(0x20..0x7f).contains(&b) || (b == b' ' && after_space) {
            return false;
        }
        after_space = b == b' ';
    }
    !after_space
}

/// A text in the form a person tells it by; see [`comparable`].
#[derive(Debug)]
pub enum Comparable<'a> {
    /// Printable ASCII in its comparable form but for case.
    Plain(&'a str),
    /// The comparable form itself.
    Folded(String),
}

impl Comparable<'_> {
    /// The text as stored, and whether its case is still to be folded.
    fn stored(&self) -> (&str, bool) {
        match self {
            Comparable::Plain(text) => (text, true),
            Comparable::Folded(text) => (text, false),
        }
    }

    /// The bytes of the comparable form.
    fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        let (text, fold) = self.stored();
        text.bytes()
            .map(move |b| if fold { b.to_ascii_lowercase() } else { b })
    }

    /// The length of the comparable form: folding ASCII case keeps it.
    fn len(&self) -> usize {
        self.stored().0.len()
    }

    /// Whether the text shows nothing: the same as [`is_blank`] of it.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl PartialEq for Comparable<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.bytes().eq(other.bytes())
    }
}

impl Eq for Comparable<'_> {}

impl std::hash::Hash for Comparable<'_> {
    /// Eight bytes of the comparable form at a time, mixed into one word that goes to the
    /// hasher once: the duplicate check hashes every label of a list. Mixed here because the
    /// map's hasher (Fx) spreads words that differ in a few bytes poorly: fed the words of
    /// "Option 1" to "Option 10000" one by one, it put 10,000 labels in about 1,000 buckets.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let (text, fold) = self.stored();
        let word = |bytes: [u8; 8]| {
            let word = u64::from_le_bytes(bytes);
            if fold { ascii_lowercase(word) } else { word }
        };
        let mut mixed = text.len() as u64;
        let mut mix = |word: u64| {
            mixed = (mixed ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            mixed ^= mixed >> 29;
        };
        let mut chunks = text.as_bytes().chunks_exact(8);
        for chunk in &mut chunks {
            mix(word(chunk.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut padded = [0u8; 8];
            padded[..rest.len()].copy_from_slice(rest);
            mix(word(padded));
        }
        state.write_u64(mixed);
    }
}

/// Eight ASCII bytes in lower case, all at once: each byte below 0x80, so adding to it never
/// carries into the next, and its top bit says whether it passed the bound.
fn ascii_lowercase(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let from_a = word + ONES * (0x80 - u64::from(b'A'));
    let past_z = word + ONES * (0x80 - u64::from(b'Z') - 1);
    let upper = from_a & !past_z & (ONES * 0x80);
    word | (upper >> 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_that_look_alike_compare_alike() {
        assert_eq!(comparable("No"), comparable("N\u{200b}o"));
        assert_eq!(comparable("No"), comparable("\u{feff}no\u{ad}"));
        assert_eq!(comparable("Ship  it"), comparable(" ship\u{2028}it "));
        // By property, not by a list: a tag character, an Egyptian format control.
        assert_eq!(comparable("No"), comparable("N\u{e0041}o\u{13430}"));
        assert_ne!(comparable("No"), comparable("Now"));
        // Plain ASCII is compared in place, and equal to the same text folded.
        assert!(matches!(comparable("Ship It"), Comparable::Plain(_)));
        assert!(matches!(
            comparable("ship\u{2028}It\u{200b}"),
            Comparable::Folded(_)
        ));
        assert_eq!(comparable("Ship It"), comparable("ship\u{2028}It\u{200b}"));
        assert_ne!(comparable("Ship It"), comparable("Ship I"));
        assert!(is_blank(" \u{200b}\u{2060} "));
        assert!(!is_blank(" x "));
        for text in [
            "",
            " ",
            " \u{200b}\u{2060}\t",
            "\u{3164}",
            " x ",
            "\u{200b}é",
            "a b",
        ] {
            assert_eq!(comparable(text).is_empty(), is_blank(text), "{text:?}");
        }
    }

    #[test]
    fn a_word_of_ascii_is_lowered_as_each_byte_would_be() {
        let printable: Vec<u8> = (0x20..0x7f).collect();
        for chunk in printable.chunks(8).chain([&b"@AZ[`az{"[..], b"ZZZZAAAA"]) {
            let mut bytes = [b' '; 8];
            bytes[..chunk.len()].copy_from_slice(chunk);
            let lowered = ascii_lowercase(u64::from_le_bytes(bytes)).to_le_bytes();
            assert_eq!(lowered, bytes.map(|b| b.to_ascii_lowercase()), "{chunk:?}");
        }
    }

    #[test]
    fn labels_that_look_alike_hash_alike() {
        let seen: std::collections::HashSet<_> =
            ["Ship It", "\u{feff}NO", "Deploy To Production Now"]
                .map(comparable)
                .into();
        assert!(seen.contains(&comparable("ship\u{2028}It\u{200b}")));
        // Longer than a word of the hash, compared in place on one side and folded on the other.
        assert!(seen.contains(&comparable(" deploy\u{200b} to  production now")));
        assert!(!seen.contains(&comparable("Deploy To Production No")));
        assert!(seen.contains(&comparable("No")));
        assert!(!seen.contains(&comparable("Ship")));
    }
}
