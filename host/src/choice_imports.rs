//! The plugin's `select` and `multi-select` calls, with their options read straight from its
//! memory into [`Options`].
//!
//! wasmtime's generated imports lift every option into a `Choice` of four strings of its own
//! before the host sees it: for a list of 10,000 options, a megabyte of records and 20,000
//! allocations: most of the fresh memory that such a list cost a one-question process, and a
//! tenth of its time to the first frame. These definitions take the options as a `WasmList`
//! of records of `WasmStr`, which point into the plugin's memory, and copy each text once,
//! cleaned, into one buffer. The rest of each request comes to [`State::ask_select`] and
//! [`State::ask_multi_select`], as the other imports come to theirs.

use wasmtime::component::{ComponentType, Lift, Linker, WasmList, WasmStr};
use wasmtime::{AsContextMut, StoreContextMut};

use crate::imports::State;
use crate::ui::Frame;
use crate::ui::cleaned;
use crate::ui::{ChoiceRef, MultiSelectRequest, Options, SelectRequest, Ui};

/// The interface the plugin imports its UI from, as its import is named.
pub(crate) const UI_INTERFACE: &str = "interview:plugin/ui@0.4.0";

/// The WIT's `choice`, its texts left where the plugin wrote them.
#[derive(ComponentType, Lift)]
#[component(record)]
struct RawChoice {
    label: WasmStr,
    value: WasmStr,
    description: Option<WasmStr>,
    preview: Option<WasmStr>,
    recommended: bool,
}

/// The WIT's `select-request`, its options left where the plugin wrote them.
#[derive(ComponentType, Lift)]
#[component(record)]
struct RawSelectRequest {
    options: WasmList<RawChoice>,
    selected: Option<u32>,
    #[component(name = "other-label")]
    other_label: Option<String>,
    #[component(name = "other-text")]
    other_text: Option<String>,
    #[component(name = "discuss-label")]
    discuss_label: Option<String>,
    notes: bool,
    note: Option<String>,
}

/// The WIT's `multi-select-request`, its options left where the plugin wrote them.
#[derive(ComponentType, Lift)]
#[component(record)]
struct RawMultiSelectRequest {
    options: WasmList<RawChoice>,
    selected: Vec<u32>,
    #[component(name = "other-label")]
    other_label: Option<String>,
    #[component(name = "other-text")]
    other_text: Option<String>,
    #[component(name = "min-picks")]
    min_picks: Option<u32>,
    #[component(name = "max-picks")]
    max_picks: Option<u32>,
    notes: bool,
    note: Option<String>,
}

/// Defines `select` and `multi-select` over the ones the generated `add_to_linker` defined.
pub(crate) fn add_to_linker<U: Ui + 'static>(
    linker: &mut Linker<State<U>>,
) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    let mut ui = linker.instance(UI_INTERFACE)?;
    ui.func_wrap(
        "select",
        |mut store: StoreContextMut<'_, State<U>>, (frame, r): (Frame, RawSelectRequest)| {
            let request = SelectRequest {
                options: read_options(&mut store, &r.options)?,
                selected: r.selected,
                other_label: r.other_label,
                other_text: r.other_text,
                discuss_label: r.discuss_label,
                notes: r.notes,
                note: r.note,
            };
            Ok((store.data_mut().ask_select(frame, request),))
        },
    )?;
    ui.func_wrap(
        "multi-select",
        |mut store: StoreContextMut<'_, State<U>>, (frame, r): (Frame, RawMultiSelectRequest)| {
            let request = MultiSelectRequest {
                options: read_options(&mut store, &r.options)?,
                selected: r.selected,
                other_label: r.other_label,
                other_text: r.other_text,
                min_picks: r.min_picks,
                max_picks: r.max_picks,
                notes: r.notes,
                note: r.note,
            };
            Ok((store.data_mut().ask_multi_select(frame, request),))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// The options of `list`, read from the plugin's memory (each text checked to be UTF-8) and
/// cleaned for a terminal.
///
/// The texts the host keeps stop at the plugin's memory limit. A plugin writes each text once,
/// so only one naming the same text for option after option reaches past it: without the
/// bound, a plugin held to 64 MiB could make the host copy gigabytes.
fn read_options<U: 'static>(
    store: &mut StoreContextMut<'_, State<U>>,
    list: &WasmList<RawChoice>,
) -> wasmtime::Result<Options> {
    let budget = store.data().memory_bytes;
    let mut options = Options::with_capacity(list.len(), 0);
    for index in 0..list.len() {
        let Some(raw) = list.get(store.as_context_mut(), index) else {
            break;
        };
        let raw = raw?;
        let store = &*store;
        let optional = |text: &Option<WasmStr>| text.as_ref().map(|t| t.to_str(store)).transpose();
        cleaned::push_choice(
            &mut options,
            ChoiceRef {
                label: &raw.label.to_str(store)?,
                value: &raw.value.to_str(store)?,
                description: optional(&raw.description)?.as_deref(),
                preview: optional(&raw.preview)?.as_deref(),
                recommended: raw.recommended,
            },
        )?;
        if options.text_len() > budget {
            wasmtime::bail!(
                "the options' texts come to more than the plugin's memory limit ({budget} \
                 bytes) by option {index}: the plugin names the same text again and again"
            );
        }
    }
    Ok(options)
}
