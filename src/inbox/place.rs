//! Where this machine's inbox is found: the folder of its socket, which every process of the
//! user must find alike, whatever its environment, and the folder of its database and tokens.
//!
//! Agents start MCP servers with a trimmed environment (Codex passes HOME, PATH, SHELL, TERM,
//! LANG and a few more, not `XDG_RUNTIME_DIR`), so the sockets' folder is found from the user
//! id first: `/run/user/UID/interview` where the system made `/run/user/UID` for this user,
//! else `~/.cache/interview/inbox`. `INTERVIEW_INBOX` names another folder, for both the
//! sockets and the database (tests, or a person who wants their own).

use std::fmt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The folders of one user's inboxes.
#[derive(Clone, Debug)]
pub struct Place {
    /// Where the inbox has its socket (`inbox.sock`) and its terminals their claims.
    pub sockets: PathBuf,
    /// Where the inbox keeps its database and its tokens.
    pub data: PathBuf,
}

impl Place {
    /// This user's place, from `INTERVIEW_INBOX`, the user id and the home folder. Nothing is
    /// created here.
    pub fn find() -> Result<Place, PlaceError> {
        if let Some(dir) = std::env::var_os("INTERVIEW_INBOX").filter(|d| !d.is_empty()) {
            let dir = PathBuf::from(dir);
            return Ok(Place {
                sockets: dir.clone(),
                data: dir,
            });
        }
        // SAFETY: getuid cannot fail.
        let uid = unsafe { libc::getuid() };
        let home = home()?;
        let run = PathBuf::from(format!("/run/user/{uid}"));
        let sockets = match std::fs::metadata(&run) {
            Ok(meta) if meta.is_dir() && meta.uid() == uid => run.join("interview"),
            _ => home.join(".cache/interview/inbox"),
        };
        let data = match std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
            Some(dir) => PathBuf::from(dir).join("interview"),
            None => home.join(".local/share/interview"),
        };
        Ok(Place { sockets, data })
    }
}

/// The user's home folder: `HOME`, which every agent passes on.
fn home() -> Result<PathBuf, PlaceError> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or(PlaceError::NoHome)
}

/// Makes `dir` (and its parents) if missing, and checks that it is this user's and nobody
/// else's: a folder others can write to would let them put a socket of theirs in the way.
pub fn private_dir(dir: &Path) -> Result<(), PlaceError> {
    let folder = || dir.to_owned();
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|error| PlaceError::Unmade {
            folder: folder(),
            error,
        })?;
    let meta = std::fs::symlink_metadata(dir).map_err(|error| PlaceError::Unread {
        folder: folder(),
        error,
    })?;
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    if !meta.is_dir() || meta.uid() != uid {
        return Err(PlaceError::NotTheUsers(folder()));
    }
    let mode = meta.permissions().mode();
    // A folder others may write to (`/tmp`, say) is not made private: what they may have put
    // in it (a database with tokens of theirs) would stay, and the folder is not this inbox's
    // to close to them. One they may only read is closed: nothing in it can be theirs.
    if mode & 0o022 != 0 {
        return Err(PlaceError::Shared {
            folder: folder(),
            mode: mode & 0o7777,
        });
    }
    if mode & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(|error| {
            PlaceError::NotMadePrivate {
                folder: folder(),
                error,
            }
        })?;
    }
    Ok(())
}

/// The longest path a Unix socket may have, in bytes (`sun_path` holds 108, with its NUL).
const SOCKET_PATH_BYTES: usize = 107;

/// The path of the socket `name` in `dir`, if a socket may have it.
pub fn socket_in(dir: &Path, name: &str) -> Result<PathBuf, PlaceError> {
    let socket = dir.join(name);
    if socket.as_os_str().len() > SOCKET_PATH_BYTES {
        return Err(PlaceError::SocketPathTooLong(socket));
    }
    Ok(socket)
}

/// Why an asker must not trust `dir` as its inbox's folder, if it must not: it is not a
/// folder of this user's, or others may enter it (a socket or a tokens file there could be
/// another user's, who would then answer for this one). Nothing is changed.
pub fn untrusted(dir: &Path) -> Option<PlaceError> {
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(meta) => meta,
        Err(error) => {
            return Some(PlaceError::Unread {
                folder: dir.to_owned(),
                error,
            });
        }
    };
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    if !meta.is_dir() || meta.uid() != uid {
        return Some(PlaceError::NotTheUsers(dir.to_owned()));
    }
    (meta.permissions().mode() & 0o077 != 0).then(|| PlaceError::OpenToOthers {
        folder: dir.to_owned(),
        mode: meta.permissions().mode() & 0o777,
    })
}

/// Why this user's inbox has no folder to be in, or one that must not be used: each names
/// the folder, as the sentence the command says.
#[derive(Debug)]
pub enum PlaceError {
    /// `HOME` is not set, and `INTERVIEW_INBOX` does not name a folder instead.
    NoHome,
    /// The folder (or a parent) could not be made.
    Unmade {
        folder: PathBuf,
        error: std::io::Error,
    },
    /// The folder could not be looked at (missing, or no permission).
    Unread {
        folder: PathBuf,
        error: std::io::Error,
    },
    /// It is not a folder (a symlink, a file), or another user's: a socket there could be
    /// theirs.
    NotTheUsers(PathBuf),
    /// The inbox's socket would have a longer path than a Unix socket may have.
    SocketPathTooLong(PathBuf),
    /// It is this user's, and others may write to it (`mode`, its permission bits): what
    /// is in it may be theirs, and it is left as it is.
    Shared { folder: PathBuf, mode: u32 },
    /// It is this user's, but others may enter it, and it could not be made private.
    NotMadePrivate {
        folder: PathBuf,
        error: std::io::Error,
    },
    /// It is this user's, and others may enter it (`mode`, its permission bits): an asker
    /// does not trust it, and changes nothing.
    OpenToOthers { folder: PathBuf, mode: u32 },
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlaceError::NoHome => {
                f.write_str("HOME is not set: set INTERVIEW_INBOX to the inbox's folder")
            }
            PlaceError::Unmade { folder, error } => write!(
                f,
                "cannot make the inbox's folder {}: {error}",
                folder.display()
            ),
            PlaceError::Unread { folder, error } => write!(
                f,
                "cannot read the inbox's folder {}: {error}",
                folder.display()
            ),
            PlaceError::NotTheUsers(folder) => write!(
                f,
                "the inbox's folder {} is not a folder of this user's",
                folder.display()
            ),
            PlaceError::SocketPathTooLong(socket) => write!(
                f,
                "the inbox's socket {} is longer than a Unix socket's path may be \
                 ({SOCKET_PATH_BYTES} bytes): set INTERVIEW_INBOX to a folder with a shorter path",
                socket.display()
            ),
            PlaceError::Shared { folder, mode } => write!(
                f,
                "the inbox's folder {} can be written by other users (mode {mode:o}), so what \
                 is in it may be theirs: check it and make it private (chmod 700), or name a \
                 folder of your own with INTERVIEW_INBOX",
                folder.display()
            ),
            PlaceError::NotMadePrivate { folder, error } => write!(
                f,
                "cannot make {} private (mode 0700): {error}",
                folder.display()
            ),
            PlaceError::OpenToOthers { folder, mode } => write!(
                f,
                "the inbox's folder {} is open to other users (mode {mode:o})",
                folder.display()
            ),
        }
    }
}

impl std::error::Error for PlaceError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_others_could_read_is_made_private_and_one_they_could_write_to_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let inbox = dir.path().join("a/b");
        private_dir(&inbox).unwrap();
        let mode = |inbox: &Path| std::fs::metadata(inbox).unwrap().permissions().mode();
        std::fs::set_permissions(&inbox, std::fs::Permissions::from_mode(0o755)).unwrap();
        private_dir(&inbox).unwrap();
        assert_eq!(mode(&inbox) & 0o777, 0o700);
        for shared in [0o777, 0o1777, 0o720] {
            std::fs::set_permissions(&inbox, std::fs::Permissions::from_mode(shared)).unwrap();
            let refused = private_dir(&inbox).unwrap_err();
            assert!(
                matches!(refused, PlaceError::Shared { mode, .. } if mode == shared),
                "{refused}"
            );
            assert_eq!(mode(&inbox) & 0o7777, shared, "left as it was");
        }
    }

    #[test]
    fn an_asker_trusts_only_a_folder_of_its_users_that_nobody_else_may_enter() {
        let dir = tempfile::tempdir().unwrap();
        let inbox = dir.path().join("inbox");
        assert!(matches!(untrusted(&inbox), Some(PlaceError::Unread { .. })));
        private_dir(&inbox).unwrap();
        assert!(untrusted(&inbox).is_none());
        std::fs::set_permissions(&inbox, std::fs::Permissions::from_mode(0o755)).unwrap();
        let open = untrusted(&inbox).unwrap();
        assert!(
            matches!(open, PlaceError::OpenToOthers { mode: 0o755, .. }),
            "{open}"
        );
        assert!(
            open.to_string()
                .ends_with("is open to other users (mode 755)")
        );
        std::os::unix::fs::symlink(&inbox, dir.path().join("link")).unwrap();
        assert!(matches!(
            untrusted(&dir.path().join("link")),
            Some(PlaceError::NotTheUsers(_))
        ));
        // The root's folder is nobody's but root's.
        if unsafe { libc::getuid() } != 0 {
            assert!(matches!(
                untrusted(Path::new("/")),
                Some(PlaceError::NotTheUsers(_))
            ));
        }
    }

    #[test]
    fn a_socket_path_longer_than_a_socket_may_have_is_refused() {
        let fits = Path::new("/").join("d".repeat(SOCKET_PATH_BYTES - 1 - "/s".len()));
        assert_eq!(socket_in(&fits, "s").unwrap().as_os_str().len(), 107);
        let longer = fits.join("x");
        let refused = socket_in(&longer, "s").unwrap_err();
        assert!(
            matches!(refused, PlaceError::SocketPathTooLong(_)),
            "{refused}"
        );
    }

    #[test]
    fn a_symlink_is_not_taken_for_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/tmp", dir.path().join("link")).unwrap();
        let error = private_dir(&dir.path().join("link")).unwrap_err();
        assert!(matches!(error, PlaceError::NotTheUsers(_)), "{error}");
    }
}
