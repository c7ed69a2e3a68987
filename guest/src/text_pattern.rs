//! A text answer's `pattern` (JSON Schema's, as pydantic's `Field(pattern=...)` and the MCP
//! specification's own examples send it): a regular expression the answer must match somewhere,
//! not anchored. JSON Schema uses ECMA-262 syntax; the common part (classes, `\d`, `\w`,
//! anchors, groups, repetition, alternation) reads the same in `regex-lite`, and a pattern it
//! cannot read (lookaround, backreferences) is refused when the request is checked, so that no
//! answer is ever accepted unchecked.

use regex_lite::Regex;

/// The pattern compiled, or why it cannot be checked.
pub fn compile(pattern: &str) -> Result<Regex, String> {
    Regex::new(pattern).map_err(|error| {
        let reason = error.to_string();
        let reason = reason
            .lines()
            .last()
            .unwrap_or("")
            .trim()
            .trim_end_matches('.');
        format!(
            "cannot be checked here ({reason}); use classes, groups, anchors and repetition only"
        )
    })
}

/// Whether `text` matches `pattern` (one the request check has compiled).
pub fn fits(pattern: &str, text: &str) -> bool {
    compile(pattern).is_ok_and(|regex| regex.is_match(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_unless_anchored() {
        assert!(fits("[0-9]{3}", "abc 123 def"));
        assert!(!fits("^[0-9]{3}$", "abc 123 def"));
        assert!(fits(r"^\d{3}-\d{4}$", "555-1234"));
        assert!(fits(r"^[a-z0-9_\-\/]+$", "a/b-c"), "escaped punctuation");
    }

    #[test]
    fn lookaround_is_refused_not_ignored() {
        let error = compile("^(?=.*[A-Z]).{8,}$").unwrap_err();
        assert!(error.starts_with("cannot be checked here"), "{error}");
    }
}
