//! Loading the component: compiled once, then read back from a cache so that later runs start
//! at once. The cache key is the component's bytes and wasmtime's compatibility hash, so a new
//! plugin or a new wasmtime never reads a stale file.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use wasmtime::Engine;
use wasmtime::component::Component;

use crate::Error;

/// The default cache folder: `$XDG_CACHE_HOME/interview`, else `~/.cache/interview`.
pub fn default_cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))?;
    Some(base.join("interview"))
}

/// How a component was made ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadKind {
    /// Compiled now (and stored, when there is a cache folder).
    Compiled,
    /// Read from the cache.
    Cached,
}

/// Compiles `bytes`, or reads them compiled from `cache_dir`. A cache that cannot be read or
/// written is not an error: the component is compiled in memory instead.
pub(crate) fn load(
    engine: &Engine,
    bytes: &[u8],
    cache_dir: Option<&Path>,
) -> Result<(Component, LoadKind), Error> {
    let file = cache_dir.map(|dir| dir.join(format!("{:016x}.cwasm", key(engine, bytes))));
    if let Some(file) = &file
        && let Ok(compiled) = std::fs::read(file)
    {
        // SAFETY: the file was written by `precompile_component` of an engine with the same
        // compatibility hash (it is in the name), in the user's own cache folder.
        if let Ok(component) = unsafe { Component::deserialize(engine, &compiled) } {
            return Ok((component, LoadKind::Cached));
        }
    }
    let compiled = engine
        .precompile_component(bytes)
        .map_err(|e| Error::Compile(format!("{e:?}")))?;
    if let Some(file) = &file {
        let _ = store(file, &compiled);
    }
    // SAFETY: `compiled` was produced just now by this engine.
    let component = unsafe { Component::deserialize(engine, &compiled) }
        .map_err(|e| Error::Compile(format!("{e:?}")))?;
    Ok((component, LoadKind::Compiled))
}

fn key(engine: &Engine, bytes: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// Writes atomically, so that a concurrent run never reads half a file.
fn store(file: &Path, compiled: &[u8]) -> std::io::Result<()> {
    let dir = file.parent().expect("cache files live in a folder");
    std::fs::create_dir_all(dir)?;
    let temp = dir.join(format!(
        ".{}.{}",
        std::process::id(),
        file.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&temp, compiled)?;
    std::fs::rename(&temp, file).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}
