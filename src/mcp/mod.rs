//! `interview mcp`: the plugin as an MCP server over stdio, on rmcp (the official Rust SDK).
//!
//! The tools and their input schemas are the component's own (`definitions-as(mcp)`), and a
//! call goes through the same plugin and session as `interview ask`: the server adds no second
//! reading of requests. A result is the plugin's result JSON as `structuredContent`, with its
//! `text` as the text content; an invalid request is a tool error whose text names the place
//! at fault, so that the model can correct itself.
//!
//! Where the person is: when the client declared form elicitation (and `--ui` is `auto` or
//! `elicit`), a call is asked as one form in the client's own UI (see [`forms`]); otherwise
//! on the terminal when `--ui terminal` says so; otherwise nobody, and the result is
//! `unavailable` at once.
//!
//! Calls queue for the one person; each gets its own result. While a call waits for the person,
//! a call that carries a `progressToken` gets a progress notification every few seconds, so
//! that clients that time out tool calls (and restart the clock on progress) keep waiting. A
//! client's `notifications/cancelled` withdraws the question: the terminal is given back and
//! the call ends `cancelled` with what was answered.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use interview_host::Plugin;

use interview_host::ask::ToolFormat;

use interview_host::ui::{Absence, NoPerson, TerminalUi, Ui};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    Implementation, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::Value as Json;

#[cfg(feature = "team")]
use crate::inbox;
use crate::people;
use crate::reach::Reach;
use crate::settled::Settled;
use interview_host::Exit;

pub mod calls;
mod clients;
mod forms;
mod lines;
#[cfg(feature = "team")]
mod route_error;
#[cfg(feature = "team-server")]
mod tasks;
mod tools_error;
mod transport;

#[cfg(feature = "team")]
pub use route_error::RouteError;
pub use tools_error::ToolsError;

/// The one page every call is asked in, under `--ui web`, and the flag that withdraws its
/// question.
#[cfg(feature = "web")]
#[derive(Clone)]
struct Page {
    ui: Arc<std::sync::Mutex<interview_host::ui::WebUi>>,
    stop: Arc<AtomicBool>,
}

/// What `interview mcp` serves, from its command line.
pub struct Options {
    /// Tools offered besides `interview`, by the names the plugin defines (`ask_question`, …).
    pub tools: Vec<String>,
    pub reach: Reach,
    /// The terminal the person chose (`--tty`): asked on when the client has no forms, or
    /// always under `--ui terminal`.
    pub tty: Option<std::path::PathBuf>,
    /// `--inbox URL`: every call is asked through the team inbox there.
    #[cfg(feature = "team")]
    pub team: Option<Arc<dyn TeamRoute>>,
    /// This machine's inbox, found for each call that goes to it.
    #[cfg(feature = "team")]
    pub own: Option<OwnInbox>,
    /// Under `--ui web`: open the browser when a call needs the page.
    #[cfg(feature = "web")]
    pub open: bool,
    /// Under `--ui web`: how long a call waits for the page to be opened.
    #[cfg(feature = "web")]
    pub open_timeout: Duration,
}

/// Serves MCP on stdin and stdout until the client closes the connection. A tool that
/// `--tools` names but the plugin lacks is bad usage (exit 2); a plugin or connection that
/// fails, exit 4.
pub fn run(plugin: Plugin, options: Options) -> Result<(), (Exit, String)> {
    let failed = |message: String| (Exit::Failed, message);
    let tools = tools_of(&plugin, &options.tools).map_err(|e| (e.exit(), e.to_string()))?;
    if let Some(path) = &options.tty {
        TerminalUi::on_device(path, false)
            .map_err(|e| (Exit::Invalid, format!("--tty {}: {e}", path.display())))?;
    }
    #[cfg(feature = "web")]
    let page = if options.reach == Reach::Web {
        let mut ui = (people::page(options.open, options.open_timeout))
            .map_err(|e| failed(e.to_string()))?;
        ui.stays_for_more(true);
        let stop = ui.stop_flag();
        Some(Page {
            ui: Arc::new(std::sync::Mutex::new(ui)),
            stop,
        })
    } else {
        None
    };
    let limit = plugin.limits().request_bytes();
    let server = Server {
        plugin: Arc::new(plugin),
        tools: Arc::new(tools),
        reach: options.reach,
        tty: options.tty.map(Arc::new),
        #[cfg(feature = "web")]
        page,
        #[cfg(feature = "team")]
        team: options.team,
        #[cfg(feature = "team")]
        own: options.own,
        #[cfg(feature = "team-server")]
        tasks: None,
        person: Arc::new(tokio::sync::Mutex::new(())),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| failed(format!("cannot start the MCP server: {e}")))?;
    let served = runtime.block_on(async move {
        let stdio = transport::stdio(limit)
            .map_err(|e| failed(format!("cannot start the MCP server: {e}")))?;
        let service = server
            .serve(stdio)
            .await
            .map_err(|e| failed(format!("the MCP client did not initialize: {e}")))?;
        service
            .waiting()
            .await
            .map_err(|e| failed(format!("the MCP connection failed: {e}")))?;
        Ok(())
    });
    // The client is gone: what it still waited for is withdrawn, not left in an inbox (the
    // runtime waits for those calls' threads as it ends).
    calls::withdraw_all(WITHDRAWING);
    served
}

/// The tools offered: the plugin's `interview`, and those `wanted` (`--tools`). A tool the
/// plugin lacks is bad usage (exit 2); a plugin that cannot list them, exit 4.
fn tools_of(plugin: &Plugin, wanted: &[String]) -> Result<Vec<Tool>, ToolsError> {
    let listed = plugin
        .session(NoPerson(Absence::NoTerminal))
        .and_then(|mut session| session.definitions_as(ToolFormat::Mcp))
        .map_err(ToolsError::Plugin)?;
    offered_tools(&listed, wanted)
}

/// The MCP server of a team inbox's own endpoint: the tools `wanted` (`--tools`), every call
/// asked through `route`, as a task where the client asks for one; its tasks' calls are
/// withdrawn when `stopping` is cancelled.
#[cfg(feature = "team-server")]
pub fn for_team(
    plugin: Arc<Plugin>,
    wanted: &[String],
    route: Arc<dyn TeamRoute>,
    stopping: tokio_util::sync::CancellationToken,
) -> Result<Server, ToolsError> {
    let tools = tools_of(&plugin, wanted)?;
    Ok(Server {
        plugin,
        tools: Arc::new(tools),
        reach: Reach::Auto,
        tty: None,
        #[cfg(feature = "web")]
        page: None,
        team: Some(route),
        own: None,
        tasks: Some(Arc::new(tasks::Tasks::new(stopping))),
        person: Arc::new(tokio::sync::Mutex::new(())),
    })
}

/// This machine's inbox, found for one call: the way to it, waiting for
/// one to be opened (`true`) until the flag is set; `None` when there is none.
#[cfg(feature = "team")]
pub type OwnInbox = Arc<dyn Fn(bool, &Arc<AtomicBool>) -> Option<Arc<dyn TeamRoute>> + Send + Sync>;

/// How calls are asked through a team inbox: from this process over HTTP (`--inbox URL`), or
/// by the team inbox's server itself, for the calls it takes at its `/mcp`.
#[cfg(feature = "team")]
pub trait TeamRoute: Send + Sync {
    /// The UI that asks `call` for `client` (the name people know it by), in the MCP request
    /// whose `extensions` are given (over HTTP, they hold its `http::request::Parts`); an
    /// `Err` says why it cannot be asked, and the call fails with it.
    /// It stops when `stop` is set (the client cancelled the call).
    fn ui(
        &self,
        call: inbox::Call,
        client: Option<String>,
        extensions: &rmcp::model::Extensions,
        stop: Arc<AtomicBool>,
    ) -> Result<Box<dyn Ui + Send>, RouteError>;

    /// Whose the request with these `extensions` is (an agent's name), for a task to be only
    /// its agent's; `None` where there is one client only.
    #[cfg(feature = "team-server")]
    fn caller(&self, _extensions: &rmcp::model::Extensions) -> Option<String> {
        None
    }

    /// Whether the request with these `extensions` may be given a task, for a client that
    /// takes them (the endpoint's URL says so).
    #[cfg(feature = "team-server")]
    fn takes_tasks(&self, _extensions: &rmcp::model::Extensions) -> bool {
        false
    }
}

/// The tools of the plugin's `tools/list` named in `wanted`, and `interview` always first.
fn offered_tools(listed: &str, wanted: &[String]) -> Result<Vec<Tool>, ToolsError> {
    #[derive(serde::Deserialize)]
    struct Listed {
        tools: Vec<Tool>,
    }
    let listed: Listed = serde_json::from_str(listed).map_err(ToolsError::Unreadable)?;
    let known: Vec<&str> = listed.tools.iter().map(|t| t.name.as_ref()).collect();
    if let Some(unknown) = wanted.iter().find(|w| !known.contains(&w.as_str())) {
        return Err(ToolsError::NoSuchTool {
            wanted: unknown.clone(),
            known: known.iter().map(|&name| name.to_owned()).collect(),
        });
    }
    Ok(listed
        .tools
        .into_iter()
        .filter(|t| t.name == "interview" || wanted.iter().any(|w| *w == t.name))
        .collect())
}

/// An MCP server of the plugin's tools, for one client (over stdio) or one session (over
/// HTTP).
#[derive(Clone)]
pub struct Server {
    plugin: Arc<Plugin>,
    tools: Arc<Vec<Tool>>,
    reach: Reach,
    tty: Option<Arc<std::path::PathBuf>>,
    #[cfg(feature = "web")]
    page: Option<Page>,
    /// The team inbox every call is asked through (`--inbox`, or the server's own `/mcp`).
    #[cfg(feature = "team")]
    team: Option<Arc<dyn TeamRoute>>,
    /// This machine's inbox (see [`OwnInbox`]).
    #[cfg(feature = "team")]
    own: Option<OwnInbox>,
    /// The calls run as tasks (the team inbox's own endpoint only).
    #[cfg(feature = "team-server")]
    tasks: Option<Arc<tasks::Tasks>>,
    /// Held while a call asks the person: calls queue for them, one at a time.
    person: Arc<tokio::sync::Mutex<()>>,
}

impl Server {
    /// Whether this call is asked in the client's forms.
    fn in_forms(&self, context: &RequestContext<RoleServer>) -> bool {
        matches!(self.reach, Reach::Auto | Reach::Elicit) && forms::offered(context)
    }

    /// Where the person is asked, for the client to show while a call waits (Claude Code shows
    /// a progress message under the call): someone looking at the agent learns where to answer.
    fn where_asked(&self) -> String {
        #[cfg(feature = "web")]
        if let Some(page) = &self.page {
            let ui = page.ui.lock().unwrap_or_else(|e| e.into_inner());
            return format!("Waiting for you at {}", ui.url());
        }
        match (&self.tty, self.reach) {
            (Some(path), Reach::Auto | Reach::Terminal) => {
                format!("Waiting for you in the terminal {}", path.display())
            }
            (None, Reach::Terminal) => "Waiting for you in the terminal".into(),
            _ => "Waiting for the person to answer".into(),
        }
    }

    /// The person's UI for one call, and the flag that withdraws its question; with nobody to
    /// ask, why, for the model: `dismissed` when the client dismissed its form at once.
    fn person(&self, dismissed: bool) -> (Box<dyn Ui + Send>, Option<Arc<AtomicBool>>) {
        let nobody = NoPerson(match self.reach {
            // Asked first, and none was open.
            Reach::Auto => Absence::NoInbox,
            _ if dismissed => Absence::FormDismissed,
            _ => Absence::NoTerminal,
        });
        #[cfg(feature = "web")]
        if let Some(page) = &self.page {
            return (Box::new(page.ui.clone()), Some(page.stop.clone()));
        }
        let colour = people::colour(true);
        let terminal = match (&self.tty, self.reach) {
            (Some(path), Reach::Auto | Reach::Terminal) => TerminalUi::on_device(&**path, colour),
            (None, Reach::Terminal) => TerminalUi::on_controlling_terminal(colour),
            (_, _) => return (Box::new(nobody), None),
        };
        match terminal {
            Ok(ui) => {
                let stop = ui.stop_flag();
                (Box::new(ui), Some(stop))
            }
            Err(_) => (Box::new(nobody), None),
        }
    }

    /// Runs one tool call through the plugin, off the async threads; a cancelled request
    /// withdraws the question and still returns what the person had answered.
    async fn ask(
        &self,
        name: String,
        arguments: String,
        dismissed: bool,
        context: &RequestContext<RoleServer>,
    ) -> Settled {
        let _heartbeat = Heartbeat::start(context, self.where_asked());
        let _turn = self.person.lock().await;
        let (ui, stop) = self.person(dismissed);
        self.run_call(ui, stop, name, arguments, context.ct.cancelled())
            .await
    }

    /// Asks one tool call through the team inbox: its own question there, withdrawn when the
    /// client cancels the call. Calls do not queue: a team has many people. A client that
    /// takes tasks is given one at once, where this server runs them.
    #[cfg(feature = "team")]
    async fn in_team(
        &self,
        team: &Arc<dyn TeamRoute>,
        name: String,
        arguments: String,
        context: &RequestContext<RoleServer>,
        client: Option<String>,
        waiting: &str,
    ) -> CallToolResponse {
        let call = inbox::Call::Tool {
            tool: name.clone(),
            arguments: arguments.clone(),
            skip_response: None,
        };
        let stop = Arc::new(AtomicBool::new(false));
        calls::keep(&stop);
        let ui = match team.ui(call, client, &context.extensions, stop.clone()) {
            Ok(ui) => ui,
            Err(why) => return reply_of(Settled::failed_call(&why.to_string(), &[])).into(),
        };
        #[cfg(feature = "team-server")]
        if let Some(tasks) = &self.tasks
            && team.takes_tasks(&context.extensions)
            && context
                .client_capabilities()
                .is_some_and(|c| c.supports_tasks())
        {
            let (server, owner) = (self.clone(), team.caller(&context.extensions));
            let started = tasks.start(owner, waiting, move |cancel| async move {
                let withdrawn = cancel.cancelled();
                server
                    .run_call(ui, Some(stop), name, arguments, withdrawn)
                    .await
            });
            return match started {
                Ok(task) => rmcp::model::CreateTaskResult::new(task).into(),
                Err(why) => reply_of(Settled::failed_call(&why.to_string(), &[])).into(),
            };
        }
        let _heartbeat = Heartbeat::start(context, waiting.into());
        let asked = self.run_call(ui, Some(stop), name, arguments, context.ct.cancelled());
        reply_of(asked.await).into()
    }

    /// This machine's inbox, when calls go to it: with `--ui inbox` once
    /// one is open (the client's cancel gives up waiting), with `--ui auto` if one is open now.
    #[cfg(feature = "team")]
    async fn own_inbox(&self, context: &RequestContext<RoleServer>) -> Option<Arc<dyn TeamRoute>> {
        let own = self.own.clone()?;
        let wait = match self.reach {
            Reach::Inbox => true,
            Reach::Auto => false,
            _ => return None,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let given_up = stop.clone();
        let finding = tokio::task::spawn_blocking(move || own(wait, &stop));
        tokio::pin!(finding);
        let found = tokio::select! {
            found = &mut finding => found,
            () = context.ct.cancelled() => {
                given_up.store(true, Ordering::SeqCst);
                finding.await
            }
        };
        found.ok().flatten()
    }

    /// Runs one tool call with `ui`, off the async threads; once `withdrawn` (the client
    /// cancelled the call) it sets `stop`, which withdraws the question, and still returns what
    /// the person had answered.
    async fn run_call(
        &self,
        ui: Box<dyn Ui + Send>,
        stop: Option<Arc<AtomicBool>>,
        name: String,
        arguments: String,
        withdrawn: impl std::future::Future<Output = ()>,
    ) -> Settled {
        let plugin = self.plugin.clone();
        let stopped = stop.clone();
        let call = tokio::task::spawn_blocking(move || {
            let mut session = plugin.session(ui)?;
            let result = session.call(&name, &arguments);
            // The session's UI may still have work that the agent need not wait for (a team
            // inbox's question taken off its list): it is dropped beside the reply, not before.
            // A call its client withdrew has its question withdrawn before it ends, as the
            // client was told.
            if stopped.is_some_and(|stop| stop.load(Ordering::SeqCst)) {
                drop(session);
            } else {
                tokio::task::spawn_blocking(move || drop(session));
            }
            result
        });
        tokio::pin!(call);
        let joined = tokio::select! {
            joined = &mut call => joined,
            () = withdrawn => {
                if let Some(stop) = &stop {
                    stop.store(true, Ordering::SeqCst);
                }
                call.await
            }
        };
        result_of(joined)
    }
}

/// How a plugin call run on a blocking thread ended: the plugin's result, or a `failed`
/// result saying what went wrong, with what the person had given.
fn result_of(
    joined: Result<
        Result<interview_host::ask::CallResult, interview_host::Error>,
        tokio::task::JoinError,
    >,
) -> Settled {
    match joined {
        Ok(result) => Settled::of_call(result),
        Err(e) => Settled::failed_call(&format!("the call panicked: {e}"), &[]),
    }
}

/// How long the calls still waiting in an inbox are given to withdraw as the server ends: a
/// little more than an inbox asker takes (2 s, and a look at its flag).
const WITHDRAWING: Duration = Duration::from_secs(3);

/// What a call asked through a team inbox says while it waits.
#[cfg(feature = "team")]
const TEAM: &str = "Waiting for the team inbox";
/// What a call asked through this machine's inbox says while it waits.
#[cfg(feature = "team")]
const OWN: &str = "Waiting for you in `interview inbox`";

/// How often a waiting call says it is still waiting.
const HEARTBEAT: Duration = Duration::from_secs(5);

/// Progress notifications for one call, every [`HEARTBEAT`], until dropped; none when the
/// call carries no progress token.
struct Heartbeat(Option<tokio::task::JoinHandle<()>>);

impl Heartbeat {
    fn start(context: &RequestContext<RoleServer>, message: String) -> Heartbeat {
        let Some(token) = context.meta.get_progress_token() else {
            return Heartbeat(None);
        };
        let peer = context.peer.clone();
        Heartbeat(Some(tokio::spawn(async move {
            let mut beats = tokio::time::interval(HEARTBEAT);
            beats.tick().await;
            for beat in 1u32.. {
                beats.tick().await;
                let mut progress = ProgressNotificationParam::new(token.clone(), f64::from(beat));
                progress.message = Some(message.clone());
                if peer.notify_progress(progress).await.is_err() {
                    break;
                }
            }
        })))
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        if let Some(task) = &self.0 {
            task.abort();
        }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        // Named as the command, not as the MCP library it is built on: clients show this name.
        let info = Implementation::new("interview", env!("CARGO_PKG_VERSION"))
            .with_title("interview: ask a person");
        let capabilities = ServerCapabilities::builder().enable_tools();
        #[cfg(feature = "team-server")]
        if self.tasks.is_some() {
            return ServerConfig::new(capabilities.enable_tasks().build()).with_server_info(info);
        }
        ServerConfig::new(capabilities.build()).with_server_info(info)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !self.tools.iter().any(|t| t.name == request.name) {
            return Err(ErrorData::invalid_params(
                format!("there is no tool {:?}", request.name),
                None,
            ));
        }
        let arguments = Json::Object(request.arguments.unwrap_or_default()).to_string();
        let name = request.name.to_string();
        #[cfg(feature = "team")]
        if let Some(team) = &self.team {
            let client = clients::name_and_version(&context);
            return Ok((self.in_team(team, name, arguments, &context, client, TEAM)).await);
        }
        #[cfg(feature = "team")]
        if let Some(own) = self.own_inbox(&context).await {
            let client = clients::name(&context);
            return Ok((self.in_team(&own, name, arguments, &context, client, OWN)).await);
        }
        let asked = if self.in_forms(&context) {
            let call = forms::Call {
                plugin: &self.plugin,
                name: &name,
                arguments: &arguments,
                profile: clients::Profile::of(&context),
            };
            if forms::stateless(&context) {
                forms::round(
                    &call,
                    request.input_responses.as_ref(),
                    request.request_state.as_deref(),
                )
                .await
            } else {
                let _heartbeat = Heartbeat::start(&context, "Waiting for you in the form".into());
                let _turn = self.person.lock().await;
                forms::ask(&call, &context).await
            }
        } else {
            forms::Asked::Unfit
        };
        let result = match asked {
            forms::Asked::Done(result) => result,
            forms::Asked::Again(input_required) => return Ok(input_required.into()),
            forms::Asked::Unfit => self.ask(name, arguments, false, &context).await,
            forms::Asked::Dismissed => self.ask(name, arguments, true, &context).await,
        };
        Ok(reply_of(result).into())
    }

    #[cfg(feature = "team-server")]
    async fn get_task(
        &self,
        request: rmcp::model::GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetTaskResult, ErrorData> {
        let (tasks, owner) = self.tasks_of(&context)?;
        let task = tasks.get(owner.as_deref(), &request.task_id)?;
        Ok(rmcp::model::GetTaskResult::new(task))
    }

    /// There is nothing to deliver: these tasks never wait on their client.
    #[cfg(feature = "team-server")]
    async fn update_task(
        &self,
        request: rmcp::model::UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let (tasks, owner) = self.tasks_of(&context)?;
        tasks.known(owner.as_deref(), &request.task_id)
    }

    #[cfg(feature = "team-server")]
    async fn cancel_task(
        &self,
        request: rmcp::model::CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let (tasks, owner) = self.tasks_of(&context)?;
        tasks.cancel(owner.as_deref(), &request.task_id)
    }
}

#[cfg(feature = "team-server")]
impl Server {
    /// This server's tasks, and whose the request with `context` is.
    fn tasks_of(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<(&tasks::Tasks, Option<String>), ErrorData> {
        let tasks = (self.tasks.as_deref())
            .ok_or_else(ErrorData::method_not_found::<rmcp::model::GetTaskMethod>)?;
        let owner = (self.team.as_ref()).and_then(|team| team.caller(&context.extensions));
        Ok((tasks, owner))
    }
}

/// The reply to a tool call that ended so: its text for the model, the result as structured
/// content, an error when the request was invalid.
fn reply_of(settled: Settled) -> CallToolResult {
    let invalid = settled.is_invalid();
    let result = settled.into_json();
    let text = result["text"].as_str().unwrap_or_default().to_string();
    let mut reply = if invalid {
        CallToolResult::error(vec![ContentBlock::text(text)])
    } else {
        CallToolResult::success(vec![ContentBlock::text(text)])
    };
    reply.structured_content = Some(result);
    reply
}
