//! The real plugin component through the real host, with a scripted UI.

use std::sync::OnceLock;

use interview_host::ask::*;
use interview_host::ui::*;
use interview_host::*;
use serde_json::{Value as Json, json};

/// One plugin for the whole file.
fn plugin() -> &'static Plugin {
    static PLUGIN: OnceLock<Plugin> = OnceLock::new();
    PLUGIN.get_or_init(|| Plugin::load().expect("the built-in plugin loads"))
}

fn call(arguments: &str, steps: impl IntoIterator<Item = Step>) -> (Json, Session<ScriptedUi>) {
    let mut session = plugin().session(ScriptedUi::new(steps)).unwrap();
    let result = session.call("interview", arguments).unwrap().json;
    (serde_json::from_str(&result).unwrap(), session)
}

#[test]
fn a_mixed_batch_end_to_end() {
    let request = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/deploy.json"
    ))
    .unwrap();
    let (result, session) = call(
        &request,
        [
            Step::Select(SelectReply::Other("Canary in prod".into())),
            Step::MultiSelect(MultiSelectReply::Picked(MultiPick {
                picked: vec![0, 2],
                other: None,
                note: None,
            })),
            Step::Number(NumberReply::Entered("3".into())),
            Step::Confirm(ConfirmReply::Answered(false)),
            Step::Text(TextReply::Submitted("Friday freeze".into())),
            Step::Review(ReviewReply::Submit),
        ],
    );
    assert_eq!(session.ui().remaining(), 0);
    let Some(Shown::Review(review)) = session.ui().shown().last() else {
        panic!("no review")
    };
    let words: Vec<_> = review.items.iter().map(|i| i.answer.as_str()).collect();
    assert_eq!(
        words,
        [
            "Canary in prod",
            "Unit tests, Migrations dry-run",
            "3",
            "no",
            "Friday freeze"
        ]
    );
    assert_eq!(
        result,
        json!({
            "status": "answered",
            "answers": [
                {"id": "environment", "question": "Which environment should I deploy to?", "type": "select",
                 "value": "Canary in prod", "custom": true, "skipped": false, "discuss": false},
                {"id": "checks", "question": "Which checks should run first?", "type": "multi_select",
                 "value": ["Unit tests", "Migrations dry-run"], "custom": false, "skipped": false, "discuss": false},
                {"id": "replicas", "question": "How many replicas?", "type": "number",
                 "value": 3, "custom": false, "skipped": false, "discuss": false},
                {"id": "notify", "question": "Post a message in #deploys when done?", "type": "confirm",
                 "value": false, "custom": false, "skipped": false, "discuss": false},
                {"id": "notes", "question": "Anything else I should know?", "type": "text",
                 "value": "Friday freeze", "custom": false, "skipped": false, "discuss": false},
            ],
            "text": "User answered all 5 questions:\n1. Deploy: User wrote: Canary in prod\n2. Checks: User selected: \
                     Unit tests, Migrations dry-run\n3. Scale: User entered: 3\n4. Post a message in #deploys when \
                     done?: User answered: no\n5. Notes: User wrote: Friday freeze",
            // The `interview` tool answers in the shape of elelem's tool of that name too.
            "native": {"answers": ["Canary in prod", ["Unit tests", "Migrations dry-run"], 3, false, "Friday freeze"]},
        })
    );
}

#[test]
fn agent_text_is_sanitized_before_any_ui_sees_it() {
    let request = json!({
        "question": "Pick\x1b[2J one\x1b]0;pwned\x07?\nSecond line",
        "header": "\x1b[31mRed\x1b[0m",
        "options": [
            {"label": "A\x1b[1A\rB", "description": "x\x1b[8my\u{202e}z", "preview": "\tfn x()\x1b[2J"},
            "plain",
        ],
    });
    let (_, session) = call(&request.to_string(), [Step::Select(SelectReply::picked(0))]);
    let Shown::Select(frame, select) = &session.ui().shown()[0] else {
        panic!()
    };
    assert_eq!(frame.prompt, "Pick one?\nSecond line");
    assert_eq!(frame.header.as_deref(), Some("Red"));
    let option = select.options.get(0).unwrap();
    assert_eq!(option.label, "AB");
    assert_eq!(option.description, Some("xyz"));
    assert_eq!(option.preview, Some("    fn x()"));
    assert_eq!(
        option.value, "A\x1b[1A\rB",
        "values go back to the agent untouched"
    );
    assert_eq!(select.options.get(1), Some(ChoiceRef::plain("plain")));
    assert_eq!(select.options.len(), 2);
}

/// Invisible characters by Unicode property, in an agent's question and a person's answer:
/// tags spelling "AB", Hangul fillers, the combining grapheme joiner, a Khmer inherent vowel.
const TAGGED: &str = "Deploy\u{e0041}\u{e0042}?";
const FILLED: &str = "a\u{3164}b\u{115f}c\u{ffa0}d\u{34f}e\u{17b4}f";

#[test]
fn the_plugin_escapes_invisible_characters_in_its_json_and_never_shows_them() {
    let request = json!({"question": TAGGED});
    let mut session = plugin()
        .session(ScriptedUi::new([Step::Text(TextReply::Submitted(
            FILLED.into(),
        ))]))
        .unwrap();
    // The plugin's own text, as the Python and JavaScript hosts print it.
    let text = session
        .call("interview", &request.to_string())
        .unwrap()
        .json;
    assert!(
        text.contains(r"Deploy\udb40\udc41\udb40\udc42?")
            && text.contains(r"a\u3164b\u115fc\uffa0d\u034fe\u17b4f"),
        "{text}"
    );
    let raw = |c: char| ('\u{e0000}'..='\u{e0fff}').contains(&c) || FILLED.contains(c);
    assert!(!text.chars().any(|c| raw(c) && !c.is_ascii()), "{text}");
    let result: Json = serde_json::from_str(&text).unwrap();
    assert_eq!(result["answers"][0]["question"], TAGGED);
    assert_eq!(result["answer"], FILLED, "the answer means what was typed");
    let Shown::Text(frame, _) = &session.ui().shown()[0] else {
        panic!("{:?}", session.ui().shown())
    };
    assert_eq!(frame.prompt, "Deploy?");
}

#[test]
fn typed_ask_for_host_applications() {
    let question = Question {
        id: "go".into(),
        header: None,
        prompt: "Ship it?".into(),
        required: true,
        kind: QuestionKind::Confirm(ConfirmQuestion {
            default: Some(true),
        }),
    };
    let mut session = plugin()
        .session(ScriptedUi::new([Step::Confirm(ConfirmReply::Answered(
            true,
        ))]))
        .unwrap();
    let outcome = session.ask(std::slice::from_ref(&question)).unwrap();
    assert_eq!(
        outcome,
        Outcome::Answered(vec![Answer {
            id: "go".into(),
            value: Value::Boolean(true),
            origin: Origin::Given,
            note: None,
        }])
    );
    let bad = Question {
        id: String::new(),
        ..question
    };
    match session.ask(&[bad]).unwrap() {
        Outcome::Invalid(e) => assert_eq!(e.path, "questions[0].id"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn one_session_serves_many_calls_and_keeps_its_settings() {
    let mut session = plugin()
        .session(ScriptedUi::new([Step::Text(TextReply::Nav(Nav::Skip))]))
        .unwrap();
    session.set_skip_response(Some("Not sure.".into()));
    let first: Json = serde_json::from_str(
        &session
            .call("interview", r#"{"question": "Why?"}"#)
            .unwrap()
            .json,
    )
    .unwrap();
    assert_eq!(first["answer"], "Not sure.");
    session
        .ui_mut()
        .push([Step::Select(SelectReply::picked(0))]);
    let second: Json = serde_json::from_str(
        &session
            .call(
                "ask_question",
                r#"{"question": "A or B?", "options": ["A", "B"]}"#,
            )
            .unwrap()
            .json,
    )
    .unwrap();
    assert_eq!(second["text"], "User selected: 1. A");
}

#[test]
fn no_person_means_unavailable_at_once() {
    let mut session = plugin()
        .session(ScriptedUi::unavailable(Absence::NoTerminal))
        .unwrap();
    let result: Json = serde_json::from_str(
        &session
            .call("interview", r#"{"question": "Name?"}"#)
            .unwrap()
            .json,
    )
    .unwrap();
    assert_eq!(result["status"], "unavailable");
    assert_eq!(result["reason"], "no-terminal");
    assert!(session.ui().shown().is_empty());
}

#[test]
fn definitions_and_check_through_the_component() {
    let mut session = plugin().session(NoPerson(Absence::NoTerminal)).unwrap();
    let tools = session.definitions().unwrap();
    assert_eq!(tools[0].name, "interview");
    let schema: Json = serde_json::from_str(&tools[0].parameters).unwrap();
    assert_eq!(schema["required"], json!(["questions"]));
    let checked: Json = serde_json::from_str(
        &session
            .check("interview", r#"{"question": "x", "options": []}"#)
            .unwrap()
            .json,
    )
    .unwrap();
    assert_eq!(checked["error"]["path"], "options");
}

#[test]
fn the_host_refuses_oversized_requests_before_copying_them() {
    let limits = Limits::default().with_request_bytes(1000);
    let small = Plugin::builder()
        .cache_dir(None)
        .limits(limits)
        .build()
        .unwrap();
    let mut session = small.session(NoPerson(Absence::NoTerminal)).unwrap();
    let big = format!(r#"{{"question": "{}"}}"#, "x".repeat(2000));
    assert!(matches!(
        session.call("interview", &big),
        Err(Error::RequestTooLarge {
            bytes: 2016,
            limit: 1000
        })
    ));
    // The plugin's own limit (1 MiB) is an invalid result that says so.
    let mut session = plugin().session(NoPerson(Absence::NoTerminal)).unwrap();
    let huge = format!(r#"{{"question": "{}"}}"#, "x".repeat(1 << 20));
    let result: Json =
        serde_json::from_str(&session.call("interview", &huge).unwrap().json).unwrap();
    assert_eq!(result["status"], "invalid");
    assert!(
        result["error"]["message"]
            .as_str()
            .unwrap()
            .contains("more than the limit")
    );
}

/// The built-in plugin was compiled when the crate was built: loading it compiles nothing and
/// touches no cache folder, even one that cannot exist (a file where the folder would be).
/// Plugins loaded at once, in threads, share its code, which outlives any of them.
#[test]
fn the_builtin_plugin_needs_no_compiler_and_no_cache() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_folder = dir.path().join("file");
    std::fs::write(&not_a_folder, "").unwrap();
    let sessions: Vec<_> = std::thread::scope(|scope| {
        let loads: Vec<_> = (0..4)
            .map(|_| {
                let cache = not_a_folder.clone();
                scope.spawn(move || Plugin::builder().cache_dir(Some(cache)).build().unwrap())
            })
            .collect();
        loads
            .into_iter()
            .map(|load| {
                let plugin = load.join().unwrap();
                assert_eq!(plugin.load_kind(), &LoadKind::Builtin);
                plugin
                    .session(ScriptedUi::new([Step::Select(SelectReply::picked(1))]))
                    .unwrap()
            })
            .collect()
    });
    for mut session in sessions {
        let result = session
            .call(
                "interview",
                r#"{"question": "Which?", "options": ["a", "b"]}"#,
            )
            .unwrap()
            .json;
        let result: Json = serde_json::from_str(&result).unwrap();
        assert_eq!(result["answer"], "b");
    }
    assert_eq!(std::fs::read(&not_a_folder).unwrap(), b"");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn compiled_once_then_read_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(load_cached_in(dir.path()).load_kind(), &LoadKind::Compiled);
    assert_eq!(load_cached_in(dir.path()).load_kind(), &LoadKind::Cached);
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        files.len(),
        1,
        "one file, no temporary left over: {files:?}"
    );
}

/// The plugin compiled from its WebAssembly (not the code built in), with its cache in `dir`.
fn load_cached_in(dir: &std::path::Path) -> Plugin {
    Plugin::builder()
        .component_bytes(EMBEDDED_COMPONENT.to_vec())
        .cache_dir(Some(dir.into()))
        .build()
        .unwrap()
}

/// A cached component runs from the cache file's mapping, which must stay as long as any
/// session runs its code, not only as long as the plugin it was loaded by.
#[test]
fn a_session_outlives_the_cached_plugin_it_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let load = || load_cached_in(dir.path());
    assert_eq!(load().load_kind(), &LoadKind::Compiled);
    let plugin = load();
    assert_eq!(plugin.load_kind(), &LoadKind::Cached);
    let mut session = plugin
        .session(ScriptedUi::unavailable(Absence::NoTerminal))
        .unwrap();
    drop(plugin);
    for _ in 0..2 {
        let result = session
            .call("interview", r#"{"question": "x"}"#)
            .unwrap()
            .json;
        let result: Json = serde_json::from_str(&result).unwrap();
        assert_eq!(result["status"], "unavailable");
    }
}

/// A cache file that is damaged, replaced or not a file at all is never handed to wasmtime
/// (whose deserialize trusts its bytes as machine code): it is compiled again and replaced.
#[test]
fn a_poisoned_cache_is_rebuilt_never_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let load = || load_cached_in(dir.path());
    assert_eq!(load().load_kind(), &LoadKind::Compiled);
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let good = std::fs::read(&file).unwrap();
    let rebuilt_because = |damage: &dyn Fn()| {
        damage();
        let plugin = load();
        let mut session = plugin
            .session(ScriptedUi::unavailable(Absence::NoTerminal))
            .unwrap();
        assert!(session.call("interview", r#"{"question": "x"}"#).is_ok());
        assert_eq!(
            load().load_kind(),
            &LoadKind::Cached,
            "the file was replaced"
        );
        match plugin.load_kind() {
            LoadKind::Rebuilt(reason) => reason.clone(),
            other => panic!("{other:?}"),
        }
    };
    // 400 KB of zeros in the middle: the machine code itself.
    let zeroed = rebuilt_because(&|| {
        let mut bad = good.clone();
        let middle = bad.len() / 2 - 200_000;
        bad[middle..middle + 400_000].fill(0);
        std::fs::write(&file, bad).unwrap();
    });
    assert_eq!(zeroed, "its checksum does not match its contents");
    let truncated = rebuilt_because(&|| std::fs::write(&file, &good[..good.len() / 2]).unwrap());
    assert_eq!(truncated, "its checksum does not match its contents");
    // A FIFO would block a reader for ever; a symlink could point anywhere.
    let fifo = rebuilt_because(&|| {
        std::fs::remove_file(&file).unwrap();
        let path = std::ffi::CString::new(file.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    });
    assert_eq!(fifo, "it is not a regular file");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::write(&elsewhere, &good).unwrap();
    let symlink = rebuilt_because(&|| {
        std::fs::remove_file(&file).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &file).unwrap();
    });
    assert!(symlink.starts_with("cannot open it"), "{symlink}");
    // Intact, but not code this wasmtime compiled: wasmtime's own checks refuse it.
    let foreign = rebuilt_because(&|| {
        std::fs::remove_file(&file).unwrap();
        let bytes = b"\x7fELF, but not compiled by this engine";
        let name = file.file_name().unwrap().to_str().unwrap();
        let key = name.split('.').next().unwrap();
        let crc = crc32fast::hash(bytes);
        std::fs::write(dir.path().join(format!("{key}.{crc:08x}.cwasm")), bytes).unwrap();
    });
    assert!(foreign.starts_with("wasmtime refused it"), "{foreign}");
}

#[test]
fn a_missing_or_foreign_component_is_a_clear_error() {
    let missing = Plugin::builder()
        .component_path("/nonexistent/plugin.wasm")
        .build();
    assert!(matches!(missing, Err(Error::Read { .. })));
    let foreign = Plugin::builder()
        .cache_dir(None)
        .component_bytes(b"\0asm not really".to_vec())
        .build();
    assert!(matches!(foreign, Err(Error::Compile(_))));
}

mod misbehaving {
    //! Components that trap, spin or eat memory: the host stops them and stays usable.

    use super::*;
    use std::time::{Duration, Instant};

    /// A component of the plugin's world whose every function runs `body`.
    fn component(body: &str) -> Vec<u8> {
        component_with("", body)
    }

    /// A component of the plugin's world with the module fields `fields` (a table, say) added,
    /// whose every function runs `body`.
    fn component_with(fields: &str, body: &str) -> Vec<u8> {
        let mut resolve = wit_parser::Resolve::default();
        let (package, _) = resolve
            .push_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../wit"))
            .unwrap();
        let world = resolve.select_world(&[package], Some("plugin")).unwrap();
        let mangling = wit_parser::ManglingAndAbi::Legacy(wit_parser::LiftLowerAbi::Sync);
        let dummy = wit_component::dummy_module(&resolve, world, mangling);
        let text = wasmprinter::print_bytes(&dummy)
            .unwrap()
            .replace("unreachable", body)
            .replacen("(memory", &format!("{fields}\n  (memory"), 1);
        let mut module = wat::parse_str(&text).unwrap();
        wit_component::embed_component_metadata(
            &mut module,
            &resolve,
            world,
            wit_component::StringEncoding::UTF8,
            false,
        )
        .unwrap();
        wit_component::ComponentEncoder::default()
            .module(&module)
            .unwrap()
            .validate(true)
            .encode()
            .unwrap()
    }

    fn load(body: &str, limits: Limits) -> Plugin {
        Plugin::builder()
            .cache_dir(None)
            .component_bytes(component(body))
            .limits(limits)
            .build()
            .unwrap()
    }

    /// What a trap says happened, in a line: the last error of its chain, as it is kept.
    fn cause(error: &wasmtime::Error) -> String {
        let cause = error.root_cause().to_string();
        eprintln!("trap: {cause}");
        cause
    }

    #[test]
    fn a_trap_is_an_error_and_the_next_call_gets_a_fresh_instance() {
        let plugin = load("unreachable", Limits::default());
        let mut session = plugin.session(NoPerson(Absence::NoTerminal)).unwrap();
        for _ in 0..2 {
            match session.call("interview", "{}") {
                Err(Error::Trap {
                    function: "call",
                    source,
                    given,
                }) if given.is_empty() => assert!(cause(&source).contains("unreachable")),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn a_guest_that_spins_is_stopped_within_its_budget() {
        let budget = Duration::from_millis(200);
        let plugin = load(
            "(loop (br 0)) unreachable",
            Limits::default().with_compute(budget),
        );
        let mut session = plugin.session(NoPerson(Absence::NoTerminal)).unwrap();
        let started = Instant::now();
        let result = session.call("interview", "{}");
        let took = started.elapsed();
        match result {
            Err(Error::Trap { source, .. }) => {
                assert!(cause(&source).contains("computed for more than"))
            }
            other => panic!("{other:?}"),
        }
        assert!(
            took >= budget && took < budget * 10,
            "stopped after {took:?}"
        );
    }

    #[test]
    fn a_guest_that_eats_memory_is_stopped_at_the_cap() {
        let body = "(loop (drop (memory.grow (i32.const 16))) (br 0)) unreachable";
        let plugin = load(body, Limits::default().with_memory_bytes(8 << 20));
        let mut session = plugin.session(NoPerson(Absence::NoTerminal)).unwrap();
        match session.call("interview", "{}") {
            Err(Error::Trap { source, .. }) => assert!(cause(&source).contains("memory")),
            other => panic!("{other:?}"),
        }
    }

    /// Options may name one text again and again, which the host would copy for each: the
    /// texts it copies stop at the plugin's memory cap. Here 64 options name one 1 MiB label
    /// in a plugin held to 8 MiB.
    #[test]
    fn a_guest_naming_one_text_for_every_option_is_stopped_at_its_memory_cap() {
        let mib = 1 << 20;
        // Every function runs this body: the first two calls are `cabi_realloc`'s, for the
        // call's name and arguments (memory is grown, and both are put at 512); the third is
        // `call`, which asks a select with a 44-byte choice at 4096 copied onto the end of the
        // list until there are 64, each naming the 1 MiB text at 1 MiB as label and value. The
        // arguments are at 1024: the frame (84 bytes of zeros), then the request, its options
        // first.
        let doublings: String = (0..6)
            .map(|n| 44 << n)
            .map(|bytes| {
                let to = 4096 + bytes;
                format!("(memory.copy (i32.const {to}) (i32.const 4096) (i32.const {bytes}))")
            })
            .collect();
        let body = format!(
            "(if (i32.lt_u (global.get $reallocs) (i32.const 2)) (then
               (global.set $reallocs (i32.add (global.get $reallocs) (i32.const 1)))
               (if (i32.eqz (memory.size)) (then (drop (memory.grow (i32.const 32)))))
               (return (i32.const 512))))
             (memory.fill (i32.const {mib}) (i32.const 97) (i32.const {mib}))
             (i32.store (i32.const 4096) (i32.const {mib}))
             (i32.store (i32.const 4100) (i32.const {mib}))
             (i32.store (i32.const 4104) (i32.const {mib}))
             (i32.store (i32.const 4108) (i32.const {mib}))
             {doublings}
             (i32.store (i32.const 1108) (i32.const 4096))
             (i32.store (i32.const 1112) (i32.const 64))
             (call 1 (i32.const 1024) (i32.const 2048))
             unreachable"
        );
        let plugin = Plugin::builder()
            .cache_dir(None)
            .component_bytes(component_with(
                "(global $reallocs (mut i32) (i32.const 0))",
                &body,
            ))
            .limits(Limits::default().with_memory_bytes(8 * mib))
            .build()
            .unwrap();
        let mut session = plugin.session(NoPerson(Absence::NoTerminal)).unwrap();
        match session.call("interview", "{}") {
            Err(Error::Trap { source, .. }) => {
                let cause = cause(&source);
                assert!(cause.contains("memory limit"), "{cause}");
                assert!(cause.contains("by option 8"), "{cause}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// Growing a table would get around the memory cap (each element is host memory): tables
    /// have a cap of their own.
    #[test]
    fn a_guest_that_grows_a_table_is_stopped_at_the_cap() {
        let body =
            "(loop (drop (table.grow $hog (ref.null func) (i32.const 65536))) (br 0)) unreachable";
        let plugin = Plugin::builder()
            .cache_dir(None)
            .component_bytes(component_with("(table $hog 0 funcref)", body))
            .build()
            .unwrap();
        let mut session = plugin.session(NoPerson(Absence::NoTerminal)).unwrap();
        let started = Instant::now();
        match session.call("interview", "{}") {
            Err(Error::Trap { source, .. }) => assert!(cause(&source).contains("table")),
            other => panic!("{other:?}"),
        }
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "stopped by the cap, not the compute budget"
        );
    }
}

/// A plugin that runs out of memory after the person answered: their replies are played back
/// into a fresh instance with larger limits, and the result comes back without asking again.
#[test]
fn answers_survive_a_plugin_that_fails_after_them() {
    let small = Plugin::builder()
        .cache_dir(None)
        .limits(Limits::default().with_memory_bytes(8 << 20))
        .build()
        .unwrap();
    let request = r#"{"question": "Paste the log", "multiline": true}"#;
    // A megabyte of text costs the plugin more than 8 MiB to answer, less than four times that.
    let log = "all good\n".repeat(1 << 17) + "done";
    let ui = ScriptedUi::new([Step::Text(TextReply::Submitted(log.clone()))]);
    let mut session = small.session(ui).unwrap();
    let result: Json =
        serde_json::from_str(&session.call("interview", request).unwrap().json).unwrap();
    assert_eq!(result["status"], "answered");
    assert!(
        result["answer"] == log.as_str(),
        "the answer is the whole log"
    );
    let failure = session.recovered_from().expect("the first run failed");
    assert!(failure.contains("memory"), "{failure}");
    assert_eq!(session.ui().shown().len(), 1, "the person was asked once");

    // Three megabytes are too much even for the replay: the error carries the answer.
    let huge = "x".repeat(3 << 20);
    let ui = ScriptedUi::new([Step::Text(TextReply::Submitted(huge.clone()))]);
    let mut session = small.session(ui).unwrap();
    match session.call("interview", request) {
        Err(Error::Trap { given, .. }) => {
            assert_eq!(given.len(), 1);
            assert_eq!(given[0].prompt, "Paste the log");
            assert!(
                given[0].answer == json!(huge),
                "the answer is the whole text"
            );
        }
        other => panic!("{:?}", other.map(|r| r.json.len())),
    }
}
