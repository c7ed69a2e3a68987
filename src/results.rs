//! The results the command writes when the plugin gives none: a request that cannot be read, a
//! journal that cannot be used, a plugin that failed. The built-in plugin words them
//! ([`interview_host::host_results`]), as it words every other result, so that an agent parses
//! them alike and stdout is never empty.

use interview_host::host_results;
use interview_host::{Error, Given};
use serde_json::Value as Json;

/// The `invalid` result of a tool call whose request could not be read.
pub fn unreadable(message: &str) -> Json {
    parsed(&host_results::unreadable("", message).json)
}

/// The `invalid` result of a tool call whose `--journal` cannot be used: nothing was asked.
pub fn unusable_journal(message: &str) -> Json {
    parsed(&host_results::unreadable("--journal", message).json)
}

/// A result the plugin wrote, as JSON.
fn parsed(text: &str) -> Json {
    serde_json::from_str(text).unwrap_or_else(|_| Json::String(text.to_owned()))
}

/// A plugin error in one line for a person or an agent (without the wasm backtrace), and what
/// the person had given before it: nothing, for an error outside a call.
pub fn failure(error: Error) -> (String, Vec<Given>) {
    let summary = error.summary();
    match error {
        Error::Trap { given, .. } => (summary, given),
        _ => (summary, Vec::new()),
    }
}

/// A call's result JSON, or what failed: the plugin, or a result that is not JSON.
pub fn read_result(result: Result<String, Error>) -> Result<Json, (String, Vec<Given>)> {
    let text = result.map_err(failure)?;
    serde_json::from_str(&text).map_err(|error| {
        let failure = format!("the plugin's result is not JSON: {error}");
        (failure, Vec::new())
    })
}

/// What stderr says when replaying the person's replies saved a result (`failure` is
/// [`interview_host::Session::recovered_from`]).
pub fn recovered(failure: &str) -> String {
    format!(
        "the plugin failed after the answers were given ({}); they were played back into a \
         fresh instance with larger limits",
        failure
    )
}

/// The result of a tool call the plugin failed: status `failed`, what the person had given
/// (so that the agent does not ask again), and the failure. Never an empty stdout.
pub fn failed(message: &str, given: &[Given]) -> Json {
    parsed(&host_results::failed(message, given).json)
}

/// The reply to an elicitation the plugin failed: `cancel`, as the server must not take
/// unchecked content for accepted, with what the person gave under `_meta`; a JSON-RPC
/// response when the request was a JSON-RPC request with an id.
pub fn failed_elicitation(request: &str, message: &str, given: &[Given]) -> Json {
    parsed(&host_results::failed_elicitation(request, message, given).reply)
}

/// The reply to an MCP elicitation whose request could not be read: a JSON-RPC parse error.
pub fn unreadable_elicitation(message: &str) -> Json {
    parsed(&host_results::unreadable_elicitation(message).reply)
}
