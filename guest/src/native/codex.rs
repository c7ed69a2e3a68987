//! Codex's `request_user_input` (openai/codex).
//!
//! The tool output is the `RequestUserInputResponse` serialized with serde_json
//! (`codex-rs/core/src/tools/handlers/request_user_input.rs`; the round trip is asserted in
//! `codex-rs/core/tests/suite/request_user_input.rs`): `{"answers": {"<id>": {"answers": [...]}}}`.
//! The TUI (`codex-rs/tui/src/bottom_pane/request_user_input/mod.rs`, `submit_answers`) puts the
//! picked option's label first, then what the person typed as `user_note: <text>`; a typed answer
//! to an options question is picked through its "None of the above" entry. A question left
//! unanswered has an empty list. A note on a picked option is added the same way, after the
//! label. A dismissed request has no response: the handler tells the model
//! `request_user_input was cancelled before receiving a response`.

use serde_json::{Map, json};

use super::{Asked, Native, Said};

const CANCELLED: &str = "request_user_input was cancelled before receiving a response";
/// The entry Codex adds to an options question for an answer of the person's own.
const OTHER_OPTION_LABEL: &str = "None of the above";

pub(super) fn reply(asked: &Asked) -> Native {
    let Some(answers) = asked.answers else {
        return Native::text(CANCELLED);
    };
    let mut by_id = Map::new();
    for (question, said) in asked.said(answers) {
        let listed: Vec<String> = match said {
            Said::Picked {
                labels,
                typed,
                multi,
                note: added,
            } => {
                let mut listed: Vec<String> = labels.iter().map(|l| l.to_string()).collect();
                if let Some(typed) = typed {
                    if labels.is_empty() && !multi {
                        listed.push(OTHER_OPTION_LABEL.to_string());
                    }
                    listed.push(note(typed));
                }
                listed.extend(added.map(note));
                listed
            }
            Said::Typed(text) => vec![note(text)],
            other => other.parts(),
        };
        by_id.insert(question.id.clone(), json!({ "answers": listed }));
    }
    Native::json(json!({ "answers": by_id }))
}

/// Text the person typed, as Codex appends it to an answer (trimmed, as its TUI trims notes).
fn note(text: &str) -> String {
    format!("user_note: {}", text.trim())
}
