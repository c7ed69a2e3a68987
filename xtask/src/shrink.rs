//! The core module rewritten by Binaryen's `wasm-opt` before it becomes a component.
//!
//! rustc and `wasm-ld` leave every call's function index as a five-byte LEB (room for
//! relocations nobody applies any more): `wasm-opt` re-encodes them at their real length, which
//! alone makes this plugin's module 7% smaller, and `-O3` takes 5% more off what LLVM's
//! per-function view left, and 2% off the code wasmtime compiles from it, with no change in the
//! time of a call. `-Oz` and `-Os` take at most 1.7 KB more of the module, and nothing of the
//! compiled code.

use std::path::Path;
use std::process::Command;

/// The release the committed component was made with: another may write other bytes.
pub const REFERENCE_VERSION: &str = "wasm-opt version 108";

/// The WebAssembly features rustc enables for `wasm32-unknown-unknown`, which `wasm-opt` must
/// accept (it does not read the module's `target_features` section in this release); a
/// feature rustc starts using makes `wasm-opt` fail validation, loudly.
const FEATURES: &[&str] = &[
    "--enable-bulk-memory",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-multivalue",
    "--enable-reference-types",
];

/// The version line of the `wasm-opt` on the PATH, or `None` when there is none.
pub fn version() -> Option<String> {
    let out = Command::new("wasm-opt").arg("--version").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// `core` optimized by `wasm-opt -O3`, written beside it and read back; with `keep_names`, its
/// name section is kept (`wasm-opt` drops it otherwise).
pub fn optimize(core: &Path, keep_names: bool) -> Result<Vec<u8>, String> {
    let out = core.with_extension("opt.wasm");
    let status = Command::new("wasm-opt")
        .args(FEATURES)
        .args(keep_names.then_some("-g"))
        .arg("-O3")
        .arg(core)
        .arg("-o")
        .arg(&out)
        .status()
        .map_err(|e| format!("could not run wasm-opt: {e}"))?;
    if !status.success() {
        return Err(format!("wasm-opt failed on {} ({status})", core.display()));
    }
    std::fs::read(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))
}
