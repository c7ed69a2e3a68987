//! Project tasks: `cargo xtask build-guest [--check]`, `cargo xtask release [--startup-order]`
//! and `cargo xtask startup-order`.
//!
//! `build-guest` rebuilds the plugin component from `guest/` and writes it to
//! `host/plugin/interview.wasm`, the file the host embeds and the repository commits. With
//! `--check` it writes nothing and fails when the committed file differs from what the source
//! builds. With `--names FILE` it writes a component that keeps its functions' names to `FILE`
//! instead, for a profile to show (`interview --perf-map --component FILE`). It installs
//! nothing: it says what is missing.
//!
//! `release` builds the `interview` executable as it is meant to be installed (see
//! [`release`]) and prints its path. `startup-order` writes the list of functions a start runs,
//! which `release --startup-order` lays out together (see [`startup_order`]).

mod release;
mod shrink;
mod startup_order;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const TARGET: &str = "wasm32-unknown-unknown";
const COMMITTED: &str = "host/plugin/interview.wasm";
/// Debian's Rust (`rustc-web`, `rust-web-src`): the reference toolchain, which builds `std` for
/// wasm from source.
const DEBIAN_RUSTC: &str = "/usr/bin/rustc";
const DEBIAN_CARGO: &str = "/usr/bin/cargo";
const DEBIAN_STD_SRC: &str = "/usr/lib/rustlib/src/rust/library";

fn main() -> ExitCode {
    let raw: Vec<_> = env::args_os().skip(1).collect();
    if startup_order::is_link(&raw) {
        return startup_order::link(raw);
    }
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["build-guest"] => build_guest(Output::Committed),
        ["build-guest", "--check"] => build_guest(Output::Check),
        ["build-guest", "--names", file] => build_guest(Output::Named(PathBuf::from(file))),
        ["release"] => release::release(&workspace_root(), false),
        ["release", "--startup-order"] => release::release(&workspace_root(), true),
        ["startup-order"] => startup_order::generate(&workspace_root()),
        _ => Err(
            "usage: cargo xtask build-guest [--check | --names FILE] | cargo xtask release \
                  [--startup-order] | cargo xtask startup-order"
                .to_string(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// How the guest is compiled for wasm.
enum Toolchain {
    /// Debian's rustc with the std source: `-Zbuild-std`, byte-for-byte the committed file.
    Reference,
    /// A rustup toolchain with the wasm32 target installed: works, but may differ in bytes.
    Rustup,
}

/// What `build-guest` does with the component it builds.
enum Output {
    /// Writes it over the committed file.
    Committed,
    /// Compares it with the committed file, and fails if they differ.
    Check,
    /// Writes it, with its functions' names kept, to a file of its own.
    Named(PathBuf),
}

fn build_guest(output: Output) -> Result<(), String> {
    let names = matches!(output, Output::Named(_));
    let root = workspace_root();
    let toolchain = find_toolchain()?;
    // Asked before the build, so that a missing tool is said at once, not minutes later.
    let wasm_opt = shrink::version();
    if wasm_opt.is_none() && matches!(toolchain, Toolchain::Reference) {
        return Err(MISSING_WASM_OPT.to_string());
    }
    let mut cargo = match toolchain {
        Toolchain::Reference => {
            let mut c = Command::new(DEBIAN_CARGO);
            c.env("RUSTC", DEBIAN_RUSTC).env("RUSTC_BOOTSTRAP", "1");
            c
        }
        Toolchain::Rustup => {
            eprintln!(
                "xtask: {DEBIAN_RUSTC} with the std source is not installed; building with rustup's \
                 {TARGET} target, whose bytes may differ from the committed file"
            );
            cargo()
        }
    };
    cargo.current_dir(&root).args([
        "rustc",
        "--quiet",
        "--package",
        "interview-guest",
        "--profile",
        "guest",
        "--target",
        TARGET,
        "--crate-type",
        "cdylib",
        "--locked",
    ]);
    if matches!(toolchain, Toolchain::Reference) {
        // std's smaller sorts and formatting: 9 KB less component, 22 KB less compiled code,
        // and no measurable change in a call's time.
        cargo.args([
            "-Zbuild-std=std,panic_abort",
            "-Zbuild-std-features=optimize_for_size",
        ]);
    }
    // Paths that would otherwise end up in the binary are made machine-independent.
    let cargo_home = env::var("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env::var("HOME").unwrap_or_default()).join(".cargo"));
    let mut rustflags = format!(
        "--remap-path-prefix={}=/interview --remap-path-prefix={}=/cargo",
        root.display(),
        cargo_home.join("registry/src").display()
    );
    if matches!(toolchain, Toolchain::Reference) {
        // No panic machinery: a panic in a wasm32-unknown-unknown guest has nowhere to print
        // anyway, and is a trap either way. Saves about a tenth of the component.
        rustflags.push_str(" -Zlocation-detail=none -Zunstable-options -Cpanic=immediate-abort");
    }
    cargo.env("CARGO_ENCODED_RUSTFLAGS", rustflags.replace(' ', "\x1f"));
    cargo.env_remove("RUSTFLAGS");
    if names {
        // The name section is what a profile shows the guest's functions by.
        cargo.env("CARGO_PROFILE_GUEST_STRIP", "false");
    }
    let status = cargo
        .status()
        .map_err(|e| format!("could not run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("the guest build failed ({status})"));
    }
    let target_dir = target_dir(&root);
    let core_path = target_dir.join(TARGET).join("guest/interview_guest.wasm");
    let core = match wasm_opt {
        Some(version) => {
            if version != shrink::REFERENCE_VERSION {
                eprintln!(
                    "xtask: {version} is not {}, whose bytes the committed file has: they may differ",
                    shrink::REFERENCE_VERSION
                );
            }
            shrink::optimize(&core_path, names)?
        }
        None => {
            eprintln!("xtask: {MISSING_WASM_OPT}; going on without it");
            std::fs::read(&core_path)
                .map_err(|e| format!("cannot read {}: {e}", core_path.display()))?
        }
    };
    let component = wit_component::ComponentEncoder::default()
        .module(&core)
        .and_then(|encoder| encoder.validate(true).encode())
        .map_err(|e| format!("cannot make a component of {}: {e:#}", core_path.display()))?;
    let committed_path = root.join(COMMITTED);
    eprintln!(
        "xtask: core module {} bytes, component {} bytes",
        core.len(),
        component.len()
    );
    match output {
        Output::Check => {
            let committed = std::fs::read(&committed_path)
                .map_err(|e| format!("cannot read {}: {e}", committed_path.display()))?;
            if committed != component {
                return Err(format!(
                    "{COMMITTED} ({} bytes) is not what guest/ builds ({} bytes): run `cargo xtask \
                 build-guest` and commit the result",
                    committed.len(),
                    component.len()
                ));
            }
            eprintln!("xtask: {COMMITTED} is exactly what guest/ builds");
        }
        Output::Committed => write(&committed_path, &component)?,
        Output::Named(path) => write(&path, &component)?,
    }
    Ok(())
}

fn write(path: &Path, component: &[u8]) -> Result<(), String> {
    write_file(path, component)?;
    eprintln!("xtask: wrote {}", path.display());
    Ok(())
}

/// Writes `contents` to `path`, with the path in the error.
fn write_file(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), String> {
    std::fs::write(path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Runs `work` in a fresh temporary folder named for `what`, removed afterwards.
fn in_temp_dir<T>(what: &str, work: impl FnOnce(&Path) -> Result<T, String>) -> Result<T, String> {
    let dir = env::temp_dir().join(format!("xtask-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let result = work(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

const MISSING_WASM_OPT: &str = "Binaryen's wasm-opt, which shrinks the core module, is not on \
    the PATH (Debian: `apt-get install binaryen`)";

fn find_toolchain() -> Result<Toolchain, String> {
    if Path::new(DEBIAN_RUSTC).exists() && Path::new(DEBIAN_STD_SRC).is_dir() {
        return Ok(Toolchain::Reference);
    }
    let rustup_has_target = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|out| {
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .any(|l| l.trim() == TARGET)
        });
    if rustup_has_target {
        return Ok(Toolchain::Rustup);
    }
    Err(format!(
        "no Rust toolchain that builds for {TARGET} was found. Install the reference toolchain \
         (Debian: `apt-get install rustc-web cargo-web rust-web-src rust-web-llvm lld-22 binaryen`), or \
         where rustup can download: `rustup target add {TARGET}`"
    ))
}

/// The cargo that runs this task (`cargo xtask` sets `CARGO`).
fn cargo() -> Command {
    Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

/// Where cargo puts what it builds: `CARGO_TARGET_DIR` (relative to the workspace) when set.
fn target_dir(root: &Path) -> PathBuf {
    env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), |dir| root.join(dir))
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}
