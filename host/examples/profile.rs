//! One request through the plugin again and again, every question answered at once, and the
//! median time of a call: a loop for a profiler to watch the plugin's own work (reading the
//! request, checking it, the lists through the component boundary, the result) with no drawing
//! and no person in it. Each call runs in a fresh session, as each `interview ask` does.
//!
//! ```sh
//! cargo xtask build-guest --names target/named.wasm      # the guest's functions by name
//! cargo build --release -p interview-host --example profile
//! perf record -g target/release/examples/profile request.json 300 target/named.wasm
//! perf report --no-children
//! ```
//!
//! Arguments: the request file, the number of calls (default 100), and a component to run
//! instead of the built-in one. Its compiled functions are named for `perf` (see
//! `PluginBuilder::perf_map`).

use std::time::{Duration, Instant};

use interview_host::Plugin;

use interview_host::ui::{
    ConfirmReply, ConfirmRequest, Frame, MultiPick, MultiSelectReply, MultiSelectRequest, Nav,
    NumberReply, NumberRequest, ReviewReply, ReviewRequest, SelectReply, SelectRequest, TextReply,
    TextRequest, Ui, UiMode,
};

/// Takes the first option, the initial value or a fixed text, and cancels a question whose
/// answer the plugin refused, so that no request loops.
struct AnswerAtOnce;

impl Ui for AnswerAtOnce {
    fn mode(&mut self) -> UiMode {
        UiMode::Widgets
    }

    fn select(&mut self, frame: &Frame, _: &SelectRequest) -> SelectReply {
        match frame.error {
            Some(_) => SelectReply::Nav(Nav::Cancel),
            None => SelectReply::picked(0),
        }
    }

    fn multi_select(&mut self, frame: &Frame, _: &MultiSelectRequest) -> MultiSelectReply {
        match frame.error {
            Some(_) => MultiSelectReply::Nav(Nav::Cancel),
            None => MultiSelectReply::Picked(MultiPick {
                picked: vec![0],
                other: None,
                note: None,
            }),
        }
    }

    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        match frame.error {
            Some(_) => TextReply::Nav(Nav::Cancel),
            None => TextReply::Submitted(request.initial.clone().unwrap_or("an answer".into())),
        }
    }

    fn confirm(&mut self, frame: &Frame, _: &ConfirmRequest) -> ConfirmReply {
        match frame.error {
            Some(_) => ConfirmReply::Nav(Nav::Cancel),
            None => ConfirmReply::Answered(true),
        }
    }

    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        match frame.error {
            Some(_) => NumberReply::Nav(Nav::Cancel),
            None => NumberReply::Entered(request.initial.unwrap_or(1.0).to_string()),
        }
    }

    fn review(&mut self, _: &ReviewRequest) -> ReviewReply {
        ReviewReply::Submit
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let request_path = args
        .next()
        .ok_or("usage: profile REQUEST.json [CALLS] [COMPONENT]")?;
    let calls: usize = args.next().map_or(Ok(100), |n| n.parse())?;
    if calls == 0 {
        return Err("the number of calls must be at least 1".into());
    }
    let mut builder = Plugin::builder().perf_map(true);
    if let Some(component) = args.next() {
        builder = builder.component_path(component);
    }
    let plugin = builder.build()?;
    let request = std::fs::read_to_string(&request_path)?;
    let mut times: Vec<Duration> = Vec::with_capacity(calls);
    for _ in 0..calls {
        let started = Instant::now();
        let mut session = plugin.session(AnswerAtOnce)?;
        session.call("interview", &request)?;
        times.push(started.elapsed());
    }
    times.sort();
    println!("median of {calls} calls: {:.2?}", times[calls / 2]);
    Ok(())
}
