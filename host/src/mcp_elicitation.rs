//! Answering MCP servers' forms (`elicitation/create`) by asking a person, for MCP clients
//! built on rmcp: [`PersonElicitation`] is a ready `ClientHandler`, and
//! [`PersonElicitation::answer`] serves a handler of your own.
//!
//! The form goes through the plugin as `interview elicit` does: it is checked, asked field by
//! field (with a review where the person submits, edits or declines), and the content is
//! checked against the schema before it is sent back.

use std::sync::Arc;

use rmcp::ClientHandler;
use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationCapability,
    ErrorCode, ErrorData, FormElicitationCapability, Implementation,
};
use rmcp::service::{RequestContext, RoleClient};
use serde_json::Value as Json;

use crate::ask::ElicitEnding;
use crate::session::Plugin;
use crate::ui::Ui;

/// Makes the UI that asks one form: called once per elicitation, on a blocking thread.
type PersonFactory = dyn Fn() -> Box<dyn Ui + Send> + Send + Sync;

/// An rmcp client handler that answers every form a server sends by asking a person through
/// the interview plugin, one form at a time.
///
/// ```no_run
/// use std::sync::Arc;
/// use interview_host::{PersonElicitation, Plugin};
/// use rmcp::ServiceExt;
///
/// # async fn connect(transport: impl rmcp::transport::IntoTransport<rmcp::RoleClient, std::io::Error, ()>) -> Result<(), Box<dyn std::error::Error>> {
/// let plugin = Arc::new(Plugin::load()?);
/// let client = PersonElicitation::terminal(plugin).serve(transport).await?;
/// // Tool calls made with `client` now ask the person whenever the server elicits.
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct PersonElicitation {
    plugin: Arc<Plugin>,
    person: Arc<PersonFactory>,
    /// Held while a form is asked: one form at a time for the one person.
    turn: Arc<tokio::sync::Mutex<()>>,
}

impl PersonElicitation {
    /// Asks through the UI that `person` makes for each form.
    pub fn new(
        plugin: Arc<Plugin>,
        person: impl Fn() -> Box<dyn Ui + Send> + Send + Sync + 'static,
    ) -> Self {
        PersonElicitation {
            plugin,
            person: Arc::new(person),
            turn: Arc::new(tokio::sync::Mutex::new(())),
        }
    }

    /// Asks in the terminal (`/dev/tty`) with arrow keys; with no terminal, every form is
    /// dismissed at once (action `cancel`), never a hang.
    #[cfg(feature = "terminal")]
    pub fn terminal(plugin: Arc<Plugin>) -> Self {
        PersonElicitation::new(
            plugin,
            || match crate::ui::TerminalUi::on_controlling_terminal(true) {
                Ok(ui) => Box::new(ui),
                Err(_) => Box::new(crate::ui::NoPerson(crate::ui::Absence::NoTerminal)),
            },
        )
    }

    /// The reply to `request` from the server named `server`: the person's content
    /// (`accept`), `decline` or `cancel`. A form the plugin cannot ask (URL mode, a schema it
    /// cannot read) is an invalid-params error naming the field, and nothing is asked.
    pub async fn answer(
        &self,
        request: ElicitRequestParams,
        server: Option<String>,
    ) -> Result<ElicitResult, ErrorData> {
        let request = serde_json::to_string(&request).map_err(|e| {
            ErrorData::internal_error(format!("the form does not serialize: {e}"), None)
        })?;
        let _turn = self.turn.lock().await;
        let (plugin, person) = (self.plugin.clone(), self.person.clone());
        let elicitation = tokio::task::spawn_blocking(move || {
            let mut session = plugin.session(person())?;
            session.elicit(&request, server.as_deref())
        })
        .await
        .map_err(|e| ErrorData::internal_error(format!("asking the person failed: {e}"), None))?
        .map_err(|e| ErrorData::internal_error(e.chain(), None))?;
        let reply: Json = serde_json::from_str(&elicitation.reply)
            .map_err(|e| ErrorData::internal_error(format!("the plugin's reply: {e}"), None))?;
        if elicitation.ending == ElicitEnding::Invalid {
            let error = &reply["error"];
            return Err(ErrorData::new(
                ErrorCode::INVALID_PARAMS,
                error["message"]
                    .as_str()
                    .unwrap_or("the form cannot be asked")
                    .to_string(),
                error.get("data").cloned(),
            ));
        }
        serde_json::from_value(reply)
            .map_err(|e| ErrorData::internal_error(format!("the plugin's reply: {e}"), None))
    }
}

impl ClientHandler for PersonElicitation {
    /// Declares form elicitation (not URL mode, which needs a browser, not a person at a
    /// terminal).
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation =
            Some(ElicitationCapability::default().with_form(FormElicitationCapability::new()));
        ClientConfig::new(
            capabilities,
            Implementation::new("interview", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let server = context
            .peer
            .peer_info()
            .and_then(|info| info.server_info.as_ref().map(|s| s.name.clone()));
        self.answer(request, server).await
    }
}
