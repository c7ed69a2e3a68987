//! The engine settings the plugin's code is compiled and run with, in one place for the two
//! programs that need them: the build script, which compiles the built-in plugin ahead of time,
//! and the host, which runs that code. wasmtime refuses code compiled with settings other than
//! the running engine's, so a setting written twice could only turn into a refused plugin at
//! run time; a build script cannot depend on its own crate, so it includes this file.
//!
//! Chosen for a process that starts, asks and ends.

use wasmtime::Config;

/// Applies the settings both the compiling and the running engine have.
pub(crate) fn apply(config: &mut Config) {
    config.epoch_interruption(true);
    // What a trap reports is the plugin's own message; wasm offsets in it would help nobody,
    // and the map from code to offsets is a sixth of the compiled file.
    config.generate_address_map(false);
    // Only a native debugger or profiler walks wasm frames with `.eh_frame`; registering it
    // costs every start, and wasmtime's own traps and backtraces do without it.
    config.native_unwind_info(false);
    // Nor does anything but a native profiler read the compiled code's symbol table: 36 KB, a
    // twentieth of it.
    config.debug_symbols(false);
    // Copy-on-write memory images pay off when one module is instantiated many times; a
    // process that instantiates once would spend more making the image than copying the
    // plugin's 50 KB of data.
    config.memory_init_cow(false);
}
