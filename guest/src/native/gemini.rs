//! Gemini CLI's `ask_user` (google-gemini/gemini-cli).
//!
//! The model reads `JSON.stringify({ answers })` (`packages/core/src/tools/ask-user.ts`,
//! `AskUserInvocation.execute`), where `answers` maps each answered question's position (`"0"`,
//! `"1"`, ...) to one string, built by the dialog (`packages/cli/src/ui/components/AskUserDialog.tsx`):
//! the picked label; a multi-select's labels then its typed entry, joined with `", "`; typed text
//! trimmed; `Yes` or `No` for a yes/no question, or the feedback typed in their place. A question
//! answered with nothing is left out. Dismissed: `User dismissed ask_user dialog without answering.`

use serde_json::{Map, json};

use super::{Asked, Native, Said};

const DISMISSED: &str = "User dismissed ask_user dialog without answering.";

pub(super) fn reply(asked: &Asked) -> Native {
    let Some(answers) = asked.answers else {
        return Native::text(DISMISSED);
    };
    let mut by_position = Map::new();
    for (index, (_, said)) in asked.said(answers).enumerate() {
        let text = match said {
            Said::Typed(text) => Some(text.trim().to_string()),
            other => other.joined(),
        };
        if let Some(text) = text.filter(|t| !t.trim().is_empty()) {
            by_position.insert(index.to_string(), text.into());
        }
    }
    Native::json(json!({ "answers": by_position }))
}
