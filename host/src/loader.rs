//! Loading the component: compiled once, then read back from a cache so that later runs start
//! at once. The cache key is the component's bytes and wasmtime's compatibility hash, so a new
//! plugin or a new wasmtime never reads a stale file.
//!
//! A cache file is exactly what wasmtime wrote, so that wasmtime can map it into memory rather
//! than read and copy it: start-up pays only for the pages it touches. Deserializing compiled
//! code is `unsafe` because the bytes become machine code, and a file that was truncated or
//! damaged would crash the process. So each file's name carries a CRC-32 of its contents,
//! checked before wasmtime sees them (a damaged file, not a forged one, is what it guards
//! against: whoever can write to the cache folder can write the program itself); only a
//! regular file is opened (never a FIFO, a device or a symlink); and a file that fails either
//! check is compiled again and replaced.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::os::unix::fs::OpenOptionsExt;
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

/// Compiles `bytes` (whose [`fingerprint`] is given), or reads them compiled from `cache_dir`. A cache that cannot be read or
/// written is not an error: the component is compiled in memory instead.
pub(crate) fn load(
    engine: &Engine,
    bytes: &[u8],
    fingerprint: u64,
    cache_dir: Option<&Path>,
) -> Result<(Component, LoadKind), Error> {
    let Some(dir) = cache_dir else {
        let compiled = engine.precompile_component(bytes).map_err(Error::Compile)?;
        return Ok((deserialize(engine, &compiled)?, LoadKind::Compiled));
    };
    let prefix = format!("{:016x}.", key(engine, fingerprint));
    let mut kind = LoadKind::Compiled;
    let found = cached_files(dir, &prefix);
    if let Some(file) = found.first() {
        match checked(file) {
            // SAFETY: the file holds exactly what `precompile_component` of an engine with the
            // same compatibility hash (it is in the name) wrote: its CRC-32 matches, and files
            // are only ever replaced by a rename, never written in place while mapped.
            Ok(()) => match unsafe { Component::deserialize_file(engine, file) } {
                Ok(component) => return Ok((component, LoadKind::Cached)),
                Err(e) => kind = LoadKind::Rebuilt(format!("wasmtime refused it: {e}")),
            },
            Err(reason) => kind = LoadKind::Rebuilt(reason),
        }
    }
    let compiled = engine.precompile_component(bytes).map_err(Error::Compile)?;
    for stale in &found {
        let _ = std::fs::remove_file(stale);
    }
    let _ = store(dir, &prefix, &compiled);
    Ok((deserialize(engine, &compiled)?, kind))
}

fn deserialize(engine: &Engine, compiled: &[u8]) -> Result<Component, Error> {
    // SAFETY: `compiled` was produced just now by this engine.
    unsafe { Component::deserialize(engine, compiled) }.map_err(Error::Compile)
}

/// A hash of a component's bytes, for its cache key.
pub(crate) fn fingerprint(bytes: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

fn key(engine: &Engine, fingerprint: u64) -> u64 {
    let mut hasher = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    fingerprint.hash(&mut hasher);
    hasher.finish()
}

/// The cache files of one key (`<key>.<crc32>.cwasm`), whatever their CRC says.
fn cached_files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| {
            let name = entry.ok()?.file_name();
            let name = name.to_str()?;
            (name.starts_with(prefix) && name.ends_with(".cwasm")).then(|| dir.join(name))
        })
        .collect();
    files.sort();
    files
}

/// The CRC-32 a cache file's name promises for its contents.
fn promised_crc(file: &Path) -> Option<u32> {
    let name = file.file_name()?.to_str()?;
    let crc = name.strip_suffix(".cwasm")?.rsplit_once('.')?.1;
    u32::from_str_radix(crc, 16).ok()
}

/// Whether `file` may be handed to wasmtime: `Err` with the reason when it must not be.
fn checked(file: &Path) -> Result<(), String> {
    // O_NOFOLLOW: a symlink is refused, not followed; O_NONBLOCK: opening a FIFO returns at
    // once instead of waiting for a writer.
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(file)
        .map_err(|e| format!("cannot open it: {e}"))?;
    let metadata = opened
        .metadata()
        .map_err(|e| format!("cannot read it: {e}"))?;
    if !metadata.file_type().is_file() {
        return Err("it is not a regular file".into());
    }
    let promised = promised_crc(file).ok_or("its name does not say its checksum")?;
    // Mapped rather than read: the checksum runs over the page cache itself, with no copy,
    // which takes a third off the check.
    // SAFETY: cache files are only ever replaced by a rename, never changed in place, so the
    // mapped bytes stay what they are; wasmtime maps the same file the same way next.
    let mapped =
        unsafe { memmap2::Mmap::map(&opened) }.map_err(|e| format!("cannot read it: {e}"))?;
    if crc32fast::hash(&mapped) != promised {
        return Err("its checksum does not match its contents".into());
    }
    Ok(())
}

/// Writes atomically, so that a concurrent run never reads half a file; a file or link already
/// at the name is replaced, never written through.
fn store(dir: &Path, prefix: &str, compiled: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let file = dir.join(format!("{prefix}{:08x}.cwasm", crc32fast::hash(compiled)));
    let temp = dir.join(format!(".{}.{prefix}tmp", std::process::id()));
    std::fs::write(&temp, compiled)?;
    // The rename replaces a file, a FIFO or a link at the name; only a directory blocks it.
    if std::fs::symlink_metadata(&file).is_ok_and(|m| m.is_dir()) {
        let _ = std::fs::remove_dir_all(&file);
    }
    std::fs::rename(&temp, &file).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}
