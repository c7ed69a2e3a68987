//! The team inbox's Unix socket file (`--listen unix:PATH`): taken only from nobody, and
//! removed only while it is still this server's.
//!
//! A lock on `PATH.lock`, held for as long as the server runs, says whose the path is: two
//! servers started at once cannot both find the file stale and each take it from the other.
//! Holding it, a socket file already there is another's only while a server answers on it
//! (one of a version without the lock); refused connections mean it was left by one that was
//! killed, and it is replaced. Any other failure to tell (no permission to connect) refuses
//! to start, rather than take a file that may be a live server's.

use std::fmt;
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
pub fn bind(
    path: &Path,
    listen: &str,
) -> Result<(tokio::net::UnixListener, SocketFile), BindError> {
    let cannot = |why: Unbound| BindError {
        listen: listen.to_owned(),
        why,
    };
    let lock = lock(path).map_err(cannot)?;
    if let Ok(metadata) = std::fs::symlink_metadata(path) {
        if !metadata.file_type().is_socket() {
            return Err(cannot(Unbound::NotASocket));
        }
        match std::os::unix::net::UnixStream::connect(path) {
            Ok(_) => return Err(cannot(Unbound::Taken)),
            Err(e) if e.kind() == ErrorKind::ConnectionRefused => {
                std::fs::remove_file(path).map_err(|e| cannot(Unbound::Failed(e)))?;
            }
            Err(e) => return Err(cannot(Unbound::Untold(e))),
        }
    }
    let listener = tokio::net::UnixListener::bind(path).map_err(|e| cannot(Unbound::Failed(e)))?;
    let metadata = std::fs::symlink_metadata(path).map_err(|e| cannot(Unbound::Failed(e)))?;
    let bound = SocketFile {
        path: path.to_owned(),
        identity: (metadata.dev(), metadata.ino()),
        _lock: lock,
    };
    Ok((listener, bound))
}

/// The lock of `path` (`PATH.lock`), taken without waiting.
fn lock(path: &Path) -> Result<File, Unbound> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let lock_path = PathBuf::from(name);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path);
    let file = match file {
        Ok(file) => file,
        Err(error) => return Err(Unbound::LockUnopened { lock_path, error }),
    };
    // SAFETY: flock on a descriptor this function owns; it changes no memory.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let error = std::io::Error::last_os_error();
        return Err(match error.kind() {
            ErrorKind::WouldBlock => Unbound::Taken,
            _ => Unbound::Unlocked { lock_path, error },
        });
    }
    Ok(file)
}

/// The server cannot listen where `listen` says (a socket, a TCP address): why.
#[derive(Debug)]
pub struct BindError {
    /// The address as the person gave it (`unix:PATH`).
    pub listen: String,
    pub why: Unbound,
}

/// Why a socket file cannot be this server's.
#[derive(Debug)]
pub enum Unbound {
    /// Another server holds the path (its lock, or it answers on the socket).
    Taken,
    /// The lock file beside it cannot be opened.
    LockUnopened {
        lock_path: PathBuf,
        error: std::io::Error,
    },
    /// The lock file could not be locked, for another reason than another's holding it.
    Unlocked {
        lock_path: PathBuf,
        error: std::io::Error,
    },
    /// A file that is not a socket is at the path: it is left alone.
    NotASocket,
    /// A socket file is there, and whether a server listens on it cannot be told (no
    /// permission to connect): it is not taken, for it may be a live server's.
    Untold(std::io::Error),
    /// Removing the stale file, binding (a socket or a TCP address), or reading what was bound
    /// failed.
    Failed(std::io::Error),
}

impl fmt::Display for BindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot listen on {}: {}", self.listen, self.why)
    }
}

impl fmt::Display for Unbound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unbound::Taken => f.write_str("a server listens on it already"),
            Unbound::LockUnopened { lock_path, error } => {
                write!(f, "cannot open its lock {}: {error}", lock_path.display())
            }
            Unbound::Unlocked { lock_path, error } => {
                write!(f, "cannot lock {}: {error}", lock_path.display())
            }
            Unbound::NotASocket => f.write_str("the file exists, and is not a socket"),
            Unbound::Untold(error) => write!(
                f,
                "a socket file is there, and whether a server listens on it cannot be told \
                 ({error})"
            ),
            Unbound::Failed(error) => error.fmt(f),
        }
    }
}

// No `source`: the cause is in the sentence already, and a reporter would say it twice.
impl std::error::Error for BindError {}

impl std::error::Error for Unbound {}
