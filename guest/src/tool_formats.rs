//! The plugin's tool definitions in each agent ecosystem's own envelope: OpenAI (Chat
//! Completions function tools), Anthropic (Messages API tools), MCP (a `tools/list` result) and
//! Gemini (`functionDeclarations`).
//!
//! The plugin's schemas let every optional field be `null`, which the plugin reads as absent:
//! that is what a model held to a schema (OpenAI's strict function calling, the OpenAI Agents
//! SDK's strict conversion of MCP tools) sends for a field it does not use.

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
        let schema: Json =
            serde_json::from_str(&tool.parameters).unwrap_or_else(|_| json!({"type": "object"}));
        let (name, description) = (tool.name.as_str(), tool.description.as_str());
        match format {
            Format::Plain => {
                json!({ "name": name, "description": description, "parameters": schema })
            }
            Format::Openai => json!({
                "type": "function",
                "function": {
                    "name": name,
                    "description": description,
                    "parameters": strict(without_meta(schema)),
                    "strict": true,
                },
            }),
            Format::Anthropic => {
                json!({ "name": name, "description": description, "input_schema": schema })
            }
            Format::Mcp => json!({
                "name": name,
                "description": description,
                "inputSchema": schema,
                "outputSchema": crate::schema::result(),
            }),
            Format::Gemini => {
                json!({ "name": name, "description": description, "parameters": gemini(schema) })
            }
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

/// The schema as OpenAI's strict function calling takes it: every object closed and all its
/// properties required, an optional one taking `null` as well (read as absent), and no
/// `default` annotation (strict mode refuses it; the descriptions say the defaults).
fn strict(schema: Json) -> Json {
    let Json::Object(mut map) = schema else {
        return schema;
    };
    map.shift_remove("default");
    let required = match map.get("required") {
        Some(Json::Array(names)) => names.clone(),
        _ => Vec::new(),
    };
    if let Some(Json::Object(properties)) = map.get_mut("properties") {
        let properties = std::mem::take(properties);
        let all: Vec<Json> = properties.keys().map(|name| name.as_str().into()).collect();
        let properties = properties.into_iter().map(|(name, property)| {
            let property = strict(property);
            let optional = !required.contains(&Json::String(name.clone()));
            (
                name,
                if optional {
                    or_null(property)
                } else {
                    property
                },
            )
        });
        map.insert("properties".into(), Json::Object(properties.collect()));
        map.insert("required".into(), Json::Array(all));
        map.insert("additionalProperties".into(), false.into());
    }
    if let Some(items) = map.get_mut("items") {
        *items = strict(items.take());
    }
    if let Some(Json::Array(cases)) = map.get_mut("anyOf") {
        for case in cases {
            *case = strict(case.take());
        }
    }
    Json::Object(map)
}

/// `schema`, also taking `null`.
fn or_null(schema: Json) -> Json {
    if takes_null(&schema) {
        return schema;
    }
    let Json::Object(mut map) = schema else {
        return schema;
    };
    match map.get_mut("type") {
        Some(Json::Array(types)) => types.push("null".into()),
        Some(single @ Json::String(_)) => *single = json!([single.take(), "null"]),
        _ => {
            if let Some(Json::Array(cases)) = map.get_mut("anyOf") {
                cases.push(json!({ "type": "null" }));
                return Json::Object(map);
            }
            return json!({ "anyOf": [Json::Object(map), { "type": "null" }] });
        }
    }
    if let Some(Json::Array(values)) = map.get_mut("enum") {
        values.push(Json::Null);
    }
    Json::Object(map)
}

/// Whether `schema` says `null` is a value: `"type": "null"`, a type list with it, or a case.
fn takes_null(schema: &Json) -> bool {
    match schema.get("type") {
        Some(Json::String(name)) if name == "null" => true,
        Some(Json::Array(types)) if types.iter().any(|t| t == "null") => true,
        _ => schema
            .get("anyOf")
            .and_then(Json::as_array)
            .is_some_and(|cases| cases.iter().any(takes_null)),
    }
}

/// The schema cut to Gemini's keywords at every level (property names are kept as they are),
/// with JSON Schema's ways of taking `null` (a type list, a `null` case or enum value) said
/// Gemini's way: `"nullable": true`.
fn gemini(schema: Json) -> Json {
    let Json::Object(map) = schema else {
        return schema;
    };
    let mut nullable = false;
    let mut kept = Map::new();
    for (key, value) in map {
        if !GEMINI_KEYWORDS.contains(&key.as_str()) {
            continue;
        }
        let value = match (key.as_str(), value) {
            ("properties", Json::Object(properties)) => Json::Object(
                properties
                    .into_iter()
                    .map(|(name, s)| (name, gemini(s)))
                    .collect(),
            ),
            ("items", items) => gemini(items),
            ("anyOf", Json::Array(cases)) => {
                let (nulls, cases): (Vec<Json>, Vec<Json>) =
                    cases.into_iter().partition(|case| case["type"] == "null");
                nullable |= !nulls.is_empty();
                Json::Array(cases.into_iter().map(gemini).collect())
            }
            ("type", Json::Array(types)) => {
                let (nulls, types): (Vec<Json>, Vec<Json>) =
                    types.into_iter().partition(|name| name == "null");
                nullable |= !nulls.is_empty();
                match <[Json; 1]>::try_from(types) {
                    Ok([single]) => single,
                    Err(types) => Json::Array(types),
                }
            }
            ("enum", Json::Array(values)) => {
                nullable |= values.contains(&Json::Null);
                Json::Array(values.into_iter().filter(|v| !v.is_null()).collect())
            }
            (_, value) => value,
        };
        kept.insert(key, value);
    }
    if nullable {
        kept.insert("nullable".into(), true.into());
    }
    Json::Object(kept)
}
