//! The crates' modules import each other in one direction: no two top-level modules of a crate
//! reach each other, directly or through others. A circle makes a module impossible to read
//! (or move) without the rest of the circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules of the crate whose sources are in `root`, each with the modules of
/// the same crate it names (`crate::name`, or `super::name` one level down). Tests are left
/// out: a test may reach anywhere.
fn imports(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in sources(root) {
        let relative = file.strip_prefix(root).unwrap();
        let parts: Vec<_> = relative.iter().map(|p| p.to_string_lossy()).collect();
        let top = parts[0].trim_end_matches(".rs").to_string();
        if ["lib", "main"].contains(&top.as_str())
            || parts.iter().any(|p| p == "tests" || p == "tests.rs")
        {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let named = edges.entry(top.clone()).or_default();
        for line in without_tests(&text) {
            let mut prefixes = vec!["crate::"];
            if parts.len() == 2 {
                prefixes.push("super::");
            }
            for prefix in prefixes {
                for (at, _) in line.match_indices(prefix) {
                    let before = line[..at].chars().next_back();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let name: String = line[at + prefix.len()..]
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                        .collect();
                    if !name.is_empty() && name != top {
                        named.insert(name);
                    }
                }
            }
        }
    }
    edges
}

/// The lines of a source file that are not comments and not compiled for tests only. A
/// test-only item of one line (`#[cfg(test)] mod mirrors;`) is left out alone; a test module
/// with a body ends the file's code, as test modules come last.
fn without_tests(text: &str) -> Vec<&str> {
    let mut code = Vec::new();
    let mut lines = text.lines().map(str::trim_start);
    while let Some(line) = lines.next() {
        if line.starts_with("#[cfg(test)]") || line.starts_with("#[cfg(all(test") {
            match lines.find(|l| !l.starts_with("#[")) {
                Some(item) if item.ends_with(';') => continue,
                _ => break,
            }
        }
        if !line.starts_with("//") {
            code.push(line);
        }
    }
    code
}

fn sources(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// A path of imports from `from` back to itself, if there is one.
fn circle_through(edges: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    let mut path = vec![from.to_string()];
    let mut seen = BTreeSet::new();
    fn walk(
        edges: &BTreeMap<String, BTreeSet<String>>,
        from: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        let last = path.last().unwrap().clone();
        for next in edges.get(&last).into_iter().flatten() {
            if next == from {
                path.push(next.clone());
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(edges, from, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    walk(edges, from, &mut path, &mut seen).then_some(path)
}

#[test]
fn no_crate_has_modules_that_import_each_other_in_a_circle() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut circles = Vec::new();
    for crate_root in ["src", "host/src", "guest/src", "text/src", "xtask/src"] {
        let edges = imports(&workspace.join(crate_root));
        assert!(
            edges.len() >= 3,
            "{crate_root}: too few modules read ({})",
            edges.len()
        );
        for module in edges.keys() {
            if let Some(circle) = circle_through(&edges, module) {
                circles.push(format!("{crate_root}: {}", circle.join(" → ")));
            }
        }
    }
    assert!(circles.is_empty(), "{}", circles.join("\n"));
}

#[test]
fn a_circle_of_imports_is_found() {
    let edges: BTreeMap<String, BTreeSet<String>> = [
        ("flow", &["lines", "model"][..]),
        ("lines", &["model", "tool"][..]),
        ("tool", &["flow"][..]),
        ("model", &[][..]),
    ]
    .into_iter()
    .map(|(m, to)| (m.to_string(), to.iter().map(|t| t.to_string()).collect()))
    .collect();
    assert_eq!(
        circle_through(&edges, "flow").unwrap(),
        ["flow", "lines", "tool", "flow"]
    );
    assert_eq!(circle_through(&edges, "model"), None);
}
