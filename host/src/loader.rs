//! Loading the component: compiled once, then read back from a cache so that later runs start
//! at once. The cache key is the component's bytes and wasmtime's compatibility hash, so a new
//! plugin or a new wasmtime never reads a stale file.
//!
//! Deserializing compiled code is `unsafe` in wasmtime because the bytes become machine code:
//! a cache file that was truncated, corrupted or replaced would crash the process, or worse.
//! So each file carries a SHA-256 of its contents, checked before wasmtime sees them; only a
//! regular file is opened (never a FIFO, a device or a symlink); and a file that fails either
//! check is compiled again and replaced.

use std::collections::hash_map::DefaultHasher;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadKind {
    /// Compiled now (and stored, when there is a cache folder).
    Compiled,
    /// Read from the cache.
    Cached,
    /// The cached file was unusable (the reason), so the component was compiled again and the
    /// file replaced.
    Rebuilt(String),
}

/// What a cache file starts with: a name and a version, then the SHA-256 of the rest.
const MAGIC: &[u8; 16] = b"interview-cache1";

/// Compiles `bytes`, or reads them compiled from `cache_dir`. A cache that cannot be read or
/// written is not an error: the component is compiled in memory instead.
pub(crate) fn load(
    engine: &Engine,
    bytes: &[u8],
    cache_dir: Option<&Path>,
) -> Result<(Component, LoadKind), Error> {
    let file = cache_dir.map(|dir| dir.join(format!("{:016x}.cwasm", key(engine, bytes))));
    let mut kind = LoadKind::Compiled;
    if let Some(file) = &file {
        match read_checked(file) {
            Ok(Some(compiled)) => {
                // SAFETY: the bytes are exactly what `precompile_component` of an engine with
                // the same compatibility hash (it is in the name) wrote: their SHA-256 matches.
                match unsafe { Component::deserialize(engine, &compiled) } {
                    Ok(component) => return Ok((component, LoadKind::Cached)),
                    Err(e) => kind = LoadKind::Rebuilt(format!("wasmtime refused it: {e}")),
                }
            }
            Ok(None) => {}
            Err(reason) => kind = LoadKind::Rebuilt(reason),
        }
    }
    let compiled = engine.precompile_component(bytes).map_err(Error::Compile)?;
    if let Some(file) = &file {
        let _ = store(file, &compiled);
    }
    // SAFETY: `compiled` was produced just now by this engine.
    let component = unsafe { Component::deserialize(engine, &compiled) }.map_err(Error::Compile)?;
    Ok((component, kind))
}

fn key(engine: &Engine, bytes: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// The compiled bytes in `file`, once checked: `None` when there is no such file, `Err` with
/// the reason when there is one that must not be used.
fn read_checked(file: &Path) -> Result<Option<Vec<u8>>, String> {
    // O_NOFOLLOW: a symlink is refused, not followed; O_NONBLOCK: opening a FIFO returns at
    // once instead of waiting for a writer.
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(file);
    let mut opened: File = match opened {
        Ok(opened) => opened,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot open it: {e}")),
    };
    let metadata = opened
        .metadata()
        .map_err(|e| format!("cannot read it: {e}"))?;
    if !metadata.file_type().is_file() {
        return Err("it is not a regular file".into());
    }
    let mut contents = Vec::with_capacity(metadata.len() as usize);
    opened
        .read_to_end(&mut contents)
        .map_err(|e| format!("cannot read it: {e}"))?;
    let header = MAGIC.len() + 32;
    if contents.len() < header || &contents[..MAGIC.len()] != MAGIC {
        return Err("it is not an interview cache file".into());
    }
    let (sum, compiled) = contents[MAGIC.len()..].split_at(32);
    if Sha256::digest(compiled).as_slice() != sum {
        return Err("its checksum does not match its contents".into());
    }
    contents.drain(..header);
    Ok(Some(contents))
}

/// Writes atomically, so that a concurrent run never reads half a file; a file or link already
/// at `file` is replaced, never written through.
fn store(file: &Path, compiled: &[u8]) -> std::io::Result<()> {
    let dir = file.parent().expect("cache files live in a folder");
    std::fs::create_dir_all(dir)?;
    let temp = dir.join(format!(
        ".{}.{}",
        std::process::id(),
        file.file_name().unwrap().to_string_lossy()
    ));
    let mut contents = Vec::with_capacity(MAGIC.len() + 32 + compiled.len());
    contents.extend_from_slice(MAGIC);
    contents.extend_from_slice(&Sha256::digest(compiled));
    contents.extend_from_slice(compiled);
    std::fs::write(&temp, contents)?;
    // The rename replaces a file, a FIFO or a link at the name; only a directory blocks it.
    if std::fs::symlink_metadata(file).is_ok_and(|m| m.is_dir()) {
        let _ = std::fs::remove_dir_all(file);
    }
    std::fs::rename(&temp, file).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}
