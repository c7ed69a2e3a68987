//! The team inbox's Unix socket file (`--listen unix:PATH`): taken only from nobody, and
//! removed only while it is still this server's.
//!
//! A lock on `PATH.lock`, held for as long as the server runs, says whose the path is: two
//! servers started at once cannot both find the file stale and each take it from the other.
//! Holding it, a socket file already there is another's only while a server answers on it
//! (one of a version without the lock); refused connections mean it was left by one that was
//! killed, and it is replaced. Any other failure to tell (no permission to connect) refuses
//! to start, rather than take a file that may be a live server's.

use std::fs::File;
use std::io::ErrorKind;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

/// The socket file a server bound, while it runs: dropped, it removes the file if the file is
/// still the one it bound.
#[derive(Debug)]
pub struct SocketFile {
    path: PathBuf,
    /// The file's identity when bound (device, inode).
    identity: (u64, u64),
    /// Held until dropped: the path is this server's.
    _lock: File,
}

impl Drop for SocketFile {
    fn drop(&mut self) {
        let ours = std::fs::symlink_metadata(&self.path)
            .is_ok_and(|metadata| (metadata.dev(), metadata.ino()) == self.identity);
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Listens on the Unix socket at `path`, as `listen` (what the person gave) says.
pub fn bind(path: &Path, listen: &str) -> Result<(tokio::net::UnixListener, SocketFile), String> {
    let cannot = |why: String| format!("cannot listen on {listen}: {why}");
    let lock = lock(path).map_err(cannot)?;
    if let Ok(metadata) = std::fs::symlink_metadata(path) {
        if !metadata.file_type().is_socket() {
            return Err(cannot("the file exists, and is not a socket".into()));
        }
        match std::os::unix::net::UnixStream::connect(path) {
            Ok(_) => return Err(cannot("a server listens on it already".into())),
            Err(e) if e.kind() == ErrorKind::ConnectionRefused => {
                std::fs::remove_file(path).map_err(|e| cannot(e.to_string()))?;
            }
            Err(e) => {
                return Err(cannot(format!(
                    "a socket file is there, and whether a server listens on it cannot be \
                     told ({e})"
                )));
            }
        }
    }
    let listener = tokio::net::UnixListener::bind(path).map_err(|e| cannot(e.to_string()))?;
    let metadata = std::fs::symlink_metadata(path).map_err(|e| cannot(e.to_string()))?;
    let bound = SocketFile {
        path: path.to_owned(),
        identity: (metadata.dev(), metadata.ino()),
        _lock: lock,
    };
    Ok((listener, bound))
}

/// The lock of `path` (`PATH.lock`), taken without waiting.
fn lock(path: &Path) -> Result<File, String> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let lock_path = PathBuf::from(name);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| format!("cannot open its lock {}: {e}", lock_path.display()))?;
    // SAFETY: flock on a descriptor this function owns; it changes no memory.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let error = std::io::Error::last_os_error();
        return Err(match error.kind() {
            ErrorKind::WouldBlock => "a server listens on it already".into(),
            _ => format!("cannot lock {}: {error}", lock_path.display()),
        });
    }
    Ok(file)
}
