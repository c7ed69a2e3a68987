//! Whether a command's requests go to this machine's inbox: the asking side as `ask`,
//! `elicit` and `serve` choose it (`mcp` chooses per call, in [`crate::mcp`]).

use interview_host::ui::{Ui, UiMode};

use crate::reach::PersonUi;

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
}
