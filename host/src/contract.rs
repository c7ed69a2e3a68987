//! The constants every host of the plugin keeps alike (its exit codes, the sandbox's limits,
//! how a failed call is played back and a failure worded, the characters a printed result has
//! escaped), written out for the Python and npm packages from this crate's own: their copies,
//! `hosts/python/src/interview/_contract.py` and `hosts/js/contract.js`, are generated here. A
//! copy that differs fails this test; `INTERVIEW_BLESS=1 cargo test -p interview-host contract`
//! writes both anew.

use crate::Exit;
use crate::host_results::{MEMORY_PER_BYTE, MOST_MEMORY};
use crate::sandbox::{Limits, REPLAY_COMPUTE, REPLAY_MEMORY, TABLE_ELEMENTS};

/// A language's spelling of the generated module.
struct Spelling {
    /// A comment line's start.
    comment: &'static str,
    /// A constant's declaration before its name.
    constant: &'static str,
    /// A table from names to numbers: its start and end, and one entry.
    table: (&'static str, &'static str),
    entry: fn(&str, u32) -> String,
    /// A list of pairs: its start and end, and one pair.
    list: (&'static str, &'static str),
    pair: fn(u32, u32) -> String,
    /// What the file starts with: that it is generated.
    header: &'static str,
}

const PYTHON: Spelling = Spelling {
    comment: "#",
    constant: "",
    table: ("{", "}"),
    entry: |name, code| format!("    \"{name}\": {code},"),
    list: ("(", ")"),
    pair: |start, end| format!("    (0x{start:04x}, 0x{end:04x}),"),
    header: "\"\"\"The constants every host of the plugin keeps alike, generated from the Rust \
             host's own:\ndo not edit (`INTERVIEW_BLESS=1 cargo test -p interview-host contract` \
             writes it anew).\"\"\"\n",
};

const JAVASCRIPT: Spelling = Spelling {
    comment: "//",
    constant: "export const ",
    table: ("Object.freeze({", "});"),
    entry: |name, code| format!("  {name}: {code},"),
    list: ("Object.freeze([", "]);"),
    pair: |start, end| format!("  [0x{start:04x}, 0x{end:04x}],"),
    header: "// The constants every host of the plugin keeps alike, generated from the Rust host's \
             own:\n// do not edit (`INTERVIEW_BLESS=1 cargo test -p interview-host contract` \
             writes it anew).\n",
};

/// The module `spelling` writes.
fn render(spelling: &Spelling) -> String {
    let Spelling {
        comment: c,
        constant: k,
        ..
    } = spelling;
    let limits = Limits::default();
    let mut out = String::from(spelling.header);
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(String::new());
    line(format!("{c} The exit code of each way a run ends."));
    line(format!("{k}EXIT = {}", spelling.table.0));
    for exit in Exit::ALL {
        line((spelling.entry)(exit.name(), exit as u32));
    }
    line(spelling.table.1.to_owned());
    line(String::new());
    line(format!(
        "{c} The sandbox's default limits: the plugin's memory, its compute time in a call, the"
    ));
    line(format!(
        "{c} largest request, and the elements of any one of its tables."
    ));
    line(format!("{k}MEMORY_BYTES = {}", limits.memory_bytes()));
    line(format!("{k}COMPUTE_MS = {}", limits.compute().as_millis()));
    line(format!("{k}REQUEST_BYTES = {}", limits.request_bytes()));
    line(format!("{k}TABLE_ELEMENTS = {TABLE_ELEMENTS}"));
    line(format!(
        "{c} A call the plugin failed after the person answered is played back with this many"
    ));
    line(format!("{c} times the memory and the compute time."));
    line(format!("{k}REPLAY_MEMORY = {REPLAY_MEMORY}"));
    line(format!("{k}REPLAY_COMPUTE = {REPLAY_COMPUTE}"));
    line(format!(
        "{c} Wording a result takes the plugin about this much memory a byte of the text it words;"
    ));
    line(format!("{c} a plugin's memory is at most MOST_MEMORY."));
    line(format!("{k}WORDING_MEMORY_PER_BYTE = {MEMORY_PER_BYTE}"));
    line(format!("{k}MOST_MEMORY = {MOST_MEMORY}"));
    line(String::new());
    line(format!(
        "{c} The code points a printed result has escaped, as \\uXXXX (beyond the Basic"
    ));
    line(format!(
        "{c} Multilingual Plane, a UTF-16 pair): the controls above U+001F, format characters,"
    ));
    line(format!(
        "{c} line and paragraph separators, and default-ignorable code points. Ranges, inclusive."
    ));
    line(format!("{k}ESCAPED = {}", spelling.list.0));
    for &(start, end) in interview_text::invisible::ranges() {
        // C0 controls are escaped by JSON itself, and the line breaks between a pretty
        // result's lines are its layout.
        let start = start.max(0x20);
        if start <= end {
            line((spelling.pair)(start, end));
        }
    }
    line(spelling.list.1.to_owned());
    out
}

#[test]
fn the_packages_copies_of_the_hosts_constants_are_generated_from_these() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    // The crate packaged on its own has no packages beside it to keep alike.
    if !std::path::Path::new(&format!("{root}/hosts")).is_dir() {
        return;
    }
    let copies = [
        ("hosts/python/src/interview/_contract.py", render(&PYTHON)),
        ("hosts/js/contract.js", render(&JAVASCRIPT)),
    ];
    let bless = std::env::var_os("INTERVIEW_BLESS").is_some();
    for (path, generated) in copies {
        let path = format!("{root}/{path}");
        if bless {
            std::fs::write(&path, &generated).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "{path} differs from the Rust host's constants: run INTERVIEW_BLESS=1 cargo test -p \
             interview-host contract"
        );
    }
}
