//! The agents' own ask-the-user tools, defined as each agent defines them for its model, so
//! that a runtime (or `interview mcp --tools`) can offer the very tool its model was trained
//! on, and get back that tool's own result (`native`).
//!
//! The plugin reads more than these schemas say (a Gemini question of type `integer`, say), but
//! a model is shown only what its agent shows it.
//!
//! Each schema follows the agent's source:
//! - Claude Code's `AskUserQuestion`: `AskUserQuestionInput` in the Agent SDK's
//!   `sdk-tools.d.ts` (1-4 questions of 2-4 options, `multiSelect` required);
//! - Codex's `request_user_input`: `create_request_user_input_tool` (codex-rs), with the
//!   protocol's `isOther` and `isSecret`, which its app server reads, and `options` optional
//!   as the protocol has them (a question without options is free text);
//! - Gemini CLI's `ask_user`: its core tool declaration (`coreTools` snapshots), description
//!   included;
//! - opencode's `question`: `Question.Info` (`packages/opencode/src/question`).
//!
//! The schemas are JSON files beside this module: data, read when a runtime asks for them.

use serde_json::Value as Json;

/// The agents' tools: name, description, parameters.
pub fn definitions() -> [(&'static str, &'static str, Json); 4] {
    [
        (
            "AskUserQuestion",
            ASK_USER_QUESTION,
            schema(include_str!("agent_tools/ask_user_question.json")),
        ),
        (
            "request_user_input",
            REQUEST_USER_INPUT,
            schema(include_str!("agent_tools/request_user_input.json")),
        ),
        (
            "ask_user",
            ASK_USER,
            schema(include_str!("agent_tools/ask_user.json")),
        ),
        (
            "question",
            QUESTION,
            schema(include_str!("agent_tools/question.json")),
        ),
    ]
}

/// A schema file of this module; every one is parsed by the tests.
fn schema(text: &str) -> Json {
    serde_json::from_str(text).expect("an agent tool's schema file is JSON")
}

const ASK_USER_QUESTION: &str = "Ask the user 1-4 questions while you work, to gather \
preferences, clarify ambiguous instructions, or choose between approaches. Each question has a \
short header (max 12 characters) and 2-4 options, each a concise label with a description of \
what it means; set multiSelect to let the user pick several. Users can always answer in their \
own words (\"Other\"): do not add it as an option. To recommend an option, put it first and end \
its label with \"(Recommended)\". An option's preview (a mockup, a code snippet) is shown while \
it is under the cursor.";

const REQUEST_USER_INPUT: &str = "Request user input for one to three short questions and wait \
for the response. Each question has a stable snake_case id, a short header (12 or fewer \
characters) and 2-3 mutually exclusive options; the client adds a free-form \"Other\" option \
itself.";

const ASK_USER: &str = "Ask the user one or more questions to gather preferences, clarify \
requirements, or make decisions. When using this tool, prefer providing multiple-choice options \
with detailed descriptions and enable multi-select where appropriate to provide maximum \
flexibility.";

const QUESTION: &str = "Ask the user questions during execution: to gather preferences or \
requirements, clarify ambiguous instructions, or get decisions on implementation choices. Each \
question has a short header and options with descriptions; set multiple to allow several \
choices. A custom typed answer is allowed unless custom is false: do not add an \"Other\" \
option. If you recommend an option, put it first and add \"(Recommended)\" to its label.";
