//! Links the `interview` executable with its relative relocations packed (`-z
//! pack-relative-relocs`, DT_RELR) where the C library is glibc: the loader then reads a few
//! kilobytes of relocations at every start instead of some 280 KB of `.rela.dyn`. The
//! executable stays position-independent; only how its relocations are stored changes. GNU ld
//! and lld have the option since 2022 (binutils 2.38, glibc 2.36); an older GNU ld ignores it
//! with a warning.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo::rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
