//! `interview`: ask a person the questions of an agent's tool call, in a terminal, and print
//! the result JSON.

mod cli;
#[cfg(feature = "team")]
mod clock;
mod inbox;
mod input;
#[cfg(feature = "mcp")]
mod mcp;
mod people;
#[cfg(feature = "team")]
mod random;
mod reach;
mod results;
mod serve;
#[cfg(feature = "mcp")]
mod settled;
mod spans;
mod stderr;
#[cfg(feature = "team-server")]
mod store_error;
#[cfg(feature = "team")]
mod team;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use interview_host::ask::{ElicitEnding, Status, ToolFormat};
use interview_host::ui::{StopReason, Ui};
use interview_host::{Error, Given, Journal, Plugin, Session};
use interview_text::json as json_text;

use cli::{Asking, Cli, Command, Journaling, Parsed, Reaching};
use interview_host::Exit;

impl Reaching {
    /// The person, where the options say; a page that can't be served fails (exit 4). From
    /// here on Ctrl-C, SIGTERM and SIGHUP stop the person's UI, which the plugin then ends
    /// with the answers given so far: taken before anything waits for them.
    fn person(&self, request_on_stdin: bool) -> Result<Box<dyn Ui>, Failure> {
        #[cfg(feature = "web")]
        if self.ui == reach::PersonUi::Web {
            let person = people::web(!self.no_open, self.open_timeout);
            people::on_signals();
            return person.map_err(|e| (Exit::Failed, e.to_string()));
        }
        let person = people::find(request_on_stdin, self.numbered);
        people::on_signals();
        Ok(person)
    }
}

/// Where `route` says so, the person of `call` is this machine's inbox (`interview inbox`):
/// the plugin runs here, with the inbox as its person. With none open (and the call not
/// waiting for one), nobody is here either (that is why an inbox was asked): `person` becomes
/// that, so that the model is told no inbox was open.
fn through_inbox(
    route: Option<inbox::Route>,
    call: inbox::Call,
    server: Option<String>,
    person: &mut Box<dyn Ui>,
) {
    let Some(route) = route else {
        return;
    };
    #[cfg(feature = "team-server")]
    {
        let command = match call {
            inbox::Call::Tool { .. } => "ask",
            inbox::Call::Elicit { .. } => "elicit",
        };
        let stop = people::stop_on_signals();
        if let Some(team) = team::own::asker(route.waits(), &stop, &stop) {
            *person = Box::new(team.ui_for(command, call, None, server));
            return;
        }
    }
    let _ = (route, call, server);
    *person = crate::people::nobody(interview_host::ui::Absence::NoInbox);
}

/// The team inbox of `--inbox`, and its token; a missing token fails (exit 4) before anything
/// is asked.
#[cfg(feature = "team")]
fn team_inbox(team: cli::TeamInbox) -> Result<team::remote::Team, Failure> {
    let deadline = team.deadline_ms.map(|after_ms| team::Deadline {
        after_ms,
        escalate_to: team.escalate_to,
    });
    team::remote::Team::new(team.url, team.to, deadline, people::stop_on_signals())
        .map_err(|e| (Exit::Failed, e.to_string()))
}

/// This machine's inbox, for `interview mcp`'s calls: a build with the team server has one.
#[cfg(all(feature = "team", feature = "mcp"))]
fn own_inbox() -> Option<mcp::OwnInbox> {
    #[cfg(feature = "team-server")]
    {
        // One flag for the process's signals, which every call's question is withdrawn by:
        // taken at the first call, so that until then a signal ends the process as it would.
        let signals = std::sync::OnceLock::new();
        let found = move |wait: bool, stop: &std::sync::Arc<std::sync::atomic::AtomicBool>| {
            let signals = signals.get_or_init(people::stop_on_signals);
            let team = team::own::asker(wait, stop, signals)?;
            Some(std::sync::Arc::new(team) as std::sync::Arc<dyn mcp::TeamRoute>)
        };
        Some(std::sync::Arc::new(found))
    }
    #[cfg(not(feature = "team-server"))]
    None
}

fn main() -> ExitCode {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    if cli::is_team_server_command(&args) {
        return team_server(args);
    }
    let cli = match cli::parse(args) {
        Ok(Parsed::Run(cli)) => {
            // The built-in plugin is made ready on its epoch thread while this one reads the
            // request and finds the person.
            if cli.component.is_none() && !cli.perf_map {
                Plugin::preload();
            }
            *cli
        }
        Ok(Parsed::Print(text)) => {
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            return Exit::Answered.into();
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr().lock(), "interview: {error}");
            return Exit::Invalid.into();
        }
    };
    let reply = failure_reply(&cli.command);
    match run(cli) {
        Ok(exit) => exit.into(),
        Err((exit, message)) => {
            let _ = writeln!(std::io::stderr().lock(), "interview: {message}");
            match reply {
                Some(reply) if exit == Exit::Failed => answer(&reply(&message), exit).into(),
                _ => exit.into(),
            }
        }
    }
}

/// `interview inbox serve|token|hook|audit`: the team inbox's server and its administration.
#[cfg(feature = "team-server")]
fn team_server(args: Vec<std::ffi::OsString>) -> ExitCode {
    match team::admin::run(args) {
        Ok(()) => Exit::Answered.into(),
        Err((code, message)) => {
            let _ = writeln!(std::io::stderr().lock(), "interview: {message}");
            ExitCode::from(code)
        }
    }
}

/// Without the server, its commands say how to get a build that has it (exit 2).
#[cfg(not(feature = "team-server"))]
fn team_server(args: Vec<std::ffi::OsString>) -> ExitCode {
    let command = args[1].to_string_lossy();
    let _ = writeln!(
        std::io::stderr().lock(),
        "interview: `interview inbox {command}` is the team inbox's server, which this build leaves \
         out (it only asks through one, with --inbox URL). Build it with the team-server feature: \
         cargo install --path . --features team-server"
    );
    Exit::Invalid.into()
}

type FailureReply = Box<dyn FnOnce(&str) -> serde_json::Value>;

/// How a command answers when the plugin cannot run at all (a component that does not load,
/// or does not start): a caller that reads stdout gets a `failed` result, not silence. `mcp`
/// gets none: a line on its stdout that is not JSON-RPC would break the client's connection.
fn failure_reply(command: &Command) -> Option<FailureReply> {
    match command {
        #[cfg(feature = "mcp")]
        Command::Mcp { .. } => None,
        // The inbox answers nobody on stdout: its askers get their results over its socket.
        Command::Inbox { .. } => None,
        Command::Elicit { request, .. } => {
            let source = request.clone();
            Some(Box::new(move |message| {
                // Read here to answer with the request's id: the plugin failed before it read it.
                let limit = interview_host::Limits::default().request_bytes();
                let text = input::read(&source, limit).unwrap_or_default();
                results::failed_elicitation(&text, message, &[])
            }))
        }
        _ => Some(Box::new(|message| results::failed(message, &[]))),
    }
}

type Failure = (Exit, String);

fn run(cli: Cli) -> Result<Exit, Failure> {
    let Cli {
        command,
        component,
        no_cache,
        perf_map,
    } = cli;
    let loading = Loading {
        component,
        no_cache,
        perf_map,
    };
    match command {
        Command::Schema { format } => {
            let plugin = loading.load()?;
            let mut session = plugin
                .session(crate::people::nobody(
                    interview_host::ui::Absence::NoTerminal,
                ))
                .map_err(plugin_error)?;
            let definitions = session
                .definitions_as(tool_format(&format))
                .map_err(plugin_error)?;
            let definitions = serde_json::from_str(&definitions)
                .map_err(|e| failed(format!("the plugin's definitions are not JSON: {e}")))?;
            print_json(&definitions)?;
            Ok(Exit::Answered)
        }
        #[cfg(feature = "mcp")]
        Command::Mcp {
            tools,
            ui,
            tty,
            team,
            #[cfg(feature = "web")]
            no_open,
            #[cfg(feature = "web")]
            open_timeout,
        } => {
            let plugin = loading.load()?;
            #[cfg(feature = "team")]
            let team = (team.map(team_inbox).transpose()?)
                .map(|team| std::sync::Arc::new(team) as std::sync::Arc<dyn mcp::TeamRoute>);
            #[cfg(not(feature = "team"))]
            let _ = team;
            let options = mcp::Options {
                tools,
                reach: ui,
                tty,
                #[cfg(feature = "team")]
                team,
                #[cfg(feature = "team")]
                own: own_inbox(),
                #[cfg(feature = "web")]
                open: !no_open,
                #[cfg(feature = "web")]
                open_timeout,
            };
            mcp::run(plugin, options)?;
            Ok(Exit::Answered)
        }
        #[cfg(feature = "team")]
        Command::Inbox {
            numbered,
            team: Some(url),
            ..
        } => team::answering::run(
            team::answering::Inbox::Team { url: &url },
            team::answering::Desktop::Terminal { numbered },
            &loading.load()?,
        ),
        #[cfg(feature = "team-server")]
        Command::Inbox {
            numbered,
            #[cfg(feature = "web")]
            web,
            ..
        } => team::own::inbox(
            loading.load()?,
            &team::own::Asking {
                numbered,
                #[cfg(feature = "web")]
                web,
            },
        ),
        #[cfg(not(feature = "team-server"))]
        Command::Inbox { .. } => Err((
            Exit::Invalid,
            "`interview inbox` is this machine's inbox, served by the team inbox's server, which \
             this build leaves out: build it with the `team-server` feature (the default)"
                .into(),
        )),
        Command::Check { request, tool } => {
            let arguments = match read_request(&request, results::unreadable) {
                Ok(arguments) => arguments,
                Err(exit) => return Ok(exit),
            };
            let plugin = loading.load()?;
            let mut session = plugin
                .session(crate::people::nobody(
                    interview_host::ui::Absence::NoTerminal,
                ))
                .map_err(plugin_error)?;
            let checked = session.check(&tool, &arguments).map_err(plugin_error)?;
            let result: serde_json::Value =
                serde_json::from_str(&checked.json).map_err(|e| failed(e.to_string()))?;
            print_json(&result)?;
            Ok(if checked.valid {
                Exit::Answered
            } else {
                Exit::Invalid
            })
        }
        Command::Serve {
            asking,
            server,
            state,
            question_key,
            response_key,
            complete_key,
        } => {
            let plugin = loading.load()?;
            let state = state.then(|| serve::StateKeys {
                question: serve::keys(&question_key),
                response: response_key,
                complete: serve::keys(&complete_key),
            });
            // A plugin that cannot start would fail every line alike: said once, as when the
            // component does not load.
            plugin
                .session(crate::people::nobody(
                    interview_host::ui::Absence::NoTerminal,
                ))
                .map_err(plugin_error)?;
            // With --inbox each request has a person of its own, there.
            let through_team = asking.team.is_some();
            #[cfg(feature = "team")]
            let mut asking = asking;
            #[cfg(feature = "team")]
            let team = asking.team.take().map(team_inbox).transpose()?;
            let mut person: Box<dyn Ui> = if through_team {
                crate::people::nobody(interview_host::ui::Absence::NoInbox)
            } else {
                asking.reaching.person(true)?
            };
            let inbox = match through_team {
                true => None,
                false => inbox::Route::choose(asking.reaching.ui, &mut person),
            };
            let options = serve::Options {
                tool: asking.tool,
                skip_response: asking.skip_response,
                server,
                state,
                inbox: inbox.map(serve::Inboxed::new),
                #[cfg(feature = "team")]
                team,
            };
            Ok(serve::run(&plugin, options, person))
        }
        Command::Ask {
            request,
            mut asking,
            journal: Journaling { journal },
        } => {
            let arguments = match read_request(&request, results::unreadable) {
                Ok(arguments) => arguments,
                Err(exit) => return Ok(exit),
            };
            let call = inbox::Call::Tool {
                tool: asking.tool.clone(),
                arguments: arguments.clone(),
                skip_response: asking.skip_response.clone(),
            };
            // The request is read and its person found before the plugin is waited for.
            let plugin;
            let person = match asking.team.take() {
                #[cfg(feature = "team")]
                Some(team) => {
                    let person = Box::new(team_inbox(team)?.ui_for("ask", call, None, None));
                    plugin = loading.load()?;
                    person
                }
                #[cfg(not(feature = "team"))]
                Some(_) => unreachable!("--inbox is an option of builds with the team feature"),
                None => {
                    let mut person = asking.reaching.person(request == "-")?;
                    let route = inbox::Route::choose(asking.reaching.ui, &mut person);
                    plugin = loading.load()?;
                    through_inbox(route, call, None, &mut person);
                    person
                }
            };
            let Asking {
                tool,
                skip_response,
                ..
            } = asking;
            let mut session = plugin.session(person).map_err(plugin_error)?;
            session.set_skip_response(skip_response);
            if let Err(exit) = keep_journal(&mut session, journal, results::unusable_journal) {
                return Ok(exit);
            }
            ask(session, &tool, &arguments)
        }
        Command::Elicit {
            request,
            server,
            reaching,
            journal: Journaling { journal },
        } => {
            let text = match read_request(&request, results::unreadable_elicitation) {
                Ok(text) => text,
                Err(exit) => return Ok(exit),
            };
            let mut person = reaching.person(request == "-")?;
            let call = inbox::Call::Elicit {
                request: text.clone(),
            };
            let route = inbox::Route::choose(reaching.ui, &mut person);
            // A plugin that cannot start is answered here, with the request read: from stdin
            // it can't be read again for the id to answer under.
            let failed = |(exit, message): Failure| {
                warn(&message);
                Ok(answer(
                    &results::failed_elicitation(&text, &message, &[]),
                    exit,
                ))
            };
            let plugin = match loading.load() {
                Ok(plugin) => plugin,
                Err(failure) => return failed(failure),
            };
            through_inbox(route, call, server.clone(), &mut person);
            let mut session = match plugin.session(person) {
                Ok(session) => session,
                Err(error) => return failed(plugin_error(error)),
            };
            if let Err(exit) = keep_journal(&mut session, journal, results::unreadable_elicitation)
            {
                return Ok(exit);
            }
            elicit(session, &text, server.as_deref())
        }
    }
}

/// How the plugin is made ready (`--component`, `--no-cache`, `--perf-map`): each command
/// loads it where it needs it, after reading what it can without it, since the built-in plugin
/// is being made on its own thread meanwhile (see `main`).
struct Loading {
    component: Option<PathBuf>,
    no_cache: bool,
    perf_map: bool,
}

impl Loading {
    fn load(&self) -> Result<Plugin, Failure> {
        let mut builder = Plugin::builder();
        if let Some(path) = &self.component {
            builder = builder.component_path(path);
        }
        if self.no_cache {
            builder = builder.cache_dir(None);
        }
        let plugin = builder
            .perf_map(self.perf_map)
            .build()
            .map_err(plugin_error)?;
        if let interview_host::LoadKind::Rebuilt(reason) = plugin.load_kind() {
            warn(&format!(
                "the compiled plugin in the cache was not used ({reason}); it was compiled again"
            ));
        }
        Ok(plugin)
    }
}

type PersonSession = Session<Box<dyn Ui>>;

/// Opens `--journal`, for the session to keep the person's replies in. One that cannot be used
/// is answered as an invalid request would be (`reply` on stdout, the reason on stderr, exit 2),
/// before anything is asked.
fn keep_journal(
    session: &mut PersonSession,
    path: Option<PathBuf>,
    reply: fn(&str) -> serde_json::Value,
) -> Result<(), Exit> {
    let Some(path) = path else {
        return Ok(());
    };
    match Journal::open(path) {
        Ok(journal) => {
            session.keep_journal(journal);
            Ok(())
        }
        Err(error) => Err(refuse(&error.to_string(), reply)),
    }
}

/// Says `message` on stderr and `reply(message)` on stdout: exit 2.
fn refuse(message: &str, reply: fn(&str) -> serde_json::Value) -> Exit {
    warn(message);
    answer(&reply(message), Exit::Invalid)
}

/// Prints `reply`, the whole answer of a run that ends with `exit`; exit 6 instead when it
/// cannot be written, since then nobody got it.
fn answer(reply: &serde_json::Value, exit: Exit) -> Exit {
    match print_json(reply) {
        Ok(()) => exit,
        Err((exit, why)) => {
            warn(&why);
            exit
        }
    }
}

/// How a request that kept a journal ended, for what becomes of the journal.
#[derive(Clone, Copy, PartialEq)]
enum Ending {
    /// Answered, declined, refused or left by the person (Esc): a decision, the journal is
    /// removed.
    Decided,
    /// Cancelled by the person being cut off (Ctrl-C, a signal, a terminal that closed,
    /// input that ended).
    CutOff,
    /// Nobody could be asked: not a decision either.
    Unreached,
}

impl Ending {
    fn of(status: Status, session: &PersonSession) -> Ending {
        match status {
            Status::Cancelled if session.ui().stop_reason().is_some_and(StopReason::cut_off) => {
                Ending::CutOff
            }
            Status::Unavailable => Ending::Unreached,
            // Not a decision: the journal is kept, to resume from.
            Status::Failed => Ending::CutOff,
            _ => Ending::Decided,
        }
    }
}

/// After the result was written: the journal has done its work and is removed, unless the
/// person was cut off or could not be reached; then it is kept, with the answers so far, for
/// the same command to resume from.
fn end_journal(session: &mut PersonSession, ending: Ending) {
    let Some(journal) = session.take_journal() else {
        return;
    };
    if let Some(problem) = journal.problem() {
        warn(&format!(
            "the journal could not keep every answer: {problem}"
        ));
    }
    // Not counted: in the line mode the journal holds lines, which are not answers one for one.
    if ending != Ending::Decided && journal.earlier_replies() > 0 {
        let (why, again) = match ending {
            Ending::Unreached => ("nobody could be asked here", " where a person can answer"),
            _ => ("the request was cut off", ""),
        };
        warn(&format!(
            "{why}; what was answered so far is kept in {}: the same command{again} resumes \
             from there",
            journal.path().display()
        ));
    } else if let Err(error) = journal.finish() {
        warn(&error.to_string());
    }
}

fn ask(mut session: PersonSession, tool: &str, arguments: &str) -> Result<Exit, Failure> {
    let result = match session.call(tool, arguments) {
        Ok(result) => result,
        Err(error @ Error::Journal { .. }) => {
            return Ok(refuse(&error.to_string(), results::unusable_journal));
        }
        Err(error) => return plugin_failed(error, results::failed),
    };
    warn_recovered(session.recovered_from());
    let json: serde_json::Value =
        serde_json::from_str(&result.json).map_err(|e| failed(e.to_string()))?;
    print_json(&json)?;
    let ending = Ending::of(result.status, &session);
    end_journal(&mut session, ending);
    let exit = Exit::of(
        result.status,
        session.ui().stop_reason() == Some(StopReason::Interrupted),
    );
    leave_to_exit(session);
    Ok(exit)
}

fn elicit(
    mut session: PersonSession,
    request: &str,
    server: Option<&str>,
) -> Result<Exit, Failure> {
    let elicitation = match session.elicit(request, server) {
        Ok(elicitation) => elicitation,
        Err(error @ Error::Journal { .. }) => {
            return Ok(refuse(&error.to_string(), results::unreadable_elicitation));
        }
        Err(error) => {
            return plugin_failed(error, |failure, given| {
                results::failed_elicitation(request, failure, given)
            });
        }
    };
    warn_recovered(session.recovered_from());
    let json: serde_json::Value =
        serde_json::from_str(&elicitation.reply).map_err(|e| failed(e.to_string()))?;
    print_json(&json)?;
    let ending = match elicitation.ending {
        ElicitEnding::Cancelled if session.ui().stop_reason().is_some_and(StopReason::cut_off) => {
            Ending::CutOff
        }
        ElicitEnding::Unavailable => Ending::Unreached,
        // Not a decision: the journal is kept, as when the plugin fails in a call.
        ElicitEnding::Failed => Ending::CutOff,
        _ => Ending::Decided,
    };
    end_journal(&mut session, ending);
    let exit = Exit::of_elicitation(
        elicitation.ending,
        session.ui().stop_reason() == Some(StopReason::Interrupted),
    );
    leave_to_exit(session);
    Ok(exit)
}

/// Ends a session whose result is written, just before the process exits. The person's UI is
/// dropped now: its terminal gets its mode back, its page its last view. The plugin's store is
/// left to the exit, which frees its memory reservation and code in one go, sooner than
/// dropping them one by one would.
fn leave_to_exit(mut session: PersonSession) {
    drop(std::mem::replace(
        session.ui_mut(),
        crate::people::nobody(interview_host::ui::Absence::NoTerminal),
    ));
    std::mem::forget(session);
}

/// The request at `source` (a file, or `-`), within the size limit of the command's plugins (the
/// default limits), read before the plugin is, which is being made meanwhile (see `main`). One
/// that cannot be read is answered here, as the plugin answers an invalid one: `reply` on
/// stdout, the reason on stderr, and exit 2.
fn read_request(source: &str, reply: fn(&str) -> serde_json::Value) -> Result<String, Exit> {
    input::read(source, interview_host::Limits::default().request_bytes())
        .map_err(|error| refuse(&error.to_string(), reply))
}

/// Pretty for a person at a terminal, one line for a program; invisible and control
/// characters escaped. A result that cannot be written (a closed pipe, a full disk) is a
/// failure of its own: the answers did not reach the caller, and the exit code must say so.
/// The envelope `name`d on the command line (the parse has checked it is one of these).
fn tool_format(name: &str) -> ToolFormat {
    match name {
        "openai" => ToolFormat::Openai,
        "anthropic" | "claude" => ToolFormat::Anthropic,
        "mcp" => ToolFormat::Mcp,
        "gemini" => ToolFormat::Gemini,
        _ => ToolFormat::Plain,
    }
}

fn print_json(value: &serde_json::Value) -> Result<(), Failure> {
    let text = json_text::to_string(value, std::io::stdout().is_terminal());
    // Not println!: it panics when stdout is gone (a closed pipe, a terminal that hung up).
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{text}")
        .and_then(|()| stdout.flush())
        .map_err(|e| {
            (
                Exit::Unwritten,
                format!("cannot write the result to stdout: {e}"),
            )
        })
}

/// A plugin that failed during a request: the reply made by `reply` from the failure and what
/// the person gave goes to stdout, so that nothing they answered is lost; exit 4.
fn plugin_failed(
    error: Error,
    reply: impl FnOnce(&str, &[Given]) -> serde_json::Value,
) -> Result<Exit, Failure> {
    if !matches!(error, Error::Trap { .. }) {
        return Err(plugin_error(error));
    }
    let (failure, given) = results::failure(error);
    warn(&failure);
    print_json(&reply(&failure, &given))?;
    Ok(Exit::Failed)
}

/// Says on stderr that a result was saved by playing the person's replies back.
fn warn_recovered(failure: Option<&str>) {
    if let Some(failure) = failure {
        warn(&results::recovered(failure));
    }
}

fn warn(message: &str) {
    stderr::warn(message);
}

fn failed(error: impl ToString) -> Failure {
    (Exit::Failed, error.to_string())
}

/// A plugin error that ends the command, with its causes.
fn plugin_error(error: Error) -> Failure {
    (Exit::Failed, error.chain())
}
