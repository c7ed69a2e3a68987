//! Whether a command's requests go to the inboxes, and handing one over: the asking side as
//! `ask`, `elicit` and `serve` use it (`mcp` asks per client, in [`crate::mcp`]).

use std::sync::atomic::AtomicBool;

use interview_host::{Journal, Plugin};

use interview_host::ui::{Ui, UiMode};

use super::{Ask, Call, From, Reached};
use crate::reach::PersonUi;
use crate::results;
use crate::settled::Settled;

/// Requests go to the inboxes.
#[derive(Clone, Copy, Debug)]
pub struct Route {
    /// Wait for an inbox to be opened (`--ui inbox`), rather than ask here when none is.
    wait: bool,
}

impl Route {
    /// With `--ui inbox`, always (waiting for one); with `--ui auto`, when nobody can be asked
    /// where the command runs (`person` is unavailable): then an open inbox is asked.
    pub fn choose(ui: PersonUi, person: &mut dyn Ui) -> Option<Route> {
        match ui {
            PersonUi::Inbox => Some(Route { wait: true }),
            PersonUi::Auto if matches!(person.mode(), UiMode::Unavailable(_)) => {
                Some(Route { wait: false })
            }
            _ => None,
        }
    }

    /// Whether a request waits for an inbox to be opened (`--ui inbox`).
    #[cfg_attr(
        not(feature = "team-server"),
        expect(dead_code, reason = "the inbox on the team protocol asks it")
    )]
    pub fn waits(&self) -> bool {
        self.wait
    }

    /// Hands `call` to the inboxes for `command`, until an answer comes or `stop` (a signal)
    /// withdraws it. [`Reached::NoInbox`] also for a tool call the plugin finds invalid: it is
    /// answered where the command runs, as anywhere, and nobody is bothered with it.
    pub fn ask(
        &self,
        plugin: &Plugin,
        command: &str,
        call: Call,
        server: Option<String>,
        stop: &AtomicBool,
    ) -> Reached {
        if invalid(plugin, &call, server.as_deref()) {
            return Reached::NoInbox;
        }
        let ask = Ask {
            from: From::here(command, None, server),
            call,
        };
        super::ask(&ask, self.wait, stop)
    }
}

/// Whether the plugin refuses `call` as invalid: then it is answered where it was asked,
/// without an inbox.
pub fn invalid(plugin: &Plugin, call: &Call, server: Option<&str>) -> bool {
    match call {
        Call::Tool {
            tool, arguments, ..
        } => results::judged_invalid(plugin, tool, arguments).is_some(),
        Call::Elicit { request } => plugin
            .session(crate::people::nobody(
                interview_host::ui::Absence::NoTerminal,
            ))
            .and_then(|mut session| session.elicit(request, server))
            .is_ok_and(|e| e.ending == interview_host::ask::ElicitEnding::Invalid),
    }
}

/// How the request ended in an inbox; for a request withdrawn with no inbox asking it, the
/// plugin's own `cancelled` result, with the answers an inbox had kept in its journal; `None`
/// when no inbox took it.
pub fn answered(
    plugin: &Plugin,
    reached: Reached,
    call: &Call,
    server: Option<&str>,
) -> Option<Settled> {
    let journal = match reached {
        Reached::Answered(settled) => return Some(settled),
        Reached::NoInbox => return None,
        Reached::Refused(why) => {
            return Some(call.failed(&format!("the inbox refused the request: {why}"), &[]));
        }
        Reached::Withdrawn { journal } => journal,
    };
    let mut session = match plugin.session(crate::people::withdrawn()) {
        Ok(session) => session,
        Err(error) => return Some(call.failed(&error.chain(), &[])),
    };
    // Taken only when no inbox holds it: then its answers are the ones given so far.
    if let Some(journal) = journal.and_then(|path| Journal::open(path).ok()) {
        session.keep_journal(journal);
    }
    let settled = match call {
        Call::Tool {
            tool, arguments, ..
        } => Settled::of_call(session.call(tool, arguments)),
        Call::Elicit { request } => {
            Settled::of_elicitation(request, session.elicit(request, server))
        }
    };
    // The journal stays, for a retry of the request to take over.
    drop(session.take_journal());
    Some(settled)
}
