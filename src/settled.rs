//! How a request ended, typed, beside the JSON its agent gets: what the command hands on from
//! the plugin that ran it, here or in an inbox (across the inbox's socket too), so that no
//! code reads the JSON to learn how it ended, and its exit code comes from the type.

use interview_host::ask::{CallResult, ElicitEnding, Elicitation, Status};
use interview_host::{Error, Exit, Given};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::results;

/// A request's end: a tool call's result, or an elicitation's reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Settled {
    /// A tool call's result JSON, and its status.
    Call { status: Status, result: Json },
    /// The reply to send to an MCP server (its `ElicitResult`, or a JSON-RPC response holding
    /// it), and how the form ended.
    Elicit { ending: ElicitEnding, reply: Json },
}

impl Settled {
    /// What `call` gave (`session.call(…)`); a plugin that failed, or a result that is not
    /// JSON, gives the `failed` result, with what the person had answered.
    pub fn of_call(result: Result<CallResult, Error>) -> Settled {
        match result.map(|result| (result.status, serde_json::from_str(&result.json))) {
            Ok((status, Ok(result))) => Settled::Call { status, result },
            Ok((_, Err(error))) => {
                Settled::failed_call(&format!("the plugin's result is not JSON: {error}"), &[])
            }
            Err(error) => {
                let (failure, given) = results::failure(error);
                Settled::failed_call(&failure, &given)
            }
        }
    }

    /// What `elicit` gave for `request` (`session.elicit(…)`); a plugin that failed gives the
    /// `cancel` of a failed elicitation, with what the person had answered.
    pub fn of_elicitation(request: &str, result: Result<Elicitation, Error>) -> Settled {
        match result.map(|e| (e.ending, serde_json::from_str(&e.reply))) {
            Ok((ending, Ok(reply))) => Settled::Elicit { ending, reply },
            Ok((_, Err(error))) => Settled::failed_elicitation(
                request,
                &format!("the plugin's reply is not JSON: {error}"),
                &[],
            ),
            Err(error) => {
                let (failure, given) = results::failure(error);
                Settled::failed_elicitation(request, &failure, &given)
            }
        }
    }

    /// A tool call that failed (`message` says how), after the person had answered `given`.
    pub fn failed_call(message: &str, given: &[Given]) -> Settled {
        Settled::Call {
            status: Status::Failed,
            result: results::failed(message, given),
        }
    }

    /// An elicitation of `request` that failed (`message` says how), after the person had
    /// answered `given`.
    pub fn failed_elicitation(request: &str, message: &str, given: &[Given]) -> Settled {
        Settled::Elicit {
            ending: ElicitEnding::Failed,
            reply: results::failed_elicitation(request, message, given),
        }
    }

    /// The result of an inbox of an earlier version, which sent the JSON alone: read as that
    /// version wrote it (a tool call's `status`; an elicitation reply's `action`, or a
    /// JSON-RPC error). Only for such an inbox, left open across an upgrade.
    pub fn of_earlier_inbox(elicitation: bool, json: Json) -> Settled {
        if elicitation {
            let reply = json.get("result").unwrap_or(&json);
            let ending = match reply["action"].as_str() {
                _ if json.get("error").is_some() => ElicitEnding::Invalid,
                Some("accept") => ElicitEnding::Accepted,
                Some("decline") => ElicitEnding::Declined,
                Some("cancel") => ElicitEnding::Cancelled,
                _ => ElicitEnding::Failed,
            };
            return Settled::Elicit {
                ending,
                reply: json,
            };
        }
        let status = match json["status"].as_str() {
            Some("answered") => Status::Answered,
            Some("cancelled") => Status::Cancelled,
            Some("unavailable") => Status::Unavailable,
            Some("invalid") => Status::Invalid,
            _ => Status::Failed,
        };
        Settled::Call {
            status,
            result: json,
        }
    }

    /// The JSON the agent (or the MCP server) gets.
    pub fn json(&self) -> &Json {
        match self {
            Settled::Call { result, .. } => result,
            Settled::Elicit { reply, .. } => reply,
        }
    }

    /// The JSON the agent (or the MCP server) gets, taken.
    pub fn into_json(self) -> Json {
        match self {
            Settled::Call { result, .. } => result,
            Settled::Elicit { reply, .. } => reply,
        }
    }

    /// The exit code it ends a command with; a cancel is `Interrupted` when a signal cut the
    /// person off.
    pub fn exit(&self, interrupted: bool) -> Exit {
        match self {
            Settled::Call { status, .. } => Exit::of(*status, interrupted),
            Settled::Elicit { ending, .. } => Exit::of_elicitation(*ending, interrupted),
        }
    }

    /// A tool call the person answered.
    #[cfg_attr(
        not(feature = "team-server"),
        expect(dead_code, reason = "tasks are the server's")
    )]
    pub fn is_answered(&self) -> bool {
        matches!(
            self,
            Settled::Call {
                status: Status::Answered,
                ..
            }
        )
    }

    /// A tool call the plugin found invalid: its reply to an MCP client is an error.
    #[cfg_attr(
        not(feature = "mcp"),
        expect(dead_code, reason = "MCP replies read it")
    )]
    pub fn is_invalid(&self) -> bool {
        matches!(
            self,
            Settled::Call {
                status: Status::Invalid,
                ..
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn how_a_request_ended_crosses_a_process_typed_and_gives_its_exit() {
        let answered = Settled::Call {
            status: Status::Cancelled,
            result: json!({"status": "cancelled", "answers": []}),
        };
        let line = serde_json::to_string(&answered).unwrap();
        assert_eq!(serde_json::from_str::<Settled>(&line).unwrap(), answered);
        assert_eq!(answered.exit(false), Exit::Cancelled);
        assert_eq!(answered.exit(true), Exit::Interrupted);
        let declined = Settled::Elicit {
            ending: ElicitEnding::Declined,
            reply: json!({"action": "decline"}),
        };
        assert_eq!(declined.exit(true), Exit::Declined);
        assert!(!declined.is_invalid() && !declined.is_answered());
    }

    #[test]
    fn an_earlier_inbox_result_is_read_as_that_version_wrote_it() {
        let read = |elicitation, json| Settled::of_earlier_inbox(elicitation, json).exit(false);
        assert_eq!(read(false, json!({"status": "answered"})), Exit::Answered);
        assert_eq!(read(false, json!({"status": "invalid"})), Exit::Invalid);
        assert_eq!(read(false, json!({"status": "failed"})), Exit::Failed);
        assert_eq!(read(true, json!({"action": "accept"})), Exit::Answered);
        let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"action": "decline"}});
        assert_eq!(read(true, response), Exit::Declined);
        let error = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602}});
        assert_eq!(read(true, error), Exit::Invalid);
    }

    #[test]
    fn a_failure_keeps_the_kind_of_what_failed() {
        let failed = Settled::failed_elicitation("{}", "the plugin trapped", &[]);
        assert!(matches!(
            failed,
            Settled::Elicit {
                ending: ElicitEnding::Failed,
                ..
            }
        ));
        assert_eq!(failed.json()["action"], "cancel");
        let failed = Settled::failed_call("the plugin trapped", &[]);
        assert_eq!(failed.exit(false), Exit::Failed);
        assert_eq!(failed.json()["status"], "failed");
    }
}
