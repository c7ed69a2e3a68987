//! Loading the component. The built-in plugin was compiled when this crate was built (see the
//! build script): its code is part of the executable and runs where it lies, so a start
//! compiles nothing and needs no cache folder. Another component (the `compile` feature) is
//! compiled once, then read back from a cache so that later runs start at once. The cache key
//! is the component's bytes and wasmtime's compatibility hash, so a new plugin or a new
//! wasmtime never reads a stale file.
//!
//! A cache file is exactly what wasmtime wrote, and it runs where it lies: it is mapped into
//! memory once, checked, and its code made executable in place, so start-up pays only for the
//! pages it touches and reads no file twice. Deserializing compiled code is `unsafe` because
//! the bytes become machine code, and a file that was truncated or damaged would crash the
//! process. So each file's name carries a CRC-32 of its contents, checked before wasmtime sees
//! them (a damaged file, not a forged one, is what it guards against: whoever can write to the
//! cache folder can write the program itself); only a regular file is opened (never a FIFO, a
//! device or a symlink); and a file that fails either check is compiled again and replaced.
//!
//! Running compiled code needs no compiler, so the engine that runs the plugin has none
//! (setting Cranelift up for this machine made creating the engine five times slower, about
//! 60 µs); a compiling engine is made only when there is something to compile. The cache key
//! is therefore the running engine's settings; the compiled code's CPU features are checked by
//! wasmtime against this machine's, and a file made for another CPU is refused and rebuilt
//! like a damaged one.

use std::path::PathBuf;
use std::ptr::NonNull;
use std::sync::{Arc, Once, OnceLock};

use wasmtime::component::Component;
use wasmtime::{Config, CustomCodeMemory, Engine};

use crate::engine_settings;
use crate::error::Error;
use crate::sandbox;

#[cfg(feature = "compile")]
mod cache;
#[cfg(feature = "compile")]
pub(crate) use cache::{fingerprint, load};

/// The default cache folder: `$XDG_CACHE_HOME/interview`, else `~/.cache/interview`. Only a
/// component other than the built-in one is ever kept there.
pub fn default_cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))?;
    Some(base.join("interview"))
}

/// How a component was made ready.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadKind {
    /// The built-in plugin, compiled when this crate was built: nothing compiled or read.
    Builtin,
    /// Compiled now (and stored, when there is a cache folder).
    Compiled,
    /// Read from the cache.
    Cached,
    /// The cached file was unusable (the reason), so the component was compiled again and the
    /// file replaced.
    Rebuilt(String),
}

/// A compiled component, and the cache file's mapping its code runs from when it came from
/// the cache. Clones share both; keep one for as long as the component or anything made from
/// it (a store, an instance) is in use.
#[derive(Clone)]
pub(crate) struct Compiled {
    // Declared first so that it is dropped first: its code lies in `_image`.
    component: Component,
    #[cfg(feature = "compile")]
    _image: Option<Arc<memmap2::Mmap>>,
}

impl Compiled {
    pub(crate) fn component(&self) -> &Component {
        &self.component
    }

    fn in_memory(component: Component) -> Compiled {
        Compiled {
            component,
            #[cfg(feature = "compile")]
            _image: None,
        }
    }
}

/// The settings of an engine that runs compiled code and compiles none: the shared ones, and
/// code published where it lies (see [`CodePublisher`]). A `perf_map` engine keeps what a
/// native profiler reads (which only an engine that compiles can write).
pub(crate) fn running_config(perf_map: bool) -> Config {
    let mut config = Config::new();
    engine_settings::apply(&mut config);
    #[cfg(feature = "compile")]
    config.enable_compiler(false);
    config.with_custom_code_memory(Some(Arc::new(CodePublisher)));
    if perf_map {
        config.profiler(wasmtime::ProfilingStrategy::PerfMap);
        config.debug_symbols(true);
    }
    config
}

/// The settings of the engine that compiles for a [`running_config`] engine: the same, with
/// the compiler.
#[cfg(feature = "compile")]
pub(crate) fn compiling_config(perf_map: bool) -> Config {
    let mut config = running_config(perf_map);
    config.enable_compiler(true);
    config.with_custom_code_memory(None);
    config
}

/// The built-in plugin's code, as the build script compiled it for this crate's target with
/// [`engine_settings`]. Aligned to a page, which is what [`CodePublisher`] needs to make its
/// code executable where it lies; larger pages than that are checked for at run time.
static PRECOMPILED: &PageAligned<[u8]> = &PageAligned(*include_bytes!(concat!(
    env!("OUT_DIR"),
    "/interview.cwasm"
)));

#[cfg_attr(target_arch = "x86_64", repr(C, align(4096)))]
#[cfg_attr(not(target_arch = "x86_64"), repr(C, align(65536)))]
struct PageAligned<T: ?Sized>(T);

/// The built-in plugin, ready to run, with the engine it runs in. One per process, made at
/// first use and never dropped: its code runs from the executable's own pages, which wasmtime
/// registers by address, so a second component over the same bytes cannot exist at the same
/// time, and there is nothing to free.
pub(crate) struct Builtin {
    pub(crate) engine: Engine,
    pub(crate) compiled: Compiled,
    /// Advanced for the process's life by the thread [`start_epoch_thread`] starts.
    pub(crate) epoch: Arc<sandbox::Epoch>,
}

static BUILTIN: OnceLock<Result<Builtin, String>> = OnceLock::new();

/// The built-in plugin; an error says why its code cannot run in this process.
pub(crate) fn builtin() -> Result<&'static Builtin, Error> {
    start_epoch_thread();
    // Made here, or by the epoch thread if it got there first (then this waits for it).
    BUILTIN
        .get_or_init(make_builtin)
        .as_ref()
        .map_err(|reason| Error::Precompiled(reason.clone()))
}

/// Starts making the built-in plugin on another thread: see [`crate::Plugin::preload`].
pub(crate) fn preload() {
    start_epoch_thread();
}

fn make_builtin() -> Result<Builtin, String> {
    let engine = Engine::new(&running_config(false)).map_err(|e| format!("{e:#}"))?;
    let component = precompiled(&engine, &PRECOMPILED.0)?;
    Ok(Builtin {
        epoch: sandbox::Epoch::new(&engine),
        engine,
        compiled: Compiled::in_memory(component),
    })
}

/// Starts, once a process, the thread that advances the built-in plugin's epoch (by which a
/// call's compute time is bounded) for as long as the process lives. It makes the plugin
/// first, unless [`builtin`] is already making it: a caller that starts it early (a command
/// before it reads its arguments) finds the plugin made, or half made, when it needs it.
fn start_epoch_thread() {
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        std::thread::Builder::new()
            .name("interview-epoch".into())
            .spawn(|| {
                if let Ok(builtin) = BUILTIN.get_or_init(make_builtin) {
                    builtin.epoch.tick();
                }
            })
            .expect("spawning the epoch thread");
    });
}

/// The component whose code `bytes` hold, as `Engine::precompile_component` wrote them, run
/// where they lie when they are aligned to a page (else wasmtime copies them): the reason
/// when wasmtime refuses them, as it does code of another wasmtime, of other settings than
/// `engine`'s, or for processor features this one lacks.
fn precompiled(engine: &Engine, bytes: &'static [u8]) -> Result<Component, String> {
    let component = if (bytes.as_ptr() as usize).is_multiple_of(page_size()) {
        // SAFETY: the bytes are what `Engine::precompile_component` wrote (for the built-in
        // plugin: at build time, for this crate's target, with the settings `engine_settings`
        // gives the running engine too, by the wasmtime this crate is linked with, since the
        // build script and the crate resolve to one version); wasmtime checks the version, the
        // settings and the processor features against this process, and refuses them with an
        // error if any differs. They are never written to and live as long as the process
        // (`'static`); the built-in plugin's are the executable's read-only data.
        unsafe { Component::deserialize_raw(engine, NonNull::from(bytes)) }
    } else {
        // SAFETY: as above; wasmtime copies them to pages of its own.
        unsafe { Component::deserialize(engine, bytes) }
    };
    component.map_err(|e| format!("{e:#}"))
}

/// Makes compiled code executable with `mprotect`, as wasmtime itself does, but for code in
/// memory wasmtime does not own (the built-in plugin in the executable, a mapped cache file)
/// as well as its own.
pub(crate) struct CodePublisher;

impl CustomCodeMemory for CodePublisher {
    fn required_alignment(&self) -> usize {
        page_size()
    }

    fn publish_executable(&self, ptr: *const u8, len: usize) -> wasmtime::Result<()> {
        protect(ptr, len, libc::PROT_READ | libc::PROT_EXEC)
    }

    fn unpublish_executable(&self, ptr: *const u8, len: usize) -> wasmtime::Result<()> {
        protect(ptr, len, libc::PROT_READ | libc::PROT_WRITE)
    }
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096)
}

fn protect(ptr: *const u8, len: usize, protection: libc::c_int) -> wasmtime::Result<()> {
    // SAFETY: wasmtime passes a page-aligned range of a mapping that holds compiled code and
    // that no code runs from while it is unpublished.
    if unsafe { libc::mprotect(ptr.cast_mut().cast(), len, protection) } == 0 {
        Ok(())
    } else {
        Err(wasmtime::Error::msg(format!(
            "cannot change the protection of compiled code: {}",
            std::io::Error::last_os_error()
        )))
    }
}

#[cfg(all(test, feature = "compile"))]
mod tests {
    use super::*;

    /// The plugin compiled by an engine of the running settings changed by `change`.
    fn compiled_with(change: impl FnOnce(&mut Config)) -> &'static [u8] {
        let mut config = compiling_config(false);
        change(&mut config);
        let engine = Engine::new(&config).unwrap();
        let compiled = engine
            .precompile_component(crate::session::EMBEDDED_COMPONENT)
            .unwrap();
        compiled.leak()
    }

    fn running() -> Engine {
        Engine::new(&running_config(false)).unwrap()
    }

    #[test]
    fn the_builtin_code_runs_in_the_running_engine() {
        assert!(precompiled(&running(), &PRECOMPILED.0).is_ok());
        assert!(precompiled(&running(), compiled_with(|_| {})).is_ok());
    }

    /// Code compiled with settings other than the running engine's (were the build script's
    /// and the host's ever to drift) is refused with a reason, never run.
    #[test]
    fn code_of_other_settings_is_refused() {
        let Err(refused) = precompiled(
            &running(),
            compiled_with(|config| {
                config.epoch_interruption(false);
            }),
        ) else {
            panic!("run")
        };
        assert!(refused.contains("epoch"), "{refused}");
    }

    /// Code that uses processor features this one lacks (as a build with `-C target-cpu=native`
    /// copied to an older machine would) is refused with a reason, never run.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn code_for_another_processor_is_refused() {
        if std::arch::is_x86_feature_detected!("avx512f") {
            return;
        }
        let Err(refused) = precompiled(
            &running(),
            // SAFETY: a real x86-64 feature, which wasmtime checks before running the code.
            compiled_with(|config| unsafe {
                config.cranelift_flag_enable("has_avx512f");
            }),
        ) else {
            panic!("run")
        };
        assert!(refused.contains("has_avx512f"), "{refused}");
    }
}
