//! Compiles the built-in plugin (`plugin/interview.wasm`) ahead of time, so that a program
//! using this crate carries its machine code, compiles nothing when it starts and needs no
//! cache folder, and needs no compiler unless it runs other components (the `compile`
//! feature).
//!
//! The code is compiled for the target this crate is being built for (`TARGET`, so a cross
//! build gets code for the machine it will run on), with the processor features rustc compiles
//! Rust code for there (`CARGO_CFG_TARGET_FEATURE`): the target's baseline by default, which
//! runs on any machine of the kind, and this machine's own features when it is built with
//! `-C target-cpu=native`. The engine settings are the ones the host runs the code with: both
//! take them from `src/engine_settings.rs`.

#[path = "src/engine_settings.rs"]
mod engine_settings;

use std::path::PathBuf;

fn main() {
    let component = "plugin/interview.wasm";
    println!("cargo::rerun-if-changed={component}");
    println!("cargo::rerun-if-changed=src/engine_settings.rs");
    let bytes = std::fs::read(component).expect("the embedded component");
    let target = std::env::var("TARGET").expect("cargo sets TARGET");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").expect("cargo sets CARGO_CFG_TARGET_ARCH");
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();

    let mut config = wasmtime::Config::new();
    engine_settings::apply(&mut config);
    if let Err(e) = config.target(&target) {
        panic!("wasmtime cannot compile the plugin for {target}: {e}");
    }
    for feature in features.split(',') {
        if let Some(flag) = cranelift_flag(&arch, feature) {
            // SAFETY: the flag is one of the target's processor features, which Cranelift
            // may use; wasmtime refuses the compiled code, with an error, on a processor
            // without it.
            unsafe {
                config.cranelift_flag_enable(flag);
            }
        }
    }
    let engine = wasmtime::Engine::new(&config).expect("a compiling engine");
    let compiled = engine
        .precompile_component(&bytes)
        .unwrap_or_else(|e| panic!("compiling {component}: {e:?}"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("interview.cwasm"), compiled).expect("writing the compiled plugin");
}

/// The Cranelift flag of a Rust target feature, for the features wasmtime can check a
/// processor for before it runs code that uses them.
fn cranelift_flag(arch: &str, feature: &str) -> Option<&'static str> {
    let flag = match (arch, feature) {
        ("x86_64", "cmpxchg16b") => "has_cmpxchg16b",
        ("x86_64", "sse3") => "has_sse3",
        ("x86_64", "ssse3") => "has_ssse3",
        ("x86_64", "sse4.1") => "has_sse41",
        ("x86_64", "sse4.2") => "has_sse42",
        ("x86_64", "popcnt") => "has_popcnt",
        ("x86_64", "avx") => "has_avx",
        ("x86_64", "avx2") => "has_avx2",
        ("x86_64", "fma") => "has_fma",
        ("x86_64", "bmi1") => "has_bmi1",
        ("x86_64", "bmi2") => "has_bmi2",
        ("x86_64", "lzcnt") => "has_lzcnt",
        ("x86_64", "avx512f") => "has_avx512f",
        ("x86_64", "avx512vl") => "has_avx512vl",
        ("x86_64", "avx512dq") => "has_avx512dq",
        ("x86_64", "avx512bitalg") => "has_avx512bitalg",
        ("x86_64", "avx512vbmi") => "has_avx512vbmi",
        ("aarch64", "lse") => "has_lse",
        ("aarch64", "fp16") => "has_fp16",
        _ => return None,
    };
    Some(flag)
}
