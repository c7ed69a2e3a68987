//! `cargo xtask release`: the `interview` executable as it is meant to be installed.
//!
//! On Linux with glibc it is linked statically (`-C target-feature=+crt-static`): the dynamic
//! loader then maps no C library and resolves no symbols at start-up, which is about 15% of a
//! one-question run. Cargo has no stable way to give that flag to the executable alone (a
//! proc-macro cannot be built with it), except by naming the target: so the build names the
//! host's own target, and its flags apply to target code only.
//!
//! Its relocations are packed (`-z pack-relative-relocs`, DT_RELR): a position-independent
//! executable has its pointer tables fixed up at every start, and the packed form lists the
//! 11,800 places in 3 KB rather than 280 KB, which makes a one-question run about 4% faster.
//! The code that applies them is the static C library's own: it runs on any system.
//!
//! With `--startup-order`, where the linker is lld (rustup's Rust on x86-64 Linux links with its
//! own), the functions a start runs are laid out together, in the order
//! `xtask/startup-order.txt` lists them (see [`crate::startup_order`]; this program stands in
//! for the linker to do it). A start then maps its code from a few neighbouring stretches of
//! the file rather than from pages strewn over the code: each page fault maps the 64 KB around
//! it, and the kernel maps a file cached in single pages (as after reading it back from disk)
//! one page at a time. It is an opt-in: with the plugin's code built into the executable, what
//! it saves is within a start's noise (see the performance notes), and the list goes stale
//! with every new Rust or dependency.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, in_temp_dir, startup_order, target_dir, write_file};

/// Builds the executable (its start-up functions laid out together when `ordered`) and prints
/// its path on stdout.
pub fn release(root: &Path, ordered: bool) -> Result<(), String> {
    let built = build(root, ordered)?;
    println!("{}", built.display());
    Ok(())
}

/// Builds the executable (its start-up functions laid out together when `ordered`) and returns
/// its path.
pub fn build(root: &Path, asked: bool) -> Result<PathBuf, String> {
    let host = host_target()?;
    let order = root.join(startup_order::FILE);
    let linux = host.ends_with("-linux-gnu");
    let lld = asked && linux && links_with_lld(&host)?;
    let ordered = lld && order.exists();
    let mut cargo = cargo();
    cargo.current_dir(root).args([
        "build",
        "--release",
        "--locked",
        "--bin",
        "interview",
        "--target",
        &host,
    ]);
    if linux {
        let mut flags = vec![
            "-C".to_string(),
            "target-feature=+crt-static".into(),
            "-C".into(),
            "link-arg=-Wl,-z,pack-relative-relocs".into(),
        ];
        if ordered {
            // This program links in the linker's place (see `startup_order::link`).
            let xtask =
                env::current_exe().map_err(|e| format!("could not find the xtask program: {e}"))?;
            let list = startup_order::link_arg(&order, &target_dir(root))?;
            flags.extend([
                "-C".into(),
                format!("linker={}", xtask.display()),
                "-C".into(),
                format!("link-arg={list}"),
            ]);
        }
        let flags: Vec<String> = flags.iter().map(|flag| format!("{flag:?}")).collect();
        cargo.args([
            "--config",
            &format!("target.{host}.rustflags=[{}]", flags.join(", ")),
        ]);
    }
    let status = cargo
        .status()
        .map_err(|e| format!("could not run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("the release build failed ({status})"));
    }
    let built = target_dir(root).join(&host).join("release/interview");
    if ordered {
        startup_order::report(&order, &built);
    } else if asked && linux && !lld {
        eprintln!("xtask: the linker is not lld: the start-up functions are not laid out together");
    } else if asked && lld {
        eprintln!(
            "xtask: no {}: the start-up functions are not laid out",
            startup_order::FILE
        );
    }
    Ok(built)
}

/// Whether rustc links `host` programs with lld, as rustup's Rust does on x86-64 Linux: the
/// linker command line of an empty program says.
fn links_with_lld(host: &str) -> Result<bool, String> {
    let out = in_temp_dir("linker", |dir| {
        let source = dir.join("probe.rs");
        write_file(&source, "fn main() {}\n")?;
        Command::new(rustc())
            .args(["--target", host, "--print", "link-args", "-o"])
            .arg(dir.join("probe"))
            .arg(&source)
            .output()
            .map_err(|e| format!("could not run {}: {e}", rustc()))
    })?;
    if !out.status.success() {
        return Err(format!(
            "{} could not link an empty program: {}",
            rustc(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).contains("-fuse-ld=lld"))
}

/// The rustc cargo runs.
fn rustc() -> String {
    env::var("RUSTC").unwrap_or_else(|_| "rustc".into())
}

/// The target triple of the machine, as rustc names it.
fn host_target() -> Result<String, String> {
    let rustc = rustc();
    let out = Command::new(&rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("could not run {rustc}: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| format!("`{rustc} -vV` does not name the host target"))
}
