//! The page's HTTP side: the page itself, the view it long-polls for, and the replies it
//! posts, behind the checks that keep other users, other sites and other tabs out.
//!
//! - The page's secret is in its address after `#`, which a browser never sends: whoever
//!   listens on the port (another user, after this process died and freed it) never learns it.
//!   The page and the server prove to each other that they know it before anything else: the
//!   page sends a nonce to `hello`, the server answers with a nonce of its own and
//!   `HMAC(secret, "interview server" nonces)`, and both derive the session's key,
//!   `HMAC(secret, "interview session" nonces)`, which every view and reply then carries in
//!   `X-Interview-Session`. A page whose server cannot prove it stops, and says so, having
//!   sent nothing but its nonce; a request without a session the server made gets 401. Every
//!   response in a session carries `X-Interview-Proof`,
//!   `HMAC(secret, "interview response" session body)`, which the page checks before it
//!   draws anything: what took the port between two requests learns the session key from
//!   the request, but cannot sign with it.
//! - A Host header other than the server's own address gets 403 (DNS rebinding: a foreign
//!   name that resolves to 127.0.0.1).
//! - A POST must be JSON and, when it has an Origin, come from the page's own origin.
//! - The page is sent with a Content-Security-Policy that allows only its own script and style
//!   (by a nonce fresh for each load) and requests to its own origin.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::IntoResponse;
use serde_json::{Value as Json, json};

use super::Exchange;
use super::wire::PAGE;

/// How long the page's ask for a new view waits before it is answered with the same one.
const LONG_POLL: Duration = Duration::from_secs(5);
/// The most a request's body may weigh: a note or a pasted text, not a file.
const MAX_BODY_BYTES: usize = 1 << 20;
/// How long a request's body may take to arrive whole (a browser takes milliseconds): a
/// connection with a request in progress is never closed for another, so a body trickled
/// forever would keep its place.
const BODY_DEADLINE: Duration = Duration::from_secs(5);

/// What every request is answered from: the page's exchange with the UI, and where it is.
pub(super) struct Page {
    pub(super) exchange: Arc<Exchange>,
    pub(super) site: Site,
}

/// The page's routes, all behind one handler that checks the Host first.
pub(super) fn router(page: Page) -> axum::Router {
    axum::Router::new()
        .fallback(answer)
        .with_state(Arc::new(page))
}

/// A request's header: `None` when absent or not text; names compare without case.
fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|value| value.to_str().ok())
}

/// A response, with the headers it carries beside its type: kept whole until sent, so that
/// a response in a session can be signed over its body.
pub(super) struct Response {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

impl Response {
    fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            headers: vec![("Content-Type", content_type.to_string())],
            body: body.into(),
        }
    }

    fn text(status: u16, body: &str) -> Response {
        Response::new(status, "text/plain; charset=utf-8", body)
    }

    fn with(mut self, name: &'static str, value: impl Into<String>) -> Response {
        self.headers.push((name, value.into()));
        self
    }
}

impl IntoResponse for Response {
    fn into_response(self) -> axum::response::Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = (status, self.body).into_response();
        for (name, value) in self.headers {
            if let Ok(value) = value.parse() {
                response.headers_mut().insert(name, value);
            }
        }
        response
    }
}

/// Where the page is served, and the sessions it handed out.
pub(super) struct Site {
    /// The page's secret, in lowercase hex: the key of every proof.
    pub(super) secret: String,
    pub(super) port: u16,
    sessions: std::sync::Mutex<Sessions>,
}

/// The keys of the sessions made, newest last: those no request has used yet apart from those
/// a page has used, so that a flood of handshakes (anyone on the machine may send them) pushes
/// out only sessions nobody uses, never an open tab's.
#[derive(Default)]
struct Sessions {
    made: VecDeque<String>,
    used: VecDeque<String>,
}

/// How many sessions not used yet are kept: a tab, its reloads, a second tab, with room to
/// spare; the oldest goes first.
const SESSIONS: usize = 32;
/// How many used sessions are kept (tabs open at once, and their reloads); the one used
/// longest ago goes first.
const USED_SESSIONS: usize = 8;

impl Sessions {
    fn made(&mut self, key: String) {
        if self.made.len() == SESSIONS {
            self.made.pop_front();
        }
        self.made.push_back(key);
    }

    /// Whether `key` is a session made here; it is counted as used from now on.
    fn used(&mut self, key: &str) -> bool {
        if let Some(at) = self.used.iter().position(|used| used == key) {
            let key = self.used.remove(at).expect("found just now");
            self.used.push_back(key);
            return true;
        }
        let Some(at) = self.made.iter().position(|made| made == key) else {
            return false;
        };
        let key = self.made.remove(at).expect("found just now");
        if self.used.len() == USED_SESSIONS {
            self.used.pop_front();
        }
        self.used.push_back(key);
        true
    }
}

impl Site {
    pub(super) fn new(secret: String, port: u16) -> Site {
        Site {
            secret,
            port,
            sessions: std::sync::Mutex::default(),
        }
    }

    /// `HMAC-SHA256(secret, words)`, in hex.
    fn proof(&self, words: &str) -> String {
        use hmac::Mac;
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(self.secret.as_bytes())
            .expect("HMAC takes a key of any length");
        mac.update(words.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// `response` to a request in a session, with the proof that this server sent it.
    fn signed(&self, headers: &HeaderMap, response: Response) -> Response {
        let session = header(headers, "X-Interview-Session").unwrap_or_default();
        let body = String::from_utf8_lossy(&response.body);
        let proof = self.proof(&format!("interview response {session} {body}"));
        response.with("X-Interview-Proof", proof)
    }

    /// Whether `request` carries a session this server made.
    fn in_session(&self, headers: &HeaderMap) -> bool {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        header(headers, "X-Interview-Session").is_some_and(|key| sessions.used(key))
    }

    /// Whether a Host header names this server.
    fn is_own_host(&self, host: &str) -> bool {
        host == format!("127.0.0.1:{}", self.port) || host == format!("localhost:{}", self.port)
    }

    /// Whether an Origin header is the page's own.
    fn is_own_origin(&self, origin: &str) -> bool {
        origin
            .strip_prefix("http://")
            .is_some_and(|host| self.is_own_host(host))
    }
}

/// `bytes` random bytes in hex, from the operating system.
pub(super) fn random_hex(bytes: usize) -> std::io::Result<String> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(buffer.iter().map(|b| format!("{b:02x}")).collect())
}

fn json_reply(status: u16, body: &Json) -> Response {
    Response::new(status, "application/json", body.to_string()).with("Cache-Control", "no-store")
}

/// The response to `request`.
async fn answer(State(page): State<Arc<Page>>, request: Request) -> Response {
    let (site, exchange) = (&page.site, &page.exchange);
    let (parts, body) = request.into_parts();
    let headers = &parts.headers;
    if !header(headers, "Host").is_some_and(|h| site.is_own_host(h)) {
        return Response::text(403, "This page answers at its own address only.");
    }
    let query = parts.uri.query().unwrap_or("");
    let method = &parts.method;
    match (method, parts.uri.path()) {
        (&Method::GET, "/") => page_itself(),
        (&Method::POST, "/hello") => match read_json(headers, body, site).await {
            Ok(body) => hello(site, &body),
            Err(refused) => refused,
        },
        (&Method::GET | &Method::POST, "/view" | "/reply") if !site.in_session(headers) => {
            json_reply(
                401,
                &json!({ "error": "No session: the page proves first that it knows the secret." }),
            )
        }
        (&Method::GET, "/view") => site.signed(headers, view(exchange, query).await),
        // Signed, refused or not: the page takes an unsigned answer in a session for another
        // program's that took the port.
        (&Method::POST, "/reply") => match read_json(headers, body, site).await {
            Ok(body) => site.signed(headers, accept(exchange, &body)),
            Err(refused) => site.signed(headers, refused),
        },
        _ => Response::text(404, "Not found."),
    }
}

/// The server's half of the handshake: its nonce, its proof that it knows the secret, and a
/// session kept for the page that proves it too (by deriving the same key).
fn hello(site: &Site, body: &Json) -> Response {
    let Some(theirs) = body["nonce"]
        .as_str()
        .filter(|n| (32..=128).contains(&n.len()) && n.bytes().all(|b| b.is_ascii_hexdigit()))
    else {
        return json_reply(400, &json!({ "error": "A nonce is 32 to 128 hex digits." }));
    };
    let Ok(ours) = random_hex(16) else {
        return Response::text(500, "No randomness for a nonce.");
    };
    let proof = site.proof(&format!("interview server {theirs} {ours}"));
    let session = site.proof(&format!("interview session {theirs} {ours}"));
    let mut sessions = site.sessions.lock().unwrap_or_else(|e| e.into_inner());
    sessions.made(session);
    json_reply(200, &json!({ "nonce": ours, "proof": proof }))
}

/// The page, with a nonce for its script and style.
fn page_itself() -> Response {
    let nonce = match random_hex(16) {
        Ok(nonce) => nonce,
        Err(_) => return Response::text(500, "No randomness for the page's nonce."),
    };
    let policy = super::wire::policy(&nonce);
    Response::new(
        200,
        "text/html; charset=utf-8",
        super::wire::html(PAGE, &nonce),
    )
    .with("Content-Security-Policy", policy)
    .with("X-Content-Type-Options", "nosniff")
    .with("Referrer-Policy", "no-referrer")
    .with("Cache-Control", "no-store")
}

/// A query parameter's value.
fn param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// The current view, once it is newer than `after` (or after [`LONG_POLL`]); a tab other than
/// the one that owns the request is told the request is open elsewhere.
async fn view(exchange: &Exchange, query: &str) -> Response {
    let after: u64 = param(query, "after")
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    let Some(tab) = param(query, "tab").filter(|t| !t.is_empty() && t.len() <= 64) else {
        return Response::text(400, "The page must say which tab it is.");
    };
    let polling = {
        let mut state = exchange.lock();
        let owner_alive = state.owner.is_some() && !Exchange::abandoned(&state);
        match &state.owner {
            Some(owner) if owner != tab && owner_alive => {
                return json_reply(200, &json!({ "seq": 0, "kind": "elsewhere" }));
            }
            Some(owner) if owner == tab => {}
            _ => state.owner = Some(tab.to_string()),
        }
        // Asking for what comes after a view is the page saying it shows that view: a
        // response sent is no proof, since the tab may be gone.
        state.delivered = state.delivered.max(after);
        Polling::start(exchange, state)
    };
    let started = Instant::now();
    loop {
        let woken = exchange.woken.notified();
        tokio::pin!(woken);
        // Registered before the state is read: a change in between still wakes this wait.
        woken.as_mut().enable();
        let left = LONG_POLL.saturating_sub(started.elapsed());
        {
            let state = exchange.lock();
            if state.seq > after || state.closing || left.is_zero() {
                break;
            }
        }
        let _ = tokio::time::timeout(left, woken).await;
    }
    let state = polling.end();
    let view = if state.closing {
        json!({ "seq": u64::MAX, "kind": "gone" })
    } else if state.view["kind"] == "done" && state.ended_in.as_deref() != Some(tab) {
        // How the last request ended is for the tab that answered it, not one opened since.
        json!({ "seq": state.seq, "kind": "waiting" })
    } else {
        state.view.clone()
    };
    drop(state);
    exchange.wake();
    json_reply(200, &view)
}

/// A page's ask for a view, counted while it waits: the page is showing while one is. Its
/// end is counted however the wait ends, its connection closed midway included, or the UI
/// would take the page for open forever.
struct Polling<'a> {
    exchange: &'a Exchange,
    ended: bool,
}

impl<'a> Polling<'a> {
    fn start(exchange: &'a Exchange, mut state: std::sync::MutexGuard<'_, super::State>) -> Self {
        state.last_seen = Some(Instant::now());
        state.polling += 1;
        Polling {
            exchange,
            ended: false,
        }
    }

    /// The ask ends: the state, as it is now.
    fn end(mut self) -> std::sync::MutexGuard<'a, super::State> {
        self.ended = true;
        self.counted_out()
    }

    /// The ask waits no more: the page was seen now.
    fn counted_out(&self) -> std::sync::MutexGuard<'a, super::State> {
        let mut state = self.exchange.lock();
        state.polling -= 1;
        state.last_seen = Some(Instant::now());
        state
    }
}

impl Drop for Polling<'_> {
    fn drop(&mut self) {
        if !self.ended {
            drop(self.counted_out());
            self.exchange.wake();
        }
    }
}

/// A POST's JSON body, after the checks a POST must pass, read within [`BODY_DEADLINE`].
async fn read_json(
    headers: &HeaderMap,
    body: axum::body::Body,
    site: &Site,
) -> Result<Json, Response> {
    if let Some(origin) = header(headers, "Origin")
        && !site.is_own_origin(origin)
    {
        return Err(Response::text(
            403,
            "Replies come from the page itself only.",
        ));
    }
    let json = header(headers, "Content-Type").is_some_and(|t| {
        t.split(';')
            .next()
            .is_some_and(|t| t.trim() == "application/json")
    });
    if !json {
        return Err(Response::text(415, "A reply is JSON."));
    }
    let read = axum::body::to_bytes(body, MAX_BODY_BYTES);
    let bytes = match tokio::time::timeout(BODY_DEADLINE, read).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            let error = "The reply is too long for this page (over 1 MiB): shorten it.";
            return Err(json_reply(413, &json!({ "error": error })));
        }
        Err(_) => {
            let error = "The reply took too long to arrive: send it again.";
            return Err(json_reply(408, &json!({ "error": error })));
        }
    };
    serde_json::from_slice(&bytes)
        .map_err(|_| json_reply(400, &json!({ "error": "The reply is not JSON." })))
}

/// Hands `{seq, tab, reply}` to the widget waiting for it: only from the tab that owns the
/// request, and only for the view it answers.
fn accept(exchange: &Exchange, body: &Json) -> Response {
    let mut state = exchange.lock();
    if state.owner.as_deref() != body["tab"].as_str() {
        return json_reply(
            409,
            &json!({ "error": "This request is open in another tab." }),
        );
    }
    if body["seq"].as_u64() != Some(state.seq) || state.reply.is_some() {
        return json_reply(409, &json!({ "error": "That question is no longer open." }));
    }
    state.reply = Some(body["reply"].clone());
    state.last_seen = Some(Instant::now());
    drop(state);
    exchange.wake();
    json_reply(200, &json!({ "ok": true }))
}
