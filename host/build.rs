//! Fingerprints the embedded component once, at build time, so that finding its compiled
//! form in the cache costs a start nothing: hashing 370 KB on every run took a tenth of it.

use std::path::PathBuf;

fn main() {
    let component = "plugin/interview.wasm";
    println!("cargo::rerun-if-changed={component}");
    let bytes = std::fs::read(component).expect("the embedded component");
    // FNV-1a, 64 bits: a cache key, not a defence (the cache file's own checksum is checked).
    let fingerprint = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(
        out.join("embedded_fingerprint.rs"),
        format!("{fingerprint:#018x}"),
    )
    .expect("writing the fingerprint");
}
