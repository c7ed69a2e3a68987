//! Why the MCP server has no tools to offer, as a type: the command tells bad usage (a tool
//! `--tools` names that the plugin lacks, exit 2) from a plugin that fails (exit 4) by the
//! kind, not by its sentence.

use std::fmt;

use interview_host::Exit;

/// Why the tools to offer could not be listed.
#[derive(Debug)]
pub enum ToolsError {
    /// The plugin did not start, or failed listing its tools: its error, with its causes.
    Plugin(interview_host::Error),
    /// The plugin's `tools/list` is not the JSON of a tool list.
    Unreadable(serde_json::Error),
    /// `--tools` names `wanted`, which is none of the plugin's tools (`known`).
    NoSuchTool { wanted: String, known: Vec<String> },
}

impl ToolsError {
    /// How the command ends on it: a plugin that fails, exit 4; anything else is the command
    /// line's (or the plugin's list's, read as the command line asks it), exit 2.
    pub fn exit(&self) -> Exit {
        match self {
            ToolsError::Plugin(_) => Exit::Failed,
            ToolsError::Unreadable(_) | ToolsError::NoSuchTool { .. } => Exit::Invalid,
        }
    }
}

impl fmt::Display for ToolsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolsError::Plugin(error) => f.write_str(&error.chain()),
            ToolsError::Unreadable(error) => {
                write!(f, "the plugin's MCP tool list does not read: {error}")
            }
            ToolsError::NoSuchTool { wanted, known } => write!(
                f,
                "--tools: there is no tool {wanted:?}; the tools are {}",
                known.join(", ")
            ),
        }
    }
}

// No `source`: the cause is in the sentence already, and a reporter would say it twice.
impl std::error::Error for ToolsError {}
