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
//! The file is the person's, so it is handled with care: a file that is not a journal of this
//! request (whatever its bytes) is refused and left exactly as it was; only a line the journal
//! itself was writing is ever cut; a file with other names (hard links) is refused; and a run
//! holds an exclusive lock on the file until it ends, so that two runs never interleave their
//! replies.
//!
//! The reply kinds come from the WIT's `ui` interface, so a journal outlives a new version of
//! the command only when the plugin is the same; another plugin refuses it.

pub(crate) mod reader;

use std::fs::{File, OpenOptions, Permissions};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, JournalProblem};
use crate::ui::scripted::Step as Reply;
use reader::{Contents, Entry, Header};

/// The journal of one request, open and locked for this run: what it held when it was opened,
/// and the file to append what is given.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    /// Open for reading and writing, with an exclusive lock held until the journal is dropped.
    file: File,
    contents: Contents,
    /// This run wrote the header and no reply yet: nothing of the person's is in the file.
    fresh: bool,
    /// Why the journal could not be written, if it could not; nothing more is written then.
    problem: Option<String>,
}

impl Journal {
    /// Opens the journal at `path` for this run: creates it (readable by its owner only) if
    /// there is none, takes an exclusive lock on it, and reads what an earlier run wrote there.
    /// Refused, with the file left as it was: a path that is not a regular file (a symlink, a
    /// FIFO, a folder), a file with other names (hard links), a file that is not a journal,
    /// and a journal another run holds. A folder that does not exist is said here too, before
    /// anything is asked.
    pub fn open(path: impl Into<PathBuf>) -> Result<Journal, Error> {
        let path = path.into();
        let problem = |problem| Error::Journal {
            path: path.clone(),
            problem,
        };
        let unusable = |why| problem(JournalProblem::Unusable(why));
        let file = take(&path).map_err(problem)?;
        let bytes = read_all(&file).map_err(unusable)?;
        let contents = reader::read(&bytes).map_err(unusable)?;
        Ok(Journal {
            path,
            file,
            contents,
            fresh: false,
            problem: None,
        })
    }

    /// Where the journal is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many replies it holds (secrets included): written by an earlier run, to resume
    /// from, and in this run.
    pub fn earlier_replies(&self) -> usize {
        self.contents.replies()
    }

    /// Forgets the last reply an earlier run wrote, so that the person gives it again: for a
    /// journal taken over from a run whose whole answer reached nobody, so that the run taking
    /// it over never ends with an answer the person did not give to it.
    pub fn forget_last_reply(&mut self) {
        if let Some(kept) = self.contents.replies().checked_sub(1) {
            self.keep_first(kept);
        }
    }

    /// Why the journal could not be written during the last call, if it could not. The call
    /// itself went on: the person was answering.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// The request has ended and its result is safe with the caller: removes the file, if the
    /// path still names it (a file put in its place while the run went on is left alone).
    pub fn finish(self) -> Result<(), Error> {
        match (std::fs::symlink_metadata(&self.path), self.file.metadata()) {
            (Ok(named), Ok(open)) if same_file(&named, &open) => {}
            (Err(e), _) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            _ => {
                return Err(self.error(
                    "was replaced by another file while the request ran; that file is left \
                     as it is"
                        .into(),
                ));
            }
        }
        std::fs::remove_file(&self.path).map_err(|e| self.error(format!("cannot be removed: {e}")))
    }

    /// The replies to play back for the request `request` of the plugin `plugin` (SHA-256s in
    /// hex; `None`: a secret, to ask again). A journal of another request or plugin is refused;
    /// a new one gets its header now, so that a journal that cannot be written is known before
    /// the person is asked anything.
    pub(crate) fn begin(
        &mut self,
        plugin: &str,
        request: &str,
    ) -> Result<Vec<Option<Reply>>, Error> {
        let header = Header::new(plugin, request);
        match &self.contents {
            Contents::Written {
                header: earlier,
                entries,
                complete,
            } if *earlier == header => {
                let (replay, complete) = (entries.clone(), *complete as u64);
                self.own()?;
                // Cuts a reply line torn by a crash, so that the next line starts on its own.
                self.file
                    .set_len(complete)
                    .map_err(|e| self.error(format!("cannot be written: {e}")))?;
                Ok(replay)
            }
            // This run's own header, with nothing of the person's after it.
            Contents::Written { .. } | Contents::Empty if self.fresh => self.start(&header),
            Contents::Written {
                header: earlier, ..
            } => Err(self.error(
                if earlier.plugin != header.plugin {
                    "was written by another version of the interview plugin: its replies may \
                     not mean the same; remove it to start over"
                } else {
                    "was written for another request; give each request its own journal, or \
                     remove it to start over"
                }
                .into(),
            )),
            Contents::TornHeader(torn) if !header.line().starts_with(torn) => Err(self.error(
                "holds an unfinished first line that is not this request's; remove it to \
                 start over"
                    .into(),
            )),
            Contents::Empty | Contents::TornHeader(_) => self.start(&header),
        }
    }

    /// Writes `header` as the file's only line, flushed to the disk with the file's name:
    /// nothing to play back.
    fn start(&mut self, header: &Header) -> Result<Vec<Option<Reply>>, Error> {
        self.own()?;
        let line = header.line();
        let written = (|| {
            self.file.set_len(0)?;
            self.file.rewind()?;
            self.file.write_all(&line)?;
            self.file.sync_all()?;
            // The new file's name must be on the disk too.
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                File::open(dir)?.sync_all()?;
            }
            Ok::<_, std::io::Error>(())
        })();
        written.map_err(|e| self.error(format!("cannot be written: {e}")))?;
        self.contents = Contents::Written {
            header: header.clone(),
            entries: Vec::new(),
            complete: line.len(),
        };
        self.fresh = true;
        Ok(Vec::new())
    }

    /// Keeps only the first `n` replies, and writes the next ones after them: the rest answered
    /// a path the run being asked no longer takes.
    pub(crate) fn keep_first(&mut self, n: usize) {
        let Contents::Written {
            header, entries, ..
        } = &self.contents
        else {
            return;
        };
        if entries.len() <= n {
            return;
        }
        let (header, kept) = (header.clone(), entries[..n].to_vec());
        if let Err(error) = self.start(&header) {
            self.problem = Some(error.to_string());
            return;
        }
        for reply in &kept {
            self.append(reply.as_ref());
        }
    }

    /// Makes the file readable by its owner only: it is about to hold the person's answers.
    fn own(&self) -> Result<(), Error> {
        self.file
            .set_permissions(Permissions::from_mode(0o600))
            .map_err(|e| self.error(format!("cannot be made private: {e}")))
    }

    /// Appends one reply (`None`: a secret was given) and flushes it to the disk.
    pub(crate) fn append(&mut self, reply: Option<&Reply>) {
        if self.problem.is_some() {
            return;
        }
        let Contents::Written {
            entries, complete, ..
        } = &mut self.contents
        else {
            // `begin` writes the header before anything is asked.
            return;
        };
        let line = Entry::of(reply).line();
        let written = (|| {
            self.file.seek(std::io::SeekFrom::Start(*complete as u64))?;
            self.file.write_all(&line)?;
            self.file.sync_data()
        })();
        match written {
            Ok(()) => {
                *complete += line.len();
                entries.push(reply.cloned());
                self.fresh = false;
            }
            Err(e) => self.problem = Some(format!("cannot write {}: {e}", self.path.display())),
        }
    }

    fn error(&self, problem: String) -> Error {
        Error::Journal {
            path: self.path.clone(),
            problem: JournalProblem::Unusable(problem),
        }
    }
}

/// A SHA-256 in hex, of the parts with a separator that none of them can hold.
pub fn digest(parts: &[&[u8]]) -> String {
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

/// The file at `path`, opened (or created, readable by its owner only) and locked for this run.
fn take(path: &Path) -> Result<File, JournalProblem> {
    let unusable = |why: &str| JournalProblem::Unusable(why.to_owned());
    // A run that ends removes its journal: a file opened just before that is no longer the
    // one the path names once its lock is free, and the path is opened again.
    for _ in 0..3 {
        let file = open_or_create(path).map_err(JournalProblem::Unusable)?;
        let open = (file.metadata())
            .map_err(|e| JournalProblem::Unusable(format!("cannot be read: {e}")))?;
        if !open.is_file() {
            return Err(unusable("is not a regular file"));
        }
        if open.nlink() > 1 {
            return Err(unusable(
                "has other names (hard links); a journal must be a file of its own",
            ));
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Err(JournalProblem::InUse),
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(JournalProblem::Unusable(format!("cannot be locked: {e}")));
            }
        }
        match std::fs::symlink_metadata(path) {
            Ok(named) if same_file(&named, &open) => return Ok(file),
            _ => continue,
        }
    }
    Err(unusable("keeps being replaced while it is opened"))
}

fn open_or_create(path: &Path) -> Result<File, String> {
    let mut options = OpenOptions::new();
    // Never follow a symlink; never block on a FIFO; never take a terminal as the
    // controlling one.
    options
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
    let opened = match options.open(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            match options.create_new(true).mode(0o600).open(path) {
                // Another run created it in between.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    options.create_new(false).open(path)
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    let folder = path.parent().filter(|d| !d.as_os_str().is_empty());
                    return Err(format!(
                        "cannot be created: the folder {} does not exist",
                        folder.unwrap_or(Path::new(".")).display()
                    ));
                }
                other => other,
            }
        }
        other => other,
    };
    opened.map_err(|e| match e.raw_os_error() {
        Some(libc::ELOOP) => "is a symbolic link; a journal must be a regular file".into(),
        Some(libc::EISDIR) => "is not a regular file".into(),
        _ => format!("cannot be opened for writing: {e}"),
    })
}

fn read_all(file: &File) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    file.take(reader::MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot be read: {e}"))?;
    if bytes.len() as u64 > reader::MAX_BYTES {
        return Err(format!(
            "is larger than a journal can be ({} MiB)",
            reader::MAX_BYTES >> 20
        ));
    }
    Ok(bytes)
}

fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::{ConfirmReply, TextReply};

    fn text(answer: &str) -> Reply {
        Reply::Text(TextReply::Submitted(answer.into()))
    }

    fn refusal(path: &Path) -> String {
        Journal::open(path).unwrap_err().to_string()
    }

    /// A crash can tear only the last line: it is dropped on reading and cut before the next
    /// reply is appended, so the file stays a journal.
    #[test]
    fn a_torn_last_line_is_dropped_and_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torn.journal");
        let mut journal = Journal::open(&path).unwrap();
        assert!(journal.begin("p", "r").unwrap().is_empty());
        journal.append(Some(&text("one")));
        journal.append(None);
        drop(journal);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(br#"{"reply":{"Text":{"Subm"#).unwrap();

        let mut journal = Journal::open(&path).unwrap();
        assert_eq!(journal.begin("p", "r").unwrap(), [Some(text("one")), None]);
        journal.append(Some(&Reply::Confirm(ConfirmReply::Answered(true))));
        assert_eq!(journal.problem(), None);
        drop(journal);
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

    /// A header torn by a crash is this request's to rewrite; another's is refused.
    #[test]
    fn a_torn_header_is_rewritten_only_by_its_own_request() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torn-header.journal");
        let line = Header::new("p", "r").line();
        let torn = &line[..line.len() - 3];
        std::fs::write(&path, torn).unwrap();
        let mut journal = Journal::open(&path).unwrap();
        let error = journal.begin("p", "another").unwrap_err().to_string();
        assert!(error.contains("unfinished first line"), "{error}");
        assert_eq!(std::fs::read(&path).unwrap(), torn);
        assert!(journal.begin("p", "r").unwrap().is_empty());
        assert_eq!(std::fs::read(&path).unwrap(), line);
    }

    /// Whatever a file that is not a journal holds, even with no newline (which looks like a
    /// torn line), it is refused and keeps every byte and its mode.
    #[test]
    fn a_file_that_is_not_a_journal_is_left_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in [
            ("token", &b"ghp_TOKEN"[..]),
            ("lines", b"first\nsecond"),
            ("json", b"{\"a\": 1}\n{\"reply\""),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            std::fs::set_permissions(&path, Permissions::from_mode(0o644)).unwrap();
            let error = refusal(&path);
            assert!(
                error.contains("is not an interview journal"),
                "{name}: {error}"
            );
            assert_eq!(std::fs::read(&path).unwrap(), bytes, "{name}");
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o644, "{name}");
        }
    }

    /// A file with another name could be anything of the person's: never written through.
    #[test]
    fn a_file_with_hard_links_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("linked.journal");
        let mut journal = Journal::open(&path).unwrap();
        journal.begin("p", "r").unwrap();
        drop(journal);
        std::fs::hard_link(&path, dir.path().join("other-name")).unwrap();
        let before = std::fs::read(&path).unwrap();
        assert!(refusal(&path).contains("has other names (hard links)"));
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    /// Two runs never write one journal: the second is refused while the first holds it.
    #[test]
    fn a_journal_in_use_is_refused_until_its_run_ends() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("busy.journal");
        let mut first = Journal::open(&path).unwrap();
        first.begin("p", "r").unwrap();
        first.append(Some(&text("one")));
        assert!(refusal(&path).contains("is in use by another interview run"));
        drop(first);
        let mut second = Journal::open(&path).unwrap();
        assert_eq!(second.begin("p", "r").unwrap(), [Some(text("one"))]);
    }

    /// A run that opened the path just before another removed it (its request done) does not
    /// write into the removed file: it takes the path anew.
    #[test]
    fn a_journal_removed_by_a_run_that_ended_is_created_anew() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ended.journal");
        let mut first = Journal::open(&path).unwrap();
        first.begin("p", "r").unwrap();
        first.finish().unwrap();
        let mut second = Journal::open(&path).unwrap();
        assert!(second.begin("p", "r").unwrap().is_empty());
        assert!(path.exists());
    }

    /// A journal holds the person's answers: it is made private when a run takes it.
    #[test]
    fn a_journal_taken_is_made_readable_by_its_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shared.journal");
        std::fs::write(&path, "").unwrap();
        std::fs::set_permissions(&path, Permissions::from_mode(0o644)).unwrap();
        let mut journal = Journal::open(&path).unwrap();
        journal.begin("p", "r").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    /// A journal that cannot be created is said before anything is asked.
    #[test]
    fn a_missing_folder_is_said_when_the_journal_is_opened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("j");
        let error = refusal(&path);
        assert!(
            error.contains("cannot be created: the folder") && error.contains("does not exist"),
            "{error}"
        );
    }

    /// A damaged line in the middle is not a crash's doing: the journal is refused, not
    /// half-played.
    #[test]
    fn a_damaged_line_is_refused_with_its_number() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("damaged.journal");
        let mut journal = Journal::open(&path).unwrap();
        journal.begin("p", "r").unwrap();
        journal.append(Some(&text("one")));
        journal.append(Some(&text("two")));
        drop(journal);
        let written = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, written.replacen("one", "o\"ne", 1)).unwrap();
        let error = refusal(&path);
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
        assert!(refusal(&path).contains("is a symbolic link"));
    }

    /// One request per journal: a second request refuses a journal the first has written a
    /// reply to, but may take one where only the header is written.
    #[test]
    fn a_journal_written_in_this_run_refuses_another_request() {
        let dir = tempfile::tempdir().unwrap();
        let mut journal = Journal::open(dir.path().join("j")).unwrap();
        journal.begin("p", "unasked").unwrap();
        journal.begin("p", "first").unwrap();
        journal.append(Some(&text("one")));
        let error = journal.begin("p", "second").unwrap_err().to_string();
        assert!(error.contains("was written for another request"), "{error}");
        let error = journal.begin("q", "first").unwrap_err().to_string();
        assert!(
            error.contains("another version of the interview plugin"),
            "{error}"
        );
    }
}
