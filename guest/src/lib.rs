//! The interview plugin: what a request means, whether it is valid, which question comes next,
//! whether an answer is acceptable, and what goes back to the agent. It never draws: it reaches
//! the person only through the `ui` interface its host provides (see `wit/`).
//!
//! Everything but the last few lines of this file is plain Rust over the WIT-generated types, so
//! it is unit-tested natively with a scripted UI; the wasm export is a thin layer on top.

/// The guest's allocator. std's dlmalloc was about a sixth of a 10,000-option call (allocating,
/// freeing, binning large chunks); talc makes the component 4.6 KB smaller and that call a
/// little faster.
#[cfg(target_family = "wasm")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

mod bindings {
    wit_bindgen::generate!({
        path: "../wit",
        world: "plugin",
        generate_all,
        additional_derives: [PartialEq],
    });
}

// One sanitizer and one JSON escaping for the plugin and the Rust host, which keeps its own
// pass as a second line of defence against other builds of the component.
use interview_text::{json as json_text, sanitize};

pub mod agent_tools;
pub mod call_form;
pub mod decimal;
pub mod elicit;
pub mod flow;
pub mod host_results;
pub mod imported_ui;
pub mod judge;
pub mod limits;
pub mod lines;
pub mod llm_text;
pub mod model;
pub mod native;
mod printable;
mod quoted;
pub mod relayed;
pub mod request;
pub mod result;
pub mod schema;
pub mod secret;
mod secret_choice;
pub mod summary;
pub mod text_format;
mod text_pattern;
pub mod tool;
pub mod tool_formats;
pub mod ui;
pub mod validate;
pub mod visible;

#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;

use bindings::exports::interview::plugin::tool::{
    Guest, RelayedReply, RelayedWidget, ToolDefinition,
};
use model::{
    CallResult, Checked, Elicitation, FormStep, Given, Outcome, Question, Settings, ToolFormat,
};

/// The component's export: each function hands over to [`tool`] with the imported UI.
struct Plugin;

impl Guest for Plugin {
    fn definitions() -> Vec<ToolDefinition> {
        schema::definitions()
    }

    fn definitions_as(format: ToolFormat) -> String {
        tool_formats::render(&schema::definitions(), format)
    }

    fn call(name: String, arguments: String, settings: Settings) -> CallResult {
        tool::call(
            &name,
            &arguments,
            &settings,
            &mut imported_ui::ImportedUi::default(),
        )
    }

    fn check(name: String, arguments: String) -> Checked {
        tool::check(&name, &arguments)
    }

    fn form(name: String, arguments: String) -> FormStep {
        call_form::form(&name, &arguments)
    }

    fn answer_form(name: String, arguments: String, reply: String, settings: Settings) -> FormStep {
        call_form::answer_form(&name, &arguments, &reply, &settings)
    }

    fn ask(questions: Vec<Question>, settings: Settings) -> Outcome {
        tool::ask(
            questions,
            &settings,
            &mut imported_ui::ImportedUi::default(),
        )
    }

    fn elicit(request: String, requester: Option<String>) -> Elicitation {
        elicit::elicit(
            &request,
            requester.as_deref(),
            &mut imported_ui::ImportedUi::default(),
        )
    }

    fn unreadable(source: String, message: String) -> CallResult {
        host_results::unreadable(&source, &message)
    }

    fn failed(message: String, given: Vec<Given>) -> CallResult {
        host_results::failed(&message, &given)
    }

    fn unreadable_elicitation(message: String) -> Elicitation {
        host_results::unreadable_elicitation(&message)
    }

    fn failed_elicitation(request: String, message: String, given: Vec<Given>) -> Elicitation {
        host_results::failed_elicitation(&request, &message, &given)
    }

    fn draw_in_lines(widget: RelayedWidget) -> RelayedReply {
        relayed::draw_in_lines(&mut imported_ui::ImportedUi::in_lines(), widget)
    }
}

bindings::export!(Plugin with_types_in bindings);
