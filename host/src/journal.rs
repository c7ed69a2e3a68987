//! A journal: the person's replies to one request, written to disk as they are given, so that
//! a run killed half-way (kill -9, a crash, a closed terminal) can be resumed without asking
//! again what was already answered.
//!
//! The file is JSON lines. The first names the plugin and the request it was written for (a
//! SHA-256 of each), so that a journal is never played into another request; every other line
//! is one reply, as a widget returned it, appended and flushed to the disk (`fsync`) before the
//! plugin sees the reply. A secret is never written: its line only says a secret was given, and
//! a resumed run asks for it again. A cancel is not written either: a run that resumes asks
//! from where the person left.
//!
//! The reply kinds come from the WIT's `ui` interface, so a journal outlives a new version of
//! the command only when the plugin is the same; another plugin refuses it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::Error;
use crate::replay::Reply;

/// What the first line says; a new layout gets a new version.
const VERSION: u32 = 1;

/// The journal of one request, opened for reading what it holds and appending what is given.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    /// What the file held when it was opened.
    earlier: Option<Earlier>,
    /// Bytes of complete lines: a line torn by a crash is cut off before appending.
    kept_bytes: u64,
    /// Open for appending, from the first reply written.
    file: Option<File>,
    /// Why the journal could not be written, if it could not; nothing more is written then.
    problem: Option<String>,
}

#[derive(Debug)]
struct Earlier {
    header: Header,
    entries: Vec<Option<Reply>>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Header {
    #[serde(rename = "interview-journal")]
    version: u32,
    /// SHA-256 of the plugin component.
    plugin: String,
    /// SHA-256 of the request: the export called and its arguments.
    request: String,
}

/// One line after the header.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Entry {
    Reply(Reply),
    /// A secret was given here; it is asked again on resume.
    Secret,
}

impl Journal {
    /// Opens the journal at `path`: reads what an earlier run wrote there, if anything. The
    /// file is created only when the first reply is written. A path that is not a regular
    /// file (a symlink, a FIFO, a folder), or a file that is not a journal, is refused.
    pub fn open(path: impl Into<PathBuf>) -> Result<Journal, Error> {
        let path = path.into();
        let mut journal = Journal {
            path,
            earlier: None,
            kept_bytes: 0,
            file: None,
            problem: None,
        };
        let text = match read_regular(&journal.path) {
            Ok(Some(text)) => text,
            Ok(None) => return Ok(journal),
            Err(problem) => return Err(journal.error(problem)),
        };
        // Only the last line can be incomplete: each line is flushed before the next.
        let complete = text.rfind('\n').map_or(0, |end| end + 1);
        journal.kept_bytes = complete as u64;
        let mut lines = text[..complete].lines().enumerate();
        let Some((_, first)) = lines.next() else {
            return Ok(journal);
        };
        let header: Header = serde_json::from_str(first)
            .map_err(|_| journal.error("is not an interview journal".into()))?;
        if header.version != VERSION {
            return Err(journal.error(format!(
                "has version {} of the journal layout; this interview reads version {VERSION}",
                header.version
            )));
        }
        let mut entries = Vec::new();
        for (index, line) in lines {
            let entry: Entry = serde_json::from_str(line)
                .map_err(|e| journal.error(format!("has a damaged line {}: {e}", index + 1)))?;
            entries.push(match entry {
                Entry::Reply(reply) => Some(reply),
                Entry::Secret => None,
            });
        }
        journal.earlier = Some(Earlier { header, entries });
        Ok(journal)
    }

    /// Where the journal is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many replies an earlier run wrote (secrets included), to resume from.
    pub fn earlier_replies(&self) -> usize {
        self.earlier.as_ref().map_or(0, |e| e.entries.len())
    }

    /// Why the journal could not be written during the last call, if it could not. The call
    /// itself went on: the person was answering.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// The request has ended and its result is safe with the caller: removes the file.
    pub fn finish(self) -> Result<(), Error> {
        match std::fs::remove_file(&self.path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(self.error(format!("cannot be removed: {e}"))),
        }
    }

    /// The replies to play back for the request `request` of the plugin `plugin` (SHA-256s in
    /// hex; `None`: a secret, to ask again). A journal of another request or plugin is refused.
    pub(crate) fn begin(
        &mut self,
        plugin: &str,
        request: &str,
    ) -> Result<Vec<Option<Reply>>, Error> {
        let Some(earlier) = &self.earlier else {
            return Ok(Vec::new());
        };
        if earlier.header.plugin != plugin {
            return Err(self.error(
                "was written by another version of the interview plugin: its replies may not \
                 mean the same; remove it to start over"
                    .into(),
            ));
        }
        if earlier.header.request != request {
            return Err(self.error(
                "was written for another request; give each request its own journal, or \
                 remove it to start over"
                    .into(),
            ));
        }
        Ok(earlier.entries.clone())
    }

    /// Appends one reply (`None`: a secret was given) and flushes it to the disk. The first
    /// reply creates the file, readable by its owner only, with the header of `plugin` and
    /// `request`.
    pub(crate) fn append(&mut self, reply: Option<&Reply>, plugin: &str, request: &str) {
        if self.problem.is_some() {
            return;
        }
        let entry = match reply {
            Some(reply) => Entry::Reply(reply.clone()),
            None => Entry::Secret,
        };
        let written = self.writer(plugin, request).and_then(|file| {
            let mut line = serde_json::to_vec(&entry).map_err(std::io::Error::other)?;
            line.push(b'\n');
            file.write_all(&line)?;
            file.sync_data()?;
            Ok(line.len())
        });
        match written {
            Ok(bytes) => {
                self.kept_bytes += bytes as u64;
                // What the file holds now, should the journal be used for a later call.
                let earlier = self.earlier.get_or_insert_with(|| Earlier {
                    header: Header {
                        version: VERSION,
                        plugin: plugin.into(),
                        request: request.into(),
                    },
                    entries: Vec::new(),
                });
                earlier.entries.push(reply.cloned());
            }
            Err(e) => {
                self.problem = Some(format!("cannot write {}: {e}", self.path.display()));
                self.file = None;
            }
        }
    }

    /// The file, open for appending; created with its header on first use.
    fn writer(&mut self, plugin: &str, request: &str) -> std::io::Result<&mut File> {
        if self.file.is_none() {
            let mut file = OpenOptions::new()
                .create(true)
                .write(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&self.path)?;
            if !file.metadata()?.is_file() {
                return Err(std::io::Error::other("not a regular file"));
            }
            // Cuts a line torn by a crash, so that the next line starts on its own.
            file.set_len(self.kept_bytes)?;
            file.seek(std::io::SeekFrom::End(0))?;
            if self.kept_bytes == 0 {
                let header = Header {
                    version: VERSION,
                    plugin: plugin.into(),
                    request: request.into(),
                };
                let mut line = serde_json::to_vec(&header).map_err(std::io::Error::other)?;
                line.push(b'\n');
                file.write_all(&line)?;
                file.sync_all()?;
                self.earlier = None;
                // The new file's name must be on the disk too.
                if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    File::open(dir)?.sync_all()?;
                }
                self.kept_bytes = line.len() as u64;
            }
            self.file = Some(file);
        }
        Ok(self.file.as_mut().expect("opened above"))
    }

    fn error(&self, problem: String) -> Error {
        Error::Journal {
            path: self.path.clone(),
            problem,
        }
    }
}

/// A SHA-256 in hex, of the parts with a separator that none of them can hold.
pub(crate) fn digest(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The file's text, or `None` when there is none; only a regular file is read.
fn read_regular(path: &Path) -> Result<Option<String>, String> {
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
    {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err("is a symbolic link; a journal must be a regular file".into());
        }
        Err(e) => return Err(format!("cannot be read: {e}")),
    };
    let metadata = file
        .metadata()
        .map_err(|e| format!("cannot be read: {e}"))?;
    if !metadata.is_file() {
        return Err("is not a regular file".into());
    }
    let mut bytes = Vec::new();
    (&file)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot be read: {e}"))?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| "is not an interview journal (not UTF-8)".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConfirmReply, TextReply};

    fn text(answer: &str) -> Reply {
        Reply::Text(TextReply::Submitted(answer.into()))
    }

    /// A crash can tear only the last line: it is dropped on reading and cut before the next
    /// reply is appended, so the file stays a journal.
    #[test]
    fn a_torn_last_line_is_dropped_and_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torn.journal");
        let mut journal = Journal::open(&path).unwrap();
        assert!(journal.begin("p", "r").unwrap().is_empty());
        journal.append(Some(&text("one")), "p", "r");
        journal.append(None, "p", "r");
        drop(journal);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(br#"{"reply":{"Text":{"Subm"#).unwrap();

        let mut journal = Journal::open(&path).unwrap();
        assert_eq!(journal.begin("p", "r").unwrap(), [Some(text("one")), None]);
        journal.append(
            Some(&Reply::Confirm(ConfirmReply::Answered(true))),
            "p",
            "r",
        );
        assert_eq!(journal.problem(), None);
        let mut journal = Journal::open(&path).unwrap();
        assert_eq!(
            journal.begin("p", "r").unwrap(),
            [
                Some(text("one")),
                None,
                Some(Reply::Confirm(ConfirmReply::Answered(true)))
            ]
        );
        journal.finish().unwrap();
        assert!(!path.exists());
    }

    /// A damaged line in the middle is not a crash's doing: the journal is refused, not
    /// half-played.
    #[test]
    fn a_damaged_line_is_refused_with_its_number() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("damaged.journal");
        let mut journal = Journal::open(&path).unwrap();
        journal.append(Some(&text("one")), "p", "r");
        journal.append(Some(&text("two")), "p", "r");
        let written = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, written.replacen("one", "o\"ne", 1)).unwrap();
        let error = Journal::open(&path).unwrap_err().to_string();
        assert!(error.contains("has a damaged line 2"), "{error}");
    }

    /// A symlink planted at the journal's path is never followed, for reading or writing.
    #[test]
    fn a_symlink_is_not_a_journal() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere");
        std::fs::write(&target, "").unwrap();
        let path = dir.path().join("link.journal");
        std::os::unix::fs::symlink(&target, &path).unwrap();
        let error = Journal::open(&path).unwrap_err().to_string();
        assert!(error.contains("is a symbolic link"), "{error}");
    }

    /// One request per journal: a second request refuses a journal the first has written to.
    #[test]
    fn a_journal_written_in_this_run_refuses_another_request() {
        let dir = tempfile::tempdir().unwrap();
        let mut journal = Journal::open(dir.path().join("j")).unwrap();
        journal.begin("p", "first").unwrap();
        journal.append(Some(&text("one")), "p", "first");
        let error = journal.begin("p", "second").unwrap_err().to_string();
        assert!(error.contains("was written for another request"), "{error}");
        let error = journal.begin("q", "first").unwrap_err().to_string();
        assert!(
            error.contains("another version of the interview plugin"),
            "{error}"
        );
    }
}
