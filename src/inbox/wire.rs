//! What the asking side and an inbox say to each other over the inbox's socket: one JSON
//! message a line, each way.
//!
//! The asker sends an [`Ask`], and later perhaps [`ToInbox::Withdraw`]; the inbox answers
//! once, with the plugin's result ([`ToAsker::Result`]) or, after a withdrawal of a question
//! nobody had started to answer, [`ToAsker::Withdrawn`]. A closed connection without a
//! withdrawal is an asker that went away: its question is withdrawn all the same.

use std::io::{BufRead, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::input::{self, Line};
use crate::settled::Settled;

/// The longest message either side reads: a request at the plugin's own limit (8 MiB) as a
/// JSON string, whose escapes may double it, with room for who asks. A longer line is
/// refused, read past and dropped, so memory stays bounded.
pub const MESSAGE_LIMIT: usize = 17 << 20;

/// One request, asked of the person through an inbox.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Ask {
    /// Who asks, for the person to see.
    pub from: From,
    /// What the plugin is to run.
    pub call: Call,
}

/// Who asks: everything here comes from the agent or its client, and is shown only through the
/// sanitizer.
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

impl Ask {
    /// What names this run: the request asked by this process. The same process asking the
    /// same request again while it still waits (a client that timed a call out and retried
    /// it) is the same run, and gets the one answer; another process's is a run of its own.
    pub fn run(&self) -> String {
        let pid = self.from.pid.to_le_bytes();
        interview_host::internals::journal::digest(&[self.key().as_bytes(), &pid])
    }
}

/// A message from the asker to an inbox.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum ToInbox {
    Ask(Ask),
    /// The question is no longer wanted (the agent cancelled the call, or another inbox
    /// answered it). An inbox asking it stops and answers with what was given so far.
    Withdraw,
}

impl Call {
    /// How this call ends when it failed (`message` says how) after the person had answered
    /// `given`: a tool call's `failed` result, an elicitation's `cancel`.
    pub fn failed(&self, message: &str, given: &[interview_host::Given]) -> Settled {
        match self {
            Call::Tool { .. } => Settled::failed_call(message, given),
            Call::Elicit { request } => Settled::failed_elicitation(request, message, given),
        }
    }
}

/// A message from an inbox to the asker.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum ToAsker {
    /// How the request ended, typed, with the plugin's result (or, for an elicitation, its
    /// reply): the request is done.
    Settled(Settled),
    /// The same from an inbox of an earlier version, which sent the JSON alone (see
    /// [`Settled::of_earlier_inbox`]).
    Result(Json),
    /// Withdrawn before anyone answered anything here.
    Withdrawn,
    /// The inbox cannot take the question (a message it cannot read): why. The asker gives
    /// up rather than ask again.
    Refused(String),
}

/// Writes `message` as one line.
pub fn send(stream: &mut impl Write, message: &impl Serialize) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    line.push(b'\n');
    stream.write_all(&line)?;
    stream.flush()
}

/// Reads the next message: `None` when the other side closed the connection, an error for a
/// line that is not one of the messages.
pub fn receive<T: for<'de> Deserialize<'de>>(
    input: &mut impl BufRead,
) -> std::io::Result<Option<T>> {
    match input::next_line(input, MESSAGE_LIMIT)? {
        None => Ok(None),
        Some(Line::Unreadable(why)) => Err(std::io::Error::other(why)),
        Some(Line::Text(text)) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| std::io::Error::other(format!("not a message of the inbox: {e}"))),
    }
}

/// Whether the process at the other end of `stream` runs as this user: the socket's folder is
/// the user's own, and this says so of the peer too (another user's process that could reach
/// it would otherwise read the questions, or answer them).
pub fn same_user(stream: &UnixStream) -> bool {
    let mut credentials = libc::ucred {
        pid: 0,
        uid: u32::MAX,
        gid: u32::MAX,
    };
    let mut length = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: SO_PEERCRED fills a ucred of the length given, on a socket this process holds.
    let status = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&raw mut credentials).cast(),
            &mut length,
        )
    };
    // SAFETY: getuid cannot fail.
    status == 0 && credentials.uid == unsafe { libc::getuid() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(arguments: &str, folder: &str, pid: u32) -> Ask {
        Ask {
            from: From {
                client: Some("claude-code".into()),
                folder: Some(folder.into()),
                server: None,
                command: "mcp".into(),
                pid,
            },
            call: Call::Tool {
                tool: "interview".into(),
                arguments: arguments.into(),
                skip_response: None,
            },
        }
    }

    #[test]
    fn the_same_call_from_the_same_place_is_the_same_request_in_any_run() {
        let first = ask(r#"{"question":"Deploy?"}"#, "/src/app", 10);
        assert_eq!(
            first.key(),
            ask(r#"{"question":"Deploy?"}"#, "/src/app", 99).key()
        );
        assert_ne!(
            first.key(),
            ask(r#"{"question":"Deploy?"}"#, "/src/other", 10).key()
        );
        assert_ne!(
            first.key(),
            ask(r#"{"question":"Ship?"}"#, "/src/app", 10).key()
        );
    }

    #[test]
    fn a_run_is_one_process_asking_one_request() {
        let first = ask(r#"{"question":"Deploy?"}"#, "/src/app", 10);
        assert_eq!(
            first.run(),
            ask(r#"{"question":"Deploy?"}"#, "/src/app", 10).run()
        );
        assert_ne!(
            first.run(),
            ask(r#"{"question":"Deploy?"}"#, "/src/app", 99).run()
        );
        assert_ne!(
            first.run(),
            ask(r#"{"question":"Ship?"}"#, "/src/app", 10).run()
        );
    }

    #[test]
    fn messages_read_back_as_written_and_a_stranger_line_is_an_error() {
        let mut buffer = Vec::new();
        send(&mut buffer, &ToInbox::Ask(ask("{}", "/", 1))).unwrap();
        send(&mut buffer, &ToInbox::Withdraw).unwrap();
        buffer.extend_from_slice(b"{\"shout\":1}\n");
        let mut input = std::io::Cursor::new(buffer);
        assert_eq!(
            receive::<ToInbox>(&mut input).unwrap(),
            Some(ToInbox::Ask(ask("{}", "/", 1)))
        );
        assert_eq!(
            receive::<ToInbox>(&mut input).unwrap(),
            Some(ToInbox::Withdraw)
        );
        assert!(receive::<ToInbox>(&mut input).is_err());
        assert_eq!(receive::<ToInbox>(&mut input).unwrap(), None);
    }
}
