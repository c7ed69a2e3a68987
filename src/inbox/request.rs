//! One request asked through this machine's inbox or a team's: who asks, what the plugin is
//! to run, and what names the request across runs (a retry finds what the person typed).

use serde::{Deserialize, Serialize};

/// One request, asked of the person through an inbox.
#[cfg(feature = "team")]
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Ask {
    /// Who asks, for the person to see.
    pub from: From,
    /// What the plugin is to run.
    pub call: Call,
}

/// Who asks: everything here comes from the agent or its client, and is shown only through the
/// sanitizer.
#[cfg(feature = "team")]
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct From {
    /// The MCP client's name (`clientInfo.title`, else `clientInfo.name`), when known.
    pub client: Option<String>,
    /// The folder the asking process runs in: the agent's project, usually.
    pub folder: Option<String>,
    /// The MCP server's name an elicitation came from (`--server`).
    pub server: Option<String>,
    /// The `interview` command that asks (`mcp`, `ask`, `elicit`, `serve`).
    pub command: String,
    /// The asking process, to tell one run from another.
    pub pid: u32,
}

/// What the plugin runs in the inbox.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Call {
    /// A tool call: `session.call(tool, arguments)`.
    Tool {
        tool: String,
        /// The arguments' JSON text, as the agent sent it.
        arguments: String,
        /// What a skipped text question records (`--skip-response`).
        skip_response: Option<String>,
    },
    /// An MCP elicitation: `session.elicit(request, server)`; the result is the reply to send.
    Elicit { request: String },
}

#[cfg(feature = "team")]
impl Ask {
    /// What names this request across runs: the same call, from the same client in the same
    /// folder, is the same request, so that a retry of it within the window can take over what
    /// the person typed to a run that went away. (The process id is left out for that reason.)
    pub fn key(&self) -> String {
        let (kind, what, extra) = match &self.call {
            Call::Tool {
                tool,
                arguments,
                skip_response,
            } => (
                "tool",
                tool.as_str(),
                format!("{arguments}\0{skip_response:?}"),
            ),
            Call::Elicit { request } => ("elicit", "", request.clone()),
        };
        let parts = [
            kind,
            what,
            &extra,
            self.from.client.as_deref().unwrap_or(""),
            self.from.folder.as_deref().unwrap_or(""),
            self.from.server.as_deref().unwrap_or(""),
        ];
        let parts = parts.map(str::as_bytes);
        interview_host::internals::journal::digest(&parts)
    }
}
