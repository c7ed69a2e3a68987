//! Where this machine's inbox is found: the folder of its socket, which every process of the
//! user must find alike, whatever its environment, and the folder of its database and tokens.
//!
//! Agents start MCP servers with a trimmed environment (Codex passes HOME, PATH, SHELL, TERM,
//! LANG and a few more, not `XDG_RUNTIME_DIR`), so the sockets' folder is found from the user
//! id first: `/run/user/UID/interview` where the system made `/run/user/UID` for this user,
//! else `~/.cache/interview/inbox`. `INTERVIEW_INBOX` names another folder, for both the
//! sockets and the database (tests, or a person who wants their own).

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
    pub fn find() -> Result<Place, String> {
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
fn home() -> Result<PathBuf, String> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| "HOME is not set: set INTERVIEW_INBOX to the inbox's folder".to_string())
}

/// Makes `dir` (and its parents) if missing, and checks that it is this user's and nobody
/// else's: a folder others can write to would let them put a socket of theirs in the way.
pub fn private_dir(dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| format!("cannot make the inbox's folder {shown}: {e}"))?;
    let meta = std::fs::symlink_metadata(dir)
        .map_err(|e| format!("cannot read the inbox's folder {shown}: {e}"))?;
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    if !meta.is_dir() || meta.uid() != uid {
        return Err(format!(
            "the inbox's folder {shown} is not a folder of this user's"
        ));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| format!("cannot make {shown} private (mode 0700): {e}"))?;
    }
    Ok(())
}

/// Why an asker must not trust `dir` as its inbox's folder, if it must not: it is not a
/// folder of this user's, or others may enter it (a socket or a tokens file there could be
/// another user's, who would then answer for this one). Nothing is changed.
pub fn untrusted(dir: &Path) -> Option<String> {
    let shown = dir.display();
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(meta) => meta,
        Err(e) => return Some(format!("cannot read the inbox's folder {shown}: {e}")),
    };
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    if !meta.is_dir() || meta.uid() != uid {
        return Some(format!(
            "the inbox's folder {shown} is not a folder of this user's"
        ));
    }
    (meta.permissions().mode() & 0o077 != 0).then(|| {
        format!(
            "the inbox's folder {shown} is open to other users (mode {:o})",
            meta.permissions().mode() & 0o777
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_others_could_write_to_is_made_private() {
        let dir = tempfile::tempdir().unwrap();
        let inbox = dir.path().join("a/b");
        private_dir(&inbox).unwrap();
        std::fs::set_permissions(&inbox, std::fs::Permissions::from_mode(0o777)).unwrap();
        private_dir(&inbox).unwrap();
        let mode = std::fs::metadata(&inbox).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    }

    #[test]
    fn an_asker_trusts_only_a_folder_of_its_users_that_nobody_else_may_enter() {
        let dir = tempfile::tempdir().unwrap();
        let inbox = dir.path().join("inbox");
        assert!(untrusted(&inbox).unwrap().contains("cannot read"));
        private_dir(&inbox).unwrap();
        assert_eq!(untrusted(&inbox), None);
        std::fs::set_permissions(&inbox, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(
            untrusted(&inbox)
                .unwrap()
                .contains("open to other users (mode 755)")
        );
        std::os::unix::fs::symlink(&inbox, dir.path().join("link")).unwrap();
        assert!(
            untrusted(&dir.path().join("link"))
                .unwrap()
                .contains("not a folder")
        );
        // The root's folder is nobody's but root's.
        if unsafe { libc::getuid() } != 0 {
            assert!(
                untrusted(Path::new("/"))
                    .unwrap()
                    .contains("not a folder of this user's")
            );
        }
    }

    #[test]
    fn a_symlink_is_not_taken_for_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/tmp", dir.path().join("link")).unwrap();
        let error = private_dir(&dir.path().join("link")).unwrap_err();
        assert!(error.contains("not a folder of this user's"), "{error}");
    }
}
