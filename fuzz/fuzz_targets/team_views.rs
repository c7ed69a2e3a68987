//! What a team inbox's server takes from the network and shows to people, on any bytes: a
//! step's view, read as each widget's (`checked_view`), and a person's reply, read as each
//! widget's. Nothing panics; a view taken is one the page reads as that widget (its prompt a
//! string, its picks within its options), and taking it again gives it back unchanged.
#![no_main]

use interview_host::ui::web_wire as wire;
use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;

const KINDS: [&str; 7] = [
    "select",
    "multi_select",
    "text",
    "confirm",
    "number",
    "review",
    "banner",
];

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Json>(data) else {
        return;
    };
    for kind in KINDS {
        let Ok(view) = wire::checked_view(kind, &value) else {
            continue;
        };
        assert_ne!(kind, "banner", "a widget the plugin has not");
        let again = wire::checked_view(kind, &view);
        assert!(
            again.as_ref().is_ok_and(|again| *again == view),
            "{kind}: {again:?}"
        );
        match kind {
            "review" => assert!(view["request"]["items"].is_array(), "{view}"),
            _ => assert!(view["frame"]["prompt"].is_string(), "{view}"),
        }
        let request = &view["request"];
        if let Some(options) = request["options"].as_array() {
            let count = options.len() as u64;
            assert!(count > 0, "{view}");
            let picks = match &request["selected"] {
                Json::Array(picks) => picks.clone(),
                Json::Null => Vec::new(),
                pick => vec![pick.clone()],
            };
            assert!(
                picks.iter().all(|p| p.as_u64().is_some_and(|p| p < count)),
                "{view}"
            );
        }
    }
    // A reply as a person's page posts it: read as every widget's, or not, without a panic.
    let _ = wire::select_reply(&value);
    let _ = wire::multi_select_reply(&value);
    let _ = wire::text_reply(&value);
    let _ = wire::confirm_reply(&value);
    let _ = wire::number_reply(&value);
    let _ = wire::review_reply(&value);
});
