//! The team's web inbox: a list of the open questions a person may answer (`/`, with filters
//! by project folder and agent), and each question drawn by the very page the local `--ui web`
//! serves (`/q/{question}/`), fed from the database instead of a UI in this process.
//!
//! The page logs in with the person's token, kept in an HttpOnly cookie (SameSite=Strict, so
//! another site's page cannot post with it); the API takes the same token as a bearer.

use super::listen::Peer;
use std::time::Duration;

use axum::Json;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Extension, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value as Json_, json};

use super::server::{App, Refusal, Reply, blocking, lookup, must_be, take_answer};
use super::store::{Closed, Holder, Kind, OpenQuestion, Posted};

/// The cookie the page's token is kept in.
const COOKIE: &str = "interview_token";
/// How long the page's ask for a new view waits before it is answered with the same one.
const LONG_POLL: Duration = Duration::from_secs(5);
/// How often a waiting ask re-reads the database.
const RECHECK: Duration = Duration::from_millis(400);
/// The `seq` of the page's last view: past any step's (each step is `2 × seq`, the wait after
/// its answer `2 × seq + 1`), and still exact as a JavaScript number.
const DONE: i64 = 1 << 50;

const LIST: &str = include_str!("list.html");

/// The page's routes anyone may ask for: its HTML, signing in and out.
pub(super) fn open_routes() -> axum::Router<App> {
    axum::Router::new()
        .route("/", get(list))
        // Anyone may post here: only what a token takes is read.
        .route("/login", post(login).layer(DefaultBodyLimit::max(4 << 10)))
        .route("/logout", post(logout))
        .route("/q/{question}/", get(question_page))
}

/// The page's routes that take a person's token (its cookie).
pub(super) fn authenticated_routes() -> axum::Router<App> {
    axum::Router::new()
        .route("/q/{question}/view", get(view))
        .route("/q/{question}/reply", post(reply))
}

/// The token in the page's cookie, if any.
pub(super) fn cookie_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value)
}

/// `html` with a fresh nonce for its script and style, under a policy that allows nothing else.
fn with_nonce(html: &str) -> Response {
    let Ok(nonce) = crate::random::hex::<16>() else {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            "No randomness for a nonce.",
        )
            .into_response();
    };
    let policy = interview_host::ui::web_wire::policy(&nonce);
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8".to_owned()),
            (header::CONTENT_SECURITY_POLICY, policy),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
            (header::REFERRER_POLICY, "no-referrer".to_owned()),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        interview_host::ui::web_wire::html(html, &nonce),
    )
        .into_response()
}

async fn list() -> Response {
    with_nonce(LIST)
}

async fn question_page() -> Response {
    with_nonce(interview_host::ui::web_wire::PAGE)
}

#[derive(Deserialize)]
struct Login {
    token: String,
}

/// Checks a person's token and keeps it in the page's cookie: `Secure` when a proxy says the
/// page came over HTTPS, so that the browser never sends it in the clear.
async fn login(State(app): State<App>, given: HeaderMap, Json(login): Json<Login>) -> Reply {
    let token = login.token.trim().to_owned();
    // Only what a cookie may hold: the token goes back in one.
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_graphic() && b != b';') {
        return Err(Refusal(
            StatusCode::BAD_REQUEST,
            "that is not a token".into(),
        ));
    }
    let person = must_be(lookup(&app, &token).await?, Kind::Person)?;
    let https = given
        .get("x-forwarded-proto")
        .is_some_and(|proto| proto.as_bytes().eq_ignore_ascii_case(b"https"));
    let secure = if https { "; Secure" } else { "" };
    let cookie =
        format!("{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=2592000{secure}");
    Ok((
        [(header::SET_COOKIE, cookie)],
        Json(json!({ "name": person.name, "groups": person.groups })),
    )
        .into_response())
}

/// Forgets the page's token: the cookie is replaced by one that has expired.
async fn logout() -> Response {
    let cookie = format!("{COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
    (
        [(header::SET_COOKIE, cookie)],
        Json(json!({ "signed_out": true })),
    )
        .into_response()
}

#[derive(Deserialize)]
struct After {
    after: Option<i64>,
}

/// The question's current view, once it differs from `after` (or after [`LONG_POLL`]), as the
/// local page's server gives it: a widget, a wait while the asker judges the answer, or done.
async fn view(
    State(app): State<App>,
    Extension(person): Extension<Holder>,
    Path(question): Path<i64>,
    Query(after): Query<After>,
) -> Reply {
    let person = must_be(person, Kind::Person)?;
    let after = after.after.unwrap_or(0);
    let started = tokio::time::Instant::now();
    loop {
        let woken = app.answered.notified();
        let who = person.clone();
        // The step waiting for an answer, in one row; where the question stands otherwise.
        let (step, progress) = blocking(&app, move |store| {
            match store.waiting_step(&who, question)? {
                Some(step) => Ok((Some(step), None)),
                None => Ok((None, store.progress(&who, question)?)),
            }
        })
        .await?;
        let view = match (step, progress) {
            (Some(step), _) => step_view(step),
            (None, None) => {
                return Err(Refusal(
                    StatusCode::NOT_FOUND,
                    format!("no question {question} for {} to answer", person.name),
                ));
            }
            (None, Some(progress)) => match progress.closed {
                Some(closed) => {
                    let ending = match closed {
                        Closed::Finished => "sent",
                        Closed::Withdrawn => "withdrawn",
                        Closed::Gone => "gone",
                        Closed::Expired => "expired",
                    };
                    json!({ "seq": DONE, "kind": "done", "ending": ending })
                }
                // Answered: the asker's plugin is judging the reply.
                None if progress.answered => {
                    json!({ "seq": 2 * progress.seq + 1, "kind": "waiting" })
                }
                // A step put up between the two reads: read again, rather than say it was
                // answered.
                None => continue,
            },
        };
        if view["seq"].as_i64() != Some(after) || started.elapsed() >= LONG_POLL {
            return Ok(Json(view).into_response());
        }
        tokio::select! {
            _ = woken => {}
            _ = tokio::time::sleep(RECHECK) => {}
        }
    }
}

/// The view of a step that waits for an answer, as the page reads it: the widget, who asks
/// (the agent's token name, and the client it runs in as the asker says) and from where.
fn step_view(step: OpenQuestion) -> Json_ {
    let mut view: Json_ = serde_json::from_str(step.view.get()).unwrap_or_default();
    view["seq"] = (2 * step.seq).into();
    view["kind"] = step.kind.into();
    let from: Json_ = serde_json::from_str(step.from.get()).unwrap_or_default();
    let client = from["client"].as_str().map(interview_text::sanitize::line);
    view["asker"] = match client {
        Some(client) if client != step.agent => format!("{} ({client})", step.agent),
        _ => step.agent,
    }
    .into();
    view["folder"] = step.folder.into();
    view["list"] = true.into();
    view
}

#[derive(Deserialize)]
struct PageReply {
    seq: i64,
    reply: Json_,
}

/// The page's `{seq, tab, reply}`: the reply to the step its view showed.
async fn reply(
    State(app): State<App>,
    ConnectInfo(address): ConnectInfo<Peer>,
    Extension(person): Extension<Holder>,
    Path(question): Path<i64>,
    Json(body): Json<PageReply>,
) -> Reply {
    let person = must_be(person, Kind::Person)?;
    if body.seq % 2 != 0 || body.seq < 2 {
        return Err(Refusal(
            StatusCode::CONFLICT,
            "That question is no longer open.".into(),
        ));
    }
    let at = Posted {
        question,
        seq: body.seq / 2,
    };
    take_answer(&app, person, at, body.reply, address).await
}
