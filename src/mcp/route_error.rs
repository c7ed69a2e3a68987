//! Why a call cannot be asked through a team inbox ([`super::TeamRoute`]), as a type: the call
//! fails with its sentence, for the model to read.

use std::fmt;

use crate::random::NoRandomness;

/// Why a call was not asked through the team inbox at all.
#[derive(Debug)]
pub enum RouteError {
    /// No run could be drawn for the call.
    NoRandomness(NoRandomness),
    /// The call came to the server's `/mcp` without the HTTP request it came in (its token,
    /// its URL's settings): it cannot be told whose it is.
    #[cfg(feature = "team-server")]
    NoRequest,
    /// The call came to the server's `/mcp` without the token it was let in with.
    #[cfg(feature = "team-server")]
    NoToken,
    /// `agent` has `held` calls asking already, as many as one agent may
    /// (`--polls-per-agent`): called again once one is answered.
    #[cfg(feature = "team-server")]
    AgentFull { agent: String, held: usize },
    /// The server is asking `held` calls already, as many as it takes at once.
    #[cfg(feature = "team-server")]
    ServerFull { held: usize },
}

impl fmt::Display for RouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RouteError::NoRandomness(why) => why.fmt(f),
            #[cfg(feature = "team-server")]
            RouteError::NoRequest => f.write_str("the call came without its HTTP request"),
            #[cfg(feature = "team-server")]
            RouteError::NoToken => f.write_str("the call came without a token"),
            #[cfg(feature = "team-server")]
            RouteError::AgentFull { agent, held } => write!(
                f,
                "the team inbox is asking {held} calls of {agent}'s already, as many as one \
                 agent may (--polls-per-agent): call again once one is answered"
            ),
            #[cfg(feature = "team-server")]
            RouteError::ServerFull { held } => write!(
                f,
                "the team inbox is asking {held} calls already, as many as it takes at once: \
                 call again shortly"
            ),
        }
    }
}

// No `source`: the cause is in the sentence already, and a reporter would say it twice.
impl std::error::Error for RouteError {}

impl From<NoRandomness> for RouteError {
    fn from(why: NoRandomness) -> RouteError {
        RouteError::NoRandomness(why)
    }
}
