//! Where the person answers: what `--ui` chooses, for the commands that ask (`ask`, `serve`,
//! `elicit`) and for the MCP server, which has more places to ask than a command.

/// Where the person answers (`--ui` of `ask`, `serve` and `elicit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PersonUi {
    /// This terminal: arrow keys, or numbered lines; an open `interview inbox` when nobody can
    /// be asked here.
    Auto,
    /// `interview inbox`, waiting for one to be opened.
    Inbox,
    /// A page in the browser.
    #[cfg(feature = "web")]
    Web,
}

/// Where the person is, as `--ui` of `interview mcp` says.
#[cfg(feature = "mcp")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// An open inbox; else the client's forms when it declared form elicitation; otherwise
    /// nobody: the agent's own TUI owns the terminal the server inherits.
    Auto,
    /// `interview inbox` only: a call waits until one is open.
    Inbox,
    /// The client's forms only: nobody when the client has none.
    Elicit,
    /// The arrow-key UI on the controlling terminal (`/dev/tty`).
    Terminal,
    /// A page in the browser, served on 127.0.0.1 for the server's lifetime: one tab answers
    /// every call, and the browser is opened again for a call after the tab was closed.
    #[cfg(feature = "web")]
    Web,
}
