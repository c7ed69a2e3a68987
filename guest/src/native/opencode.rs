//! opencode's `question` (sst/opencode, now anomalyco/opencode).
//!
//! The tool (`packages/opencode/src/tool/question.ts`) keeps `metadata.answers`, one list of
//! strings per question (the picked labels, a typed answer as one more string), and tells the
//! model `User has answered your questions: "<question>"="<answers joined with ", ">", ...`
//! followed by `. You can now continue with the user's answers in mind.`, with `Unanswered` for a
//! question left empty (`packages/opencode/test/tool/question.test.ts`). A dismissal rejects the
//! call with `The user dismissed this question` (`packages/opencode/src/question/index.ts`).

use serde_json::Value as Json;

use super::{Asked, Native};

const DISMISSED: &str = "The user dismissed this question";

pub(super) fn reply(asked: &Asked) -> Native {
    let Some(answers) = asked.answers else {
        return Native::text(DISMISSED);
    };
    let mut lists = Vec::new();
    let mut pairs = Vec::new();
    for (question, said) in asked.said(answers) {
        let parts = said.parts();
        let shown = if parts.is_empty() {
            "Unanswered".to_string()
        } else {
            parts.join(", ")
        };
        pairs.push(format!("\"{}\"=\"{shown}\"", question.prompt));
        lists.push(Json::from(parts));
    }
    Native {
        text: Some(format!(
            "User has answered your questions: {}. You can now continue with the user's answers \
             in mind.",
            pairs.join(", ")
        )),
        value: lists.into(),
    }
}
