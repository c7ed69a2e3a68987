//! The tool definitions a runtime shows the model: names, descriptions that teach when and how
//! to ask, and the JSON Schema of the arguments.

use serde_json::{Value as Json, json};

use crate::limits::*;
use crate::model::ToolDefinition;

const INTERVIEW: &str = "Ask the user one or more questions and wait for the answers. Use it \
whenever you need a human decision: to gather preferences or requirements, to clarify ambiguous \
instructions, to choose between approaches, or to confirm a risky action. Never write questions \
or lists of options to the user as plain text; call this tool instead.\n\
- Ask 1-4 questions per call, each with a short header (1-3 words).\n\
- Give choice questions 2-6 options, each with a short label and a description of its trade-off.\n\
- The UI adds a free-text \"Something else\" entry itself (set other: false to hide it): never \
add \"Other\" as an option.\n\
- If you recommend an option, set recommended: true on it; never write \"(Recommended)\" in a label.\n\
Result: status is answered, cancelled (the user stopped; the answers so far are included), \
unavailable (no human can answer: do not retry, continue on your own judgement) or invalid (fix \
the arguments and call again); text says in words what the user chose.";

const ASK_QUESTION: &str = "Ask the user one question with 2-6 options to pick from. The UI \
shows the options with their descriptions and always adds \"Something else (I'll explain)\" for \
a typed answer and \"Let's discuss this\" for a conversation: do not add these yourself. Cite \
real files and patterns of the codebase in the options. If the user wants to discuss, ask \
follow-ups in plain text and call resume_structured when the direction is clear.";

const ASK_MULTI_SELECT: &str = "Let the user tick any number of items in a list (at least one), \
for example which areas to discuss. Each item has a label and an optional description.";

const RESUME_STRUCTURED: &str = "Signal the end of a plain-text conversation that the user asked \
for (\"Let's discuss this\") and go back to structured questions. Summarize what you learned.";

/// Every tool the plugin answers, `interview` first.
pub fn definitions() -> Vec<ToolDefinition> {
    let option = option_schema();
    let options = |min: usize, max: usize| json!({ "type": "array", "minItems": min, "maxItems": max, "items": option.clone() });
    let question = question_schema(options(1, MAX_OPTIONS));
    let interview = json!({
        "type": "object",
        "properties": {
            "questions": {
                "type": "array", "minItems": 1, "maxItems": MAX_QUESTIONS, "items": question,
                "description": "The questions, asked in order. One question is a one-item array.",
            },
        },
        "required": ["questions"],
    });
    let one_question = |options: Json| {
        json!({
            "type": "object",
            "properties": {
                "question": { "type": "string", "description": "The question to ask." },
                "options": options,
            },
            "required": ["question", "options"],
        })
    };
    let resume = json!({
        "type": "object",
        "properties": { "summary": {
            "type": "string", "description": "What you learned in the conversation, briefly.",
        }},
        "required": ["summary"],
    });
    [
        ("interview", INTERVIEW, interview),
        ("ask_question", ASK_QUESTION, one_question(options(2, 6))),
        (
            "ask_multi_select",
            ASK_MULTI_SELECT,
            one_question(options(1, MAX_OPTIONS)),
        ),
        ("resume_structured", RESUME_STRUCTURED, resume),
    ]
    .into_iter()
    .chain(crate::agent_tools::definitions())
    .map(|(name, description, mut parameters)| {
        parameters["$schema"] = "https://json-schema.org/draft/2020-12/schema".into();
        ToolDefinition {
            name: name.into(),
            description: description.into(),
            parameters: parameters.to_string(),
        }
    })
    .collect()
}

fn option_schema() -> Json {
    json!({
        "anyOf": [
            { "type": "string", "description": "The option's label (and value)." },
            {
                "type": "object",
                "properties": {
                    "label": { "type": "string", "description": "Short text the user sees (1-5 words)." },
                    "value": { "type": "string", "description": "What comes back when picked; defaults to the label." },
                    "description": { "type": "string", "description": "What this option means or implies." },
                    "recommended": { "type": "boolean", "description": "Your recommendation; the UI shows a badge." },
                    "preview": { "type": "string", "description": "Something to look at before picking (a code sample, a layout), shown monospace while the option is under the cursor." },
                },
                "required": ["label"],
            },
        ],
    })
}

fn question_schema(options: Json) -> Json {
    let string = |d: &str| json!({ "type": "string", "description": d });
    let boolean = |d: &str| json!({ "type": "boolean", "description": d });
    let count = |d: &str| json!({ "type": "integer", "minimum": 0, "description": d });
    let number = |d: &str| json!({ "type": "number", "description": d });
    json!({
        "type": "object",
        "properties": {
            "id": string("Unique id; the answer carries it back. Default: q1, q2, ... by position."),
            "header": string("A very short label shown above the question, e.g. \"Deploy\"."),
            "question": string("The complete question."),
            "type": {
                "type": "string", "enum": ["text", "select", "multi_select", "confirm", "number"],
                "description": "Default: select when options are given, else text.",
            },
            "options": options,
            "multi": boolean("With options: let the user pick several (same as type multi_select)."),
            "required": boolean("The user must answer (default true); optional questions can be skipped."),
            "default": {
                "description": "The preselected answer: an option's value (an array of values for \
                    multi_select), a text, true/false for confirm, or a number.",
            },
            "other": boolean("Choice questions: offer a typed \"Something else\" answer (default true)."),
            "discuss": boolean("Select questions: offer \"Let's discuss this\" (default false)."),
            "notes": boolean("Choice questions: the user may add a note to their pick (default true)."),
            "placeholder": string("Text questions: a hint shown while the answer is empty."),
            "multiline": boolean("Text questions: allow several lines."),
            "secret": boolean("Text questions: do not show what is typed."),
            "min_length": count("Text questions: fewest characters."),
            "max_length": count("Text questions: most characters."),
            "format": {
                "type": "string", "enum": ["email", "uri", "date", "date-time"],
                "description": "Text questions: the answer must be an email address, a full URI, \
                    a date (YYYY-MM-DD) or a date and time (RFC 3339).",
            },
            "min_picks": count("multi_select: fewest picks (default 1 when required; 0 on a required question makes no pick an answer)."),
            "max_picks": count("multi_select: most picks."),
            "pattern": string("Text questions: a regular expression the answer must match (not anchored: use ^ and $)."),
            "min": number("number: smallest value."),
            "max": number("number: largest value."),
            "exclusive_min": number("number: the value must be more than this."),
            "exclusive_max": number("number: the value must be less than this."),
            "integer": boolean("number: whole numbers only."),
        },
        "required": ["question"],
    })
}

/// The JSON Schema of every tool's result (an MCP tool's `outputSchema`): what
/// [`crate::result`] writes, and the `failed` result a host writes when the plugin itself
/// fails (whose answers say what the person gave, in words).
pub fn result() -> Json {
    let flag = |what: &str| json!({ "type": "boolean", "description": what });
    json!({
        "type": "object",
        "properties": {
            "status": {
                "type": "string",
                "enum": ["answered", "cancelled", "unavailable", "invalid", "failed"],
                "description": "answered; cancelled (the user stopped: the answers so far are \
                    included); unavailable (no human can answer; nothing was asked); invalid \
                    (fix the arguments: see error); failed (the question tool broke: see error)",
            },
            "answers": {
                "type": "array",
                "description": "One per question answered, in question order",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": { "type": "string", "description": "The question's id" },
                        "question": { "type": "string", "description": "The question asked" },
                        "type": {
                            "type": "string",
                            "enum": ["text", "select", "multi_select", "confirm", "number"],
                        },
                        "value": {
                            "type": ["string", "array", "boolean", "number", "null"],
                            "items": { "type": "string" },
                            "description": "The answer: the chosen option's value or the text \
                                typed, the chosen values (multi_select), true or false, a \
                                number, or null when skipped",
                        },
                        "custom": flag("Typed by the user instead of picked"),
                        "skipped": flag("Skipped"),
                        "discuss": flag("The user wants to discuss this question"),
                        "note": { "type": "string", "description": "The user's note on their pick" },
                        "answer": {
                            "type": "string",
                            "description": "In a failed result: what the user gave, in words",
                        },
                    },
                    "required": ["question"],
                },
            },
            "answer": {
                "description": "The value of the only question, in a one-question request",
            },
            "text": {
                "type": "string",
                "description": "What happened, in words for the model",
            },
            "native": {
                "description": "What the called agent's own tool returns, in its own shape",
            },
            "error": {
                "type": "object",
                "properties": {
                    "path": {
                        "type": "string",
                        "description": "Where in the arguments (invalid), or empty",
                    },
                    "message": { "type": "string" },
                },
                "required": ["path", "message"],
            },
        },
        "required": ["status", "answers", "text"],
    })
}
