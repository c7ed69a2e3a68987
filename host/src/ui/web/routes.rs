//! The page's HTTP side: the page itself, the view it long-polls for, and the replies it
//! posts, behind the checks that keep other sites and other tabs out.
//!
//! - A path that doesn't start with the token gets 404, as does anything unknown under it.
//! - A Host header other than the server's own address gets 403 (DNS rebinding: a foreign
//!   name that resolves to 127.0.0.1).
//! - A POST must be JSON and, when it has an Origin, come from the page's own origin.
//! - The page is sent with a Content-Security-Policy that allows only its own script and style
//!   (by a nonce fresh for each load) and requests to its own origin.

use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

use super::Exchange;
use super::http::{Request, Response};
use super::wire::PAGE;

/// How long the page's ask for a new view waits before it is answered with the same one.
const LONG_POLL: Duration = Duration::from_secs(5);

/// Where the page is served.
pub(super) struct Site {
    pub(super) token: String,
    pub(super) port: u16,
}

impl Site {
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
pub(super) fn route(request: &Request, exchange: &Exchange, site: &Site) -> Response {
    if !request.header("Host").is_some_and(|h| site.is_own_host(h)) {
        return Response::text(403, "This page answers at its own address only.");
    }
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((&request.target, ""));
    let Some(rest) = path
        .strip_prefix('/')
        .and_then(|p| p.strip_prefix(site.token.as_str()))
    else {
        return Response::text(404, "Not found.");
    };
    match (request.method.as_str(), rest) {
        ("GET", "" | "/") => page(),
        ("GET", "/view") => view(exchange, query),
        ("POST", "/reply") => match read_reply(request, site) {
            Ok(body) => accept(exchange, &body),
            Err(refused) => refused,
        },
        _ => Response::text(404, "Not found."),
    }
}

/// The page, with a nonce for its script and style.
fn page() -> Response {
    let nonce = match random_hex(16) {
        Ok(nonce) => nonce,
        Err(_) => return Response::text(500, "No randomness for the page's nonce."),
    };
    let policy = format!(
        "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; \
         connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; \
         frame-ancestors 'none'"
    );
    Response::new(
        200,
        "text/html; charset=utf-8",
        PAGE.replace("{{NONCE}}", &nonce),
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
fn view(exchange: &Exchange, query: &str) -> Response {
    let after: u64 = param(query, "after")
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    let Some(tab) = param(query, "tab").filter(|t| !t.is_empty() && t.len() <= 64) else {
        return Response::text(400, "The page must say which tab it is.");
    };
    let mut state = exchange.lock();
    let owner_alive = state.owner.is_some() && !Exchange::abandoned(&state);
    match &state.owner {
        Some(owner) if owner != tab && owner_alive => {
            return json_reply(200, &json!({ "seq": 0, "kind": "elsewhere" }));
        }
        Some(owner) if owner == tab => {}
        _ => state.owner = Some(tab.to_string()),
    }
    state.last_seen = Some(Instant::now());
    // Asking for what comes after a view is the page saying it shows that view: a response
    // sent is no proof, since the tab may be gone.
    state.delivered = state.delivered.max(after);
    state.polling += 1;
    let started = Instant::now();
    while state.seq <= after && !state.closing && started.elapsed() < LONG_POLL {
        state = exchange
            .changed
            .wait_timeout(state, Duration::from_millis(250))
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
    state.polling -= 1;
    state.last_seen = Some(Instant::now());
    let view = if state.closing {
        json!({ "seq": u64::MAX, "kind": "gone" })
    } else if state.view["kind"] == "done" && state.ended_in.as_deref() != Some(tab) {
        // How the last request ended is for the tab that answered it, not one opened since.
        json!({ "seq": state.seq, "kind": "waiting" })
    } else {
        state.view.clone()
    };
    exchange.changed.notify_all();
    json_reply(200, &view)
}

/// A reply's body, after the checks a POST must pass.
fn read_reply(request: &Request, site: &Site) -> Result<Json, Response> {
    if let Some(origin) = request.header("Origin")
        && !site.is_own_origin(origin)
    {
        return Err(Response::text(
            403,
            "Replies come from the page itself only.",
        ));
    }
    let json = request.header("Content-Type").is_some_and(|t| {
        t.split(';')
            .next()
            .is_some_and(|t| t.trim() == "application/json")
    });
    if !json {
        return Err(Response::text(415, "A reply is JSON."));
    }
    serde_json::from_slice(&request.body).map_err(|_| Response::text(400, "The reply is not JSON."))
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
    exchange.changed.notify_all();
    json_reply(200, &json!({ "ok": true }))
}
