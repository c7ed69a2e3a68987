//! Loading the plugin and calling it: [`Plugin`] is the compiled component (load it once),
//! [`Session`] an instance of it talking to one [`Ui`].

use std::any::{Any, TypeId};
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use wasmtime::component::{HasSelf, Linker};
use wasmtime::{Engine, Store, UpdateDeadline};

use crate::bindings::exports::interview::plugin::tool::{
    CallResult, Checked, Elicitation, FormStep, RelayedReply, RelayedWidget, ToolDefinition,
    ToolFormat,
};
use crate::bindings::interview::plugin::types::{Outcome, Question, Settings};
use crate::bindings::{Plugin as Bindings, PluginPre as BindingsPre};
use crate::choice_imports;
use crate::error::Error;
use crate::given::Given;
use crate::imports::State;
use crate::journal::{self, Journal};
use crate::loader::{self, Compiled, LoadKind};
use crate::replay::Recorder;
use crate::sandbox::{Epoch, GuestClock, Limits, Ticker};
use crate::ui::Ui;

/// The plugin component that this crate embeds (`host/plugin/interview.wasm`).
pub const EMBEDDED_COMPONENT: &[u8] = include_bytes!("../plugin/interview.wasm");

/// The interview plugin, compiled and ready to instantiate. Cheap to share; load it once.
pub struct Plugin {
    /// The component linked to the host's imports, once per kind of UI (a store's data names
    /// its UI's type): imports are looked up and type-checked once, not for every session.
    /// First, so that it is dropped before the code it refers to (`compiled`).
    linked: Mutex<HashMap<TypeId, Box<dyn Any + Send + Sync>>>,
    engine: Engine,
    compiled: Compiled,
    limits: Limits,
    load_kind: LoadKind,
    source: Arc<Source>,
    /// What advances the engine's epoch while the plugin computes.
    epoch: Arc<Epoch>,
    /// The epoch thread of an engine of this plugin's own; the built-in plugin's engine has
    /// one for the process.
    _ticker: Option<Ticker>,
}

/// The component's bytes, and their SHA-256 once a journal needs it (which a journal names):
/// hashing them is no work for every start.
struct Source {
    bytes: Cow<'static, [u8]>,
    digest: OnceLock<String>,
}

impl Source {
    fn digest(&self) -> &str {
        self.digest.get_or_init(|| journal::digest(&[&self.bytes]))
    }
}

/// Where the component comes from and how it is run; see [`Plugin::builder`].
pub struct PluginBuilder {
    bytes: Option<Vec<u8>>,
    path: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
    limits: Limits,
    perf_map: bool,
}

impl PluginBuilder {
    /// Loads the component from a file instead of the embedded one (the `compile` feature).
    pub fn component_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Uses these component bytes instead of the embedded ones (the `compile` feature).
    pub fn component_bytes(mut self, bytes: impl Into<Vec<u8>>) -> Self {
        self.bytes = Some(bytes.into());
        self
    }

    /// Where compiled components other than the built-in one are kept (default
    /// [`loader::default_cache_dir`]); `None` compiles every time. The built-in plugin was
    /// compiled when this crate was built and never uses it.
    pub fn cache_dir(mut self, dir: Option<PathBuf>) -> Self {
        self.cache_dir = dir;
        self
    }

    /// Sandbox limits (default [`Limits::default`]).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Names the plugin's compiled functions for Linux `perf` (the `compile` feature):
    /// wasmtime writes where each one lies to `/tmp/perf-<pid>.map`, which `perf report`
    /// reads, so a profile of the host shows the guest's functions beside its own (by their
    /// source names when the component keeps its name section). Compiles the component afresh:
    /// the code compiled ahead of time, or cached, keeps no symbols.
    pub fn perf_map(mut self, on: bool) -> Self {
        self.perf_map = on;
        self
    }

    /// Makes the component ready: the built-in plugin at once, as it was compiled when this
    /// crate was built; another component, or one for a profiler, is compiled (or read from
    /// the cache), which takes the `compile` feature and is an [`Error::Compile`] without it.
    pub fn build(mut self) -> Result<Plugin, Error> {
        let bytes: Cow<'static, [u8]> = match (&self.path, self.bytes.take()) {
            (Some(path), _) => Cow::Owned(std::fs::read(path).map_err(|source| Error::Read {
                path: path.clone(),
                source,
            })?),
            (None, Some(bytes)) => Cow::Owned(bytes),
            (None, None) if !self.perf_map => {
                let builtin = loader::builtin()?;
                return Ok(Plugin {
                    engine: builtin.engine.clone(),
                    compiled: builtin.compiled.clone(),
                    limits: self.limits,
                    load_kind: LoadKind::Builtin,
                    source: Arc::new(Source {
                        bytes: Cow::Borrowed(EMBEDDED_COMPONENT),
                        digest: OnceLock::new(),
                    }),
                    epoch: builtin.epoch.clone(),
                    _ticker: None,
                    linked: Mutex::default(),
                });
            }
            (None, None) => Cow::Borrowed(EMBEDDED_COMPONENT),
        };
        let (engine, compiled, load_kind) = compile(&bytes, &self)?;
        let ticker = Ticker::start(&engine);
        Ok(Plugin {
            engine,
            compiled,
            limits: self.limits,
            load_kind,
            source: Arc::new(Source {
                bytes,
                digest: OnceLock::new(),
            }),
            epoch: ticker.epoch().clone(),
            _ticker: Some(ticker),
            linked: Mutex::default(),
        })
    }
}

/// `bytes` compiled (or read from the cache), with the engine that runs them.
#[cfg(feature = "compile")]
fn compile(bytes: &[u8], how: &PluginBuilder) -> Result<(Engine, Compiled, LoadKind), Error> {
    let engine = Engine::new(&loader::running_config(how.perf_map)).map_err(Error::Compile)?;
    let compiler = || Engine::new(&loader::compiling_config(how.perf_map)).map_err(Error::Compile);
    let cache_dir = how.cache_dir.as_deref().filter(|_| !how.perf_map);
    let (compiled, load_kind) = loader::load(
        &engine,
        compiler,
        bytes,
        loader::fingerprint(bytes),
        cache_dir,
    )?;
    Ok((engine, compiled, load_kind))
}

/// Without a compiler, only the built-in plugin runs.
#[cfg(not(feature = "compile"))]
fn compile(_: &[u8], _: &PluginBuilder) -> Result<(Engine, Compiled, LoadKind), Error> {
    Err(Error::Compile(wasmtime::Error::msg(
        "this build runs only its built-in plugin: compiling another component, or one for \
         a profiler, takes interview-host's `compile` feature",
    )))
}

impl Plugin {
    /// Starts making the built-in plugin ready on a thread of its own (the one that will
    /// bound its calls' compute time), so that a [`Plugin::load`] made a little later, once
    /// the caller has read its arguments and its request, finds it ready or nearly so. Call it
    /// as early as possible; it returns at once, and does nothing when called again.
    pub fn preload() {
        loader::preload();
    }

    /// The built-in plugin, with the default limits.
    pub fn load() -> Result<Plugin, Error> {
        Plugin::builder().build()
    }

    /// The sandbox limits this plugin runs under; `request_bytes` is the largest request it
    /// takes, which a caller reading one can stop at.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Chooses the component, cache and limits before loading.
    pub fn builder() -> PluginBuilder {
        PluginBuilder {
            bytes: None,
            path: None,
            cache_dir: loader::default_cache_dir(),
            limits: Limits::default(),
            perf_map: false,
        }
    }

    /// Whether the component is the built-in one, compiled now or read from the cache.
    pub fn load_kind(&self) -> &LoadKind {
        &self.load_kind
    }

    /// The component linked to the imports of a UI of type `U`: made the first time a session
    /// of that type starts, and shared by the later ones.
    fn linked<U: Ui + 'static>(&self) -> Result<BindingsPre<State<U>>, Error> {
        let mut linked = self.linked.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(pre) = linked
            .get(&TypeId::of::<U>())
            .and_then(|pre| pre.downcast_ref::<BindingsPre<State<U>>>())
        {
            return Ok(pre.clone());
        }
        let mut linker = Linker::new(&self.engine);
        Bindings::add_to_linker::<State<U>, HasSelf<State<U>>>(&mut linker, |state| state)
            .map_err(Error::Instantiate)?;
        choice_imports::add_to_linker(&mut linker).map_err(Error::Instantiate)?;
        let pre = linker
            .instantiate_pre(self.compiled.component())
            .and_then(BindingsPre::new)
            .map_err(Error::Instantiate)?;
        linked.insert(TypeId::of::<U>(), Box::new(pre.clone()));
        Ok(pre)
    }

    /// A new instance of the plugin that asks through `ui`.
    pub fn session<U: Ui + 'static>(&self, ui: U) -> Result<Session<U>, Error> {
        let mut session = Session {
            engine: self.engine.clone(),
            epoch: self.epoch.clone(),
            limits: self.limits.clone(),
            store: None,
            linked: self.linked()?,
            _compiled: self.compiled.clone(),
            instance: None,
            settings: Settings {
                skip_response: None,
            },
            recovered: None,
            source: self.source.clone(),
        };
        session.store = Some(session.store_with(ui, &self.limits, Recorder::default()));
        let _running = self.epoch.guest();
        session.instance().map_err(Error::Instantiate)?;
        Ok(session)
    }
}

/// One instance of the plugin and the UI it asks through. Calls run one at a time.
pub struct Session<U: Ui + 'static> {
    engine: Engine,
    epoch: Arc<Epoch>,
    limits: Limits,
    /// Present between calls; taken only while a trapped store is replaced.
    store: Option<Store<State<U>>>,
    linked: BindingsPre<State<U>>,
    /// None after a trap: the next call instantiates again.
    instance: Option<Bindings>,
    settings: Settings,
    /// Why the last call failed at first, when replaying the person's replies saved it.
    recovered: Option<String>,
    /// The component, whose digest a journal names.
    source: Arc<Source>,
    /// Last, so that it is dropped after everything that runs its code.
    _compiled: Compiled,
}

impl<U: Ui + 'static> Session<U> {
    /// The answer recorded when a person skips a text question (default: "I don't have
    /// information about this.").
    pub fn set_skip_response(&mut self, response: Option<String>) {
        self.settings.skip_response = response;
    }

    /// The tools the plugin answers, `interview` first.
    pub fn definitions(&mut self) -> Result<Vec<ToolDefinition>, Error> {
        self.run("definitions", None, |bindings, store| {
            bindings.interview_plugin_tool().call_definitions(store)
        })
    }

    /// The tools the plugin answers as an agent ecosystem lists them (`format`), as a JSON
    /// text: an MCP `tools/list` result, OpenAI function tools, and so on.
    pub fn definitions_as(&mut self, format: ToolFormat) -> Result<String, Error> {
        self.run("definitions-as", None, |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_definitions_as(store, format)
        })
    }

    /// Keeps the person's replies to the next request in `journal`, and plays back what an
    /// earlier run of the same request wrote there, so that a run killed half-way resumes
    /// where the person was. A journal of another request or plugin makes the call fail with
    /// [`Error::Journal`] before anything is asked. Take it back with
    /// [`take_journal`](Session::take_journal), and [`finish`](Journal::finish) it once the
    /// result is safe.
    ///
    /// ```
    /// use interview_host::ui::{ScriptedUi, Step, TextReply};
    /// use interview_host::{Journal, Plugin};
    ///
    /// # fn main() -> Result<(), interview_host::Error> {
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("deploy.journal");
    /// let request = r#"{"questions": [{"question": "Name?"}, {"question": "Why?"}]}"#;
    /// let plugin = Plugin::load()?;
    ///
    /// // The person answers the first question, then the run ends (here: the script does).
    /// let mut first = plugin.session(ScriptedUi::new([Step::Text(TextReply::Submitted("Ada".into()))]))?;
    /// first.keep_journal(Journal::open(&path)?);
    /// first.call("interview", request)?;
    /// drop(first); // A run holds its journal until it ends.
    ///
    /// // The same request with the same journal asks only what is left.
    /// let mut again = plugin.session(ScriptedUi::new([
    ///     Step::Text(TextReply::Submitted("Curiosity".into())),
    ///     Step::Review(interview_host::ui::ReviewReply::Submit),
    /// ]))?;
    /// again.keep_journal(Journal::open(&path)?);
    /// let result: serde_json::Value = serde_json::from_str(&again.call("interview", request)?.json).unwrap();
    /// assert_eq!(result["answers"][0]["value"], "Ada");
    /// assert_eq!(result["answers"][1]["value"], "Curiosity");
    /// assert_eq!(again.ui().shown().len(), 2, "the second question and the review");
    /// again.take_journal().unwrap().finish()?;
    /// assert!(!path.exists());
    /// # Ok(())
    /// # }
    /// ```
    pub fn keep_journal(&mut self, journal: Journal) {
        self.store_mut()
            .data_mut()
            .recorder
            .set_journal(Some(journal));
    }

    /// The journal given to [`keep_journal`](Session::keep_journal), which the session stops
    /// writing to. See [`Journal::problem`] for whether every reply reached it.
    pub fn take_journal(&mut self) -> Option<Journal> {
        self.store_mut().data_mut().recorder.set_journal(None)
    }

    /// Runs the tool `name` with the model's JSON `arguments`: how it ended, and the result
    /// JSON for the agent.
    pub fn call(&mut self, name: &str, arguments: &str) -> Result<CallResult, Error> {
        self.check_size(arguments)?;
        let settings = self.settings.clone();
        let request = || journal::digest(&[b"call", name.as_bytes(), arguments.as_bytes()]);
        self.run("call", Some(&request), |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_call(store, name, arguments, &settings)
        })
    }

    /// Answers an MCP `elicitation/create` request (its JSON: the `params`, or the whole
    /// JSON-RPC request) by asking the person its form. `requester` names the server, so the
    /// person knows who asks. The reply is the JSON to send back (`{action, content}`, or the
    /// JSON-RPC response), and `ending` says how it came about.
    ///
    /// ```
    /// use interview_host::Plugin;
    /// use interview_host::ask::ElicitEnding;
    /// use interview_host::ui::{ReviewReply, ScriptedUi, Step, TextReply};
    ///
    /// # fn main() -> Result<(), interview_host::Error> {
    /// let request = r#"{"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {
    ///     "message": "Please provide your GitHub username",
    ///     "requestedSchema": {"type": "object", "required": ["username"],
    ///         "properties": {"username": {"type": "string", "title": "GitHub Username"}}}}}"#;
    /// // The person types a name and submits the form at the review.
    /// let ui = ScriptedUi::new([
    ///     Step::Text(TextReply::Submitted("octocat".into())),
    ///     Step::Review(ReviewReply::Submit),
    /// ]);
    /// let mut session = Plugin::load()?.session(ui)?;
    /// let elicitation = session.elicit(request, Some("github"))?;
    /// assert_eq!(elicitation.ending, ElicitEnding::Accepted);
    /// assert_eq!(
    ///     elicitation.reply,
    ///     r#"{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"username":"octocat"}}}"#
    /// );
    /// # Ok(())
    /// # }
    /// ```
    pub fn elicit(&mut self, request: &str, requester: Option<&str>) -> Result<Elicitation, Error> {
        self.check_size(request)?;
        let digest = || {
            journal::digest(&[
                b"elicit",
                request.as_bytes(),
                requester.unwrap_or("").as_bytes(),
            ])
        };
        self.run("elicit", Some(&digest), |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_elicit(store, request, requester)
        })
    }

    /// Validates a tool call without asking: whether it is valid, and the `invalid` result or
    /// the questions understood.
    pub fn check(&mut self, name: &str, arguments: &str) -> Result<Checked, Error> {
        self.check_size(arguments)?;
        self.run("check", None, |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_check(store, name, arguments)
        })
    }

    /// The tool call `name` put as one MCP elicitation form, for a person reached through an
    /// MCP client's form UI rather than this session's UI, which it doesn't use: the form to
    /// send, a call MCP forbids in a form ([`FormStep::Unfit`]: reach the person another way),
    /// or the call's final result, as [`call`](Session::call) returns it.
    pub fn form(&mut self, name: &str, arguments: &str) -> Result<FormStep, Error> {
        self.check_size(arguments)?;
        self.run("form", None, |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_form(store, name, arguments)
        })
    }

    /// Judges the client's reply to [`form`](Session::form) (its `ElicitResult` JSON) as
    /// [`call`](Session::call) judges a terminal's answers: `call`'s result, or, when an
    /// answer is refused, the form to send again, with the refusal.
    ///
    /// ```
    /// use interview_host::ask::{FormStep, Status};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let plugin = interview_host::Plugin::load()?;
    /// let mut session = plugin.session(interview_host::ui::NoPerson(interview_host::ui::Absence::NoTerminal))?;
    /// let call = r#"{"question": "Ship it?", "type": "confirm"}"#;
    /// let FormStep::Form(form) = session.form("interview", call)? else { panic!("a form") };
    /// let params: serde_json::Value = serde_json::from_str(&form.params)?;
    /// assert_eq!(params["requestedSchema"]["properties"]["q1"]["type"], "boolean");
    /// let reply = r#"{"action": "accept", "content": {"q1": true}}"#;
    /// let FormStep::Done(result) = session.answer_form("interview", call, reply)? else {
    ///     panic!("a result")
    /// };
    /// assert_eq!(result.status, Status::Answered);
    /// assert!(result.json.contains(r#""answer":true"#));
    /// # Ok(())
    /// # }
    /// ```
    pub fn answer_form(
        &mut self,
        name: &str,
        arguments: &str,
        reply: &str,
    ) -> Result<FormStep, Error> {
        self.check_size(arguments)?;
        self.check_size(reply)?;
        let settings = self.settings.clone();
        self.run("answer-form", None, |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_answer_form(store, name, arguments, reply, &settings)
        })
    }

    /// Asks typed questions.
    pub fn ask(&mut self, questions: &[Question]) -> Result<Outcome, Error> {
        let settings = self.settings.clone();
        let request = || journal::digest(&[b"ask", format!("{questions:?}").as_bytes()]);
        self.run("ask", Some(&request), |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_ask(store, questions, &settings)
        })
    }

    /// The plugin's `invalid` result for a tool call whose request could not be read
    /// (`source` empty), or that needs something of the host's that cannot be used (`source`
    /// names it, as `--journal`). See [`crate::host_results`] for a host without a plugin to
    /// ask.
    pub fn unreadable(&mut self, source: &str, message: &str) -> Result<CallResult, Error> {
        self.run("unreadable", None, |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_unreadable(store, source, message)
        })
    }

    /// The plugin's `failed` result for a call that failed (`message`), with what the person
    /// had `given`.
    pub fn failed(&mut self, message: &str, given: &[Given]) -> Result<CallResult, Error> {
        let given = wit_given(given);
        self.run("failed", None, |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_failed(store, message, &given)
        })
    }

    /// The plugin's reply to an elicitation whose request could not be read: a JSON-RPC parse
    /// error.
    pub fn unreadable_elicitation(&mut self, message: &str) -> Result<Elicitation, Error> {
        self.run("unreadable-elicitation", None, |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_unreadable_elicitation(store, message)
        })
    }

    /// The plugin's reply to the elicitation `request` that failed (`message`), with what the
    /// person had `given`: `cancel`, never unchecked content.
    pub fn failed_elicitation(
        &mut self,
        request: &str,
        message: &str,
        given: &[Given],
    ) -> Result<Elicitation, Error> {
        let given = wit_given(given);
        self.run("failed-elicitation", None, |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_failed_elicitation(store, request, message, &given)
        })
    }

    /// Has the plugin draw a widget relayed from elsewhere in its numbered line mode, on this
    /// session's UI's `write` and `read_line`, and gives the person's reply (see
    /// [`PluginLines`](crate::PluginLines), the [`Ui`] made of it).
    pub fn draw_in_lines(&mut self, widget: &RelayedWidget) -> Result<RelayedReply, Error> {
        self.run("draw-in-lines", None, |bindings, store| {
            bindings
                .interview_plugin_tool()
                .call_draw_in_lines(store, widget)
        })
    }

    /// When the last call's result was saved by a replay: the plugin failed after the person
    /// had answered, and their replies were played back into a fresh instance with larger
    /// limits. What failed, in a line, for a log.
    pub fn recovered_from(&self) -> Option<&str> {
        self.recovered.as_deref()
    }

    /// The UI.
    pub fn ui(&self) -> &U {
        &self.store().data().ui
    }

    /// Ends the session and gives the UI back, to use in another session.
    pub fn into_ui(mut self) -> U {
        self.store
            .take()
            .expect("a session has a store between calls")
            .into_data()
            .ui
    }

    /// The UI, to change it between calls.
    pub fn ui_mut(&mut self) -> &mut U {
        &mut self.store_mut().data_mut().ui
    }

    fn store(&self) -> &Store<State<U>> {
        self.store
            .as_ref()
            .expect("a session has a store between calls")
    }

    fn store_mut(&mut self) -> &mut Store<State<U>> {
        self.store
            .as_mut()
            .expect("a session has a store between calls")
    }

    /// A store for `ui` and `recorder` with `limits`.
    fn store_with(&self, ui: U, limits: &Limits, recorder: Recorder) -> Store<State<U>> {
        let state = State {
            ui,
            limits: limits.store_limits(),
            memory_bytes: limits.memory_bytes(),
            clock: GuestClock::new(),
            epoch: self.epoch.clone(),
            recorder,
        };
        let mut store = Store::new(&self.engine, state);
        store.limiter(|state| &mut state.limits);
        let budget = limits.compute();
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(move |context| {
            if context.data().clock.guest_time() > budget {
                return Err(wasmtime::format_err!(
                    "the plugin computed for more than {budget:?} without returning"
                ));
            }
            Ok(UpdateDeadline::Continue(1))
        });
        store
    }

    fn check_size(&self, arguments: &str) -> Result<(), Error> {
        let limit = self.limits.request_bytes();
        if arguments.len() > limit {
            return Err(Error::RequestTooLarge {
                bytes: arguments.len(),
                limit,
            });
        }
        Ok(())
    }

    fn instance(&mut self) -> wasmtime::Result<()> {
        if self.instance.is_none() {
            let store = self
                .store
                .as_mut()
                .expect("a session has a store between calls");
            let bindings = self.linked.instantiate(store)?;
            self.instance = Some(bindings);
        }
        Ok(())
    }

    /// Calls an export with a fresh compute budget; `request` gives the digest of a request
    /// that asks, which a journal is kept for (computed only when there is a journal). A trapped instance may not be entered again, so
    /// after a trap the session starts over in a fresh store (which frees the trapped
    /// instance's memory); the UI carries over. If the person had answered before the trap,
    /// their replies are played back into a fresh instance with larger limits, without asking
    /// again; if that fails too, [`Error::Trap`] carries what they gave.
    fn run<R>(
        &mut self,
        function: &'static str,
        request: Option<&dyn Fn() -> String>,
        call: impl Fn(&Bindings, &mut Store<State<U>>) -> wasmtime::Result<R>,
    ) -> Result<R, Error> {
        self.instance().map_err(Error::Instantiate)?;
        self.recovered = None;
        let source = self.source.clone();
        let recorder = &mut self.store_mut().data_mut().recorder;
        recorder.start();
        if let Some(request) = request {
            recorder.resume(|| (source.digest().to_string(), request()))?;
        }
        let error = match self.attempt(&call) {
            Ok(result) => return Ok(result),
            Err(error) => error,
        };
        // The same request and the same replies take the plugin down the same path: a replay
        // needs larger limits, and only makes sense once the person has answered.
        let answered = self.store().data().recorder.has_replies();
        if !answered {
            let given = self.replace_store(&self.limits.clone());
            return Err(Error::Trap {
                function,
                source: error,
                given,
            });
        }
        self.replace_store(&self.limits.enlarged());
        self.store_mut().data_mut().recorder.retry();
        let retried = self.attempt(&call);
        // The next call runs under the usual limits again.
        let given = self.replace_store(&self.limits.clone());
        if retried.is_ok() {
            self.recovered = Some(error.root_cause().to_string());
        }
        retried.map_err(|source| Error::Trap {
            function,
            source,
            given,
        })
    }

    /// One call of an export in the current store.
    fn attempt<R>(
        &mut self,
        call: &impl Fn(&Bindings, &mut Store<State<U>>) -> wasmtime::Result<R>,
    ) -> wasmtime::Result<R> {
        let epoch = self.epoch.clone();
        let _running = epoch.guest();
        self.instance()?;
        let bindings = self.instance.take().expect("instantiated above");
        let store = self.store_mut();
        store.data_mut().clock.restart();
        store.set_epoch_deadline(1);
        let result = call(&bindings, store);
        self.store_mut().data_mut().ui.finished();
        if result.is_ok() {
            self.instance = Some(bindings);
        }
        result
    }

    /// Moves the UI and the recorder into a fresh store with `limits`; what the person
    /// answered so far, in words.
    fn replace_store(&mut self, limits: &Limits) -> Vec<Given> {
        let old = self
            .store
            .take()
            .expect("a session has a store between calls");
        let state = old.into_data();
        let given = state.recorder.given().to_vec();
        self.store = Some(self.store_with(state.ui, limits, state.recorder));
        self.instance = None;
        given
    }
}

/// What the person gave, as the plugin's `given` records take it.
fn wit_given(given: &[Given]) -> Vec<crate::ask::Given> {
    given
        .iter()
        .map(|g| crate::ask::Given {
            position: g.position,
            header: g.header.clone(),
            prompt: g.prompt.clone(),
            answer: g.answer.to_string(),
            note: g.note.clone(),
        })
        .collect()
}
