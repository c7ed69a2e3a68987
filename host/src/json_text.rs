//! Result JSON as text that is safe to print. JSON lets any character be written as `\uXXXX`;
//! serde_json does so for C0 controls only, so agent text could still carry DEL, C1 controls
//! (`\u{9b}` starts a control sequence on many terminals), bidirectional overrides that make a
//! terminal show text reordered, or invisible characters that make two strings look alike.
//! Here those are always escaped: the JSON means the same, and printing it shows them as
//! escapes.

use serde_json::Value;

/// `value` as JSON text, pretty (indented) or compact, with every invisible or control
/// character escaped.
pub fn to_string(value: &Value, pretty: bool) -> String {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .expect("a JSON value always serializes");
    escape_invisible(&text)
}

/// Escapes the characters of [`must_escape`] in serialized JSON. Outside strings, JSON text is
/// ASCII punctuation, digits and spaces, so every such character is inside a string, where
/// `\uXXXX` stands for it.
fn escape_invisible(json: &str) -> String {
    if !json.chars().any(must_escape) {
        return json.to_string();
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if must_escape(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// DEL, C1 controls, bidirectional marks, embeddings, overrides and isolates, zero-width and
/// other invisible format characters, the line and paragraph separators, and the byte order mark.
pub fn must_escape(c: char) -> bool {
    matches!(c,
        '\u{7f}'..='\u{9f}'
        | '\u{ad}'
        | '\u{61c}'
        | '\u{180e}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206f}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn controls_and_bidi_are_escaped_and_mean_the_same() {
        let value =
            json!({"label": "a\u{9b}31m b\u{202e}gnp.exe c\u{7f} d\u{200b}e\u{feff}", "n": 1});
        for pretty in [false, true] {
            let text = to_string(&value, pretty);
            assert!(!text.chars().any(must_escape), "{text}");
            assert!(
                text.contains(r"a\u009b31m b\u202egnp.exe c\u007f d\u200be\ufeff"),
                "{text}"
            );
            assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
        }
    }

    #[test]
    fn plain_text_is_unchanged() {
        let value = json!({"answer": "café ✔ 日本語 \"quoted\"\n"});
        assert_eq!(
            to_string(&value, false),
            serde_json::to_string(&value).unwrap()
        );
    }
}
