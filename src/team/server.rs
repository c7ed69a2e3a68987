//! `interview inbox serve`: the team inbox over HTTP (axum on tokio).
//!
//! Agents put up each widget their plugin asks for (`POST /api/steps`) and wait for its reply
//! (`GET /api/steps/{question}/{seq}`, a long poll); people list the open questions
//! (`GET /api/questions`) and answer one step (`POST /api/questions/{question}/steps/{seq}/reply`).
//! Every request carries a token (`Authorization: Bearer …`). The server keeps nothing that
//! matters in memory: a long poll re-reads the database, so several servers can share one,
//! and one that restarts has lost nothing. Plain HTTP: TLS is a reverse proxy's job.

use super::listen::Peer;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Extension, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use interview_host::Plugin;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value as Json_, json};

use super::store::{
    Answered, Closed, Deadline, Holder, Kind, Posted, ReplyState, StepPost, Store, StoreError,
};
use super::token;

use super::BODY_LIMIT;
/// How long a body may pause between its pieces before the request is given up.
const BODY_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a long poll waits for a reply before it says "still waiting".
const LONGEST_WAIT: Duration = Duration::from_secs(25);
/// How long an asker whose agent holds all the polls it may is told to wait before polling
/// again, in seconds.
const POLL_AGAIN_AFTER: &str = "2";
/// How long a stopping server waits for the MCP endpoint's calls to withdraw their questions.
const CALLS_END: Duration = Duration::from_secs(5);
/// How often each server erases what it no longer keeps (see [`purging`]).
const PURGE: Duration = Duration::from_secs(60);
/// How often each server looks for deadlines past and notices due; every server does, and the
/// database gives each question's escalation and each notice to one of them.
const SWEEP: Duration = Duration::from_secs(1);

/// What every handler shares.
#[derive(Clone)]
pub(super) struct App {
    pub(super) store: Arc<dyn Store>,
    /// The askers' polls waiting here, woken when their steps settle.
    pub(super) waiting: Arc<super::waiting::Waiting>,
    /// Wakes the people's pages when this server took an answer or put up a step.
    pub(super) answered: Arc<tokio::sync::Notify>,
    /// How long an asker may go unheard before its question is withdrawn, in ms
    /// (`--asker-grace`).
    pub(super) grace_ms: i64,
    /// The host names it answers to besides addresses and `localhost`.
    pub(super) hosts: Arc<Vec<String>>,
    /// The address people and agents open (`--public-url`, else the one listened on).
    pub(super) public_url: Arc<str>,
    /// Who holds each token, as lately read.
    pub(super) holders: Arc<super::holders::Holders>,
    /// When this server started (ms since the epoch).
    pub(super) started_ms: i64,
}

/// How `interview inbox serve` was asked to serve.
pub struct Settings {
    /// Where to listen (`--listen 127.0.0.1:0` picks a free port).
    pub listen: String,
    /// The address people open, for webhooks' links (by default the address listened on).
    pub public_url: Option<String>,
    /// How long an asker may go unheard before its question is withdrawn, in ms.
    pub grace_ms: i64,
    /// Host names the server answers to besides its public URL's, `localhost` and addresses.
    pub hosts: Vec<String>,
    /// How long closed questions and the audit's lines are kept, in ms (`--keep`).
    pub keep_ms: i64,
    /// The most long polls one agent may hold at once (`--polls-per-agent`); by default half
    /// the connections the server serves.
    pub polls_per_agent: Option<usize>,
    /// The tools its MCP endpoint offers besides `interview` (`--tools`).
    pub tools: Vec<String>,
    /// Say on stderr where it listens, once it does.
    pub announce: bool,
}

/// Why a server could not serve at all.
#[derive(Debug)]
pub enum Unserved {
    /// The async runtime could not be started (no threads, no epoll).
    NoRuntime(std::io::Error),
    /// Where it was to listen could not be had (see [`super::socket_file::Unbound`]).
    Unbound(super::socket_file::BindError),
    /// The MCP tools asked for (`--tool`) cannot be offered.
    Tools(crate::mcp::ToolsError),
    /// The inbox's database could not be opened to serve it.
    Store(StoreError),
}

impl std::fmt::Display for Unserved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unserved::NoRuntime(error) => write!(f, "cannot start the server's runtime: {error}"),
            Unserved::Unbound(error) => error.fmt(f),
            Unserved::Tools(error) => error.fmt(f),
            Unserved::Store(error) => error.fmt(f),
        }
    }
}

// No `source`: the cause is in the sentence already.
impl std::error::Error for Unserved {}

/// Serves `store` as `settings` say until SIGINT or SIGTERM, and MCP at `/mcp` with `plugin`'s
/// tools; says the address on stderr once it listens.
pub fn run(settings: Settings, store: Box<dyn Store>, plugin: Plugin) -> Result<(), Unserved> {
    serve(settings, store, Arc::new(plugin), stopped())
}

/// [`run`], until `stop` is done rather than until a signal, with a plugin shared with its
/// caller.
pub fn serve(
    settings: Settings,
    store: Box<dyn Store>,
    plugin: Arc<Plugin>,
    stop: impl Future<Output = ()> + Send,
) -> Result<(), Unserved> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(Unserved::NoRuntime)?;
    // The store is let go last, after the runtime: PostgreSQL's blocking connections close by
    // running a runtime of their own, which may not happen on the server's async threads.
    let store: Arc<dyn Store> = Arc::from(store);
    let served = runtime.block_on(async {
        let (listener, address) = super::listen::bind(&settings.listen)
            .await
            .map_err(Unserved::Unbound)?;
        let public_url = (settings.public_url.clone()).unwrap_or_else(|| address.clone());
        let mut hosts = settings.hosts.clone();
        hosts.extend(host_of(&public_url));
        let per_agent =
            (settings.polls_per_agent).unwrap_or_else(|| super::listen::connection_cap() / 2);
        let app = App {
            store: store.clone(),
            waiting: Arc::new(super::waiting::Waiting::new(per_agent)),
            answered: Arc::default(),
            grace_ms: settings.grace_ms,
            hosts: Arc::new(hosts),
            public_url: public_url.clone().into(),
            holders: Arc::default(),
            started_ms: super::store::now_ms(),
        };
        // Another server's answers wake the polls here as the database tells of them.
        let waiting = app.waiting.clone();
        store.tell_answered(Box::new(move |at| waiting.wake(at)));
        tokio::spawn(sweeping(app.clone(), public_url));
        tokio::spawn(super::waiting::watching(app.clone(), heard_every(&app)));
        tokio::spawn(purging(app.clone(), settings.keep_ms));
        // Stopping ends the MCP endpoint's sessions and open streams, so that their
        // connections close as every other's does once its response is sent.
        let streams = tokio_util::sync::CancellationToken::new();
        let bounds = super::mcp::Bounds::new(per_agent);
        let tools = &settings.tools;
        let mcp = super::mcp::routes(&app, plugin, tools, bounds.clone(), streams.clone())
            .map_err(Unserved::Tools)?;
        let page = if address.starts_with("http") { "/" } else { "" };
        if settings.announce {
            eprintln!("interview: the team inbox listens on {address}{page}");
        }
        let stop = async move {
            stop.await;
            streams.cancel();
        };
        let open = interview_host::serving::Bounds::open_to_strangers();
        interview_host::serving::serve(listener, router(app, mcp), open, stop).await;
        bounds.ended(CALLS_END).await;
        Ok(())
    });
    drop(runtime);
    drop(store);
    served
}

/// The host name of `url` (`https://inbox.example.com:8443/x` gives `inbox.example.com`).
fn host_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    Some(strip_port(host).to_ascii_lowercase()).filter(|h| !h.is_empty())
}

/// A `Host` header's name, without its port (`[::1]:80` gives `[::1]`).
fn strip_port(host: &str) -> &str {
    match host.rfind(':') {
        Some(at) if !host[at..].contains(']') => &host[..at],
        _ => host,
    }
}

/// Answers only requests whose `Host` names this server: an address (IPv4 or IPv6), or
/// `localhost`, or a name it was given (its public URL's, `--allow-host`). A page of another
/// site whose name was pointed at this server (DNS rebinding) is refused with 421.
async fn known_host(
    State(app): State<App>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let host = request
        .headers()
        .get(axum::http::header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(|h| strip_port(h.trim()).to_ascii_lowercase());
    let allowed = host.as_deref().is_some_and(|host| {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        bare.parse::<std::net::IpAddr>().is_ok()
            || host == "localhost"
            || app
                .hosts
                .iter()
                .any(|allowed| allowed.eq_ignore_ascii_case(host))
    });
    if !allowed {
        return Refusal(
            StatusCode::MISDIRECTED_REQUEST,
            "this server does not answer to that host name: give it --public-url or \
             --allow-host"
                .into(),
        )
        .into_response();
    }
    next.run(request).await
}

/// Every route: the page's, the API's, and `mcp`'s (the MCP endpoint and its metadata).
fn router(app: App, mcp: axum::Router<App>) -> axum::Router {
    // Every route that needs a token is behind `authenticate`, which runs before a body is
    // read; the page's own (its HTML, signing in and out) are open.
    let authenticated = axum::Router::new()
        .merge(super::page::authenticated_routes())
        .route("/api/whoami", get(whoami))
        .route("/api/steps", post(post_step))
        .route("/api/steps/{question}/{seq}", get(wait_reply))
        .route("/api/questions", get(open_questions))
        .route("/api/questions/{question}/finish", post(finish))
        .route("/api/questions/{question}/steps/{seq}/reply", post(answer))
        .route_layer(axum::middleware::from_fn_with_state(
            app.clone(),
            authenticate,
        ));
    axum::Router::new()
        .merge(super::page::open_routes())
        .merge(authenticated)
        .merge(mcp)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // Bodies are bounded in size as they stream in, and in time between their pieces.
        .layer(tower_http::limit::RequestBodyLimitLayer::new(BODY_LIMIT))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            BODY_TIMEOUT,
        ))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            known_host,
        ))
        .with_state(app)
}

async fn stopped() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}

/// An error the client is told about: a status and a sentence.
pub(super) struct Refusal(pub(super) StatusCode, pub(super) String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

pub(super) type Reply = Result<Response, Refusal>;

/// A store's failure, said on stderr and to the client: 503 (with a `Retry-After`) for what
/// may pass when tried again (the database unreachable, a statement failed), 500 for the rest.
fn internal(error: StoreError) -> Refusal {
    let status = match error {
        StoreError::Unreachable(_) | StoreError::Failed(_) => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    let error = error.to_string();
    crate::stderr::warn(&error);
    Refusal(status, error)
}

/// Runs a store call on a blocking thread.
pub(super) async fn blocking<T: Send + 'static>(
    app: &App,
    work: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, Refusal> {
    let store = app.store.clone();
    tokio::task::spawn_blocking(move || work(&*store))
        .await
        .map_err(|e| internal(StoreError::Failed(format!("a database call failed: {e}"))))?
        .map_err(internal)
}

/// Who holds `token`, if it is a live token of this inbox's (or was, less than
/// [`super::holders::REMEMBERED`] ago).
pub(super) async fn lookup(app: &App, token: &str) -> Result<Holder, Refusal> {
    let hash = token::hash(token);
    if let Some(holder) = app.holders.get(&hash) {
        return Ok(holder);
    }
    let read = hash.clone();
    let found = blocking(app, move |store| store.holder(&read)).await?;
    if let Some(holder) = &found {
        app.holders.keep(hash, holder.clone());
    }
    found.ok_or_else(|| {
        Refusal(
            StatusCode::UNAUTHORIZED,
            "the token is not known here, or was revoked".into(),
        )
    })
}

/// Lets through only a request whose token (its `Authorization`, or the page's cookie) is a
/// live one, with its holder in the request's extensions; others are refused before anything
/// of their body is read, so that a stranger's body costs nothing.
async fn authenticate(
    State(app): State<App>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let headers = request.headers();
    let bearer = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let Some(given) = bearer.or_else(|| super::page::cookie_token(headers)) else {
        return Refusal(
            StatusCode::UNAUTHORIZED,
            "no token: send Authorization: Bearer <token> (INTERVIEW_INBOX_TOKEN)".into(),
        )
        .into_response();
    };
    match lookup(&app, given).await {
        Ok(holder) => {
            request.extensions_mut().insert(holder);
            next.run(request).await
        }
        Err(refusal) => refusal.into_response(),
    }
}

/// The request's token holder (see [`authenticate`]), who must be of `kind`.
pub(super) fn must_be(holder: Holder, kind: Kind) -> Result<Holder, Refusal> {
    if holder.kind == kind {
        return Ok(holder);
    }
    let needed = match kind {
        Kind::Person => "answering takes a person's token",
        Kind::Agent => "asking takes an agent's token",
    };
    Err(Refusal(
        StatusCode::FORBIDDEN,
        format!("{needed}; this one is {}'s", holder.name),
    ))
}

#[derive(Deserialize)]
struct To {
    to: Option<String>,
    escalate_to: Option<String>,
}

/// Who holds the token; with `?to=NAME`, also whether anyone here answers questions for that
/// name (an asker checks before its first question).
async fn whoami(
    State(app): State<App>,
    Extension(holder): Extension<Holder>,
    Query(to): Query<To>,
) -> Reply {
    let given = |name: &Option<String>| name.clone().filter(|name| !name.is_empty());
    let (mut asked, mut escalate_to) = (given(&to.to), given(&to.escalate_to));
    if holder.kind == Kind::Agent {
        asked = allowed(&holder, asked)?;
        escalate_to = escalate_to
            .map(|e| allowed(&holder, Some(e)))
            .transpose()?
            .flatten();
    }
    addressees(&app, asked.as_deref(), escalate_to.as_deref()).await?;
    Ok(Json(json!({
        "name": holder.name, "kind": holder.kind.as_str(), "groups": holder.groups,
    }))
    .into_response())
}

/// Whom `agent`'s question is for when it asks for `to`, as its token allows (see
/// [`Holder::addressed`]); 403 when it does not.
pub(super) fn allowed(agent: &Holder, to: Option<String>) -> Result<Option<String>, Refusal> {
    agent
        .addressed(to)
        .map_err(|why| Refusal(StatusCode::FORBIDDEN, why.to_string()))
}

/// Refuses questions addressed `to` or escalated to `escalate_to` where nobody answers for
/// that name.
pub(super) async fn addressees(
    app: &App,
    to: Option<&str>,
    escalate_to: Option<&str>,
) -> Result<(), Refusal> {
    addressee(app, "--to", to).await?;
    addressee(app, "--escalate-to", escalate_to).await
}

/// Refuses a question addressed `to` a name (given as `option`) that no live person's token
/// has, as a name or a group: it would wait for nobody.
async fn addressee(app: &App, option: &str, to: Option<&str>) -> Result<(), Refusal> {
    let Some(to) = to.map(str::to_owned) else {
        return Ok(());
    };
    let tokens = blocking(app, |store| store.tokens()).await?;
    let someone = tokens.iter().any(|entry| {
        entry.revoked_at.is_none()
            && entry.holder.kind == Kind::Person
            && (entry.holder.name == to || entry.holder.groups.contains(&to))
    });
    if someone {
        return Ok(());
    }
    Err(Refusal(
        StatusCode::BAD_REQUEST,
        format!("{option}: nobody here is named {to:?} or in a group of that name"),
    ))
}

/// Whether a step's widget asks for a secret: a text question's `secret`.
fn is_secret(kind: &str, view: &Json_) -> bool {
    kind == "text" && view["request"]["secret"] == true
}

/// The widget kinds a step may be, each with the reader of its replies.
fn reader(kind: &str) -> Option<fn(&Json_) -> bool> {
    use interview_host::ui::web_wire as w;
    Some(match kind {
        "select" => |r| w::select_reply(r).is_some(),
        "multi_select" => |r| w::multi_select_reply(r).is_some(),
        "text" => |r| w::text_reply(r).is_some(),
        "confirm" => |r| w::confirm_reply(r).is_some(),
        "number" => |r| w::number_reply(r).is_some(),
        "review" => |r| w::review_reply(r).is_some(),
        _ => return None,
    })
}

/// Every [`SWEEP`]: the questions whose deadline is past escalate or expire (an expired one's
/// waiting poll tells its asker at its next read), those whose asker went silent for the grace
/// period are withdrawn, and the notices due go out. Silence is judged only once this server
/// has been up for the grace period, and for as long as an asker takes to try a server that
/// was down again: askers of a server that was down are heard from again within it.
async fn sweeping(app: App, public_url: String) {
    let mut tick = tokio::time::interval(SWEEP);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let started = super::store::now_ms();
    let grace = app.grace_ms;
    let back_within = i64::try_from((super::backoff::LONGEST + Duration::from_secs(1)).as_millis())
        .unwrap_or(i64::MAX);
    let settled = grace.max(back_within);
    loop {
        tick.tick().await;
        let now = super::store::now_ms();
        let silent_since = (now - started >= settled).then(|| now - grace);
        // A failure is said on stderr (by `blocking`), and the next sweep tries again.
        let _ = blocking(&app, move |store| store.sweep(now, silent_since)).await;
        let claimed = blocking(&app, move |store| store.claim_notices(now, 20)).await;
        for notice in claimed.unwrap_or_default() {
            let (app, link) = (app.clone(), public_url.clone());
            tokio::spawn(async move {
                let _ = blocking(&app, move |store| {
                    let sent = super::notify::send(&notice, &link);
                    store.notice_sent(&notice, sent)
                })
                .await;
            });
        }
    }
}

/// Every [`PURGE`]: the secret replies of closed questions are erased, and the questions
/// closed longer than `keep_ms` ago are forgotten, with the audit's lines as old.
async fn purging(app: App, keep_ms: i64) {
    let mut tick = tokio::time::interval(PURGE);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let before = super::store::now_ms().saturating_sub(keep_ms);
        let _ = blocking(&app, move |store| store.purge(before)).await;
    }
}

/// A deadline as an asker sends it.
#[derive(Deserialize)]
struct DeadlineBody {
    after_ms: i64,
    escalate_to: Option<String>,
}

/// A step as an asker puts it up.
#[derive(Deserialize)]
pub(super) struct StepBody {
    key: String,
    /// The asking run; an asker of an older version sends none, and all its runs are one.
    #[serde(default)]
    run: String,
    #[serde(default)]
    from: Json_,
    folder: Option<String>,
    to: Option<String>,
    kind: String,
    view: Json_,
    after: Option<i64>,
    deadline: Option<DeadlineBody>,
}

async fn post_step(
    State(app): State<App>,
    ConnectInfo(address): ConnectInfo<Peer>,
    Extension(agent): Extension<Holder>,
    body: Result<Json<StepBody>, axum::extract::rejection::JsonRejection>,
) -> Reply {
    let agent = must_be(agent, Kind::Agent)?;
    let Json(body) = body.map_err(|e| Refusal(StatusCode::BAD_REQUEST, e.body_text()))?;
    Ok(Json(put_step(&app, agent, address, body).await?).into_response())
}

/// Keeps `body` as the next step of `agent`'s question (a new question for its first), once
/// it is checked: its answer is where it was kept (`question`, `seq`).
pub(super) async fn put_step(
    app: &App,
    agent: Holder,
    address: Peer,
    body: StepBody,
) -> Result<Json_, Refusal> {
    // Only a view of the widget it says it is is kept, and shown to people, in the shape
    // the page reads.
    let view = interview_host::ui::web_wire::checked_view(&body.kind, &body.view).map_err(|e| {
        Refusal(
            StatusCode::BAD_REQUEST,
            format!("the view is not that of a {} widget: {e}", body.kind),
        )
    })?;
    if body.key.is_empty() || body.key.len() > 128 {
        return Err(Refusal(
            StatusCode::BAD_REQUEST,
            "the request's key must be 1 to 128 characters".into(),
        ));
    }
    if body.run.len() > 128 {
        return Err(Refusal(
            StatusCode::BAD_REQUEST,
            "the run must be at most 128 characters".into(),
        ));
    }
    let to = allowed(&agent, body.to.filter(|to| !to.is_empty()))?;
    addressee(app, "--to", to.as_deref()).await?;
    let deadline = match body.deadline {
        Some(d) if !crate::spans::DEADLINES_MS.contains(&d.after_ms) => {
            return Err(Refusal(
                StatusCode::BAD_REQUEST,
                "deadline.after_ms must be from 1 s to 30 days".into(),
            ));
        }
        Some(d) => {
            let escalate_to = d.escalate_to.filter(|to| !to.is_empty());
            let escalate_to = escalate_to
                .map(|e| allowed(&agent, Some(e)))
                .transpose()?
                .flatten();
            if escalate_to.is_some() && escalate_to == to {
                return Err(Refusal(
                    StatusCode::BAD_REQUEST,
                    "deadline.escalate_to is whom the question is for already".into(),
                ));
            }
            addressee(app, "--escalate-to", escalate_to.as_deref()).await?;
            Some(Deadline {
                after_ms: d.after_ms,
                escalate_to,
            })
        }
        None => None,
    };
    let post = StepPost {
        key: body.key,
        run: body.run,
        from: body.from,
        folder: body.folder,
        to,
        secret: is_secret(&body.kind, &view),
        kind: body.kind,
        view,
        after: body.after,
        deadline,
    };
    let address = address.to_string();
    let posted = blocking(app, move |store| {
        store.post_step(&agent.name, &post, &address)
    })
    .await?;
    // A page (or a terminal) showing the question waits for its next step: it goes up now.
    app.answered.notify_waiters();
    Ok(json!({ "question": posted.question, "seq": posted.seq }))
}

#[derive(Deserialize)]
struct Wait {
    /// Seconds to wait for a reply (at most 25).
    wait: Option<u64>,
}

async fn wait_reply(
    State(app): State<App>,
    Extension(agent): Extension<Holder>,
    Path((question, seq)): Path<(i64, i64)>,
    Query(wait): Query<Wait>,
) -> Reply {
    let agent = must_be(agent, Kind::Agent)?;
    let at = Posted { question, seq };
    let longest = Duration::from_secs(wait.wait.unwrap_or(0)).min(LONGEST_WAIT);
    match reply_to(&app, &agent, at, longest).await {
        Ok(state) => Ok(Json(state).into_response()),
        Err(refusal) if refusal.0 == StatusCode::TOO_MANY_REQUESTS => {
            let mut busy = refusal.into_response();
            (busy.headers_mut()).insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from_static(POLL_AGAIN_AFTER),
            );
            Ok(busy)
        }
        Err(refusal) => Err(refusal),
    }
}

/// The state of `agent`'s step `at` (`replied` with the reply, `expired`, `withdrawn`), once
/// it settles or `longest` has passed (`waiting`). An agent holding as many polls as it may
/// is refused with 429: it is to ask again after [`POLL_AGAIN_AFTER`].
pub(super) async fn reply_to(
    app: &App,
    agent: &Holder,
    at: Posted,
    longest: Duration,
) -> Result<Json_, Refusal> {
    let started = tokio::time::Instant::now();
    // A place among the waiting polls is taken only once the step is known to be this agent's
    // (the first read): the waiting askers are marked as heard from, and another agent's poll
    // must not keep a question alive that its asker has left.
    let mut poll: Option<super::waiting::Poll> = None;
    loop {
        // Made before the read, so that an answer taken meanwhile still wakes this poll.
        let woken = poll.as_ref().map(|poll| poll.woken.clone());
        let woken = woken.as_ref().map(|woken| woken.notified());
        let name = agent.name.clone();
        match blocking(app, move |store| store.reply(&name, at)).await? {
            ReplyState::Replied { reply, by } => {
                return Ok(json!({ "state": "replied", "reply": reply, "by": by }));
            }
            ReplyState::Expired => return Ok(json!({ "state": "expired" })),
            ReplyState::Withdrawn => return Ok(json!({ "state": "withdrawn" })),
            ReplyState::Unknown => {
                return Err(Refusal(
                    StatusCode::NOT_FOUND,
                    format!(
                        "no step {} of question {} of {}'s",
                        at.seq, at.question, agent.name
                    ),
                ));
            }
            ReplyState::Waiting if started.elapsed() >= longest => {
                return Ok(json!({ "state": "waiting" }));
            }
            // The step is this agent's and waits: the poll joins the others, which one task
            // looks after (see `waiting`), and reads again when woken.
            ReplyState::Waiting => match woken {
                None => match app.waiting.enter(at, &agent.name) {
                    Ok(entered) => poll = Some(entered),
                    Err(super::waiting::TooMany(held)) => {
                        let why = format!(
                            "{} has {held} askers waiting on this server, as many as one agent \
                             may (--polls-per-agent): poll again shortly",
                            agent.name
                        );
                        return Err(Refusal(StatusCode::TOO_MANY_REQUESTS, why));
                    }
                },
                Some(woken) => {
                    tokio::select! {
                        _ = woken => {}
                        _ = tokio::time::sleep(longest.saturating_sub(started.elapsed())) => {}
                    }
                    // Woken by this server's taking the answer: it said what the read would.
                    if let Some(state) = poll.as_ref().and_then(|poll| poll.told()) {
                        return Ok(state);
                    }
                }
            },
        }
    }
}

/// How often the waiting askers are marked as heard from: a third of the grace period, so
/// that a late mark never has one withdrawn while it waits.
fn heard_every(app: &App) -> Duration {
    Duration::from_millis(u64::try_from(app.grace_ms / 3).unwrap_or(1_000))
}

#[derive(Deserialize)]
struct FinishBody {
    status: String,
}

async fn finish(
    State(app): State<App>,
    ConnectInfo(address): ConnectInfo<Peer>,
    Extension(agent): Extension<Holder>,
    Path(question): Path<i64>,
    body: Result<Json<FinishBody>, axum::extract::rejection::JsonRejection>,
) -> Reply {
    let agent = must_be(agent, Kind::Agent)?;
    let Json(body) = body.map_err(|e| Refusal(StatusCode::BAD_REQUEST, e.body_text()))?;
    Ok(Json(close(&app, agent, question, body.status, address).await?).into_response())
}

/// Closes `agent`'s `question` as `status` says: `finished` (the plugin is done) or
/// `withdrawn` (the asker stopped waiting).
pub(super) async fn close(
    app: &App,
    agent: Holder,
    question: i64,
    status: String,
    address: Peer,
) -> Result<Json_, Refusal> {
    if !matches!(status.as_str(), "finished" | "withdrawn") {
        return Err(Refusal(
            StatusCode::BAD_REQUEST,
            "status must be \"finished\" (the plugin is done) or \"withdrawn\" (the asker \
             stopped waiting)"
                .into(),
        ));
    }
    let address = address.to_string();
    let handed_on = blocking(app, move |store| {
        store.finish(&agent.name, question, &status, &address)
    })
    .await?;
    if let Some(at) = handed_on {
        app.waiting.wake(at);
    }
    Ok(json!({ "finished": question }))
}

#[derive(Deserialize)]
struct Filter {
    folder: Option<String>,
    agent: Option<String>,
}

async fn open_questions(
    State(app): State<App>,
    Extension(person): Extension<Holder>,
    Query(filter): Query<Filter>,
) -> Reply {
    let person = must_be(person, Kind::Person)?;
    let open = blocking(&app, move |store| store.open_questions(&person)).await?;
    // A question whose asker has not been heard from since this server started, nor within
    // the grace, may be a dead asker's, kept from before: it is withdrawn at the grace, and
    // shown only once its asker, if alive, is heard from.
    let alive_since = app.started_ms.min(super::store::now_ms() - app.grace_ms);
    let questions = (open.iter())
        .filter(|q| q.seen_at >= alive_since)
        .filter(|q| (filter.folder.as_ref()).is_none_or(|f| q.folder.as_ref() == Some(f)))
        .filter(|q| filter.agent.as_ref().is_none_or(|a| &q.agent == a))
        .map(Listed::of)
        .collect();
    Ok(Json(Listing { questions }).into_response())
}

/// The open questions, as `GET /api/questions` lists them.
#[derive(serde::Serialize)]
struct Listing<'a> {
    questions: Vec<Listed<'a>>,
}

/// An open question as listed: borrowed from the store's, so that a long list is written out
/// without a copy of each question's view (a listing's cost, at hundreds of questions).
#[derive(serde::Serialize)]
struct Listed<'a> {
    question: i64,
    seq: i64,
    kind: &'a str,
    agent: &'a str,
    from: &'a RawValue,
    folder: &'a Option<String>,
    to: &'a Option<String>,
    asked_at: i64,
    frame: Option<&'a RawValue>,
    request: Option<&'a RawValue>,
    again_of: Option<i64>,
    resumed: bool,
    earlier_ended_at: Option<i64>,
}

impl Listed<'_> {
    fn of(q: &super::store::OpenQuestion) -> Listed<'_> {
        /// The parts of a view that a list shows, as they are written in it.
        #[derive(Default, serde::Deserialize)]
        struct Shown<'a> {
            #[serde(borrow)]
            frame: Option<&'a RawValue>,
            #[serde(borrow)]
            request: Option<&'a RawValue>,
        }
        let shown: Shown = serde_json::from_str(q.view.get()).unwrap_or_default();
        Listed {
            question: q.question,
            seq: q.seq,
            kind: &q.kind,
            agent: &q.agent,
            from: &q.from,
            folder: &q.folder,
            to: &q.to,
            asked_at: q.asked_at,
            frame: shown.frame,
            request: shown.request,
            again_of: q.again_of,
            resumed: q.resumed,
            earlier_ended_at: q.earlier_ended_at,
        }
    }
}

async fn answer(
    State(app): State<App>,
    ConnectInfo(address): ConnectInfo<Peer>,
    Extension(person): Extension<Holder>,
    Path((question, seq)): Path<(i64, i64)>,
    body: Result<Json<Json_>, axum::extract::rejection::JsonRejection>,
) -> Reply {
    let person = must_be(person, Kind::Person)?;
    let Json(reply) = body.map_err(|e| Refusal(StatusCode::BAD_REQUEST, e.body_text()))?;
    take_answer(&app, person, Posted { question, seq }, reply, address).await
}

/// Keeps `person`'s `reply` to the step `at`, once: a reply that is no answer to the step's
/// widget is refused before it is kept, and a second answer gets 409.
pub(super) async fn take_answer(
    app: &App,
    person: Holder,
    at: Posted,
    reply: Json_,
    address: Peer,
) -> Reply {
    let address = address.to_string();
    let name = person.name.clone();
    let told = json!({ "state": "replied", "reply": reply, "by": name });
    let answered = blocking(app, move |store| {
        // Read as the step's widget would read it, before it is kept for good.
        let fits = |kind: &str| reader(kind).is_some_and(|reads| reads(&reply));
        store.answer(&person, at, &reply, &address, &fits)
    })
    .await?;
    match answered {
        Answered::Accepted => {
            app.waiting.settle(at, told);
            app.answered.notify_waiters();
            Ok(Json(json!({ "accepted": true, "by": name })).into_response())
        }
        Answered::Unfit(kind) => Err(Refusal(
            StatusCode::BAD_REQUEST,
            format!("that is not a reply to a {kind} question"),
        )),
        // Who answered it, besides: a person whose answer's response was lost learns that
        // the answer taken is theirs.
        Answered::Taken { by, .. } => {
            let error = format!("already answered by {by}: each question takes one answer");
            let body = json!({ "error": error, "by": by });
            Ok((StatusCode::CONFLICT, Json(body)).into_response())
        }
        Answered::Gone(closed) => Err(Refusal(
            StatusCode::CONFLICT,
            match closed {
                Some(Closed::Withdrawn) => {
                    "the question was withdrawn by the agent that asked it, so nothing was sent \
                     to it"
                }
                Some(Closed::Gone) => {
                    "the question was withdrawn: the agent that asked it stopped waiting, so \
                     nothing was sent to it"
                }
                Some(Closed::Expired) => {
                    "nobody answered in the time allowed: the agent was told so, and the \
                     question is closed"
                }
                Some(Closed::Finished) | None => "the asker has moved on from this question",
            }
            .into(),
        )),
        Answered::Unknown => Err(Refusal(
            StatusCode::NOT_FOUND,
            format!(
                "no question {} step {} for {name} to answer",
                at.question, at.seq
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_are_read_without_their_ports() {
        assert_eq!(
            host_of("https://Inbox.Example.com:8443/q/1/").as_deref(),
            Some("inbox.example.com")
        );
        assert_eq!(host_of("http://u:p@[::1]:80").as_deref(), Some("[::1]"));
        assert_eq!(strip_port("localhost:8470"), "localhost");
        assert_eq!(strip_port("[::1]"), "[::1]");
    }
}
