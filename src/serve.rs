//! `interview serve`: a session over stdio for agent runtimes in any language. One JSON request
//! per line on stdin, one result per line on stdout; the person answers on the terminal.
//!
//! A line is the tool call's arguments, or an envelope `{"tool": NAME, "arguments": {...}}`, or
//! an MCP `elicitation/create` request (JSON-RPC, or its params), answered as `interview elicit`
//! answers it, with the reply to send back to the server. Another JSON-RPC method gets error
//! -32601.
//! With `--state`, a line is a workflow's state instead: the question is read from
//! the first question key present, the answer comes back injected under the response key, and
//! a state whose completion key is true ends the session. Every line gets exactly one line
//! back, so the caller never falls out of step.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use interview_host::ask::Status;
use interview_host::{Error, Given, Plugin, Session};

use interview_host::ui::{StopReason, Ui};
use interview_text::json as json_text;
use serde_json::{Map, Value as Json};

use crate::inbox;
use crate::input::{self, Line};
use crate::people;
use crate::results;
use interview_host::Exit;

/// The person answering, kept from one request to the next.
struct Asker {
    /// Their UI, out of here while a request asks it.
    ui: Option<Box<dyn Ui>>,
    /// They answer line by line, where `quit` and `exit` end the session.
    reads_lines: bool,
    /// They typed `quit` or `exit`: the session is over, and every later request is
    /// cancelled without asking anyone.
    quit: bool,
}

impl Asker {
    /// Takes the person's UI for a request: once they quit, a UI that cancels at once.
    fn take(&mut self) -> Box<dyn Ui> {
        match self.quit {
            true => Box::new(interview_host::ui::ScriptedUi::new([])),
            false => self
                .ui
                .take()
                .expect("the person is back after every request"),
        }
    }

    /// Puts the UI back after a request that ended `cancelled` or not. In the line mode a
    /// request the person cancelled while their input was open was left with `quit` or
    /// `exit` (the only cancel there that is no interrupt and no end of input): the session
    /// ends with it.
    fn put(&mut self, ui: Box<dyn Ui>, cancelled: bool) {
        if self.quit {
            return;
        }
        if cancelled && self.reads_lines && ui.stop_reason().is_none() {
            self.quit = true;
            warn(
                "interview serve: you quit, so the session is over: every later request is \
                 cancelled without asking",
            );
        }
        self.ui = Some(ui);
    }
}

/// How `serve` reads its lines.
pub struct Options {
    pub tool: String,
    pub skip_response: Option<String>,
    /// Who asks in elicitations, unless a line names its server itself.
    pub server: Option<String>,
    /// `Some` in state mode.
    pub state: Option<StateKeys>,
    /// `Some` when the requests go to `interview inbox`.
    pub inbox: Option<Inboxed>,
    /// `Some` when the requests go to a team inbox (`--inbox URL`).
    #[cfg(feature = "team")]
    pub team: Option<crate::team::remote::Team>,
}

/// Requests handed to the inboxes, and the flag that a signal sets to withdraw one (and end
/// the session after it, as an interrupt does).
pub struct Inboxed {
    #[cfg_attr(
        not(feature = "team-server"),
        expect(dead_code, reason = "only a build with the team server has an inbox")
    )]
    route: inbox::Route,
    stop: Arc<AtomicBool>,
}

impl Inboxed {
    /// Takes Ctrl-C, SIGTERM and SIGHUP for the inbox's requests.
    pub fn new(route: inbox::Route) -> Inboxed {
        Inboxed {
            route,
            stop: people::stop_on_signals(),
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

/// The keys of a workflow's state (the defaults of workflow engines that pause for a human).
pub struct StateKeys {
    pub question: Vec<String>,
    pub response: String,
    pub complete: Vec<String>,
}

/// Comma-separated keys, trimmed.
pub fn keys(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(str::to_string)
        .collect()
}

/// Runs the session until stdin closes, a completion key says so, or an interrupt. A line
/// that cannot be read, or that the plugin fails on, gets its own reply and the session goes
/// on; only a result that cannot be written ends it, since nobody is reading any more.
/// `person` answers (a terminal UI, numbered lines, or a web page).
pub fn run(plugin: &Plugin, options: Options, mut person: Box<dyn Ui>) -> Exit {
    let mut asker = Asker {
        reads_lines: matches!(person.mode(), interview_host::ui::UiMode::Lines),
        ui: Some(person),
        quit: false,
    };
    let limit = plugin.limits().request_bytes();
    // Ctrl-C, SIGTERM and SIGHUP end the session: at once while no request is asked, after
    // the open request's result otherwise (its person's UI is stopped by them too).
    let signalled = people::stop_on_signals();
    let mut input = Stdin::new();
    let mut stdout = std::io::stdout().lock();
    let mut number = 0usize;
    loop {
        if !input.wait(&signalled) {
            return Exit::Interrupted;
        }
        let line = match input::next_line(&mut input.reader, limit) {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => {
                warn(&format!(
                    "interview serve: cannot read standard input: {error}"
                ));
                break;
            }
        };
        number += 1;
        let (reply, finished) = match line {
            Line::Unreadable(message) => unreadable_line(number, &message),
            // A caller that wrote a blank line waits for its line of output like any other.
            Line::Text(text) if text.trim().is_empty() => {
                unreadable_line(number, "the request line is empty")
            }
            Line::Text(text) => match &options.state {
                Some(keys) => state_line(plugin, &mut asker, &options, keys, &text),
                None => (request_line(plugin, &mut asker, &options, &text), false),
            },
        };
        let written = writeln!(stdout, "{}", json_text::to_string(&reply, false))
            .and_then(|()| stdout.flush());
        if let Err(error) = written {
            warn(&format!(
                "interview serve: cannot write the result of line {number} to stdout: {error}"
            ));
            return Exit::Unwritten;
        }
        if (asker.ui.as_ref())
            .is_some_and(|person| person.stop_reason() == Some(StopReason::Interrupted))
            || options.inbox.as_ref().is_some_and(Inboxed::stopped)
            || signalled.load(Ordering::SeqCst)
        {
            return Exit::Interrupted;
        }
        if finished {
            break;
        }
    }
    Exit::Answered
}

/// Standard input, read line by line, waited on in short polls so that a signal that comes
/// while nothing is asked is heard.
struct Stdin {
    reader: std::io::BufReader<&'static std::fs::File>,
}

impl Stdin {
    fn new() -> Stdin {
        use std::os::fd::FromRawFd;
        // SAFETY: standard input is open for the life of the process; the `File` is leaked, so
        // it is never closed.
        let file: &'static std::fs::File = Box::leak(Box::new(unsafe {
            std::fs::File::from_raw_fd(libc::STDIN_FILENO)
        }));
        Stdin {
            reader: std::io::BufReader::with_capacity(64 << 10, file),
        }
    }

    /// Waits until a line (or the end of the input) may be read; false when `signalled` was
    /// set first.
    fn wait(&self, signalled: &AtomicBool) -> bool {
        while self.reader.buffer().is_empty() {
            if signalled.load(Ordering::SeqCst) {
                return false;
            }
            let mut poll = libc::pollfd {
                fd: libc::STDIN_FILENO,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            if unsafe { libc::poll(&mut poll, 1, 50) } > 0 {
                break;
            }
        }
        !signalled.load(Ordering::SeqCst) || !self.reader.buffer().is_empty()
    }
}

/// The `invalid` reply to a line that cannot be a request, and its reason on stderr.
fn unreadable_line(number: usize, message: &str) -> (Json, bool) {
    warn(&format!("interview serve: line {number}: {message}"));
    (results::unreadable(message), false)
}

/// One request line: an elicitation, a tool call's envelope, or arguments for `--tool`.
fn request_line(plugin: &Plugin, asker: &mut Asker, options: &Options, line: &str) -> Json {
    let object = match serde_json::from_str::<Json>(line) {
        Ok(Json::Object(object)) => Some(object),
        _ => None,
    };
    if let Some(object) = object.as_ref().filter(|o| is_elicitation(o)) {
        let server = server_named(object).or(options.server.as_deref());
        return elicit(plugin, asker, options, line, server);
    }
    if let Some(method) = other_method(object.as_ref()) {
        return method_not_found(object.as_ref(), method);
    }
    let (tool, arguments) = envelope(object.as_ref(), line, &options.tool);
    ask(plugin, asker, options, &tool, &arguments)
}

/// The tool and arguments of a request `line` (`object` when it is a JSON object): an
/// envelope, or the arguments for `tool`.
fn envelope(object: Option<&Map<String, Json>>, line: &str, tool: &str) -> (String, String) {
    if let Some(object) = object
        && let Some(arguments) = object.get("arguments")
    {
        let name = object
            .get("tool")
            .or(object.get("name"))
            .and_then(Json::as_str)
            .unwrap_or(tool);
        let arguments = match arguments {
            Json::String(text) => text.clone(),
            other => other.to_string(),
        };
        return (name.to_string(), arguments);
    }
    (tool.to_string(), line.to_string())
}

/// The method of a JSON-RPC request that is not an elicitation, if the line is one.
fn other_method(object: Option<&Map<String, Json>>) -> Option<&str> {
    let object = object.filter(|o| o.contains_key("jsonrpc"))?;
    object.get("method").and_then(Json::as_str)
}

/// The JSON-RPC error for a method `serve` does not answer.
fn method_not_found(object: Option<&Map<String, Json>>, method: &str) -> Json {
    let id = object
        .and_then(|o| o.get("id"))
        .cloned()
        .unwrap_or(Json::Null);
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {
            "code": -32601,
            "message": format!(
                "Method not found: {method}; interview serve answers elicitation/create"
            ),
        },
    })
}

/// The server a line names as the one asking: its own `server`, or `server` in the `_meta` of
/// the request or of its params.
fn server_named(object: &Map<String, Json>) -> Option<&str> {
    object
        .get("server")
        .and_then(Json::as_str)
        .or_else(|| meta_server(object))
        .or_else(|| meta_server(object.get("params")?.as_object()?))
}

/// `_meta.server` of a request or its params.
fn meta_server(object: &Map<String, Json>) -> Option<&str> {
    object.get("_meta")?.get("server")?.as_str()
}

/// Whether a line's object is an MCP elicitation: a JSON-RPC `elicitation/create` request, or
/// its params (`requestedSchema` is in no tool's arguments).
fn is_elicitation(object: &Map<String, Json>) -> bool {
    object.get("method").and_then(Json::as_str) == Some("elicitation/create")
        || object.contains_key("requestedSchema")
}

/// Runs `work` in a session with the person, who stays for the next request; its JSON. Once
/// the person has quit, their UI cancels every question without showing it. When the plugin
/// fails, `failed` makes the reply from the failure and what the person gave.
fn with_person(
    plugin: &Plugin,
    asker: &mut Asker,
    work: impl FnOnce(&mut Session<Box<dyn Ui>>) -> Result<(String, bool), Error>,
    failed: impl FnOnce(&str, &[Given]) -> Json,
) -> Json {
    let mut session = match plugin.session(asker.take()) {
        Ok(session) => session,
        Err(error) => {
            // The UI went down with the session that could not start; a plugin that cannot
            // start will not start for the next request either.
            asker.ui = Some(crate::people::nobody(
                interview_host::ui::Absence::NoTerminal,
            ));
            return failed(&error.chain(), &[]);
        }
    };
    let result = work(&mut session);
    if let Some(failure) = session.recovered_from() {
        warn(&format!("interview serve: {}", results::recovered(failure)));
    }
    let cancelled = result.as_ref().is_ok_and(|(_, cancelled)| *cancelled);
    asker.put(session.into_ui(), cancelled);
    let (failure, given) = match results::read_result(result.map(|(json, _)| json)) {
        Ok(json) => return json,
        Err(failed) => failed,
    };
    warn(&format!("interview serve: {failure}"));
    failed(&failure, &given)
}

/// Asks one tool call; the result JSON.
fn ask(plugin: &Plugin, asker: &mut Asker, options: &Options, tool: &str, arguments: &str) -> Json {
    let call = || inbox::Call::Tool {
        tool: tool.to_string(),
        arguments: arguments.to_string(),
        skip_response: options.skip_response.clone(),
    };
    let aside = team_person(asker, options, call(), None);
    let result = with_person(
        plugin,
        asker,
        |session| {
            session.set_skip_response(options.skip_response.clone());
            let result = session.call(tool, arguments)?;
            Ok((result.json, result.status == Status::Cancelled))
        },
        results::failed,
    );
    put_back(asker, aside);
    result
}

/// With `--inbox`, or where this machine's inbox is open now, the person of a request is that
/// inbox's, asked about this `call`: the session's own person is put aside meanwhile, and
/// returned to be put back.
fn team_person(
    asker: &mut Asker,
    options: &Options,
    call: inbox::Call,
    server: Option<&str>,
) -> Option<Option<Box<dyn Ui>>> {
    #[cfg(feature = "team")]
    if let Some(team) = options.team.as_ref().filter(|_| !asker.quit) {
        let remote = team.ui_for("serve", call, None, server.map(str::to_owned));
        return Some(asker.ui.replace(Box::new(remote)));
    }
    // Looked for with each request: an inbox opened since the session began is found.
    #[cfg(feature = "team-server")]
    if let Some(inboxed) = options.inbox.as_ref().filter(|_| !asker.quit)
        && let Some(own) =
            crate::team::own::asker(inboxed.route.waits(), &inboxed.stop, &inboxed.stop)
    {
        let remote = own.ui_for("serve", call, None, server.map(str::to_owned));
        return Some(asker.ui.replace(Box::new(remote)));
    }
    let _ = (asker, options, call, server);
    None
}

/// Puts back the person put aside by [`team_person`]; an interrupted request's UI stays, for
/// the session to end on it.
fn put_back(asker: &mut Asker, aside: Option<Option<Box<dyn Ui>>>) {
    let interrupted = (asker.ui.as_ref())
        .is_some_and(|person| person.stop_reason() == Some(StopReason::Interrupted));
    if let Some(aside) = aside
        && !interrupted
    {
        asker.ui = aside;
    }
}

/// Answers one elicitation from `server`; the reply to send back to the server. With nobody to
/// ask, the reply cancels, and stderr says why, for whoever reads the logs.
fn elicit(
    plugin: &Plugin,
    asker: &mut Asker,
    options: &Options,
    request: &str,
    server: Option<&str>,
) -> Json {
    let call = || inbox::Call::Elicit {
        request: request.to_string(),
    };
    let aside = team_person(asker, options, call(), server);
    let reply = with_person(
        plugin,
        asker,
        |session| {
            let elicitation = session.elicit(request, server)?;
            if elicitation.ending == interview_host::ask::ElicitEnding::Unavailable {
                let who = server.map_or("an MCP server".to_string(), |s| format!("{s:?}"));
                warn(&format!(
                    "interview: nobody is at a terminal to answer the elicitation from {who}; \
                     replied cancel"
                ));
            }
            let cancelled = elicitation.ending == interview_host::ask::ElicitEnding::Cancelled;
            Ok((elicitation.reply, cancelled))
        },
        |message, given| results::failed_elicitation(request, message, given),
    );
    put_back(asker, aside);
    reply
}

/// One line of state mode: the state back, with the answer under the response key; and
/// whether the session is finished.
fn state_line(
    plugin: &Plugin,
    asker: &mut Asker,
    options: &Options,
    keys: &StateKeys,
    line: &str,
) -> (Json, bool) {
    let mut state = match serde_json::from_str::<Json>(line) {
        Ok(Json::Object(state)) => state,
        Ok(other) => {
            warn("interview serve: a state must be a JSON object; passed on unchanged");
            return (other, false);
        }
        Err(error) => {
            let message = format!("the state is not JSON ({error})");
            warn(&format!(
                "interview serve: {message}; answered as an invalid request"
            ));
            return (results::unreadable(&message), false);
        }
    };
    if keys
        .complete
        .iter()
        .any(|k| state.get(k) == Some(&Json::Bool(true)))
    {
        return (Json::Object(state), true);
    }
    if state.is_empty() {
        warn("interview serve: the state is empty at this interrupt; the session goes on");
        return (Json::Object(state), false);
    }
    let Some(question) = keys
        .question
        .iter()
        .find_map(|k| state.get(k).filter(|v| !v.is_null()))
    else {
        let known: Vec<&String> = state.keys().collect();
        warn(&format!(
            "interview serve: no question key ({}) in the state; its keys are {known:?}",
            keys.question.join(", ")
        ));
        return (Json::Object(state), false);
    };
    // A string is a text question; an object or array is a whole request, in any dialect.
    let arguments = match question {
        Json::String(text) => serde_json::json!({ "question": text }).to_string(),
        other => other.to_string(),
    };
    let result = ask(plugin, asker, options, &options.tool, &arguments);
    inject(&mut state, &keys.response, &result);
    (Json::Object(state), false)
}

/// The answer under `key`: the plain value of a one-question request, else every answer by id;
/// null when nothing was answered.
fn inject(state: &mut Map<String, Json>, key: &str, result: &Json) {
    let value = match result.get("answer") {
        Some(answer) => answer.clone(),
        None => {
            let answers = result["answers"].as_array().cloned().unwrap_or_default();
            let by_id: Map<String, Json> = answers
                .into_iter()
                .filter_map(|a| Some((a["id"].as_str()?.to_string(), a["value"].clone())))
                .collect();
            if by_id.is_empty() {
                Json::Null
            } else {
                Json::Object(by_id)
            }
        }
    };
    state.insert(key.to_string(), value);
}

fn warn(message: &str) {
    crate::stderr::line(message);
}
