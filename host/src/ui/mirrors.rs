//! The WIT's records written out again by hand, diffed against the WIT itself (read with
//! wit-parser): this crate's choice requests (their options kept as [`Options`]), the JSON the
//! web page is sent, and the Python package's dataclasses. A field added to the WIT fails here
//! until every mirror has it, or says why it leaves it out.

use std::collections::{BTreeMap, BTreeSet};

use super::testing::options;
use super::*;

/// Every record of the WIT package: its name, and its fields' names as Rust and Python spell
/// them (`other-label` is `other_label`).
fn wit_records() -> BTreeMap<String, BTreeSet<String>> {
    let mut resolve = wit_parser::Resolve::default();
    resolve
        .push_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/wit"))
        .expect("the WIT package reads");
    resolve
        .types
        .iter()
        .filter_map(|(_, ty)| match &ty.kind {
            wit_parser::TypeDefKind::Record(record) => Some((
                ty.name.clone()?,
                record
                    .fields
                    .iter()
                    .map(|f| f.name.replace('-', "_"))
                    .collect(),
            )),
            _ => None,
        })
        .collect()
}

fn names(fields: &[&str]) -> BTreeSet<String> {
    fields.iter().map(|f| f.to_string()).collect()
}

#[cfg(feature = "web")]
fn keys(json: &serde_json::Value) -> BTreeSet<String> {
    json.as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect()
}

/// The WIT's fields of `record`, less those a mirror leaves out on purpose.
fn wit_fields(
    records: &BTreeMap<String, BTreeSet<String>>,
    record: &str,
    left_out: &[&str],
) -> BTreeSet<String> {
    let mut fields = records
        .get(record)
        .unwrap_or_else(|| panic!("the WIT has no record {record}"))
        .clone();
    for field in left_out {
        assert!(
            fields.remove(*field),
            "{record} has no field {field} to leave out"
        );
    }
    fields
}

#[test]
fn the_choice_requests_mirror_the_wit() {
    let records = wit_records();
    // Built without `..`, so that a field added to the struct cannot compile until it is named
    // here, and the names listed beside are diffed against the WIT.
    let SelectRequest {
        options: _,
        selected: _,
        other_label: _,
        other_text: _,
        discuss_label: _,
        notes: _,
        note: _,
    } = select();
    let select_fields = names(&[
        "options",
        "selected",
        "other_label",
        "other_text",
        "discuss_label",
        "notes",
        "note",
    ]);
    assert_eq!(select_fields, wit_fields(&records, "select-request", &[]));
    let MultiSelectRequest {
        options: _,
        selected: _,
        other_label: _,
        other_text: _,
        min_picks: _,
        max_picks: _,
        notes: _,
        note: _,
    } = multi();
    let multi_fields = names(&[
        "options",
        "selected",
        "other_label",
        "other_text",
        "min_picks",
        "max_picks",
        "notes",
        "note",
    ]);
    assert_eq!(
        multi_fields,
        wit_fields(&records, "multi-select-request", &[])
    );
}

fn select() -> SelectRequest {
    SelectRequest {
        options: options(&["a"]),
        selected: None,
        other_label: None,
        other_text: None,
        discuss_label: None,
        notes: false,
        note: None,
    }
}

fn multi() -> MultiSelectRequest {
    MultiSelectRequest {
        options: options(&["a"]),
        selected: Vec::new(),
        other_label: None,
        other_text: None,
        min_picks: None,
        max_picks: None,
        notes: false,
        note: None,
    }
}

#[cfg(feature = "web")]
#[test]
fn the_web_pages_json_mirrors_the_wit() {
    use super::testing::frame;
    use super::web::wire;
    let records = wit_records();
    let frame_json = wire::frame(&frame("Name?", true));
    assert_eq!(
        keys(&frame_json),
        wit_fields(&records, "frame", &[]),
        "the frame the page gets"
    );
    let select_json = wire::select(&select());
    assert_eq!(
        keys(&select_json),
        wit_fields(&records, "select-request", &[])
    );
    // The page answers by index: an option's value is the plugin's to know.
    let choice = &select_json["options"][0];
    assert_eq!(keys(choice), wit_fields(&records, "choice", &["value"]));
    let multi_json = wire::multi_select(&multi());
    assert_eq!(
        keys(&multi_json),
        wit_fields(&records, "multi-select-request", &[])
    );
    let text = TextRequest {
        multiline: false,
        placeholder: None,
        initial: None,
        secret: false,
        min_length: None,
        max_length: None,
    };
    assert_eq!(
        keys(&wire::text(&text)),
        wit_fields(&records, "text-request", &[])
    );
    assert_eq!(
        keys(&wire::confirm(&ConfirmRequest { initial: None })),
        wit_fields(&records, "confirm-request", &[])
    );
    let number = NumberRequest {
        initial: None,
        min: None,
        max: None,
        exclusive_min: None,
        exclusive_max: None,
        integer: true,
    };
    // The range is the plugin's to check, and the hint says it in words.
    assert_eq!(
        keys(&wire::number(&number)),
        wit_fields(
            &records,
            "number-request",
            &["min", "max", "exclusive_min", "exclusive_max"]
        )
    );
    let review = ReviewRequest {
        items: vec![ReviewItem {
            header: None,
            prompt: "Name?".into(),
            answer: "Ada".into(),
        }],
        context: None,
        declinable: false,
    };
    let review_json = wire::review(&review);
    assert_eq!(
        keys(&review_json),
        wit_fields(&records, "review-request", &[])
    );
    assert_eq!(
        keys(&review_json["items"][0]),
        wit_fields(&records, "review-item", &[])
    );
}

/// The Python package's dataclasses, read from its source: `class Name:` and the `field: type`
/// lines under it.
fn python_dataclasses() -> BTreeMap<String, BTreeSet<String>> {
    let source = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hosts/python/src/interview/ui.py"
    ))
    .expect("the Python package's ui.py");
    let mut classes = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut after_dataclass = false;
    for line in source.lines() {
        if let Some(name) = line
            .strip_prefix("class ")
            .and_then(|rest| rest.split([':', '(']).next())
        {
            current = after_dataclass.then(|| name.to_string());
            if let Some(name) = &current {
                classes.insert(name.clone(), BTreeSet::new());
            }
        } else if let (Some(name), Some(field)) = (&current, line.strip_prefix("    "))
            && let Some((field, _)) = field.split_once(": ")
            && field.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        {
            classes
                .get_mut(name)
                .expect("inserted")
                .insert(field.to_string());
        } else if !line.starts_with(' ') && !line.is_empty() && !line.starts_with("class ") {
            current = None;
        }
        after_dataclass = line.starts_with("@dataclass") || (after_dataclass && line.is_empty());
    }
    classes
}

#[test]
fn the_python_packages_dataclasses_mirror_the_wit() {
    let records = wit_records();
    let classes = python_dataclasses();
    let mirrors = [
        ("Choice", "choice"),
        ("Frame", "frame"),
        ("SelectRequest", "select-request"),
        ("MultiSelectRequest", "multi-select-request"),
        ("TextRequest", "text-request"),
        ("ConfirmRequest", "confirm-request"),
        ("NumberRequest", "number-request"),
        ("ReviewItem", "review-item"),
        ("ReviewRequest", "review-request"),
        ("Picked", "pick"),
        ("MultiPicked", "multi-pick"),
        ("Span", "span"),
    ];
    for (class, record) in mirrors {
        let fields = classes
            .get(class)
            .unwrap_or_else(|| panic!("ui.py has no dataclass {class}: {classes:?}"));
        assert_eq!(
            fields,
            &wit_fields(&records, record, &[]),
            "{class} mirrors {record}"
        );
    }
}
