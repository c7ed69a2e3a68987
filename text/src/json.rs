//! Result JSON as text that is safe to print. JSON lets any character be written as `\uXXXX`;
//! serde_json does so for C0 controls only, so agent text could still carry DEL, C1 controls
//! (`\u{9b}` starts a control sequence on many terminals), bidirectional overrides that make a
//! terminal show text reordered, or invisible characters (tags, fillers, zero-width spaces)
//! that hide text or make two strings look alike. Here every character that is not drawn as
//! itself is escaped, by Unicode property: the JSON means the same, and printing it shows them
//! as escapes.

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
/// `\uXXXX` stands for it (a character beyond the Basic Multilingual Plane as its UTF-16
/// surrogate pair, the only way JSON has to write it).
fn escape_invisible(json: &str) -> String {
    if !json.chars().any(must_escape) {
        return json.to_string();
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if must_escape(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `reply` as the answer to `request`: under the request's id in a JSON-RPC response when the
/// request was a JSON-RPC request with one, else as it is. For the replies to an elicitation,
/// whose request may come whole or as its `params` alone.
pub fn answering(request: &str, reply: Value) -> Value {
    let id = serde_json::from_str::<Value>(request)
        .ok()
        .filter(|r| r.get("jsonrpc").is_some())
        .and_then(|r| r.get("id").cloned());
    match id {
        Some(id) => serde_json::json!({ "jsonrpc": "2.0", "id": id, "result": reply }),
        None => reply,
    }
}

/// Controls, format characters (bidirectional controls, zero-width characters, tags), the line
/// and paragraph separators, and every default-ignorable code point: what a terminal would not
/// show as itself. Not the C0 controls: serde_json escapes those inside strings, and the line
/// breaks between the lines of pretty JSON are its layout.
pub fn must_escape(c: char) -> bool {
    c >= ' ' && crate::invisible::invisible(c)
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
    fn invisible_characters_are_escaped_by_property_astral_ones_as_surrogate_pairs() {
        // Tags spelling "Hi", the Hangul fillers, the combining grapheme joiner, a Khmer
        // inherent vowel, a line separator and an Arabic number sign: none of them by name in
        // this file's code.
        let value = json!({
            "question": "Ok\u{e0048}\u{e0069}?",
            "value": "a\u{3164}b\u{115f}c\u{ffa0}d\u{34f}e\u{17b4}f\u{2028}g\u{600}h",
        });
        for pretty in [false, true] {
            let text = to_string(&value, pretty);
            assert!(text.contains(r"Ok\udb40\udc48\udb40\udc69?"), "{text}");
            assert!(
                text.contains(r"a\u3164b\u115fc\uffa0d\u034fe\u17b4f\u2028g\u0600h"),
                "{text}"
            );
            assert!(!text.chars().any(must_escape), "{text}");
            assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
        }
    }

    #[test]
    fn plain_text_is_unchanged() {
        let value = json!({"answer": "café ✔ 日本語 \"quoted\"\n 👍"});
        assert_eq!(
            to_string(&value, false),
            serde_json::to_string(&value).unwrap()
        );
    }
}
