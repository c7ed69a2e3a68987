//! Opening the page in the person's browser without showing its token to other users.
//!
//! A command line is readable by every user of the machine (`ps`, `/proc/PID/cmdline`), so
//! the browser is never given the page's address. It is given the path of a small HTML file
//! that forwards to the page, readable by its owner only (0600, in a 0700 directory of its
//! own), as Jupyter does.
//!
//! The other common way, a one-time code on the command line exchanged for a cookie, still
//! shows a working secret in `ps` until the browser has used it: another user who reads it
//! first takes the page, and the person's own browser is refused. The file gives nothing away
//! at any moment, keeps working for a second tab or a reload, and needs no cookies.

use std::fs::{DirBuilder, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The forwarding file and its private directory, removed when dropped.
pub(super) struct Redirect {
    dir: PathBuf,
    file: PathBuf,
}

impl Redirect {
    /// Writes a file that forwards to `url`, in a new private directory under the user's
    /// runtime directory (`$XDG_RUNTIME_DIR`, itself private), else the temporary one.
    pub(super) fn create(url: &str, random: &str) -> io::Result<Redirect> {
        let base = std::env::var_os("XDG_RUNTIME_DIR")
            .map(PathBuf::from)
            .filter(|dir| dir.is_dir())
            .unwrap_or_else(std::env::temp_dir);
        // create_dir fails on anything already there, a symlink planted by another user too.
        let dir = base.join(format!("interview-web-{random}"));
        DirBuilder::new().mode(0o700).create(&dir).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot create {}: {e}", dir.display()))
        })?;
        let redirect = Redirect {
            file: dir.join("open.html"),
            dir,
        };
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&redirect.file)?;
        file.write_all(page(url).as_bytes())?;
        Ok(redirect)
    }

    pub(super) fn path(&self) -> &Path {
        &self.file
    }
}

impl Drop for Redirect {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.file);
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// The forwarding page: at once, and by a link should refresh be turned off.
fn page(url: &str) -> String {
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"refresh\" content=\"0;url={url}\"><title>Questions</title></head>\
         <body><p><a href=\"{url}\">Open the questions</a></p></body></html>\n"
    )
}

/// Starts the browser on `file`: `$BROWSER`, else `xdg-open`, else `open`. An error when none
/// of them could be started.
pub(super) fn open(file: &Path) -> io::Result<()> {
    let browser = std::env::var("BROWSER")
        .ok()
        .filter(|b| !b.trim().is_empty());
    let candidates = browser
        .into_iter()
        .chain(["xdg-open".into(), "open".into()]);
    let mut last = io::Error::other("no browser to open");
    for program in candidates {
        match Command::new(&program)
            .arg(file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(_) => return Ok(()),
            Err(e) => last = io::Error::new(e.kind(), format!("{program}: {e}")),
        }
    }
    Err(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_file_forwards_to_the_page_and_only_its_owner_reads_it() {
        let url = "http://127.0.0.1:1234/00ff/";
        let name = super::super::routes::random_hex(8).unwrap();
        let redirect = Redirect::create(url, &name).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(redirect.path()), 0o600);
        assert_eq!(mode(redirect.path().parent().unwrap()), 0o700);
        let text = std::fs::read_to_string(redirect.path()).unwrap();
        assert!(text.contains(&format!("content=\"0;url={url}\"")), "{text}");
        assert!(
            Redirect::create(url, &name).is_err(),
            "a directory already there is never reused"
        );
        let dir = redirect.path().parent().unwrap().to_path_buf();
        drop(redirect);
        assert!(!dir.exists(), "removed when done");
    }
}
