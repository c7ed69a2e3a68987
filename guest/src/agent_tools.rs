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

use serde_json::{Value as Json, json};

/// The agents' tools: name, description, parameters.
pub fn definitions() -> [(&'static str, &'static str, Json); 4] {
    [
        ("AskUserQuestion", ASK_USER_QUESTION, ask_user_question()),
        (
            "request_user_input",
            REQUEST_USER_INPUT,
            request_user_input(),
        ),
        ("ask_user", ASK_USER, ask_user()),
        ("question", QUESTION, question()),
    ]
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

fn string(description: &str) -> Json {
    json!({ "type": "string", "description": description })
}

fn boolean(description: &str) -> Json {
    json!({ "type": "boolean", "description": description })
}

fn ask_user_question() -> Json {
    let option = json!({
        "type": "object",
        "properties": {
            "label": string("The display text for this option that the user will see and select. Should be concise (1-5 words) and clearly describe the choice."),
            "description": string("Explanation of what this option means or what will happen if chosen. Useful for providing context about trade-offs or implications."),
            "preview": string("Optional preview content rendered when this option is focused. Use for mockups, code snippets, or visual comparisons that help users compare options."),
        },
        "required": ["label", "description"],
    });
    json!({
        "type": "object",
        "properties": {
            "questions": {
                "type": "array", "minItems": 1, "maxItems": 4,
                "description": "Questions to ask the user (1-4 questions)",
                "items": {
                    "type": "object",
                    "properties": {
                        "question": string("The complete question to ask the user. Should be clear, specific, and end with a question mark."),
                        "header": string("Very short label displayed as a chip/tag (max 12 chars). Examples: \"Auth method\", \"Library\", \"Approach\"."),
                        "options": {
                            "type": "array", "minItems": 2, "maxItems": 4, "items": option,
                            "description": "The available choices for this question. Must have 2-4 options. There should be no 'Other' option, that will be provided automatically.",
                        },
                        "multiSelect": boolean("Set to true to allow the user to select multiple options instead of just one. Use when choices are not mutually exclusive."),
                    },
                    "required": ["question", "header", "options", "multiSelect"],
                },
            },
        },
        "required": ["questions"],
    })
}

fn request_user_input() -> Json {
    let option = json!({
        "type": "object",
        "properties": {
            "label": string("User-facing label (1-5 words)."),
            "description": string("One short sentence explaining impact/tradeoff if selected."),
        },
        "required": ["label", "description"],
        "additionalProperties": false,
    });
    json!({
        "type": "object",
        "properties": {
            "questions": {
                "type": "array",
                "description": "Questions to show the user. Prefer 1 and do not exceed 3",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": string("Stable identifier for mapping answers (snake_case)."),
                        "header": string("Short header label shown in the UI (12 or fewer chars)."),
                        "question": string("Single-sentence prompt shown to the user."),
                        "options": {
                            "type": "array", "items": option,
                            "description": "Provide 2-3 mutually exclusive choices. Put the recommended option first and suffix its label with \"(Recommended)\". Do not include an \"Other\" option in this list; the client will add a free-form \"Other\" option automatically.",
                        },
                        "isOther": boolean("Offer the free-form \"Other\" answer (the client sets it)."),
                        "isSecret": boolean("The answer is secret: typing is not echoed."),
                    },
                    "required": ["id", "header", "question"],
                    "additionalProperties": false,
                },
            },
        },
        "required": ["questions"],
        "additionalProperties": false,
    })
}

fn ask_user() -> Json {
    json!({
        "type": "object",
        "properties": {
            "questions": {
                "type": "array", "minItems": 1, "maxItems": 4,
                "items": {
                    "type": "object",
                    "properties": {
                        "question": string("The complete question to ask the user. Should be clear, specific, and end with a question mark."),
                        "header": string("Very short label displayed as a chip/tag. Use abbreviations: \"Auth\" not \"Authentication\", \"Config\" not \"Configuration\". Examples: \"Auth method\", \"Library\", \"Approach\", \"Database\"."),
                        "type": {
                            "type": "string", "enum": ["choice", "text", "yesno"], "default": "choice",
                            "description": "Question type: 'choice' (default) for multiple-choice with options, 'text' for free-form input, 'yesno' for Yes/No confirmation with optional 'Other' feedback.",
                        },
                        "options": {
                            "type": "array",
                            "description": "The selectable choices for 'choice' type questions. Provide 2-4 options. An 'Other' option is automatically added for 'choice' and 'yesno' types. Not needed for 'text' or 'yesno'.",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "label": string("The display text for this option (1-5 words). Example: \"OAuth 2.0\""),
                                    "description": string("Brief explanation of this option. Example: \"Industry standard, supports SSO\""),
                                },
                                "required": ["label", "description"],
                            },
                        },
                        "multiSelect": boolean("Only applies when type='choice'. Set to true to allow selecting multiple options."),
                        "placeholder": string("Hint text shown in the input field. For type='text', shown in the main input. For type='choice' and 'yesno', shown in the 'Other' custom input."),
                    },
                    "required": ["question", "header", "type"],
                },
            },
        },
        "required": ["questions"],
    })
}

fn question() -> Json {
    let option = json!({
        "type": "object",
        "properties": {
            "label": string("Display text (1-5 words, concise)"),
            "description": string("Explanation of choice"),
        },
        "required": ["label", "description"],
    });
    json!({
        "type": "object",
        "properties": {
            "questions": {
                "type": "array", "description": "Questions to ask",
                "items": {
                    "type": "object",
                    "properties": {
                        "question": string("Complete question"),
                        "header": string("Very short label (max 30 chars)"),
                        "options": { "type": "array", "items": option, "description": "Available choices" },
                        "multiple": boolean("Allow selecting multiple choices"),
                        "custom": boolean("Allow typing a custom answer (default: true)"),
                    },
                    "required": ["question", "header", "options"],
                },
            },
        },
        "required": ["questions"],
    })
}
