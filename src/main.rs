//! `interview`: ask a person the questions of an agent's tool call, in a terminal, and print
//! the result JSON.

mod exit;
#[cfg(feature = "mcp")]
mod mcp;
mod people;
mod request;
mod serve;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use interview_host::json_text;
use interview_host::{ElicitEnding, Error, Given, Journal, Plugin, Session, ToolFormat};

use exit::Exit;

const AFTER_HELP: &str = "\
Exit codes:
  0    answered (check: valid; schema: printed; mcp: the client closed the connection)
  1    cancelled: the person stopped; the answers given so far are in the result
  2    invalid request, or bad usage
  3    no person available: no terminal to ask on, or no input at all
  4    the plugin could not run (component missing, corrupt, or out of its limits);
       mcp: the client never initialized, or the connection failed
  5    elicit: the person declined (the reply's action is \"decline\")
  6    the result could not be written to stdout (closed, or the disk full); stderr says why
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP); the answers given so far are in the result

Examples:
  interview ask examples/deploy.json          answer on this terminal
  echo '{\"question\": \"Name?\"}' | interview ask -    request on stdin, answers from /dev/tty
  printf '2\\n' | interview ask examples/deploy.json   answers piped in, one per line
  interview check request.json                 validate without asking
  interview elicit --server github examples/elicitation.json   answer an MCP form
  interview schema                             the tool definitions, for an agent runtime
  interview mcp --ui terminal                  an MCP server asking on this terminal
  interview mcp --tty /dev/pts/3               ... asking in another terminal (a tmux pane)";

/// Ask a person the questions of an AI agent's tool call.
///
/// The request is the JSON arguments an agent gives an "ask the user" tool: one question or a
/// batch, as free text, single choice, multiple choice, confirm or number, in the format of
/// `interview` or of Claude Code, Codex, Gemini CLI, opencode and others. The questions are
/// drawn on the terminal (stderr or /dev/tty); the result JSON goes to stdout.
#[derive(Parser)]
#[command(version, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Run this plugin component instead of the built-in one.
    #[arg(long, global = true, value_name = "FILE")]
    component: Option<PathBuf>,
    /// Compile the component every time instead of using the cache.
    #[arg(long, global = true)]
    no_cache: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Ask the questions of a request and print the result JSON.
    Ask {
        /// The request's JSON file, or - for standard input (answers then come from /dev/tty).
        request: String,
        #[command(flatten)]
        asking: Asking,
        #[command(flatten)]
        journal: Journaling,
    },
    /// Answer an MCP elicitation (`elicitation/create`, form mode) and print the reply to send
    /// back: {"action": "accept", "content": {...}}, "decline" or "cancel" (a JSON-RPC
    /// response when the request was a JSON-RPC request).
    Elicit {
        /// The request's JSON file (its params, or the whole JSON-RPC request), or - for
        /// standard input (answers then come from /dev/tty).
        request: String,
        /// Who asks: the MCP server's name, shown to the person with the message.
        #[arg(long, value_name = "NAME")]
        server: Option<String>,
        #[command(flatten)]
        reaching: Reaching,
        #[command(flatten)]
        journal: Journaling,
    },
    /// Validate a request without asking; prints how each question was understood.
    Check {
        /// The request's JSON file, or - for standard input.
        request: String,
        #[arg(long, default_value = "interview")]
        tool: String,
    },
    /// Print the tool definitions (name, description, JSON Schema of the arguments).
    Schema {
        /// The envelope: plain, openai, anthropic, mcp or gemini.
        #[arg(long, default_value = "plain", value_parser = ["plain", "openai", "anthropic", "claude", "mcp", "gemini"])]
        format: String,
    },
    /// Serve the tools over MCP (stdio) to any MCP client: `interview`, and the agents' own
    /// tools named with --tools. A call is one form in the client's own UI when it has one;
    /// calls queue for the one person; a call nobody can answer returns `unavailable` at once.
    #[cfg(feature = "mcp")]
    Mcp {
        /// Tools to offer besides `interview`, by name: the agents' own (AskUserQuestion,
        /// request_user_input, ask_user, question), and ask_question, ask_multi_select,
        /// resume_structured (`interview schema` lists them).
        #[arg(long, value_name = "NAMES", value_delimiter = ',')]
        tools: Vec<String>,
        /// Where the person is: auto asks in the client's own forms when it has them (MCP
        /// form elicitation) and nobody otherwise (the agent's own TUI owns its terminal);
        /// elicit only in the client's forms; terminal on the controlling terminal (/dev/tty);
        /// web in a browser page, one tab for every call.
        #[arg(long, value_enum, default_value = "auto")]
        ui: mcp::Reach,
        /// A terminal to ask on, by path (a tmux pane's, from `tty` run there): used when the
        /// client has no forms, or always with --ui terminal.
        #[arg(long, value_name = "PATH")]
        tty: Option<std::path::PathBuf>,
        /// With --ui web: say the page's address on stderr, but don't open a browser.
        #[cfg(feature = "web")]
        #[arg(long)]
        no_open: bool,
    },
    /// Answer requests from stdin, one JSON per line, until it closes: one result per line on
    /// stdout, the questions on the terminal. A line is a tool call's arguments, or
    /// {"tool": NAME, "arguments": {...}}, or an MCP elicitation/create request (another
    /// JSON-RPC method gets error -32601). After `quit`, later requests answer cancelled.
    Serve {
        #[command(flatten)]
        asking: Asking,
        /// Who asks in elicitations: the MCP server's name, shown to the person with the
        /// message. A line's own `server`, or `server` in its params' `_meta`, says it instead.
        #[arg(long, value_name = "NAME")]
        server: Option<String>,
        /// Each line is a workflow's state: the question is taken from the first
        /// question key present, the answer injected under the response key, and a state whose
        /// completion key is true ends the session.
        #[arg(long)]
        state: bool,
        #[arg(
            long,
            value_name = "KEYS",
            default_value = "question,prompt,message,ask,next_question"
        )]
        question_key: String,
        #[arg(long, value_name = "KEY", default_value = "response")]
        response_key: String,
        #[arg(long, value_name = "KEYS", default_value = "complete,done,finished")]
        complete_key: String,
    },
}

/// How questions are asked, for `ask` and `serve`.
#[derive(clap::Args)]
struct Asking {
    /// The tool the agent called: interview (any dialect), ask_question, ask_multi_select, ...
    #[arg(long, default_value = "interview")]
    tool: String,
    /// What a skipped text question records.
    #[arg(long, value_name = "TEXT")]
    skip_response: Option<String>,
    #[command(flatten)]
    reaching: Reaching,
}

/// Where the person answers, for `ask`, `serve` and `elicit`.
#[derive(clap::Args)]
struct Reaching {
    /// Numbered lists and one answer per line, even on a terminal that can do arrow keys.
    #[arg(long)]
    numbered: bool,
    /// Where the person answers: auto is this terminal (arrow keys, or numbered lines); web is
    /// a page in the browser, served on 127.0.0.1 at an address with a secret token.
    #[cfg(feature = "web")]
    #[arg(long, value_enum, default_value = "auto")]
    ui: PersonUi,
    /// With --ui web: say the page's address on stderr, but don't open a browser.
    #[cfg(feature = "web")]
    #[arg(long)]
    no_open: bool,
}

impl Reaching {
    /// The person, where the options say; a page that can't be served fails (exit 4).
    fn person(&self, request_on_stdin: bool) -> Result<Box<dyn people::Person>, Failure> {
        #[cfg(feature = "web")]
        if self.ui == PersonUi::Web {
            return people::web(!self.no_open).map_err(|e| (Exit::Failed, e));
        }
        Ok(people::find(request_on_stdin, self.numbered))
    }
}

/// Where the person answers.
#[cfg(feature = "web")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PersonUi {
    /// This terminal: arrow keys, or numbered lines.
    Auto,
    /// A page in the browser.
    Web,
}

/// Where the person's answers are kept while they answer, for `ask` and `elicit`.
#[derive(clap::Args)]
struct Journaling {
    /// Write each answer to FILE as it is given (flushed to disk). If the run is killed, the
    /// terminal closes or it is interrupted, the same command with the same FILE resumes
    /// after the answers given. FILE is removed once the result is written. Secrets are never
    /// written: they are asked again.
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return if error.use_stderr() {
                Exit::Invalid.into()
            } else {
                Exit::Answered.into()
            };
        }
    };
    match run(cli) {
        Ok(exit) => exit.into(),
        Err((exit, message)) => {
            let _ = writeln!(std::io::stderr().lock(), "interview: {message}");
            exit.into()
        }
    }
}

type Failure = (Exit, String);

fn run(cli: Cli) -> Result<Exit, Failure> {
    let plugin = load(&cli)?;
    match cli.command {
        Command::Schema { format } => {
            let mut session = plugin
                .session(interview_host::NoPerson)
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
            #[cfg(feature = "web")]
            no_open,
        } => {
            #[cfg(not(feature = "web"))]
            let no_open = true;
            let options = mcp::Options {
                tools,
                reach: ui,
                tty,
                open: !no_open,
            };
            mcp::run(plugin, options)?;
            Ok(Exit::Answered)
        }
        Command::Check { request, tool } => {
            let arguments = match read_request(&plugin, &request, request::unreadable) {
                Ok(arguments) => arguments,
                Err(exit) => return Ok(exit),
            };
            let mut session = plugin
                .session(interview_host::NoPerson)
                .map_err(plugin_error)?;
            let result = session.check(&tool, &arguments).map_err(plugin_error)?;
            let result: serde_json::Value =
                serde_json::from_str(&result).map_err(|e| failed(e.to_string()))?;
            print_json(&result)?;
            Ok(if result["status"] == "valid" {
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
            let state = state.then(|| serve::StateKeys {
                question: serve::keys(&question_key),
                response: response_key,
                complete: serve::keys(&complete_key),
            });
            let person = asking.reaching.person(true)?;
            let options = serve::Options {
                tool: asking.tool,
                skip_response: asking.skip_response,
                server,
                state,
            };
            Ok(serve::run(&plugin, options, person))
        }
        Command::Ask {
            request,
            asking,
            journal: Journaling { journal },
        } => {
            let arguments = match read_request(&plugin, &request, request::unreadable) {
                Ok(arguments) => arguments,
                Err(exit) => return Ok(exit),
            };
            let person = asking.reaching.person(request == "-")?;
            let Asking {
                tool,
                skip_response,
                ..
            } = asking;
            let mut session = plugin.session(person).map_err(plugin_error)?;
            session.set_skip_response(skip_response);
            if let Err(exit) = keep_journal(&mut session, journal, request::unusable_journal) {
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
            let text = match read_request(&plugin, &request, request::unreadable_elicitation) {
                Ok(text) => text,
                Err(exit) => return Ok(exit),
            };
            let person = reaching.person(request == "-")?;
            let mut session = plugin.session(person).map_err(plugin_error)?;
            if let Err(exit) = keep_journal(&mut session, journal, request::unreadable_elicitation)
            {
                return Ok(exit);
            }
            elicit(session, &text, server.as_deref())
        }
    }
}

fn load(cli: &Cli) -> Result<Plugin, Failure> {
    let mut builder = Plugin::builder();
    if let Some(path) = &cli.component {
        builder = builder.component_path(path);
    }
    if cli.no_cache {
        builder = builder.cache_dir(None);
    }
    let plugin = builder.build().map_err(plugin_error)?;
    if let interview_host::LoadKind::Rebuilt(reason) = plugin.load_kind() {
        warn(&format!(
            "the compiled plugin in the cache was not used ({reason}); it was compiled again"
        ));
    }
    Ok(plugin)
}

type PersonSession = Session<Box<dyn people::Person>>;

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
    match print_json(&reply(message)) {
        Ok(()) => Exit::Invalid,
        Err((exit, why)) => {
            warn(&why);
            exit
        }
    }
}

/// After the result was written: the journal has done its work and is removed; unless the
/// request was `cancelled` because the person was cut off (Ctrl-C, a signal, a terminal that
/// closed, input that ended), when it is kept for the same command to resume.
fn end_journal(session: &mut PersonSession, cancelled: bool) {
    let Some(journal) = session.take_journal() else {
        return;
    };
    if let Some(problem) = journal.problem() {
        warn(&format!(
            "the journal could not keep every answer: {problem}"
        ));
    }
    if cancelled && session.ui().cut_off() {
        if journal.earlier_replies() > 0 {
            warn(&format!(
                "the answers so far are kept in {}: the same command resumes from there",
                journal.path().display()
            ));
        }
    } else if let Err(error) = journal.finish() {
        warn(&error.to_string());
    }
}

fn ask(mut session: PersonSession, tool: &str, arguments: &str) -> Result<Exit, Failure> {
    people::on_signals();
    let result = match session.call(tool, arguments) {
        Ok(result) => result,
        Err(error @ Error::Journal { .. }) => {
            return Ok(refuse(&error.to_string(), request::unusable_journal));
        }
        Err(error) => return plugin_failed(error, request::failed),
    };
    warn_recovered(session.recovered_from());
    let json: serde_json::Value =
        serde_json::from_str(&result).map_err(|e| failed(e.to_string()))?;
    print_json(&json)?;
    end_journal(&mut session, json["status"] == "cancelled");
    let exit = match json["status"].as_str() {
        Some("answered") => Exit::Answered,
        Some("cancelled") if session.ui().interrupted() => Exit::Interrupted,
        Some("cancelled") => Exit::Cancelled,
        Some("unavailable") => Exit::Unavailable,
        _ => Exit::Invalid,
    };
    leave_to_exit(session);
    Ok(exit)
}

fn elicit(
    mut session: PersonSession,
    request: &str,
    server: Option<&str>,
) -> Result<Exit, Failure> {
    people::on_signals();
    let elicitation = match session.elicit(request, server) {
        Ok(elicitation) => elicitation,
        Err(error @ Error::Journal { .. }) => {
            return Ok(refuse(&error.to_string(), request::unreadable_elicitation));
        }
        Err(error) => {
            return plugin_failed(error, |failure, given| {
                request::failed_elicitation(request, failure, given)
            });
        }
    };
    warn_recovered(session.recovered_from());
    let json: serde_json::Value =
        serde_json::from_str(&elicitation.reply).map_err(|e| failed(e.to_string()))?;
    print_json(&json)?;
    end_journal(&mut session, elicitation.ending == ElicitEnding::Cancelled);
    let exit = match elicitation.ending {
        ElicitEnding::Accepted => Exit::Answered,
        ElicitEnding::Declined => Exit::Declined,
        ElicitEnding::Cancelled if session.ui().interrupted() => Exit::Interrupted,
        ElicitEnding::Cancelled => Exit::Cancelled,
        ElicitEnding::Unavailable => Exit::Unavailable,
        ElicitEnding::Invalid => Exit::Invalid,
    };
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
        Box::new(interview_host::NoPerson),
    ));
    std::mem::forget(session);
}

/// The request text from a file or standard input, within the plugin's size limit. One that
/// cannot be read is answered here, as the plugin answers an invalid one: `reply` on stdout, the
/// reason on stderr, and exit 2.
fn read_request(
    plugin: &Plugin,
    source: &str,
    reply: fn(&str) -> serde_json::Value,
) -> Result<String, Exit> {
    request::read(source, plugin.limits().request_bytes).map_err(|message| refuse(&message, reply))
}

/// Pretty for a person at a terminal, one line for a program; invisible and control
/// characters escaped. A result that cannot be written (a closed pipe, a full disk) is a
/// failure of its own: the answers did not reach the caller, and the exit code must say so.
/// The envelope `name`d on the command line (clap has checked it is one of these).
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
    let (failure, given) = request::failure(error);
    warn(&failure);
    print_json(&reply(&failure, &given))?;
    Ok(Exit::Failed)
}

/// Says on stderr that a result was saved by playing the person's replies back.
fn warn_recovered(failure: Option<&str>) {
    if let Some(failure) = failure {
        warn(&request::recovered(failure));
    }
}

fn warn(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "interview: {message}");
}

fn failed(error: impl ToString) -> Failure {
    (Exit::Failed, error.to_string())
}

/// A plugin error that ends the command, with its causes.
fn plugin_error(error: Error) -> Failure {
    (Exit::Failed, error.chain())
}
