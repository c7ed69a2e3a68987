//! The team inbox as a remote MCP server: `/mcp`, MCP's Streamable HTTP transport (rmcp's),
//! for agents that reach a person only over HTTP: hosted agents and agent platforms, agents in
//! containers, and any agent given a URL instead of a command to run.
//!
//! The server is the asker for these calls. It runs the plugin, with the same tools as
//! `interview mcp` (`--tools`), and each step of a call goes straight to its store as a
//! [`RemoteUi`]'s would over HTTP: the same questions on the team page, the same withdrawal
//! when the client cancels a call or its stream closes, the same deadlines.
//!
//! - **Who asks**: an agent's token as `Authorization: Bearer`. Without one, or with one the
//!   inbox does not know, 401 with `WWW-Authenticate` pointing at this resource's metadata
//!   (RFC 9728, `/.well-known/oauth-protected-resource/mcp`), so that clients that discover
//!   authorization are told what to send; a person's token gets 403. The page's cookie is not
//!   taken here: a page of another site cannot ask in a signed-in person's name.
//! - **Whom**: the URL's query, as the command line's options: `/mcp?to=ops&deadline=30m&escalate_to=lead`.
//! - **Origins**: a request from a browser page must come from the inbox's own origin (its
//!   public URL's); host names are checked for every route (see `server::known_host`).
//! - **Long waits**: progress notifications while the person has not answered (for calls that
//!   carry a progress token); a stream dropped in the session-based protocol is resumed with
//!   `Last-Event-ID`; the stateless protocol (2026-07-28) is served where the client
//!   negotiates it, the session-based one otherwise.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use interview_host::Plugin;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value as Json, json};
use tokio_util::sync::CancellationToken;

use super::Deadline;
use super::remote::{Addressed, Asker, Outcome, POLL_SECONDS, Relay, RemoteUi, Said};
use super::server::{App, Refusal, StepBody, lookup, must_be};
use super::store::{Holder, Kind, Posted};
use crate::inbox::{Ask, Call, From};

/// Where the endpoint is, and where its metadata document is (RFC 9728's well-known place for
/// a resource at `/mcp`).
pub(super) const PATH: &str = "/mcp";
const METADATA: &str = "/.well-known/oauth-protected-resource";

/// How soon a client is told to come back after its stream dropped (SSE's `retry`). Short:
/// rmcp replays a call's stream only while the call is running, so an answer given while the
/// client is away is lost to it if the call ends first (it is a retry then, see
/// `docs/team-inbox.md`).
const COME_BACK: Duration = Duration::from_secs(1);

/// How long a session may go without a message before it is let go. A call waiting for a
/// person sends nothing unless the client asked for progress, so this is long: a session whose
/// client vanished costs only memory until then.
const SESSION_IDLE: Duration = Duration::from_secs(24 * 3600);

/// The calls the endpoint is asking: each holds a clone while its plugin runs.
#[derive(Clone, Default)]
pub(super) struct Calls(Arc<()>);

impl Calls {
    /// Waits until no call is asking, or `longest` has passed. A stopping server waits for
    /// its calls to withdraw their questions (their streams were ended), so that none is left
    /// on the team's list, and no plugin outlives the runtime it asks through.
    pub(super) async fn ended(&self, longest: Duration) {
        let until = tokio::time::Instant::now() + longest;
        while Arc::strong_count(&self.0) > 1 && tokio::time::Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The routes of the MCP endpoint and its metadata, for the server's router: calls are served
/// by the `tools` of `plugin` (`interview`, and those `--tools` names), and counted in `calls`;
/// `stop` ends every session and stream when the server stops.
pub(super) fn routes(
    app: &App,
    plugin: Arc<Plugin>,
    tools: &[String],
    calls: Calls,
    stop: CancellationToken,
) -> Result<axum::Router<App>, String> {
    let route = Arc::new(ServerRoute {
        app: app.clone(),
        runtime: tokio::runtime::Handle::current(),
        calls,
    });
    let server = crate::mcp::for_team(plugin, tools, route).map_err(|(_, why)| why)?;
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(SESSION_IDLE);
    sessions.session_config.sse_retry = Some(COME_BACK);
    let config = StreamableHttpServerConfig::default()
        // Host names are the router's to check, against the same list as every route's.
        .disable_allowed_hosts()
        .with_allowed_origins([origin(&app.public_url)])
        .enforce_origin_validation()
        .with_max_request_body_bytes(super::BODY_LIMIT)
        .with_sse_retry(Some(COME_BACK))
        .with_cancellation_token(stop);
    let service =
        StreamableHttpService::new(move || Ok(server.clone()), Arc::new(sessions), config);
    let gated = axum::Router::new()
        .nest_service(PATH, service)
        .route_layer(axum::middleware::from_fn_with_state(app.clone(), gate));
    Ok(axum::Router::new()
        .route(METADATA, axum::routing::get(metadata))
        .route(&format!("{METADATA}{PATH}"), axum::routing::get(metadata))
        .merge(gated))
}

/// A URL's origin, as browsers send it in `Origin` (`https://inbox.example.com`).
fn origin(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
            format!(
                "{}://{}",
                scheme.to_ascii_lowercase(),
                authority.to_ascii_lowercase()
            )
        }
        None => url.to_owned(),
    }
}

/// The protected resource's metadata (RFC 9728): what it is, and that it takes a bearer token
/// in the header. It names no authorization server: an inbox's tokens are made by its
/// administrator (`interview inbox token add --agent NAME`), not by an OAuth flow.
async fn metadata(State(app): State<App>) -> Response {
    let public = app.public_url.trim_end_matches('/');
    axum::Json(json!({
        "resource": format!("{public}{PATH}"),
        "bearer_methods_supported": ["header"],
        "resource_name": "interview team inbox",
    }))
    .into_response()
}

/// Lets through only a request with an agent's token as `Authorization: Bearer`, with its
/// holder and whom its calls are for (the URL's query) in its extensions.
async fn gate(
    State(app): State<App>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let bearer = (request.headers().get(header::AUTHORIZATION))
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let Some(token) = bearer.filter(|token| !token.is_empty()) else {
        return unauthorized(
            &app,
            None,
            "no token: send Authorization: Bearer <agent token>",
        );
    };
    let holder = match lookup(&app, token).await {
        Ok(holder) => holder,
        Err(Refusal(StatusCode::UNAUTHORIZED, why)) => {
            return unauthorized(&app, Some("invalid_token"), &why);
        }
        Err(refusal) => return refusal.into_response(),
    };
    let holder = match must_be(holder, Kind::Agent) {
        Ok(holder) => holder,
        Err(refusal) => return refusal.into_response(),
    };
    let addressed = match addressed(request.uri().query().unwrap_or("")) {
        Ok(addressed) => addressed,
        Err(why) => return Refusal(StatusCode::BAD_REQUEST, why).into_response(),
    };
    let to = addressed.to.as_deref();
    let escalate_to = (addressed.deadline.as_ref()).and_then(|d| d.escalate_to.as_deref());
    if let Err(refusal) = super::server::addressees(&app, to, escalate_to).await {
        return refusal.into_response();
    }
    request.extensions_mut().insert(holder);
    request.extensions_mut().insert(addressed);
    let closing = request.method() == axum::http::Method::DELETE;
    let mut response = next.run(request).await;
    // A session closed is said as done (rmcp says 202, which the Python SDK logs as a failed
    // termination).
    if closing && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    response
}

/// 401, with what RFC 6750 and MCP's authorization say a client is to be told: where the
/// resource's metadata is, and, for a token given, that it is not taken.
fn unauthorized(app: &App, error: Option<&str>, why: &str) -> Response {
    let public = app.public_url.trim_end_matches('/');
    let mut challenge = format!("Bearer resource_metadata=\"{public}{METADATA}{PATH}\"");
    if let Some(error) = error {
        challenge.push_str(&format!(", error=\"{error}\""));
    }
    let mut response = Refusal(StatusCode::UNAUTHORIZED, why.to_owned()).into_response();
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// Whom calls are for, from the endpoint URL's query: `to`, `deadline` (a span, 1s to 30d)
/// and `escalate_to` (with a deadline), as the command line's `--to`, `--deadline` and
/// `--escalate-to`.
fn addressed(query: &str) -> Result<Addressed, String> {
    let (mut to, mut deadline, mut escalate_to) = (None, None, None);
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decoded(value).ok_or_else(|| format!("{name}: not UTF-8"))?;
        let value = Some(value).filter(|v| !v.is_empty());
        match name {
            "to" => to = value,
            "escalate_to" => escalate_to = value,
            "deadline" => {
                let span = value.unwrap_or_default();
                let ms = crate::spans::span_ms(&span)
                    .filter(|ms| crate::spans::DEADLINES_MS.contains(ms))
                    .ok_or_else(|| {
                        format!("deadline={span}: a span from 1s to 30d, as 90s, 30m, 12h, 7d")
                    })?;
                deadline = Some(ms);
            }
            _ => {}
        }
    }
    if escalate_to.is_some() && deadline.is_none() {
        return Err(
            "escalate_to needs a deadline: the time after which the question \
                    goes to them"
                .into(),
        );
    }
    if escalate_to.is_some() && escalate_to == to {
        return Err("escalate_to is whom the questions are for already".into());
    }
    let deadline = deadline.map(|after_ms| Deadline {
        after_ms,
        escalate_to,
    });
    Ok(Addressed { to, deadline })
}

/// A query value with `+` as a space and `%XX` as its byte; `None` when that is not UTF-8.
fn percent_decoded(value: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(value.len());
    let mut rest = value.bytes();
    while let Some(byte) = rest.next() {
        bytes.push(match byte {
            b'+' => b' ',
            b'%' => {
                let hex = [rest.next()?, rest.next()?];
                u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?
            }
            byte => byte,
        });
    }
    String::from_utf8(bytes).ok()
}

/// The calls this server takes at `/mcp`, each asked through its own store.
struct ServerRoute {
    app: App,
    runtime: tokio::runtime::Handle,
    calls: Calls,
}

impl crate::mcp::TeamRoute for ServerRoute {
    /// Each call is a run of its own: a call the client makes again (after a stream it could
    /// not resume) is a retry, shown what was answered to the first for a while.
    fn ui(
        &self,
        call: Call,
        client: Option<String>,
        extensions: &rmcp::model::Extensions,
    ) -> Result<RemoteUi, String> {
        let parts = (extensions.get::<axum::http::request::Parts>())
            .ok_or("the call came without its HTTP request")?;
        let agent = (parts.extensions.get::<Holder>()).ok_or("the call came without a token")?;
        let addressed = (parts.extensions.get::<Addressed>()).cloned();
        let address = (parts.extensions.get::<ConnectInfo<SocketAddr>>())
            .map_or(SocketAddr::from(([0, 0, 0, 0], 0)), |info| info.0);
        let from = From {
            client,
            command: "mcp".into(),
            ..From::default()
        };
        let ask = Ask { from, call };
        let asker = Asker {
            key: ask.key(),
            run: super::remote::random_id(),
            from: serde_json::to_value(&ask.from).unwrap_or_default(),
            addressed: addressed.unwrap_or_default(),
        };
        let relay = StoreRelay {
            app: self.app.clone(),
            runtime: self.runtime.clone(),
            agent: agent.clone(),
            address,
            _asking: self.calls.clone(),
        };
        Ok(RemoteUi::new(
            Box::new(relay),
            asker,
            Arc::new(AtomicBool::new(false)),
        ))
    }
}

/// A call's steps, put straight into the server's store as `agent`'s, as if they had come over
/// HTTP from `address`.
struct StoreRelay {
    app: App,
    runtime: tokio::runtime::Handle,
    agent: Holder,
    address: SocketAddr,
    /// Counts this call among those asking until it ends.
    _asking: Calls,
}

impl StoreRelay {
    async fn said(&self, said: &Said<'_>) -> Result<Json, Refusal> {
        let (app, agent) = (&self.app, self.agent.clone());
        match said {
            Said::Whoami { to, escalate_to } => {
                super::server::addressees(app, *to, *escalate_to).await?;
                Ok(json!({ "name": agent.name }))
            }
            Said::Step(body) => {
                let body = serde_json::from_value::<StepBody>((*body).clone())
                    .map_err(|e| Refusal(StatusCode::BAD_REQUEST, e.to_string()))?;
                super::server::put_step(app, agent, self.address, body).await
            }
            Said::Reply { question, seq } => {
                let at = Posted {
                    question: *question,
                    seq: *seq,
                };
                let longest = Duration::from_secs(POLL_SECONDS);
                super::server::reply_to(app, &agent, at, longest).await
            }
            Said::Finish { question, status } => {
                let status = (*status).to_owned();
                super::server::close(app, agent, *question, status, self.address).await
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
                Outcome::Unreachable(why)
            }
            Some(Err(Refusal(status, why))) => {
                let why = format!("the team inbox refused: {why} ({})", status.as_u16());
                Outcome::Refused(why, Some(status.as_u16()))
            }
        }
    }

    fn name(&self) -> &str {
        "the team inbox"
    }
}

/// Resolves once `stopped` is true, looking every [`super::remote::HEED_STOP`].
async fn until(stopped: &dyn Fn() -> bool) {
    while !stopped() {
        tokio::time::sleep(super::remote::HEED_STOP).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_says_whom_calls_are_for_as_the_command_line_does() {
        let read = addressed("to=ops+team&deadline=30m&escalate_to=lead%20dev").unwrap();
        assert_eq!(read.to.as_deref(), Some("ops team"));
        let deadline = read.deadline.unwrap();
        assert_eq!(deadline.after_ms, 30 * 60_000);
        assert_eq!(deadline.escalate_to.as_deref(), Some("lead dev"));
        assert!(addressed("").unwrap().to.is_none());
        let refused = |query: &str| addressed(query).unwrap_err();
        assert!(
            refused("deadline=31d").contains("1s to 30d"),
            "{}",
            refused("deadline=31d")
        );
        assert!(refused("escalate_to=lead").contains("needs a deadline"));
        assert!(refused("to=a&deadline=1h&escalate_to=a").contains("already"));
        assert!(refused("to=%FF").contains("UTF-8"));
    }

    #[test]
    fn an_origin_is_a_urls_scheme_and_authority() {
        assert_eq!(
            origin("https://Inbox.example.com/base/"),
            "https://inbox.example.com"
        );
        assert_eq!(origin("http://127.0.0.1:8470"), "http://127.0.0.1:8470");
    }
}
