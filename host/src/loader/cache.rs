//! The compiled-component cache, for components other than the built-in one.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::Arc;

use memmap2::Mmap;
use wasmtime::Engine;
use wasmtime::component::Component;

use super::{Compiled, LoadKind};
use crate::error::Error;

/// Compiles `bytes` (whose [`fingerprint`] is given) with an engine from `compiler`, or reads
/// them compiled from `cache_dir`; either way the component is ready for `engine`, which needs
/// no compiler of its own but must publish code with [`CodePublisher`](super::CodePublisher). A cache that cannot be
/// read or written is not an error: the component is compiled in memory instead.
pub(crate) fn load(
    engine: &Engine,
    compiler: impl FnOnce() -> Result<Engine, Error>,
    bytes: &[u8],
    fingerprint: u64,
    cache_dir: Option<&Path>,
) -> Result<(Compiled, LoadKind), Error> {
    let compile = |bytes: &[u8]| {
        compiler()?
            .precompile_component(bytes)
            .map_err(Error::Compile)
    };
    let Some(dir) = cache_dir else {
        let compiled = compile(bytes)?;
        return Ok((deserialize(engine, &compiled)?, LoadKind::Compiled));
    };
    let prefix = format!("{:016x}.", key(engine, fingerprint));
    let mut kind = LoadKind::Compiled;
    let found = cached_files(dir, &prefix);
    if let Some(file) = found.first() {
        match mapped(file) {
            Ok(image) => {
                // SAFETY: the mapping holds exactly what `precompile_component` wrote for an
                // engine of these settings (the key in the name covers them; wasmtime checks
                // the code's CPU features itself): its CRC-32 matches, and files are only ever
                // replaced by a rename, never written in place while mapped. It stays mapped
                // for as long as the component: `Compiled` holds both.
                match unsafe { Component::deserialize_raw(engine, NonNull::from(&image[..])) } {
                    Ok(component) => {
                        let image = Some(Arc::new(image));
                        return Ok((
                            Compiled {
                                component,
                                _image: image,
                            },
                            LoadKind::Cached,
                        ));
                    }
                    Err(e) => kind = LoadKind::Rebuilt(format!("wasmtime refused it: {e}")),
                }
            }
            Err(reason) => kind = LoadKind::Rebuilt(reason),
        }
    }
    let compiled = compile(bytes)?;
    for stale in &found {
        let _ = std::fs::remove_file(stale);
    }
    let _ = store(dir, &prefix, &compiled);
    Ok((deserialize(engine, &compiled)?, kind))
}

fn deserialize(engine: &Engine, compiled: &[u8]) -> Result<Compiled, Error> {
    // SAFETY: `compiled` was produced just now by an engine of the same settings.
    let component = unsafe { Component::deserialize(engine, compiled) }.map_err(Error::Compile)?;
    Ok(Compiled::in_memory(component))
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

/// `file`, mapped privately and read-only, if it may be handed to wasmtime: `Err` with the
/// reason when it must not be.
fn mapped(file: &Path) -> Result<Mmap, String> {
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
    // and the code then runs from the same pages. Private, as wasmtime maps its own files:
    // making the code executable never reaches the file.
    // SAFETY: cache files are only ever replaced by a rename, never changed in place, so the
    // mapped bytes stay what they are.
    let mapped = unsafe { memmap2::MmapOptions::new().map_copy_read_only(&opened) }
        .map_err(|e| format!("cannot read it: {e}"))?;
    if crc32fast::hash(&mapped) != promised {
        return Err("its checksum does not match its contents".into());
    }
    Ok(mapped)
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
