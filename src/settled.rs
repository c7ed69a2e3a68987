//! How a tool call ended, typed, beside the JSON its agent gets: what `interview mcp` hands on
//! from the plugin that ran it (here, or through an inbox), so that no code reads the JSON to
//! learn how it ended.

use interview_host::ask::{CallResult, Status};
use interview_host::{Error, Given};
use serde_json::Value as Json;

use crate::results;

/// A tool call's result JSON, and its status.
#[derive(Clone, Debug, PartialEq)]
pub struct Settled {
    pub status: Status,
    pub result: Json,
}

impl Settled {
    /// What `call` gave (`session.call(…)`); a plugin that failed, or a result that is not
    /// JSON, gives the `failed` result, with what the person had answered.
    pub fn of_call(result: Result<CallResult, Error>) -> Settled {
        match result.map(|result| (result.status, serde_json::from_str(&result.json))) {
            Ok((status, Ok(result))) => Settled { status, result },
            Ok((_, Err(error))) => {
                Settled::failed_call(&format!("the plugin's result is not JSON: {error}"), &[])
            }
            Err(error) => {
                let (failure, given) = results::failure(error);
                Settled::failed_call(&failure, &given)
            }
        }
    }

    /// A tool call that failed (`message` says how), after the person had answered `given`.
    pub fn failed_call(message: &str, given: &[Given]) -> Settled {
        Settled {
            status: Status::Failed,
            result: results::failed(message, given),
        }
    }

    /// The JSON the agent gets, taken.
    pub fn into_json(self) -> Json {
        self.result
    }

    /// A tool call the person answered.
    #[cfg_attr(
        not(feature = "team-server"),
        expect(dead_code, reason = "tasks are the server's")
    )]
    pub fn is_answered(&self) -> bool {
        self.status == Status::Answered
    }

    /// A tool call the plugin found invalid: its reply to an MCP client is an error.
    pub fn is_invalid(&self) -> bool {
        self.status == Status::Invalid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_a_failed_result_that_keeps_what_was_answered() {
        let failed = Settled::failed_call("the plugin trapped", &[]);
        assert_eq!(failed.status, Status::Failed);
        assert!(!failed.is_invalid() && !failed.is_answered());
        assert_eq!(failed.into_json()["status"], "failed");
    }
}
