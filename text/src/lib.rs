//! Agent text made safe to print, for the interview plugin and its hosts alike: one sanitizer
//! for a terminal ([`sanitize`]), one escaping for result JSON ([`json`]), over one table of the
//! characters that are not drawn as themselves ([`invisible`]).
//!
//! ```
//! assert_eq!(interview_text::sanitize::line("\u{1b}]0;pwned\u{7}Deploy\nnow"), "Deploy now");
//! let value = serde_json::json!({ "label": "a\u{202e}b" });
//! assert_eq!(interview_text::json::to_string(&value, false), r#"{"label":"a\u202eb"}"#);
//! ```

#![warn(missing_docs)]

pub mod invisible;
pub mod json;
pub mod sanitize;

#[cfg(test)]
mod tests;
