//! The command line: what each command takes, its help, and the parse into [`Cli`].
//!
//! Arguments are split by lexopt and checked against one table of options per command, which
//! also writes the help, so that an option, its default and its help cannot drift apart. (clap
//! built its whole tree of commands, arguments and help strings at every start: a twentieth
//! of a warm `interview ask`; ripgrep left clap for lexopt for the same reason.)

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::PathBuf;

use crate::reach::PersonUi;
#[cfg(feature = "mcp")]
use crate::reach::Reach;
use crate::spans::{DEADLINES_MS, span_ms};

/// What to run, and with which component.
pub struct Cli {
    pub command: Command,
    /// `--component`: a plugin to run instead of the built-in one.
    pub component: Option<PathBuf>,
    /// `--no-cache`: compile the component every time.
    pub no_cache: bool,
    /// `--perf-map`: name the plugin's compiled functions for Linux `perf`.
    pub perf_map: bool,
}

/// A command and its options.
pub enum Command {
    Ask {
        request: String,
        asking: Asking,
        journal: Journaling,
    },
    Elicit {
        request: String,
        server: Option<String>,
        reaching: Reaching,
        journal: Journaling,
    },
    Check {
        request: String,
        tool: String,
    },
    Schema {
        format: String,
    },
    #[cfg(feature = "mcp")]
    Mcp {
        tools: Vec<String>,
        ui: Reach,
        tty: Option<PathBuf>,
        /// `--inbox URL`: every call asked through the team inbox there.
        team: Option<TeamInbox>,
        #[cfg(feature = "web")]
        no_open: bool,
        #[cfg(feature = "web")]
        open_timeout: std::time::Duration,
    },
    /// `interview inbox`: answer every agent's questions in this terminal.
    Inbox {
        #[cfg_attr(
            not(feature = "team"),
            expect(dead_code, reason = "a build without the team inbox has no inbox")
        )]
        numbered: bool,
        /// `--team URL`: answer that team inbox's questions in this terminal instead.
        #[cfg(feature = "team")]
        team: Option<String>,
        /// `--web`: whether to open the browser (`--no-open` says no).
        #[cfg(feature = "web")]
        #[cfg_attr(
            not(feature = "team-server"),
            expect(dead_code, reason = "only this machine's inbox has a page")
        )]
        web: Option<bool>,
    },
    Serve {
        asking: Asking,
        server: Option<String>,
        state: bool,
        question_key: String,
        response_key: String,
        complete_key: String,
    },
}

/// How questions are asked, for `ask` and `serve`.
pub struct Asking {
    pub tool: String,
    pub skip_response: Option<String>,
    pub reaching: Reaching,
    /// `--inbox URL`: ask through the team inbox there instead.
    pub team: Option<TeamInbox>,
}

/// The team inbox a request is asked through (`--inbox`, `--to`, `--deadline`,
/// `--escalate-to`).
// Without the team feature `--inbox` is not offered, so none is ever made, and nothing reads it.
#[cfg_attr(not(feature = "team"), allow(dead_code))]
pub struct TeamInbox {
    pub url: String,
    pub to: Option<String>,
    /// How long each question waits for a person, in ms.
    pub deadline_ms: Option<i64>,
    /// Whom a question goes to when nobody answered by its deadline.
    pub escalate_to: Option<String>,
}

/// Where the person answers, for `ask`, `serve` and `elicit`.
pub struct Reaching {
    pub numbered: bool,
    pub ui: PersonUi,
    #[cfg(feature = "web")]
    pub no_open: bool,
    #[cfg(feature = "web")]
    pub open_timeout: std::time::Duration,
}

/// Where the person's answers are kept while they answer, for `ask` and `elicit`.
pub struct Journaling {
    pub journal: Option<PathBuf>,
}

/// What the command line asks for.
pub enum Parsed {
    Run(Box<Cli>),
    /// Help or the version, for stdout (exit 0).
    Print(String),
}

/// Bad usage: what is wrong, and the usage line of the command it concerns (exit 2).
#[derive(Debug)]
pub struct UsageError {
    pub message: String,
    pub usage: String,
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}\n\nUsage: {}\n\nFor more information, try '--help'.",
            self.message, self.usage
        )
    }
}

/// One option of a command.
struct Opt {
    name: &'static str,
    /// The value's name in the help, for an option that takes one.
    value: Option<&'static str>,
    help: &'static str,
    default: Option<&'static str>,
    /// The values it accepts, with what each means; empty when any is accepted.
    choices: &'static [(&'static str, &'static str)],
    /// Whether it may be given more than once, each a comma-separated list.
    list: bool,
}

const fn flag(name: &'static str, help: &'static str) -> Opt {
    Opt {
        name,
        value: None,
        help,
        default: None,
        choices: &[],
        list: false,
    }
}

const fn valued(name: &'static str, value: &'static str, help: &'static str) -> Opt {
    Opt {
        name,
        value: Some(value),
        help,
        default: None,
        choices: &[],
        list: false,
    }
}

const fn defaulted(
    name: &'static str,
    value: &'static str,
    help: &'static str,
    default: &'static str,
) -> Opt {
    Opt {
        default: Some(default),
        ..valued(name, value, help)
    }
}

/// The options every command takes, wherever they stand on the line.
const GLOBAL: &[Opt] = &[
    valued(
        "component",
        "FILE",
        "Run this plugin component instead of the built-in one (compiles it: a build with \
         the compile feature).",
    ),
    flag(
        "no-cache",
        "Compile the --component every time instead of keeping it in the cache.",
    ),
    flag(
        "perf-map",
        "Name the plugin's compiled functions for Linux perf, in /tmp/perf-<pid>.map \
         (compiles the component afresh: a build with the compile feature).",
    ),
];

/// `--tool`, of `ask`, `serve` and `check`.
const TOOL: Opt = defaulted(
    "tool",
    "TOOL",
    "The tool the agent called: interview (any dialect), ask_question, ask_multi_select, ...",
    "interview",
);

/// `--no-open`, of every command that can ask in the browser.
#[cfg(feature = "web")]
const NO_OPEN: Opt = flag(
    "no-open",
    "With --ui web: say the page's address on stderr, but don't open a browser.",
);

/// `--open-timeout`, of every command that can ask in the browser.
#[cfg(feature = "web")]
const OPEN_TIMEOUT: Opt = defaulted(
    "open-timeout",
    "SECONDS",
    "With --ui web: how long a request waits for its page to be opened before it is answered \
     unavailable (exit 3); once the page is open, the person takes as long as they need. \
     INTERVIEW_OPEN_TIMEOUT sets it too; the option wins.",
    "90",
);

const ASKING: &[Opt] = &[
    TOOL,
    valued(
        "skip-response",
        "TEXT",
        "What a skipped text question records.",
    ),
];

const REACHING: &[Opt] = &[
    flag(
        "numbered",
        "Numbered lists and one answer per line, even on a terminal that can do arrow keys.",
    ),
    Opt {
        choices: &[
            (
                "auto",
                "this terminal: arrow keys, or numbered lines; where nobody can be asked here \
                 (no terminal, or not in its foreground), an open `interview inbox`",
            ),
            ("inbox", "`interview inbox`, waiting until one is open"),
            #[cfg(feature = "web")]
            (
                "web",
                "a page in the browser, served on 127.0.0.1 at an address with a secret token",
            ),
        ],
        ..defaulted("ui", "UI", "Where the person answers.", "auto")
    },
    #[cfg(feature = "web")]
    NO_OPEN,
    #[cfg(feature = "web")]
    OPEN_TIMEOUT,
];

/// `--inbox` and `--to`, of `ask`, `serve` and `mcp`.
#[cfg(feature = "team")]
const TEAM: &[Opt] = &[
    valued(
        "inbox",
        "URL",
        "Ask through the team inbox at URL (`interview inbox serve`; http://, https://, or \
         unix:PATH for its Unix socket), with the agent's token from INTERVIEW_INBOX_TOKEN: a \
         person answers on its page; this process keeps judging the answers, and waits, \
         retrying while the server is down.",
    ),
    valued(
        "to",
        "NAME",
        "With --inbox: the person or group the question is for (default: anyone).",
    ),
    valued(
        "deadline",
        "SPAN",
        "With --inbox: how long a question waits for a person (90s, 30m, 12h, 7d; at most \
         30d). Past it nobody can answer it, and the result is `unavailable` (reason \
         `timed-out`, exit code 3) with the answers given before.",
    ),
    valued(
        "escalate-to",
        "NAME",
        "With --deadline: the person or group a question goes to when nobody answered by its \
         deadline, for as long again.",
    ),
];

const JOURNAL: &[Opt] = &[valued(
    "journal",
    "FILE",
    "Write each answer to FILE as it is given (flushed to disk). If the run is killed, the \
     terminal closes or it is interrupted, the same command with the same FILE resumes after \
     the answers given. FILE is removed once the result is written. Secrets are never written: \
     they are asked again.",
)];

const SERVER: &[Opt] = &[valued(
    "server",
    "NAME",
    "Who asks: the MCP server's name, shown to the person with the message.",
)];

const CHECK: &[Opt] = &[TOOL];

const SCHEMA: &[Opt] = &[Opt {
    choices: &[
        ("plain", "name, description and parameters"),
        ("openai", "OpenAI's function tools"),
        ("anthropic", "Anthropic's tools (input_schema)"),
        ("claude", "the same as anthropic"),
        ("mcp", "MCP's tools/list entries (inputSchema)"),
        ("gemini", "Gemini's function declarations"),
    ],
    ..defaulted(
        "format",
        "FORMAT",
        "The envelope of each definition.",
        "plain",
    )
}];

#[cfg(feature = "mcp")]
const MCP: &[Opt] = &[
    Opt {
        list: true,
        ..valued(
            "tools",
            "NAMES",
            "Tools to offer besides `interview`, by name, separated by commas: the agents' own \
             (AskUserQuestion, request_user_input, ask_user, question), and ask_question, \
             ask_multi_select, resume_structured (`interview schema` lists them).",
        )
    },
    Opt {
        choices: &[
            (
                "auto",
                "an open `interview inbox`; else the client's forms when it declared form \
                 elicitation and a person answers them; else nobody: the agent's own TUI owns \
                 the terminal the server inherits",
            ),
            (
                "inbox",
                "`interview inbox`, a call waiting until one is open",
            ),
            (
                "elicit",
                "the client's forms only: nobody when the client has none",
            ),
            (
                "terminal",
                "the arrow-key UI on the controlling terminal (/dev/tty)",
            ),
            #[cfg(feature = "web")]
            (
                "web",
                "a page in the browser, served on 127.0.0.1 for the server's lifetime: one tab \
                 answers every call, and the browser is opened again for a call after the tab \
                 was closed",
            ),
        ],
        ..defaulted("ui", "UI", "Where the person is.", "auto")
    },
    valued(
        "tty",
        "PATH",
        "A terminal to ask on, by path (a tmux pane's, from `tty` run there): used when the \
         client has no forms, or always with --ui terminal.",
    ),
    #[cfg(feature = "web")]
    NO_OPEN,
    #[cfg(feature = "web")]
    OPEN_TIMEOUT,
];

const INBOX: &[Opt] = &[
    flag(
        "numbered",
        "Numbered lists and one answer per line, even on a terminal that can do arrow keys.",
    ),
    #[cfg(feature = "team")]
    valued(
        "team",
        "URL",
        "Answer the questions of the team inbox at URL (`interview inbox serve`; http://, \
         https://, or unix:PATH) in this terminal, with your person's token from \
         INTERVIEW_INBOX_TOKEN: the oldest first, as its page shows them.",
    ),
    #[cfg(feature = "web")]
    flag(
        "web",
        "Ask in a browser page instead of this terminal (no terminal needed): its address is \
         said on stderr, and the browser is opened when a question comes and no page shows it.",
    ),
    #[cfg(feature = "web")]
    flag(
        "no-open",
        "With --web: say the page's address, but don't open a browser.",
    ),
];

const SERVE: &[Opt] = &[
    valued(
        "server",
        "NAME",
        "Who asks in elicitations: the MCP server's name, shown to the person with the \
         message. A line's own `server`, or `server` in its params' `_meta`, says it instead.",
    ),
    flag(
        "state",
        "Each line is a workflow's state: the question is taken from the first question key \
         present, the answer injected under the response key, and a state whose completion key \
         is true ends the session.",
    ),
    defaulted(
        "question-key",
        "KEYS",
        "With --state: the keys a question may be under, the first present taken.",
        "question,prompt,message,ask,next_question",
    ),
    defaulted(
        "response-key",
        "KEY",
        "With --state: the key the answer is injected under.",
        "response",
    ),
    defaulted(
        "complete-key",
        "KEYS",
        "With --state: the keys that, true, end the session.",
        "complete,done,finished",
    ),
];

/// A command: its name, what it does, its request argument and its options.
struct Spec {
    name: &'static str,
    about: &'static str,
    /// The help of the `<REQUEST>` argument, for commands that take one.
    request: Option<&'static str>,
    options: &'static [&'static [Opt]],
}

const REQUEST_ASKED: &str =
    "The request's JSON file, or - for standard input (answers then come from /dev/tty).";

const COMMANDS: &[Spec] = &[
    Spec {
        name: "ask",
        about: "Ask the questions of a request and print the result JSON.",
        request: Some(REQUEST_ASKED),
        #[cfg(feature = "team")]
        options: &[ASKING, REACHING, TEAM, JOURNAL],
        #[cfg(not(feature = "team"))]
        options: &[ASKING, REACHING, JOURNAL],
    },
    Spec {
        name: "elicit",
        about: "Answer an MCP elicitation (`elicitation/create`, form mode) and print the reply \
                to send back: {\"action\": \"accept\", \"content\": {...}}, \"decline\" or \
                \"cancel\" (a JSON-RPC response when the request was a JSON-RPC request).",
        request: Some(
            "The request's JSON file (its params, or the whole JSON-RPC request), or - for \
             standard input (answers then come from /dev/tty).",
        ),
        options: &[SERVER, REACHING, JOURNAL],
    },
    Spec {
        name: "check",
        about: "Validate a request without asking; prints how each question was understood.",
        request: Some("The request's JSON file, or - for standard input."),
        options: &[CHECK],
    },
    Spec {
        name: "schema",
        about: "Print the tool definitions (name, description, JSON Schema of the arguments).",
        request: None,
        options: &[SCHEMA],
    },
    #[cfg(feature = "mcp")]
    Spec {
        name: "mcp",
        about: "Serve the tools over MCP (stdio) to any MCP client: `interview`, and the agents' \
                own tools named with --tools. A call is one form in the client's own UI when it \
                has one; calls queue for the one person; a call nobody can answer returns \
                `unavailable` at once.",
        request: None,
        #[cfg(feature = "team")]
        options: &[MCP, TEAM],
        #[cfg(not(feature = "team"))]
        options: &[MCP],
    },
    Spec {
        name: "inbox",
        about: "Answer the questions of every agent of yours on this machine in this terminal: \
                each `interview mcp`, `ask` and `elicit` that cannot ask where it runs hands its \
                questions to the open inboxes, and the first answer goes back. Keep it open in a \
                tmux pane or a second window; Ctrl-C closes it, and questions not answered stay \
                pending for the next inbox, with the answers already given.",
        request: None,
        options: &[INBOX],
    },
    Spec {
        name: "serve",
        about: "Answer requests from stdin, one JSON per line, until it closes: one result per \
                line on stdout, the questions on the terminal. A line is a tool call's \
                arguments, or {\"tool\": NAME, \"arguments\": {...}}, or an MCP \
                elicitation/create request (another JSON-RPC method gets error -32601). After \
                `quit`, later requests answer cancelled.",
        request: None,
        #[cfg(feature = "team")]
        options: &[ASKING, REACHING, TEAM, SERVE],
        #[cfg(not(feature = "team"))]
        options: &[ASKING, REACHING, SERVE],
    },
];

const ABOUT: &str = "\
Ask a person the questions of an AI agent's tool call.

The request is the JSON arguments an agent gives an \"ask the user\" tool: one question or a
batch, as free text, single choice, multiple choice, confirm or number, in the format of
`interview` or of Claude Code, Codex, Gemini CLI, opencode and others. The questions are drawn
on the terminal (stderr or /dev/tty); the result JSON goes to stdout.";

const AFTER_HELP: &str = "\
Exit codes:
  0    answered (check: valid; schema: printed; mcp: the client closed the connection)
  1    cancelled: the person stopped; the answers given so far are in the result
  2    invalid request, or bad usage
  3    no person available: no terminal to ask on, no input at all, or (--ui web) nobody
       opened the page within --open-timeout
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
  interview mcp --tty /dev/pts/3               ... asking in another terminal (a tmux pane)
  interview inbox                              answer every agent's questions here";

/// Parses the arguments after the program's name.
/// Whether `args` (after the program's name) are one of the team inbox server's commands
/// (`inbox serve|token|hook|audit`), which have a parser of their own, in a build with the
/// `team-server` feature.
pub fn is_team_server_command(args: &[OsString]) -> bool {
    args.first().is_some_and(|a| a == "inbox")
        && args
            .get(1)
            .is_some_and(|a| ["serve", "token", "hook", "audit"].iter().any(|c| a == *c))
}

pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Parsed, UsageError> {
    use lexopt::Arg::{Long, Short, Value};
    let mut parser = lexopt::Parser::from_args(args);
    let mut given = Collected::default();
    let mut command: Option<&Spec> = None;
    let mut help = false;
    while let Some(arg) = parser
        .next()
        .map_err(|e| given.error(command, e.to_string()))?
    {
        match arg {
            Short('h') | Long("help") => help = true,
            Short('V') | Long("version") if command.is_none() => {
                return Ok(Parsed::Print(format!(
                    "interview {}\n",
                    env!("CARGO_PKG_VERSION")
                )));
            }
            Long(name) => {
                let name = name.to_owned();
                let Some(opt) = find(command, &name) else {
                    return Err(given.error(command, format!("unexpected argument '--{name}'")));
                };
                let value = match opt.value {
                    Some(_) => Some(
                        parser
                            .value()
                            .map_err(|e| given.error(command, e.to_string()))?,
                    ),
                    None => None,
                };
                given.set(command, opt, value)?;
            }
            Short(letter) => {
                return Err(given.error(command, format!("unexpected argument '-{letter}'")));
            }
            Value(value) => {
                let value = value
                    .into_string()
                    .map_err(|v| given.error(command, format!("'{}' is not UTF-8", v.display())))?;
                match command {
                    None if value == "help" => {
                        let topic = parser.values().ok().and_then(|mut v| v.next());
                        let topic = topic.and_then(|t| t.into_string().ok());
                        let Some(topic) = topic else {
                            return Ok(Parsed::Print(top_help()));
                        };
                        return match spec(&topic) {
                            Some(spec) => Ok(Parsed::Print(command_help(spec))),
                            None => Err(given.error(None, unknown_command(topic))),
                        };
                    }
                    None => {
                        command = Some(
                            spec(&value)
                                .ok_or_else(|| given.error(None, unknown_command(value)))?,
                        );
                    }
                    Some(spec) if spec.request.is_some() && given.request.is_none() => {
                        given.request = Some(value);
                    }
                    Some(_) => {
                        return Err(given.error(command, format!("unexpected argument '{value}'")));
                    }
                }
            }
        }
    }
    if help {
        return Ok(Parsed::Print(match command {
            Some(spec) => command_help(spec),
            None => top_help(),
        }));
    }
    let Some(spec) = command else {
        return Err(given.error(
            None,
            format!("a command is needed: {}", command_names().join(", ")),
        ));
    };
    given.into_cli(spec).map(|cli| Parsed::Run(Box::new(cli)))
}

/// The options and the request given so far, by option name.
#[derive(Default)]
struct Collected {
    request: Option<String>,
    values: HashMap<&'static str, Vec<String>>,
    flags: Vec<&'static str>,
}

impl Collected {
    fn set(
        &mut self,
        command: Option<&Spec>,
        opt: &'static Opt,
        value: Option<OsString>,
    ) -> Result<(), UsageError> {
        let Some(value) = value else {
            self.flags.push(opt.name);
            return Ok(());
        };
        let shown = shown(opt);
        let value = value.into_string().map_err(|v| {
            self.error(
                command,
                format!("the value of '{shown}' is not UTF-8: {}", v.display()),
            )
        })?;
        if !opt.choices.is_empty() && !opt.choices.iter().any(|(choice, _)| *choice == value) {
            let choices: Vec<&str> = opt.choices.iter().map(|(choice, _)| *choice).collect();
            return Err(self.error(
                command,
                format!(
                    "invalid value '{value}' for '{shown}': one of {} is expected",
                    choices.join(", ")
                ),
            ));
        }
        let values = self.values.entry(opt.name).or_default();
        if opt.list {
            values.extend(
                value
                    .split(',')
                    .filter(|v| !v.is_empty())
                    .map(str::to_owned),
            );
        } else if values.is_empty() {
            values.push(value);
        } else {
            return Err(self.error(command, format!("'{shown}' is given more than once")));
        }
        Ok(())
    }

    fn error(&self, command: Option<&Spec>, message: String) -> UsageError {
        UsageError {
            message,
            usage: command.map_or_else(|| "interview [OPTIONS] <COMMAND>".to_owned(), usage),
        }
    }

    fn flag(&self, name: &str) -> bool {
        self.flags.contains(&name)
    }

    /// The value of `name`, or its default from `spec`'s table.
    fn value(&mut self, spec: &Spec, name: &str) -> Option<String> {
        match self.values.remove(name).and_then(|mut v| v.pop()) {
            Some(value) => Some(value),
            None => find(Some(spec), name)
                .and_then(|opt| opt.default)
                .map(str::to_owned),
        }
    }

    /// `value` for an option that has a default.
    fn defaulted(&mut self, spec: &Spec, name: &str) -> String {
        self.value(spec, name).unwrap_or_default()
    }

    fn into_cli(mut self, spec: &Spec) -> Result<Cli, UsageError> {
        let request = match (spec.request, self.request.take()) {
            (Some(_), None) => {
                return Err(self.error(
                    Some(spec),
                    "the request is missing: a JSON file, or - for standard input".into(),
                ));
            }
            (_, request) => request.unwrap_or_default(),
        };
        let command = match spec.name {
            "ask" => Command::Ask {
                request,
                asking: self.asking(spec)?,
                journal: self.journaling(spec),
            },
            "elicit" => Command::Elicit {
                request,
                server: self.value(spec, "server"),
                reaching: self.reaching(spec)?,
                journal: self.journaling(spec),
            },
            "check" => Command::Check {
                request,
                tool: self.defaulted(spec, "tool"),
            },
            "schema" => Command::Schema {
                format: self.defaulted(spec, "format"),
            },
            #[cfg(feature = "mcp")]
            "mcp" => Command::Mcp {
                tools: self.values.remove("tools").unwrap_or_default(),
                ui: match self.defaulted(spec, "ui").as_str() {
                    "elicit" => Reach::Elicit,
                    "inbox" => Reach::Inbox,
                    "terminal" => Reach::Terminal,
                    #[cfg(feature = "web")]
                    "web" => Reach::Web,
                    _ => Reach::Auto,
                },
                tty: self.value(spec, "tty").map(PathBuf::from),
                team: self.team(spec)?,
                #[cfg(feature = "web")]
                no_open: self.flag("no-open"),
                #[cfg(feature = "web")]
                open_timeout: self.open_timeout(spec)?,
            },
            "inbox" => Command::Inbox {
                numbered: self.flag("numbered"),
                #[cfg(feature = "team")]
                team: self.team_to_answer(spec)?,
                #[cfg(feature = "web")]
                web: self.flag("web").then(|| !self.flag("no-open")),
            },
            _ => Command::Serve {
                asking: self.asking(spec)?,
                server: self.value(spec, "server"),
                state: self.flag("state"),
                question_key: self.defaulted(spec, "question-key"),
                response_key: self.defaulted(spec, "response-key"),
                complete_key: self.defaulted(spec, "complete-key"),
            },
        };
        Ok(Cli {
            command,
            component: self.value(spec, "component").map(PathBuf::from),
            no_cache: self.flag("no-cache"),
            perf_map: self.flag("perf-map"),
        })
    }

    fn asking(&mut self, spec: &Spec) -> Result<Asking, UsageError> {
        Ok(Asking {
            tool: self.defaulted(spec, "tool"),
            skip_response: self.value(spec, "skip-response"),
            reaching: self.reaching(spec)?,
            team: self.team(spec)?,
        })
    }

    /// `inbox --team URL`, which draws a team's widgets in this terminal: not with `--web`
    /// (the team has a page of its own).
    #[cfg(feature = "team")]
    fn team_to_answer(&mut self, spec: &Spec) -> Result<Option<String>, UsageError> {
        let url = self.value(spec, "team");
        if url.is_some() && self.flag("web") {
            let message = "--web is not for --team: the team's own page is at its URL".to_owned();
            return Err(self.error(Some(spec), message));
        }
        url.map(|url| self.team_address(spec, "team", url))
            .transpose()
    }

    /// `url`, given to `--option`, when it is a team inbox's address (without the `team`
    /// feature there is no such option).
    #[cfg(not(feature = "team"))]
    fn team_address(&self, _: &Spec, _: &str, url: String) -> Result<String, UsageError> {
        Ok(url)
    }

    /// `url`, given to `--option`, when it is a team inbox's address.
    #[cfg(feature = "team")]
    fn team_address(&self, spec: &Spec, option: &str, url: String) -> Result<String, UsageError> {
        if !crate::team::is_address(&url) {
            let message = format!(
                "--{option} '{}' is not a team inbox's address: http://HOST[:PORT], \
                 https://HOST[/PATH] or unix:PATH (a Unix socket)",
                interview_text::sanitize::line(&url)
            );
            return Err(self.error(Some(spec), message));
        }
        Ok(url)
    }

    /// `--inbox`, `--to`, `--deadline` and `--escalate-to`.
    fn team(&mut self, spec: &Spec) -> Result<Option<TeamInbox>, UsageError> {
        let Some(url) = self.value(spec, "inbox") else {
            for option in ["to", "deadline", "escalate-to"] {
                if self.values.contains_key(option) {
                    let message = format!(
                        "--{option} is for questions asked through a team inbox: it needs --inbox"
                    );
                    return Err(self.error(Some(spec), message));
                }
            }
            return Ok(None);
        };
        let url = self.team_address(spec, "inbox", url)?;
        let deadline_ms = match self.value(spec, "deadline") {
            Some(span) => match span_ms(&span) {
                Some(ms) if DEADLINES_MS.contains(&ms) => Some(ms),
                _ => {
                    let message = format!(
                        "invalid --deadline '{}': a span from 1s to 30d, as 90s, 30m, 12h, 7d",
                        interview_text::sanitize::line(&span)
                    );
                    return Err(self.error(Some(spec), message));
                }
            },
            None => None,
        };
        let escalate_to = self.value(spec, "escalate-to");
        if escalate_to.is_some() && deadline_ms.is_none() {
            let message = "--escalate-to needs --deadline: the time after which the question \
                           goes to that person or group"
                .to_owned();
            return Err(self.error(Some(spec), message));
        }
        let to = self.value(spec, "to");
        if escalate_to.is_some() && escalate_to == to {
            let message =
                "--escalate-to names whom --to names: escalating would ask them again".to_owned();
            return Err(self.error(Some(spec), message));
        }
        Ok(Some(TeamInbox {
            url,
            to,
            deadline_ms,
            escalate_to,
        }))
    }

    /// `--open-timeout`, else `INTERVIEW_OPEN_TIMEOUT`, else the default: whole seconds.
    #[cfg(feature = "web")]
    fn open_timeout(&mut self, spec: &Spec) -> Result<std::time::Duration, UsageError> {
        let given = self.values.remove("open-timeout").and_then(|mut v| v.pop());
        let (value, from) = match given {
            Some(value) => (value, "--open-timeout"),
            None => match std::env::var("INTERVIEW_OPEN_TIMEOUT") {
                Ok(value) => (value, "INTERVIEW_OPEN_TIMEOUT"),
                Err(_) => (self.defaulted(spec, "open-timeout"), "--open-timeout"),
            },
        };
        value
            .trim()
            .parse()
            .map(std::time::Duration::from_secs)
            .map_err(|_| {
                self.error(
                    Some(spec),
                    format!("invalid value '{value}' for {from}: whole seconds are expected"),
                )
            })
    }

    fn reaching(&mut self, #[allow(unused_variables)] spec: &Spec) -> Result<Reaching, UsageError> {
        Ok(Reaching {
            numbered: self.flag("numbered"),
            ui: match self.defaulted(spec, "ui").as_str() {
                "inbox" => PersonUi::Inbox,
                #[cfg(feature = "web")]
                "web" => PersonUi::Web,
                _ => PersonUi::Auto,
            },
            #[cfg(feature = "web")]
            no_open: self.flag("no-open"),
            #[cfg(feature = "web")]
            open_timeout: self.open_timeout(spec)?,
        })
    }

    fn journaling(&mut self, spec: &Spec) -> Journaling {
        Journaling {
            journal: self.value(spec, "journal").map(PathBuf::from),
        }
    }
}

fn spec(name: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|spec| spec.name == name)
}

fn command_names() -> Vec<&'static str> {
    COMMANDS.iter().map(|spec| spec.name).collect()
}

fn unknown_command(name: String) -> String {
    format!(
        "unrecognized command '{name}': one of {} is expected",
        command_names().join(", ")
    )
}

/// The option `name` of `command` (or a global one).
fn find(command: Option<&Spec>, name: &str) -> Option<&'static Opt> {
    let own = command
        .into_iter()
        .flat_map(|spec| spec.options.iter().copied());
    own.chain([GLOBAL]).flatten().find(|opt| opt.name == name)
}

/// `--name <VALUE>`, as help and errors show an option.
fn shown(opt: &Opt) -> String {
    match opt.value {
        Some(value) => format!("--{} <{value}>", opt.name),
        None => format!("--{}", opt.name),
    }
}

fn usage(spec: &Spec) -> String {
    let request = if spec.request.is_some() {
        " <REQUEST>"
    } else {
        ""
    };
    format!("interview {} [OPTIONS]{request}", spec.name)
}

/// Help lines are wrapped to this width, as a terminal of 100 columns shows them.
const WIDTH: usize = 100;

fn top_help() -> String {
    let mut help = format!("{ABOUT}\n\nUsage: interview [OPTIONS] <COMMAND>\n\nCommands:\n");
    for spec in COMMANDS {
        let about = spec.about.strip_suffix('.').unwrap_or(spec.about);
        wrapped(&mut help, &format!("  {:<8}", spec.name), about, 10);
    }
    wrapped(
        &mut help,
        "  help    ",
        "Print this message or the help of the given command",
        10,
    );
    help.push_str("\nOptions:\n");
    options_help(&mut help, GLOBAL);
    help.push_str(
        "  -h, --help\n          Print help\n\n  -V, --version\n          Print version\n\n",
    );
    help.push_str(AFTER_HELP);
    help.push('\n');
    help
}

fn command_help(spec: &Spec) -> String {
    let mut help = String::new();
    wrapped(&mut help, "", spec.about, 0);
    let _ = writeln!(help, "\nUsage: {}\n", usage(spec));
    if let Some(request) = spec.request {
        help.push_str("Arguments:\n  <REQUEST>\n");
        wrapped(&mut help, "          ", request, 10);
        help.push('\n');
    }
    help.push_str("Options:\n");
    for group in spec.options {
        options_help(&mut help, group);
    }
    options_help(&mut help, GLOBAL);
    help.push_str("  -h, --help\n          Print help\n");
    help
}

fn options_help(help: &mut String, options: &[Opt]) {
    for opt in options {
        let _ = writeln!(help, "      {}", shown(opt));
        wrapped(help, "          ", opt.help, 10);
        if !opt.choices.is_empty() {
            help.push_str("\n          Possible values:\n");
            for (choice, meaning) in opt.choices {
                wrapped(help, &format!("          - {choice}: "), meaning, 12);
            }
        }
        if let Some(default) = opt.default {
            let _ = writeln!(help, "\n          [default: {default}]");
        }
        help.push('\n');
    }
}

/// Appends `text` after `first`, wrapped at [`WIDTH`], later lines indented by `indent`.
fn wrapped(out: &mut String, first: &str, text: &str, indent: usize) {
    let mut line = first.to_owned();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = " ".repeat(indent);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_line(line: &str) -> Result<Parsed, UsageError> {
        parse(line.split_whitespace().map(OsString::from))
    }

    fn run(line: &str) -> Cli {
        match parse_line(line) {
            Ok(Parsed::Run(cli)) => *cli,
            Ok(Parsed::Print(text)) => panic!("{line}: printed {text}"),
            Err(e) => panic!("{line}: {e}"),
        }
    }

    fn error(line: &str) -> String {
        match parse_line(line) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{line} was accepted"),
        }
    }

    #[test]
    fn ask_takes_its_request_options_and_the_global_ones_anywhere() {
        let cli = run(
            "--no-cache ask - --tool ask_question --numbered --journal j.json --component c.wasm \
             --perf-map",
        );
        assert!(cli.no_cache);
        assert!(cli.perf_map);
        assert_eq!(cli.component, Some(PathBuf::from("c.wasm")));
        let Command::Ask {
            request,
            asking,
            journal,
        } = cli.command
        else {
            panic!("not ask")
        };
        assert_eq!(request, "-");
        assert_eq!(asking.tool, "ask_question");
        assert!(asking.reaching.numbered);
        assert_eq!(asking.skip_response, None);
        assert_eq!(journal.journal, Some(PathBuf::from("j.json")));
    }

    #[test]
    fn defaults_come_from_the_table() {
        let Command::Ask { asking, .. } = run("ask r.json").command else {
            panic!("not ask")
        };
        assert_eq!(asking.tool, "interview");
        let Command::Serve {
            question_key,
            response_key,
            complete_key,
            state,
            ..
        } = run("serve --state --response-key=answer").command
        else {
            panic!("not serve")
        };
        assert!(state);
        assert_eq!(question_key, "question,prompt,message,ask,next_question");
        assert_eq!(response_key, "answer");
        assert_eq!(complete_key, "complete,done,finished");
        let Command::Schema { format } = run("schema").command else {
            panic!("not schema")
        };
        assert_eq!(format, "plain");
    }

    #[cfg(feature = "mcp")]
    #[test]
    fn mcp_tools_are_a_list_across_repeats() {
        let Command::Mcp { tools, ui, .. } =
            run("mcp --tools ask_user,question --tools AskUserQuestion --ui terminal").command
        else {
            panic!("not mcp")
        };
        assert_eq!(tools, ["ask_user", "question", "AskUserQuestion"]);
        assert_eq!(ui, Reach::Terminal);
    }

    #[test]
    fn bad_usage_says_what_and_where() {
        assert!(error("ask").starts_with("the request is missing"));
        assert!(error("ask").contains("Usage: interview ask [OPTIONS] <REQUEST>"));
        assert!(error("ask a.json b.json").starts_with("unexpected argument 'b.json'"));
        assert!(error("ask a.json --format mcp").starts_with("unexpected argument '--format'"));
        assert!(
            error("schema --format yaml")
                .starts_with("invalid value 'yaml' for '--format <FORMAT>'")
        );
        assert!(
            error("ask a.json --tool x --tool y")
                .starts_with("'--tool <TOOL>' is given more than once")
        );
        assert!(error("ask a.json --tool").contains("--tool"));
        assert!(error("frobnicate").starts_with("unrecognized command 'frobnicate'"));
        assert!(error("help frobnicate").starts_with("unrecognized command 'frobnicate'"));
        assert!(error("").starts_with("a command is needed: ask, elicit"));
        assert!(error("check --numbered -").starts_with("unexpected argument '--numbered'"));
    }

    #[test]
    fn help_for_the_tool_and_each_command() {
        let Ok(Parsed::Print(top)) = parse_line("--help") else {
            panic!("no help")
        };
        assert!(top.contains("Usage: interview [OPTIONS] <COMMAND>"));
        assert!(top.contains("130  interrupted"));
        for spec in COMMANDS {
            assert!(
                top.contains(&format!("\n  {:<8}", spec.name)),
                "{} in {top}",
                spec.name
            );
            for line in [
                format!("{} --help", spec.name),
                format!("help {}", spec.name),
            ] {
                let Ok(Parsed::Print(help)) = parse_line(&line) else {
                    panic!("no help for {line}")
                };
                assert!(help.contains(&usage(spec)), "{help}");
                for opt in spec.options.iter().copied().flatten() {
                    assert!(help.contains(&shown(opt)), "{} in {help}", opt.name);
                }
                assert!(help.lines().all(|l| l.chars().count() <= WIDTH), "{help}");
            }
        }
        let Ok(Parsed::Print(version)) = parse_line("-V") else {
            panic!("no version")
        };
        assert_eq!(
            version,
            format!("interview {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}
