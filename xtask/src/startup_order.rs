//! `cargo xtask startup-order`: which of the executable's functions a start runs, for
//! `cargo xtask release --startup-order` to lay out together (see [`crate::release`]).
//!
//! It runs the executable just built under Valgrind's callgrind, which names every function
//! that runs, however briefly: answering one numbered question from a pipe, and one arrow-key
//! select in a pseudo-terminal (through util-linux's `script`). To those it adds what runs in their place elsewhere: the C library's start (which
//! callgrind calls "below main"), other names of the same code, and the variants of a function
//! for other processors (`__memmove_avx512_unaligned_erms` beside the `__memmove_avx_…` that
//! Valgrind's processor picks, `calculate_avx512` beside `calculate`). The list is written to
//! `xtask/startup-order.txt`.
//!
//! At the release build's link, this program stands in for the linker (see [`link`]): it hands
//! lld the list for `--symbol-ordering-file`, each function under its name in the objects being
//! linked. Rust ends a name with a hash that changes with every release of Rust and every
//! change of a crate's version or features; a listed name the objects lack is taken by its path
//! without the hash (every function it may now name). `cargo xtask release` then counts how
//! many listed functions the executable has, so that a list grown stale is said.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::env;
use std::ffi::OsString;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use crate::{in_temp_dir, release, write_file};

/// The list, relative to the workspace.
pub const FILE: &str = "xtask/startup-order.txt";

/// The argument that makes this program link (see [`link`]), before the list's path: a copy
/// named by its contents, so that a new list changes the build's flags and the executable is
/// linked anew.
pub const LINK_ARG: &str = "--xtask-startup-order=";

/// What runs before `main` that callgrind calls "(below main)": glibc's.
const BELOW_MAIN: [&str; 3] = ["_start", "__libc_start_main_impl", "__libc_start_call_main"];

/// What a variant of a function for some processors has after its name.
const PROCESSOR_VARIANTS: [&str; 10] = [
    "_avx512", "_avx2", "_avx", "_evex", "_sse2", "_ssse3", "_sse4_1", "_sse4_2", "_sse42", "_erms",
];

/// Below this share of its functions found in a build, the list is called stale.
const STALE_BELOW: f64 = 0.9;

/// Writes the list from runs of a fresh release build.
pub fn generate(root: &Path) -> Result<(), String> {
    let valgrind = which("valgrind").ok_or(
        "valgrind is not installed (`apt-get install valgrind`); it names the functions a start \
         runs",
    )?;
    let script = which("script").ok_or("util-linux's `script` is not installed")?;
    let executable = release::build(root, false)?;
    let called = in_temp_dir("startup-order", |dir| {
        record(&valgrind, &script, &executable, dir)
    })?;
    let exe = symbols(&[executable.as_os_str().to_owned()])
        .ok_or("`nm` could not read the executable")?;
    let functions = with_variants(called, &exe);
    let mut text = String::from(
        "# The functions a start of `interview` runs, for lld to lay out together in the\n\
         # release build. Written by `cargo xtask startup-order`; see xtask/src/startup_order.rs.\n",
    );
    for function in &functions {
        text.push_str(function);
        text.push('\n');
    }
    write_file(&root.join(FILE), &text)?;
    eprintln!("xtask: wrote {} functions to {FILE}", functions.len());
    Ok(())
}

/// The functions the two runs call, by symbol name.
fn record(
    valgrind: &Path,
    script: &Path,
    executable: &Path,
    dir: &Path,
) -> Result<BTreeSet<String>, String> {
    let numbered = dir.join("numbered.json");
    let select = dir.join("select.json");
    write_file(
        &numbered,
        r#"{"question": "Which environment?", "options": ["dev", "staging", "prod"]}"#,
    )?;
    let options: Vec<String> = (1..=10).map(|i| format!("\"Option {i}\"")).collect();
    write_file(
        &select,
        format!(
            r#"{{"question": "Pick one", "options": [{}]}}"#,
            options.join(", ")
        ),
    )?;
    let callgrind = |out: &Path| -> Vec<String> {
        vec![
            valgrind.display().to_string(),
            "--tool=callgrind".into(),
            "--demangle=no".into(),
            format!("--callgrind-out-file={}", out.display()),
            executable.display().to_string(),
        ]
    };
    let run = |args: &[String], input: &[u8]| {
        let mut child = Command::new(&args[0])
            .args(&args[1..])
            .env("XDG_CACHE_HOME", dir.join("cache"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("could not run {}: {e}", args[0]))?;
        let mut stdin = child.stdin.take().expect("piped");
        stdin.write_all(input).map_err(|e| e.to_string())?;
        drop(stdin);
        let status = child.wait().map_err(|e| e.to_string())?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{} ended with {status}", args.join(" ")))
        }
    };
    // Valgrind shows the program a processor of its own, so the plugin is compiled for it
    // first: the runs recorded find it in the cache, as an installed `interview` does.
    let warm = [
        valgrind,
        Path::new("--tool=none"),
        executable,
        Path::new("ask"),
        &numbered,
    ];
    run(&warm.map(|arg| arg.display().to_string()), b"1\n")?;

    let numbered_out = dir.join("numbered.callgrind");
    let mut args = callgrind(&numbered_out);
    args.extend(["ask".into(), numbered.display().to_string()]);
    run(&args, b"2\n")?;

    let select_out = dir.join("select.callgrind");
    let mut command = callgrind(&select_out);
    command.extend(["ask".into(), select.display().to_string()]);
    let command: Vec<String> = command.iter().map(|arg| shell_quoted(arg)).collect();
    in_terminal(script, &command.join(" "), dir)?;

    let mut functions = BTreeSet::new();
    for out in [numbered_out, select_out] {
        let text = fs::read_to_string(&out)
            .map_err(|e| format!("could not read {}: {e}", out.display()))?;
        functions.extend(called(&text));
    }
    Ok(functions)
}

/// Runs `command` in a pseudo-terminal, and presses Enter once its first frame is drawn.
fn in_terminal(script: &Path, command: &str, dir: &Path) -> Result<(), String> {
    let mut child = Command::new(script)
        .args([
            "--quiet",
            "--flush",
            "--return",
            "--command",
            command,
            "/dev/null",
        ])
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("TERM", "xterm-256color")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("could not run {}: {e}", script.display()))?;
    let mut stdout = child.stdout.take().expect("piped");
    let (drawn, frame) = mpsc::channel();
    let reader = thread::spawn(move || {
        let (mut seen, mut buffer) = (Vec::new(), [0; 4096]);
        let mut sent = false;
        while let Ok(n @ 1..) = stdout.read(&mut buffer) {
            seen.extend_from_slice(&buffer[..n]);
            if !sent && String::from_utf8_lossy(&seen).contains("Esc") {
                sent = drawn.send(()).is_ok();
            }
        }
    });
    let answered = frame.recv_timeout(Duration::from_secs(120)).is_ok();
    let mut stdin = child.stdin.take().expect("piped");
    if answered {
        // Give the widget time to read keys before the Enter.
        thread::sleep(Duration::from_millis(500));
        stdin.write_all(b"\r").map_err(|e| e.to_string())?;
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    drop(stdin);
    let _ = reader.join();
    match (answered, status.success()) {
        (true, true) => Ok(()),
        (false, _) => Err("the select drew no frame within two minutes".into()),
        (true, false) => Err(format!("the select in a terminal ended with {status}")),
    }
}

/// `called`, with what runs in their place elsewhere, as `executable` (its symbols, by
/// address) has it: the start below `main`, other names of the same code, and the variants of
/// each function for other processors.
fn with_variants(called: BTreeSet<String>, executable: &BTreeMap<String, u64>) -> BTreeSet<String> {
    let mut listed: BTreeSet<String> = called
        .into_iter()
        .chain(BELOW_MAIN.map(String::from))
        .filter(|name| executable.contains_key(name))
        .collect();
    let addresses: BTreeSet<u64> = listed.iter().map(|name| executable[name]).collect();
    let aliases = executable.iter().filter(|(_, a)| addresses.contains(a));
    listed.extend(aliases.map(|(name, _)| name.clone()));
    let families: BTreeSet<String> = listed.iter().map(|name| family(name)).collect();
    let variants = executable.keys().filter(|name| {
        PROCESSOR_VARIANTS.iter().any(|v| name.contains(v)) && families.contains(&family(name))
    });
    listed.extend(variants.cloned());
    listed
}

/// What the variants of a function for different processors have in common: its name up to
/// the first processor's mark (`__memchr` of `__memchr_evex`), and for a Rust function its path
/// and name so cut (`crc32fast::specialized::pclmulqdq::calculate` of `calculate_avx512`).
fn family(symbol: &str) -> String {
    let cut = |name: &str| -> usize {
        PROCESSOR_VARIANTS
            .iter()
            .filter_map(|v| name.find(v))
            .min()
            .unwrap_or(name.len())
    };
    match rust_path(&key(symbol)) {
        Some(mut path) => {
            if let Some(last) = path.last_mut() {
                last.truncate(cut(last));
            }
            path.join("::")
        }
        None => symbol[..cut(symbol)].to_string(),
    }
}

/// The path of a name in Rust's legacy mangling without its hash (`_ZN4core3fmt5write`:
/// core, fmt, write).
fn rust_path(name: &str) -> Option<Vec<String>> {
    let mut rest = name.strip_prefix("_ZN")?;
    let mut path = Vec::new();
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let length: usize = rest[..digits].parse().ok()?;
        let part = rest.get(digits..digits + length)?;
        path.push(part.to_string());
        rest = &rest[digits + length..];
    }
    Some(path)
}

/// The symbol names of the functions a callgrind profile records, with the names it gives
/// code it has no symbol for (`0x…`) and its own (`(below main)`) left out.
fn called(profile: &str) -> impl Iterator<Item = String> + '_ {
    profile.lines().filter_map(|line| {
        let rest = line
            .strip_prefix("fn=(")
            .or_else(|| line.strip_prefix("cfn=("))?;
        let (_, name) = rest.split_once(") ")?;
        // A recursive function's deeper calls are `name'2` and so on.
        let name = name.split_once('\'').map_or(name, |(name, _)| name);
        (!name.starts_with("0x") && !name.starts_with('(')).then(|| name.to_string())
    })
}

/// Says how many of the list's functions `executable` has, by name and by path alone: fewer
/// than nine in ten by path means the list is stale (functions renamed or gone).
pub fn report(order: &Path, executable: &Path) {
    let Ok(listed) = read_list(order) else {
        return;
    };
    let Some(defined) = symbols(&[executable.as_os_str().to_owned()]) else {
        eprintln!("xtask: start-up order applied (no `nm` to count what it found)");
        return;
    };
    let paths: BTreeSet<Cow<str>> = defined.keys().map(|name| key(name)).collect();
    let by_name = listed.iter().filter(|n| defined.contains_key(*n)).count();
    let by_path = listed.iter().filter(|n| paths.contains(&key(n))).count();
    eprintln!(
        "xtask: start-up order: of the {} functions listed, the executable has {by_name} by \
         name, {by_path} by path",
        listed.len()
    );
    if (by_path as f64) < STALE_BELOW * listed.len() as f64 {
        eprintln!("xtask: the list is stale; `cargo xtask startup-order` writes it anew");
    }
}

/// Whether `args` are a link's, which this program stands in for.
pub fn is_link(args: &[OsString]) -> bool {
    args.iter().any(|arg| list_path(arg).is_some())
}

fn list_path(arg: &OsString) -> Option<&Path> {
    arg.to_str()?.strip_prefix(LINK_ARG).map(Path::new)
}

/// A copy of the list at `list` for a build in `target`, named by its contents, and the
/// link argument that names it.
pub fn link_arg(list: &Path, target: &Path) -> Result<String, String> {
    let text =
        fs::read_to_string(list).map_err(|e| format!("could not read {}: {e}", list.display()))?;
    let mut hasher = std::hash::DefaultHasher::new();
    std::hash::Hash::hash(&text, &mut hasher);
    let copy = target.join(format!(
        "startup-order-{:016x}.txt",
        std::hash::Hasher::finish(&hasher)
    ));
    fs::create_dir_all(target)
        .map_err(|e| format!("could not create {}: {e}", target.display()))?;
    write_file(&copy, &text)?;
    Ok(format!("{LINK_ARG}{}", copy.display()))
}

/// Links as the C compiler driver `cc` does with `args` (but the one naming the list), with the
/// list's functions first, in its order, under the names the objects being linked give them.
/// Without them (no `nm`, a list that cannot be read), it links all the same.
pub fn link(args: Vec<OsString>) -> ExitCode {
    let (lists, args): (Vec<OsString>, Vec<OsString>) =
        args.into_iter().partition(|arg| list_path(arg).is_some());
    let mut linker = Command::new("cc");
    linker.args(&args);
    let ordering = lists
        .first()
        .and_then(list_path)
        .ok_or_else(|| "no list named".to_string())
        .and_then(|list| ordering_file(list, &args));
    match ordering {
        Ok(ordering) => {
            linker.arg(format!("-Wl,--symbol-ordering-file={}", ordering.display()));
            // Listed functions this program lacks are counted once it is built.
            linker.arg("-Wl,--no-warn-symbol-ordering");
        }
        Err(problem) => eprintln!("xtask: linking without the start-up order: {problem}"),
    }
    match linker.status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => ExitCode::from(status.code().map_or(1, |code| code as u8)),
        Err(error) => {
            eprintln!("xtask: could not run cc: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The list with each function under its names in the objects of `args`, written beside the
/// output the link names.
fn ordering_file(list: &Path, args: &[OsString]) -> Result<PathBuf, String> {
    let listed = read_list(list)?;
    let objects: Vec<OsString> = args
        .iter()
        .filter(|arg| Path::new(arg).extension().is_some_and(|e| e == "o"))
        .cloned()
        .collect();
    let defined = symbols(&objects).ok_or("`nm` could not read the objects")?;
    let mut by_path: BTreeMap<Cow<str>, Vec<&str>> = BTreeMap::new();
    for name in defined.keys() {
        by_path.entry(key(name)).or_default().push(name);
    }
    let mut text = String::new();
    for listed in &listed {
        // The C library's functions are in no object here, and named as they are listed.
        let names = match by_path.get(&key(listed)) {
            Some(names) if !defined.contains_key(listed) => names.clone(),
            _ => vec![listed.as_str()],
        };
        for name in names {
            text.push_str(name);
            text.push('\n');
        }
    }
    let output = args
        .iter()
        .position(|arg| arg == "-o")
        .and_then(|at| args.get(at + 1))
        .ok_or("the link names no output")?;
    let path = PathBuf::from(format!("{}.startup-order", Path::new(output).display()));
    write_file(&path, &text)?;
    Ok(path)
}

/// The list's functions, without its comments.
fn read_list(path: &Path) -> Result<Vec<String>, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
    Ok(text
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(str::to_string)
        .collect())
}

/// A symbol's name without the hashes Rust puts in it, the same across Rust releases and crate
/// versions: in the legacy mangling the one it ends with (`17h`, 16 hex digits, `E`), in the
/// v0 mangling the one after each crate's name's `C` (`s`, base-62 digits, `_`). Other names
/// are kept whole.
fn key(symbol: &str) -> Cow<'_, str> {
    if symbol.starts_with("_R") {
        return Cow::Owned(without_crate_hashes(symbol));
    }
    let Some(stem) = symbol.strip_suffix('E') else {
        return Cow::Borrowed(symbol);
    };
    match stem.len().checked_sub(19).map(|at| stem.split_at(at)) {
        Some((path, hash))
            if symbol.starts_with("_ZN")
                && hash.starts_with("17h")
                && hash[3..].bytes().all(|b| b.is_ascii_hexdigit()) =>
        {
            Cow::Borrowed(path)
        }
        _ => Cow::Borrowed(symbol),
    }
}

/// A v0-mangled name with each `Cs…_` cut to `C`.
fn without_crate_hashes(symbol: &str) -> String {
    let mut out = String::with_capacity(symbol.len());
    let mut rest = symbol;
    while let Some(at) = rest.find("Cs") {
        let after = &rest[at + 2..];
        let digits = after.bytes().take_while(u8::is_ascii_alphanumeric).count();
        out.push_str(&rest[..at + 1]);
        rest = match after[digits..].strip_prefix('_') {
            Some(tail) => tail,
            None => &rest[at + 1..],
        };
    }
    out.push_str(rest);
    out
}

/// The symbols `files` define and their addresses, as `nm` lists them.
fn symbols(files: &[OsString]) -> Option<BTreeMap<String, u64>> {
    if files.is_empty() {
        return None;
    }
    let out = Command::new("nm")
        .arg("--defined-only")
        .args(files)
        .output()
        .ok()
        .filter(|out| out.status.success())?;
    let text = String::from_utf8_lossy(&out.stdout);
    Some(
        text.lines()
            .filter_map(|line| {
                let mut fields = line.split(' ');
                let address = u64::from_str_radix(fields.next()?, 16).ok()?;
                Some((fields.next_back()?.to_string(), address))
            })
            .collect(),
    )
}

/// `arg` as one word of a shell command line.
fn shell_quoted(arg: &str) -> String {
    format!("'{}'", arg.replace('\'', r"'\''"))
}

/// `program` on the `PATH`.
fn which(program: &str) -> Option<PathBuf> {
    env::split_paths(&env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_a_rust_name_without_its_hash() {
        assert_eq!(
            key("_ZN4core3fmt5write17h0123456789abcdefE"),
            "_ZN4core3fmt5write"
        );
        assert_eq!(key("_IO_cleanup"), "_IO_cleanup");
        assert_eq!(
            key("_ZN4core3fmt5write17hnothexnothexnotE"),
            "_ZN4core3fmt5write17hnothexnothexnotE"
        );
        assert_eq!(key("E"), "E");
        assert_eq!(
            key("_RNvNtCsjrHSEGnQ3l9_3std3sys4argsCs8gVbSFzedlU_15interview_guest"),
            "_RNvNtC3std3sys4argsC15interview_guest"
        );
    }

    #[test]
    fn variants_for_other_processors_share_a_family() {
        assert_eq!(family("__memmove_avx512_unaligned_erms"), "__memmove");
        assert_eq!(family("__memchr_evex"), "__memchr");
        assert_eq!(family("_IO_cleanup"), "_IO_cleanup");
        assert_eq!(
            family("_ZN9crc32fast11specialized9pclmulqdq16calculate_avx51217h2ee81db71f2a8101E"),
            family("_ZN9crc32fast11specialized9pclmulqdq9calculate17ha79f41b499f9e7c6E"),
        );
        assert_ne!(family("_ZN4core3fmt5write"), family("_ZN4core3fmt6format"));
    }

    #[test]
    fn the_list_takes_the_start_aliases_and_other_processors_variants() {
        let executable: BTreeMap<String, u64> = [
            ("main", 1),
            ("_start", 2),
            ("__memcpy_avx_unaligned_erms", 3),
            ("__memmove_avx_unaligned_erms", 3),
            ("__memmove_avx512_unaligned_erms", 4),
            ("__memchr_avx2", 5),
            ("__memchr_evex", 6),
            ("__strlen_evex", 7),
            ("unused", 8),
        ]
        .map(|(name, address)| (name.to_string(), address))
        .into();
        let called = [
            "main",
            "__memcpy_avx_unaligned_erms",
            "__memchr_avx2",
            "gone",
        ];
        let listed = with_variants(called.map(String::from).into(), &executable);
        let listed: Vec<&str> = listed.iter().map(String::as_str).collect();
        assert_eq!(
            listed,
            [
                "__memchr_avx2",
                "__memchr_evex",
                "__memcpy_avx_unaligned_erms",
                "__memmove_avx512_unaligned_erms",
                "__memmove_avx_unaligned_erms",
                "_start",
                "main",
            ]
        );
    }

    #[test]
    fn a_profile_names_the_functions_it_saw() {
        let profile = "ob=(1) /bin/x\nfn=(1) main\ncfn=(2) _ZN1a1b17h0123456789abcdefE\n\
                       calls=1 0\nfn=(3) 0x0000000004861440\nfn=(4) (below main)\n\
                       fn=(5) rec'2\nfn=(2)\n";
        let names: Vec<String> = called(profile).collect();
        assert_eq!(names, ["main", "_ZN1a1b17h0123456789abcdefE", "rec"]);
    }
}
