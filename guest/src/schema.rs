//! The tool definitions a runtime shows the model: names, descriptions that teach when and how
//! to ask, and the JSON Schema of the arguments.
//!
//! The schemas are JSON files in `schema/`, put together here: as data they take a quarter of
//! the room in the component that the same schemas took as code building them key by key.

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
    parse(include_str!("schema/option.json"))
}

fn question_schema(options: Json) -> Json {
    let mut question = parse(include_str!("schema/question.json"));
    question["properties"]["options"] = options;
    // Optional here (a text question has none), as every field but the question.
    question["properties"]["options"]["type"] = json!(["array", "null"]);
    question
}

/// The JSON Schema of every tool's result (an MCP tool's `outputSchema`): what
/// [`crate::result`] writes, and the `failed` result a host writes when the plugin itself
/// fails (whose answers say what the person gave, in words).
pub fn result() -> Json {
    parse(include_str!("schema/result.json"))
}

/// A schema file beside this module; every one is parsed by the tests.
fn parse(text: &str) -> Json {
    serde_json::from_str(text).expect("a schema file is JSON")
}
