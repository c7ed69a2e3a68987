//! The conformance suite (`tests/conformance/`), run by the Rust host: the same cases the Python
//! and JavaScript hosts run, with the same expected results.

use std::sync::Arc;

use interview_host::ask::*;
use interview_host::ui::*;
use interview_host::*;
use serde_json::Value as Json;

/// A case's `script` step as a scripted reply, and the widget it names.
fn step(step: &Json) -> (&'static str, Step) {
    let (widget, reply) = step
        .as_object()
        .and_then(|o| o.iter().next())
        .expect("a step names one widget");
    let nav = match reply.as_str() {
        Some("back") => Some(Nav::Back),
        Some("skip") => Some(Nav::Skip),
        Some("cancel") => Some(Nav::Cancel),
        Some("decline") => Some(Nav::Decline),
        _ => None,
    };
    let text = |key: &str| reply[key].as_str().map(str::to_string);
    match widget.as_str() {
        "select" => (
            "select",
            Step::Select(match (nav, reply.as_str()) {
                (Some(nav), _) => SelectReply::Nav(nav),
                (None, Some("discuss")) => SelectReply::Discuss,
                _ => match reply.get("picked") {
                    Some(n) => SelectReply::Picked(Pick {
                        index: n.as_u64().unwrap() as u32,
                        note: text("note"),
                    }),
                    None => SelectReply::Other(text("other").unwrap()),
                },
            }),
        ),
        "multi_select" => (
            "multi_select",
            Step::MultiSelect(match nav {
                Some(nav) => MultiSelectReply::Nav(nav),
                None => MultiSelectReply::Picked(MultiPick {
                    picked: reply["picked"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|n| n.as_u64().unwrap() as u32)
                        .collect(),
                    other: text("other"),
                    note: text("note"),
                }),
            }),
        ),
        "text" => (
            "text",
            Step::Text(nav.map_or_else(
                || TextReply::Submitted(text("submitted").unwrap()),
                TextReply::Nav,
            )),
        ),
        "confirm" => (
            "confirm",
            Step::Confirm(nav.map_or_else(
                || ConfirmReply::Answered(reply["answered"].as_bool().unwrap()),
                ConfirmReply::Nav,
            )),
        ),
        "number" => (
            "number",
            Step::Number(nav.map_or_else(
                || NumberReply::Entered(text("entered").unwrap()),
                NumberReply::Nav,
            )),
        ),
        "review" => (
            "review",
            Step::Review(match reply.as_str() {
                Some("submit") => ReviewReply::Submit,
                Some("cancel") => ReviewReply::Cancel,
                Some("decline") => ReviewReply::Decline,
                _ => ReviewReply::Edit(reply["edit"].as_u64().unwrap() as u32),
            }),
        ),
        other => panic!("unknown widget {other:?} in a script"),
    }
}

fn widget_of(shown: &Shown) -> &'static str {
    match shown {
        Shown::Select(..) => "select",
        Shown::MultiSelect(..) => "multi_select",
        Shown::Text(..) => "text",
        Shown::Confirm(..) => "confirm",
        Shown::Number(..) => "number",
        Shown::Review(..) => "review",
    }
}

/// One test per case, named after its file: `cargo test -p interview-host --test conformance
/// -- codex` runs the Codex cases. The component is compiled once for all of them.
fn main() -> std::process::ExitCode {
    let args = libtest_mimic::Arguments::from_args();
    let plugin = Arc::new(Plugin::builder().cache_dir(None).build().unwrap());
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/conformance");
    let mut cases: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 10, "the suite is in {dir}");
    let trials = cases
        .into_iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let plugin = plugin.clone();
            libtest_mimic::Trial::test(name, move || Ok(run_case(&plugin, &path)?))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}

/// The reason nobody can answer, by its name in results.
fn absence(name: &str) -> Absence {
    match name {
        "no-terminal" => Absence::NoTerminal,
        "no-inbox" => Absence::NoInbox,
        "background" => Absence::Background,
        "no-input" => Absence::NoInput,
        "form-dismissed" => Absence::FormDismissed,
        "page-not-opened" => Absence::PageNotOpened,
        "unknown-addressee" => Absence::UnknownAddressee,
        "inbox-refused" => Absence::InboxRefused,
        other => panic!("no such reason: {other}"),
    }
}

/// Runs one case: `Err` says how it differs from what the case expects.
fn run_case(plugin: &Plugin, path: &std::path::Path) -> Result<(), String> {
    let case: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (widgets, steps): (Vec<_>, Vec<_>) =
        case["script"].as_array().unwrap().iter().map(step).unzip();
    let ui = match case["unavailable"].as_str() {
        Some(reason) => ScriptedUi::unavailable(absence(reason)),
        None => ScriptedUi::new(steps),
    };
    let mut session = plugin.session(ui).unwrap();
    session.set_skip_response(case["skip_response"].as_str().map(str::to_string));
    let raw = |value: &Json| match value {
        Json::String(raw) => raw.clone(),
        value => value.to_string(),
    };
    let reply = if let Some(request) = case.get("elicit") {
        let elicitation = session
            .elicit(&raw(request), case["requester"].as_str())
            .unwrap();
        let ending = match elicitation.ending {
            ElicitEnding::Accepted => "accepted",
            ElicitEnding::Declined => "declined",
            ElicitEnding::Cancelled => "cancelled",
            ElicitEnding::Unavailable => "unavailable",
            ElicitEnding::Invalid => "invalid",
            ElicitEnding::Failed => "failed",
        };
        if ending != case["ending"] {
            return Err(format!("ended {ending}, not {}", case["ending"]));
        }
        elicitation.reply
    } else {
        let arguments = raw(&case["arguments"]);
        session
            .call(case["tool"].as_str().unwrap(), &arguments)
            .unwrap()
            .json
    };
    let result: Json = serde_json::from_str(&reply).unwrap();
    let asked: Vec<_> = session.ui().shown().iter().map(widget_of).collect();
    if asked != widgets {
        return Err(format!("asked {asked:?}, the script answers {widgets:?}"));
    }
    if result != case["result"] {
        return Err(format!(
            "{}\nresult: {}",
            case["description"],
            serde_json::to_string_pretty(&result).unwrap()
        ));
    }
    Ok(())
}
