//! A tool call asked in the MCP client's own form UI: the plugin builds one form for the
//! call (`Session::form`), the client shows it, and the reply goes back through the plugin
//! (`Session::answer_form`), which judges it as it judges a terminal's answers; an answer it
//! refuses is asked again in a new form that says why.
//!
//! The form reaches the client the way its protocol revision allows: as an `elicitation/create`
//! request of the server's own up to 2025-11-25, and from 2026-07-28 (no server-to-client
//! requests) as an `InputRequiredResult` that the client answers by calling the tool again with
//! `inputResponses`. The plugin's two calls are stateless, so either way needs no state here.

use std::sync::Arc;
use std::time::{Duration, Instant};

use interview_host::Plugin;
use interview_host::ask::FormStep;

use interview_host::ui::{Absence, NoPerson};
use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, InputRequest,
    InputRequests, InputRequiredResult, InputResponses,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value as Json, json};

use super::clients::Profile;
use crate::settled::Settled;

/// The key of the form among a call's input requests and responses.
const FORM: &str = "form";

/// How many times a form is sent again after a refused answer before the call ends as
/// cancelled: as many rounds as the SDKs' clients drive by default.
const MOST_FORMS: usize = 10;

/// Less than the time a person needs to see a form and decide against it. A decline or cancel
/// that comes back sooner is the client's own (headless runs, `claude -p` and `codex exec`,
/// answer every form at once), not a decision of the person's. A headless client's own
/// dismissal takes some 60 ms, but over 700 ms on a cold start on a loaded machine; a wrong
/// call the other way would tell the model the person cancelled when nobody saw the form,
/// while a person who dismisses a form within two seconds is only asked again elsewhere.
const READING_TIME: Duration = Duration::from_secs(2);

/// Whether the client shows forms: it declared elicitation, in form mode (an empty
/// `elicitation` capability is form mode, from before URL mode existed).
pub fn offered(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .and_then(|capabilities| capabilities.elicitation)
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none())
}

/// Whether the call's protocol revision forbids server-to-client requests, so that a form
/// travels in the call's result instead.
pub fn stateless(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| !version.has_initialize())
}

/// One tool call.
pub struct Call<'a> {
    pub plugin: &'a Arc<Plugin>,
    pub name: &'a str,
    pub arguments: &'a str,
    /// What the client's forms can show.
    pub profile: Profile,
}

/// What asking in forms came to.
pub enum Asked {
    /// How the call ended.
    Done(Settled),
    /// The form to send in the call's result (2026-07-28 and later).
    Again(InputRequiredResult),
    /// The call can't be asked in this client's forms (it asks for a secret, or a form the
    /// client can't show): reach the person otherwise.
    Unfit,
    /// The client dismissed the first form sooner than a person could read it, as a client
    /// that cannot show one does (`claude -p`): reach the person otherwise.
    Dismissed,
}

/// One round of a call under a stateless revision: the form when the call carries no reply
/// yet, else the plugin's judgement of the reply, which may be the form again. The first form
/// carries the time it was sent as the round's state, which the client echoes with its reply:
/// a first form dismissed sooner than a person could read it was the client's doing (`claude
/// -p` cancels at once), as in [`ask`].
pub async fn round(
    call: &Call<'_>,
    responses: Option<&InputResponses>,
    state: Option<&str>,
) -> Asked {
    let reply = responses.and_then(|r| r.get(FORM));
    if let (Some(reply), Some(sent)) = (reply, state.and_then(first_form_sent)) {
        let dismissed = reply.get("action").and_then(Json::as_str) != Some("accept");
        if dismissed && since_epoch().saturating_sub(sent) < READING_TIME {
            return Asked::Dismissed;
        }
    }
    let first = reply.is_none();
    match plugin_step(call, reply.map(Json::to_string)).await {
        Step::Form(params) if !call.profile.shows(&params) => Asked::Unfit,
        Step::Form(params) => match elicit_params(call.profile.fit(params)) {
            Ok(params) => {
                let request = InputRequest::Elicitation(ElicitRequest::new(params));
                let requests = InputRequests::from([(FORM.to_string(), request)]);
                let state = first.then(|| format!("{FIRST_FORM}{}", since_epoch().as_millis()));
                Asked::Again(InputRequiredResult::new(Some(requests), state))
            }
            Err(failed) => Asked::Done(failed),
        },
        Step::Unfit => Asked::Unfit,
        Step::Done(result) => Asked::Done(result),
    }
}

/// The round state of a first form: this, then when it was sent, in milliseconds since the
/// epoch.
const FIRST_FORM: &str = "first-form-sent-at:";

/// When the first form was sent, from the state the client echoed.
fn first_form_sent(state: &str) -> Option<Duration> {
    let millis = state.strip_prefix(FIRST_FORM)?.parse().ok()?;
    Some(Duration::from_millis(millis))
}

fn since_epoch() -> Duration {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
}

/// A whole call under a revision with server-to-client requests: `elicitation/create` until
/// the plugin takes the reply. A cancelled call, or a client that fails to show the form,
/// ends the call as cancelled. A first form dismissed sooner than a person could read it was
/// never shown to one ([`Asked::Dismissed`]). (Under a stateless revision the form
/// travels in a result and comes back in a new call, so there is no such clock.)
pub async fn ask(call: &Call<'_>, context: &RequestContext<RoleServer>) -> Asked {
    let mut step = plugin_step(call, None).await;
    for round in 0..MOST_FORMS {
        let params = match step {
            Step::Form(params) if call.profile.shows(&params) => call.profile.fit(params),
            Step::Form(_) => return Asked::Unfit,
            Step::Unfit => return Asked::Unfit,
            Step::Done(result) => return Asked::Done(result),
        };
        let params = match elicit_params(params) {
            Ok(params) => params,
            Err(failed) => return Asked::Done(failed),
        };
        let sent = Instant::now();
        let reply = tokio::select! {
            reply = context.peer.create_elicitation(params) => reply,
            () = context.ct.cancelled() => return Asked::Done(dismissed(call).await),
        };
        let reply = match reply {
            Ok(reply) => reply,
            Err(e) => {
                let failed = format!("the client did not show the form: {e}");
                return Asked::Done(Settled::failed_call(&failed, &[]));
            }
        };
        if round == 0 && reply.action != ElicitationAction::Accept && sent.elapsed() < READING_TIME
        {
            return Asked::Dismissed;
        }
        step = plugin_step(call, Some(reply_json(&reply))).await;
    }
    Asked::Done(dismissed(call).await)
}

/// What the plugin made of the call (and of the client's reply, when there is one).
enum Step {
    Form(Json),
    Unfit,
    Done(Settled),
}

async fn plugin_step(call: &Call<'_>, reply: Option<String>) -> Step {
    let plugin = call.plugin.clone();
    let (name, arguments) = (call.name.to_string(), call.arguments.to_string());
    let joined = tokio::task::spawn_blocking(move || {
        let mut session = plugin.session(NoPerson(Absence::NoTerminal))?;
        match reply {
            None => session.form(&name, &arguments),
            Some(reply) => session.answer_form(&name, &arguments, &reply),
        }
    })
    .await;
    match joined {
        Ok(Ok(FormStep::Form(form))) => match serde_json::from_str(&form.params) {
            Ok(params) => Step::Form(params),
            Err(error) => Step::Done(Settled::failed_call(
                &format!("the plugin's form is not JSON: {error}"),
                &[],
            )),
        },
        Ok(Ok(FormStep::Unfit(_))) => Step::Unfit,
        Ok(Ok(FormStep::Done(result))) => Step::Done(super::result_of(Ok(Ok(result)))),
        Ok(Err(error)) => Step::Done(super::result_of(Ok(Err(error)))),
        Err(panic) => Step::Done(super::result_of(Err(panic))),
    }
}

/// The call's result when the form was withdrawn or never taken: cancelled, as the plugin
/// words it.
async fn dismissed(call: &Call<'_>) -> Settled {
    let reply = json!({ "action": "cancel" }).to_string();
    match plugin_step(call, Some(reply)).await {
        Step::Done(result) => result,
        Step::Form(_) | Step::Unfit => {
            Settled::failed_call("the plugin asked again after a cancel", &[])
        }
    }
}

/// The plugin's form as the SDK sends it; one it can't send is a defect of the plugin, said
/// as a `failed` result.
fn elicit_params(params: Json) -> Result<ElicitRequestParams, Settled> {
    serde_json::from_value(params).map_err(|error| {
        Settled::failed_call(&format!("the plugin's form does not fit MCP: {error}"), &[])
    })
}

/// The client's reply as the plugin reads it: `{action, content}`.
fn reply_json(reply: &ElicitResult) -> String {
    let action = match reply.action {
        ElicitationAction::Accept => "accept",
        ElicitationAction::Decline => "decline",
        _ => "cancel",
    };
    json!({ "action": action, "content": reply.content }).to_string()
}
