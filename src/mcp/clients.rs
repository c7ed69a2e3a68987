//! What each MCP client's own form UI can really show, found by running the clients: a form a
//! client cannot show as the person needs it is not sent to it (the call goes on to the next
//! way of reaching the person), and one it shows with a flaw it can be spared is fitted to it.
//!
//! The plugin builds the form; this only judges whether a client can draw it, as a host judges
//! whether a terminal can draw arrow keys.

use rmcp::model::Implementation;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value as Json;

/// The client as people know it, for the person to see who asks (from its `clientInfo`, of the
/// handshake or, from 2026-07-28, of the request itself).
#[cfg_attr(
    not(feature = "team"),
    expect(dead_code, reason = "who asks is shown in an inbox")
)]
pub fn name(context: &RequestContext<RoleServer>) -> Option<String> {
    context.client_info().and_then(|client| shown(&client))
}

/// The client as people know it, with its version (`Claude Code 2.1.332`): a team's page lists
/// calls from many machines, where the version tells one install from another.
#[cfg(feature = "team")]
pub fn name_and_version(context: &RequestContext<RoleServer>) -> Option<String> {
    let client = context.client_info()?;
    let name = shown(&client)?;
    Some(match client.version.trim() {
        "" => name,
        version => format!("{name} {version}"),
    })
}

/// The names clients send that are not the names people know them by, as each client's own
/// source sets them; `None`: an SDK's default, which names no product.
const KNOWN: &[(&str, Option<&str>)] = &[
    ("claude-code", Some("Claude Code")),
    ("codex-mcp-client", Some("Codex")),
    ("gemini-cli-mcp-client", Some("Gemini CLI")),
    ("mcp-test-client", Some("Gemini CLI")),
    ("continue-client", Some("Continue")),
    ("continue-cli-client", Some("Continue CLI")),
    ("goose", Some("Goose")),
    ("goose-cli", Some("Goose")),
    ("goose-desktop", Some("Goose")),
    ("mcp-inspector", Some("MCP Inspector")),
    ("inspector-client", Some("MCP Inspector")),
    ("inspector-cli", Some("MCP Inspector")),
    ("inspector-tui", Some("MCP Inspector")),
    ("Q DEV CLI", Some("Amazon Q Developer CLI")),
    ("github-copilot-developer", Some("GitHub Copilot CLI")),
    ("@langchain/mcp-adapters", Some("LangChain")),
    ("@cline/core", Some("Cline")),
    // The MCP Python SDK's default (the OpenAI Agents SDK's too): no product's name.
    ("mcp", None),
];

/// A client's display name: the title it gives itself, else the name people know it by, else
/// its name as it sends it (`Zed`, `Cline`, `Visual Studio Code` are names already).
fn shown(client: &Implementation) -> Option<String> {
    if let Some(title) = client.title.as_ref().filter(|t| !t.trim().is_empty()) {
        return Some(title.clone());
    }
    match KNOWN.iter().find(|(name, _)| *name == client.name) {
        Some((_, shown)) => shown.map(str::to_owned),
        None => Some(client.name.clone()).filter(|name| !name.trim().is_empty()),
    }
}

/// What a client's forms can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Arrays (a multi-select's picks).
    arrays: bool,
    /// Number and integer fields.
    numbers: bool,
    /// An optional free-text field left empty ("Something else", a note) does not block
    /// sending, wherever it is in the form.
    optional_text_last: bool,
    /// Line breaks in titles, descriptions and the message are drawn as breaks.
    newlines: bool,
}

/// A client that shows every form field as MCP describes it.
const FULL: Profile = Profile {
    arrays: true,
    numbers: true,
    optional_text_last: true,
    newlines: true,
};

impl Profile {
    /// The profile of the client of `context`.
    pub fn of(context: &RequestContext<RoleServer>) -> Profile {
        Profile::named(context.client_info().as_ref())
    }

    fn named(client: Option<&Implementation>) -> Profile {
        match client.map(|c| c.name.as_str()) {
            // Codex 0.169's TUI draws a form one field at a time, in the order of the fields'
            // names, and sends it all with Enter on the last one. A form with an array or a
            // number field becomes a yes/no prompt that accepts with empty content; and Enter
            // in an empty text field does nothing, so a form whose last field is an optional
            // text ("Something else", a note) cannot be sent without typing into it, which
            // replaces the pick. (Found by running it against a server of forms; see
            // docs/mcp.md.)
            Some("codex-mcp-client") => Profile {
                arrays: false,
                numbers: false,
                optional_text_last: false,
                newlines: true,
            },
            // Claude Code draws a line break in a description as U+FFFD.
            Some("claude-code") => Profile {
                newlines: false,
                ..FULL
            },
            _ => FULL,
        }
    }

    /// Whether this client can show the form `params` (an `elicitation/create`'s params) so
    /// that what comes back is what the person chose.
    pub fn shows(&self, params: &Json) -> bool {
        let schema = &params["requestedSchema"];
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Json::as_str).collect())
            .unwrap_or_default();
        let Some(fields) = schema["properties"].as_object() else {
            return true;
        };
        let free_text = |field: &Json| {
            field["type"] == "string" && field.get("enum").is_none() && field.get("oneOf").is_none()
        };
        // The field a client that orders fields by name shows last.
        let last = fields.iter().max_by(|a, b| a.0.cmp(b.0));
        let last_blocks = last
            .is_some_and(|(name, field)| free_text(field) && !required.contains(&name.as_str()));
        (self.optional_text_last || !last_blocks)
            && fields.values().all(|field| {
                let kind = field["type"].as_str().unwrap_or("");
                (self.arrays || kind != "array")
                    && (self.numbers || !matches!(kind, "number" | "integer"))
            })
    }

    /// The form as this client shows it: line breaks become spaces where it cannot draw them.
    /// Only the texts there are change; nothing is added.
    pub fn fit(&self, mut params: Json) -> Json {
        if self.newlines {
            return params;
        }
        flatten(params.get_mut("message"));
        let fields = params
            .pointer_mut("/requestedSchema/properties")
            .and_then(Json::as_object_mut);
        for field in fields.into_iter().flat_map(|fields| fields.values_mut()) {
            flatten(field.get_mut("title"));
            flatten(field.get_mut("description"));
            for list in ["/oneOf", "/anyOf", "/items/oneOf", "/items/anyOf"] {
                let options = field.pointer_mut(list).and_then(Json::as_array_mut);
                for option in options.into_iter().flatten() {
                    flatten(option.get_mut("title"));
                }
            }
        }
        params
    }
}

/// A text with its line breaks as spaces; anything else left as it is.
fn flatten(text: Option<&mut Json>) {
    if let Some(text) = text
        && let Some(line) = text.as_str()
    {
        let line = line
            .split('\n')
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join(" ");
        *text = Json::String(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn client(name: &str) -> Profile {
        Profile::named(Some(&Implementation::new(name, "1")))
    }

    fn form(properties: Json, required: &[&str]) -> Json {
        json!({"message": "Two\nlines", "requestedSchema": {"type": "object",
            "properties": properties, "required": required}})
    }

    #[test]
    fn codex_is_not_sent_what_it_cannot_show() {
        let codex = client("codex-mcp-client");
        let select = json!({"db": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]}});
        assert!(codex.shows(&form(select.clone(), &["db"])));
        let picks = json!({"checks": {"type": "array", "items": {"anyOf": []}}});
        assert!(!codex.shows(&form(picks, &[])));
        assert!(!codex.shows(&form(json!({"n": {"type": "integer"}}), &["n"])));
        let other = json!({"db_other": {"type": "string"}});
        assert!(!codex.shows(&form(other.clone(), &[])));
        assert!(codex.shows(&form(other, &["db_other"])));
        // An optional text it shows before another field can be left empty.
        let batch = json!({
            "a_name": {"type": "string"},
            "b_db": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]},
            "c_ok": {"type": "boolean"}});
        assert!(codex.shows(&form(batch, &["b_db", "c_ok"])));
        let select_then_other = json!({
            "db": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]},
            "db_other": {"type": "string"}});
        assert!(!codex.shows(&form(select_then_other, &[])));
        assert!(client("claude-code").shows(&form(json!({"n": {"type": "number"}}), &[])));
    }

    #[test]
    fn clients_are_named_as_people_know_them() {
        let named = |name: &str, title: Option<&str>| {
            let mut client = Implementation::new(name, "1");
            client.title = title.map(str::to_owned);
            shown(&client)
        };
        assert_eq!(
            named("gemini-cli-mcp-client", None).as_deref(),
            Some("Gemini CLI")
        );
        assert_eq!(
            named("codex-mcp-client", Some("Codex")).as_deref(),
            Some("Codex")
        );
        assert_eq!(named("claude-code", None).as_deref(), Some("Claude Code"));
        assert_eq!(named("Zed", None).as_deref(), Some("Zed"));
        assert_eq!(named("my-agent", None).as_deref(), Some("my-agent"));
        assert_eq!(named("mcp", None), None, "an SDK's default names nobody");
        assert_eq!(named(" ", None), None);
    }

    #[test]
    fn claude_code_gets_its_line_breaks_as_spaces() {
        let fields = json!({"db": {"type": "string", "description": "Which one?\nThink.",
            "oneOf": [{"const": "a", "title": "A\nB"}]}});
        let fitted = client("claude-code").fit(form(fields.clone(), &[]));
        // Nothing added: the form keeps MCP's shape.
        let keys = |form: &Json| {
            form["requestedSchema"]["properties"]["db"]
                .as_object()
                .unwrap()
                .len()
        };
        assert_eq!(keys(&fitted), keys(&form(fields.clone(), &[])));
        assert_eq!(fitted["message"], "Two lines");
        assert_eq!(
            fitted["requestedSchema"]["properties"]["db"]["description"],
            "Which one? Think."
        );
        assert_eq!(
            fitted["requestedSchema"]["properties"]["db"]["oneOf"][0]["title"],
            "A B"
        );
        let untouched = client("other").fit(form(fields.clone(), &[]));
        assert_eq!(untouched, form(fields, &[]));
    }
}
