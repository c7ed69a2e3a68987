//! The plugin's tool definitions in each agent ecosystem's own envelope: OpenAI (Chat
//! Completions function tools), Anthropic (Messages API tools), MCP (a `tools/list` result) and
//! Gemini (`functionDeclarations`).

use serde_json::{Map, Value as Json, json};

use crate::model::{ToolDefinition, ToolFormat as Format};

/// Schema keywords Gemini's function declarations accept (an OpenAPI 3.0 subset).
pub const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// `definitions` in `format`, as a JSON text.
pub fn render(definitions: &[ToolDefinition], format: Format) -> String {
    envelope(definitions, format).to_string()
}

fn envelope(definitions: &[ToolDefinition], format: Format) -> Json {
    let tools = definitions.iter().map(|tool| {
        let schema: Json = serde_json::from_str(&tool.parameters).unwrap_or_else(|_| json!({"type": "object"}));
        let (name, description) = (tool.name.as_str(), tool.description.as_str());
        match format {
            Format::Plain => json!({ "name": name, "description": description, "parameters": schema }),
            Format::Openai => json!({
                "type": "function",
                "function": { "name": name, "description": description, "parameters": without_meta(schema) },
            }),
            Format::Anthropic => json!({ "name": name, "description": description, "input_schema": schema }),
            Format::Mcp => json!({
                "name": name,
                "description": description,
                "inputSchema": schema,
                "outputSchema": crate::schema::result(),
            }),
            Format::Gemini => json!({ "name": name, "description": description, "parameters": gemini(schema) }),
        }
    });
    let tools: Vec<Json> = tools.collect();
    match format {
        Format::Mcp => json!({ "tools": tools }),
        Format::Gemini => json!({ "functionDeclarations": tools }),
        _ => Json::Array(tools),
    }
}

/// The schema without its `$schema` declaration, which function-calling APIs do not need.
fn without_meta(mut schema: Json) -> Json {
    if let Json::Object(map) = &mut schema {
        map.remove("$schema");
    }
    schema
}

/// The schema cut to Gemini's keywords at every level (property names are kept as they are).
fn gemini(schema: Json) -> Json {
    match schema {
        Json::Object(map) => {
            let kept: Map<String, Json> = map
                .into_iter()
                .filter(|(key, _)| GEMINI_KEYWORDS.contains(&key.as_str()))
                .map(|(key, value)| {
                    let value = match (key.as_str(), value) {
                        ("properties", Json::Object(properties)) => Json::Object(
                            properties
                                .into_iter()
                                .map(|(name, s)| (name, gemini(s)))
                                .collect(),
                        ),
                        ("items", items) => gemini(items),
                        ("anyOf", Json::Array(cases)) => {
                            Json::Array(cases.into_iter().map(gemini).collect())
                        }
                        (_, value) => value,
                    };
                    (key, value)
                })
                .collect();
            Json::Object(kept)
        }
        other => other,
    }
}
