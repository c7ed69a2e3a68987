//! The team inbox as a remote MCP server: `/mcp`, MCP's Streamable HTTP transport (rmcp's),
//! for agents that reach a person only over HTTP: hosted agents and agent platforms, agents in
//! containers, and any agent given a URL instead of a command to run.
//!
//! The server is the asker for these calls. It runs the plugin, with the same tools as
//! `interview mcp` (`--tools`), and each step of a call goes straight to its store as a
//! [`RemoteUi`](super::remote::RemoteUi)'s would over HTTP: the same questions on the team page, the same withdrawal
//! when the client cancels a call or its stream closes, the same deadlines.
//!
//! - **Who asks**: an agent's token as `Authorization: Bearer`. Without one, or with one the
//!   inbox does not know, 401 with `WWW-Authenticate` pointing at this resource's metadata
//!   (RFC 9728, `/.well-known/oauth-protected-resource/mcp`), so that clients that discover
//!   authorization are told what to send; a person's token gets 403. The page's cookie is not
//!   taken here: a page of another site cannot ask in a signed-in person's name.
//! - **Whom**: the URL's query, as the command line's options: `/mcp?to=ops&deadline=30m&escalate_to=lead`;
//!   and the calls' project there (`&project=web-shop`), shown and filtered by on the team page.
//! - **Origins**: a request from a browser page must come from the inbox's own origin (its
//!   public URL's); host names are checked for every route (see `server::known_host`).
//! - **Long waits**: progress notifications while the person has not answered (for calls that
//!   carry a progress token); a stream dropped in the session-based protocol is resumed with
//!   `Last-Event-ID`; the stateless protocol (2026-07-28) is served where the client
//!   negotiates it, the session-based one otherwise; where the URL allows it (`tasks=yes`), a
//!   client that takes MCP's tasks is given a task at once, and polls it.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use interview_host::Plugin;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{
    SessionManager, StreamableHttpServerConfig, StreamableHttpService,
};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::remote::Addressed;
use super::server::{App, Refusal, allowed, lookup, must_be};
use super::store::{Holder, Kind};
use sessions::{Owners, session_of};
use tally::{Full, Tally};

mod priming;
mod query;
mod relay;
mod sessions;
mod tally;

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

/// The most calls the endpoint asks at once, in all. Each holds one of the runtime's blocking
/// threads (512) while its plugin waits for a person; the store's work needs the others.
const MOST_CALLS: usize = 256;

/// The most sessions one agent keeps open; opening one more lets its least recently used go.
const SESSIONS_PER_AGENT: usize = 32;

/// What the endpoint bounds by agent: the calls it is asking, and the requests open at once.
#[derive(Clone)]
pub(super) struct Bounds {
    /// The calls being asked, at most [`MOST_CALLS`], and as many of one agent's as
    /// `--polls-per-agent` allows its long polls.
    calls: Tally,
    /// The requests open (event streams among them), as many of one agent's as its polls.
    streams: Tally,
}

impl Bounds {
    /// The bounds of a server whose agents may each hold `per_agent` polls.
    pub(super) fn new(per_agent: usize) -> Bounds {
        Bounds {
            calls: Tally::new(MOST_CALLS, per_agent),
            streams: Tally::new(usize::MAX, per_agent),
        }
    }

    /// Waits until no call is asking, or `longest` has passed. A stopping server waits for
    /// its calls to withdraw their questions (their streams were ended), so that none is left
    /// on the team's list, and no plugin outlives the runtime it asks through.
    pub(super) async fn ended(&self, longest: Duration) {
        self.calls.emptied(longest).await;
    }
}

/// What the gate shares.
#[derive(Clone)]
struct Gate {
    app: App,
    bounds: Bounds,
    owners: Arc<Owners>,
    sessions: Arc<LocalSessionManager>,
}

/// The routes of the MCP endpoint and its metadata, for the server's router: calls are served
/// by the `tools` of `plugin` (`interview`, and those `--tools` names), within `bounds`;
/// `stop` ends every session and stream when the server stops.
pub(super) fn routes(
    app: &App,
    plugin: Arc<Plugin>,
    tools: &[String],
    bounds: Bounds,
    stop: CancellationToken,
) -> Result<axum::Router<App>, crate::mcp::ToolsError> {
    let route = Arc::new(relay::ServerRoute {
        app: app.clone(),
        runtime: tokio::runtime::Handle::current(),
        calls: bounds.calls.clone(),
    });
    let server = crate::mcp::for_team(plugin, tools, route, stop.clone())?;
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(SESSION_IDLE);
    sessions.session_config.sse_retry = Some(COME_BACK);
    let sessions = Arc::new(sessions);
    let config = StreamableHttpServerConfig::default()
        // Host names are the router's to check, against the same list as every route's.
        .disable_allowed_hosts()
        .with_allowed_origins([origin(&app.public_url)])
        .enforce_origin_validation()
        .with_max_request_body_bytes(super::BODY_LIMIT)
        .with_sse_retry(Some(COME_BACK))
        .with_cancellation_token(stop);
    let service = StreamableHttpService::new(move || Ok(server.clone()), sessions.clone(), config);
    let gate_state = Gate {
        app: app.clone(),
        bounds,
        owners: Arc::new(Owners::new(SESSIONS_PER_AGENT)),
        sessions,
    };
    let gated = axum::Router::new()
        .nest_service(PATH, service)
        .route_layer(axum::middleware::from_fn_with_state(gate_state, gate));
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

/// Lets through only a request with an agent's token as `Authorization: Bearer`, in a session
/// of that agent's if it names one, with its holder and whom its calls are for (the URL's
/// query) in its extensions.
async fn gate(
    State(gate): State<Gate>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let app = &gate.app;
    // The scheme's name is case-insensitive (RFC 7235).
    let bearer = (request.headers().get(header::AUTHORIZATION))
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim().to_owned());
    let Some(token) = bearer.filter(|token| !token.is_empty()) else {
        return unauthorized(
            app,
            None,
            "no token: send Authorization: Bearer <agent token>",
        );
    };
    let holder = match lookup(app, &token).await {
        Ok(holder) => holder,
        Err(Refusal(StatusCode::UNAUTHORIZED, why)) => {
            return unauthorized(app, Some("invalid_token"), &why);
        }
        Err(refusal) => return refusal.into_response(),
    };
    let holder = match must_be(holder, Kind::Agent) {
        Ok(holder) => holder,
        Err(refusal) => return refusal.into_response(),
    };
    // Whom the calls are for is read here; whether anyone answers for that name is the call's
    // to find out, and to tell the model (`unknown-addressee`): a session whose addressee left
    // can still be cancelled and closed.
    let query::Read {
        mut addressed,
        project,
        tasks,
    } = match query::read(request.uri().query().unwrap_or("")) {
        Ok(read) => read,
        Err(why) => return Refusal(StatusCode::BAD_REQUEST, why.to_string()).into_response(),
    };
    if let Err(refusal) = within_token(&holder, &mut addressed) {
        return refusal.into_response();
    }
    let session = session_of(request.headers());
    if let Some(id) = &session
        && !gate.owners.owned_by(id, &holder.name)
    {
        // As rmcp answers a session it does not know, for a client to start a new one.
        let why = "no such session: initialize a new one".to_owned();
        return Refusal(StatusCode::NOT_FOUND, why).into_response();
    }
    let open = match gate.bounds.streams.enter(&holder.name) {
        Ok(open) => open,
        Err(full) => return busy(&holder.name, full),
    };
    let agent = holder.name.clone();
    request.extensions_mut().insert(holder);
    request.extensions_mut().insert(addressed);
    if let Some(project) = project {
        request.extensions_mut().insert(project);
    }
    if let Some(tasks) = tasks {
        request.extensions_mut().insert(tasks);
    }
    request
        .extensions_mut()
        .insert(relay::TokenHash(super::token::hash(&token)));
    let closing = request.method() == axum::http::Method::DELETE;
    let primed = priming::understood(request.headers());
    let mut response = next.run(request).await;
    match (&session, session_of(response.headers())) {
        (None, Some(opened)) => {
            if let Some(evicted) = gate.owners.opened(&opened, &agent) {
                let _ = gate.sessions.close_session(&evicted.into()).await;
            }
        }
        (Some(id), _) if closing && response.status().is_success() => gate.owners.closed(id),
        _ => {}
    }
    // A session closed is said as done (rmcp says 202, which the Python SDK logs as a failed
    // termination).
    if closing && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    let streamed = (response.headers().get(header::CONTENT_TYPE))
        .is_some_and(|kind| kind.as_bytes().starts_with(b"text/event-stream"));
    // The request is open until its body ends: an event stream, for as long as it streams.
    response.map(|body| {
        let body = match streamed && !primed {
            true => axum::body::Body::new(priming::WithoutPriming::new(body)),
            false => body,
        };
        interview_host::serving::Holding::body(body, open)
    })
}

/// 429: the agent (or all agents together) hold as many open requests as they may.
fn busy(agent: &str, full: Full) -> Response {
    let why = match full {
        Full::Agent(held) => format!(
            "{agent} has {held} requests open at /mcp, as many as one agent may \
             (--polls-per-agent): close one, or try again shortly"
        ),
        Full::Server(held) => format!("the team inbox has {held} requests open: try again shortly"),
    };
    let mut response = Refusal(StatusCode::TOO_MANY_REQUESTS, why).into_response();
    (response.headers_mut()).insert(header::RETRY_AFTER, HeaderValue::from_static("2"));
    response
}

/// `addressed` as `agent`'s token allows it (`token add --agent NAME --to ...`): its first
/// addressee where the URL names nobody; 403 for a name it does not allow.
fn within_token(agent: &Holder, addressed: &mut Addressed) -> Result<(), Refusal> {
    addressed.to = allowed(agent, addressed.to.take())?;
    if let Some(deadline) = &mut addressed.deadline
        && let Some(escalate_to) = deadline.escalate_to.take()
    {
        deadline.escalate_to = allowed(agent, Some(escalate_to))?;
        if deadline.escalate_to == addressed.to {
            let why = "escalate_to is whom the questions are for already".to_owned();
            return Err(Refusal(StatusCode::BAD_REQUEST, why));
        }
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_is_a_urls_scheme_and_authority() {
        assert_eq!(
            origin("https://Inbox.example.com/base/"),
            "https://inbox.example.com"
        );
        assert_eq!(origin("http://127.0.0.1:8470"), "http://127.0.0.1:8470");
    }
}
