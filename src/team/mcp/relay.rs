//! The endpoint's calls, asked through the server's own store: the server is their asker.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::StatusCode;
use interview_host::ui::Ui;
use serde_json::{Value as Json, json};

use super::tally::{Full, Tally, Ticket};
use crate::inbox::{Ask, Call, From};
use crate::mcp::RouteError;
use crate::team::listen::Peer;
use crate::team::reach_error::ReachError;
use crate::team::remote::{Addressed, Asker, Outcome, Relay, RemoteUi, Said};
use crate::team::server::{self, App, Refusal, StepBody};
use crate::team::store::{Holder, Posted};

/// How long a call's wait for its reply lasts before it looks again, at its token too: a token
/// revoked meanwhile ends its calls within this.
const LOOK_AGAIN: Duration = Duration::from_secs(5);

/// The hash of the token a request came with, for its calls to check that it is still live.
#[derive(Clone)]
pub(super) struct TokenHash(pub(super) String);

/// The calls this server takes at `/mcp`, each asked through its own store.
pub(super) struct ServerRoute {
    pub(super) app: App,
    pub(super) runtime: tokio::runtime::Handle,
    pub(super) calls: Tally,
}

impl crate::mcp::TeamRoute for ServerRoute {
    /// Each call is a run of its own: a call the client makes again (after a stream it could
    /// not resume) is a retry, shown what was answered to the first for a while.
    fn ui(
        &self,
        call: Call,
        client: Option<String>,
        extensions: &rmcp::model::Extensions,
        stop: Arc<AtomicBool>,
    ) -> Result<Box<dyn Ui + Send>, RouteError> {
        let parts =
            (extensions.get::<axum::http::request::Parts>()).ok_or(RouteError::NoRequest)?;
        let agent = (parts.extensions.get::<Holder>()).ok_or(RouteError::NoToken)?;
        let token = (parts.extensions.get::<TokenHash>()).ok_or(RouteError::NoToken)?;
        let asking = self.calls.enter(&agent.name).map_err(|full| match full {
            Full::Agent(held) => RouteError::AgentFull {
                agent: agent.name.clone(),
                held,
            },
            Full::Server(held) => RouteError::ServerFull { held },
        })?;
        let addressed = (parts.extensions.get::<Addressed>()).cloned();
        let address = (parts.extensions.get::<ConnectInfo<Peer>>())
            .map_or(Peer::Network(SocketAddr::from(([0, 0, 0, 0], 0))), |info| {
                info.0
            });
        let project = parts.extensions.get::<super::query::Project>();
        let from = From {
            client,
            folder: project.map(|project| project.0.clone()),
            command: "mcp".into(),
            ..From::default()
        };
        let ask = Ask { from, call };
        let run = crate::random::hex::<16>()?;
        let asker = Asker::of(&ask, run, addressed.unwrap_or_default());
        let relay = StoreRelay {
            app: self.app.clone(),
            runtime: self.runtime.clone(),
            agent: agent.clone(),
            token: token.0.clone(),
            address,
            _asking: asking,
        };
        Ok(Box::new(RemoteUi::new(Box::new(relay), asker, stop)))
    }

    /// Where the endpoint's URL says so (`tasks=yes`).
    fn takes_tasks(&self, extensions: &rmcp::model::Extensions) -> bool {
        let parts = extensions.get::<axum::http::request::Parts>();
        parts.is_some_and(|parts| parts.extensions.get::<super::query::AsTasks>().is_some())
    }

    /// The agent whose token the request came with.
    fn caller(&self, extensions: &rmcp::model::Extensions) -> Option<String> {
        let parts = extensions.get::<axum::http::request::Parts>()?;
        parts
            .extensions
            .get::<Holder>()
            .map(|agent| agent.name.clone())
    }
}

/// A call's steps, put straight into the server's store as `agent`'s, as if they had come over
/// HTTP from `address`.
struct StoreRelay {
    app: App,
    runtime: tokio::runtime::Handle,
    agent: Holder,
    /// The hash of the agent's token, looked up again as the call waits.
    token: String,
    address: Peer,
    /// This call's place among those asking, until it ends.
    _asking: Ticket,
}

impl StoreRelay {
    async fn said(&self, said: &Said<'_>) -> Result<Json, Refusal> {
        let (app, agent) = (&self.app, self.agent.clone());
        match said {
            Said::Whoami { to, escalate_to } => {
                server::addressees(app, *to, *escalate_to).await?;
                Ok(json!({ "name": agent.name }))
            }
            Said::Step(body) => {
                let body = serde_json::from_value::<StepBody>((*body).clone())
                    .map_err(|e| Refusal(StatusCode::BAD_REQUEST, e.to_string()))?;
                server::put_step(app, agent, self.address, body).await
            }
            Said::Reply { question, seq } => {
                let hash = self.token.clone();
                let live = server::blocking(app, move |store| store.holder(&hash)).await?;
                if live.is_none() {
                    let why = format!("{}'s token was revoked", agent.name);
                    return Err(Refusal(StatusCode::UNAUTHORIZED, why));
                }
                let at = Posted {
                    question: *question,
                    seq: *seq,
                };
                server::reply_to(app, &agent, at, LOOK_AGAIN).await
            }
            Said::Finish { question, status } => {
                let status = (*status).to_owned();
                server::close(app, agent, *question, status, self.address).await
            }
        }
    }
}

impl Relay for StoreRelay {
    /// Runs on the plugin's blocking thread: the store's calls are made on the server's
    /// runtime, and given up as soon as `stopped`.
    fn once(&self, said: &Said<'_>, stopped: &dyn Fn() -> bool) -> Outcome {
        let heeded = async {
            tokio::select! {
                said = self.said(said) => Some(said),
                () = until(stopped) => None,
            }
        };
        match self.runtime.block_on(heeded) {
            None => Outcome::Stopped,
            Some(Ok(answer)) => Outcome::Answered(answer),
            Some(Err(Refusal(StatusCode::TOO_MANY_REQUESTS, _))) => {
                Outcome::Busy(Some(Duration::from_secs(2)))
            }
            Some(Err(Refusal(status, why))) if status.is_server_error() => {
                Outcome::Unreachable(ReachError::Failed(why))
            }
            Some(Err(Refusal(status, why))) => {
                let why = interview_text::sanitize::line(&why);
                let why = format!("the team inbox refused: {why} ({})", status.as_u16());
                Outcome::Refused(why, Some(status.as_u16()))
            }
        }
    }

    fn name(&self) -> &str {
        "the team inbox"
    }
}

/// Resolves once `stopped` is true, looking every [`crate::team::remote::HEED_STOP`].
async fn until(stopped: &dyn Fn() -> bool) {
    while !stopped() {
        tokio::time::sleep(crate::team::remote::HEED_STOP).await;
    }
}
