//! The asking side: hands a request to the inboxes open for this user and waits for the one
//! answer. Every open inbox is given the question; the first to answer wins, and the others
//! are told to withdraw it.

use std::collections::HashMap;
use std::io::BufReader;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::place::Place;
use super::wire::{self, Ask, ToAsker, ToInbox};
use crate::settled::Settled;

/// How often the socket folder is looked at for inboxes opened since.
const RESCAN: Duration = Duration::from_millis(300);
/// How long a withdrawn question may take to come back with the answers given so far.
const WITHDRAWING: Duration = Duration::from_secs(5);

/// How long a message to an inbox may take to send: an inbox stopped (Ctrl-Z) must not hold
/// the asker, whose own cancellation must still work.
const SEND_TIMEOUT: Duration = Duration::from_secs(5);

/// How a request handed to the inboxes ended.
#[derive(Debug)]
pub enum Reached {
    /// How the request ended, from the inbox that answered.
    Answered(Settled),
    /// Withdrawn (`stop`) with no inbox asking it; its journal, when an inbox had kept answers
    /// in one, for the answers given so far (the inbox's record of it is dropped).
    Withdrawn { journal: Option<PathBuf> },
    /// No inbox was open (and the call was not to wait for one).
    NoInbox,
    /// An inbox cannot take the request: why.
    Refused(String),
}

/// Hands `ask` to every inbox open now, and to those opened while it waits, until one answers
/// or `stop` is set. Without `wait`, a request finds no inbox open returns at once; once an
/// inbox has it, the request waits for its answer even while no inbox is open (the person
/// closed it: the question stays pending for the next).
pub fn ask(place: &Place, ask: &Ask, wait: bool, stop: &AtomicBool) -> Reached {
    let (events, received) = mpsc::channel();
    let mut open: HashMap<PathBuf, UnixStream> = HashMap::new();
    let mut handed = false;
    let mut scanned: Option<Instant> = None;
    let mut withdrawing: Option<Instant> = None;
    let message = ToInbox::Ask(ask.clone());
    let length = serde_json::to_vec(&message).map_or(usize::MAX, |line| line.len());
    if length > wire::MESSAGE_LIMIT {
        return Reached::Refused(format!(
            "the request is {length} bytes as a message to the inbox, more than its limit of {}",
            wire::MESSAGE_LIMIT
        ));
    }
    loop {
        if withdrawing.is_none() && scanned.is_none_or(|at| at.elapsed() >= RESCAN) {
            scanned = Some(Instant::now());
            for path in place.sockets() {
                if open.contains_key(&path) {
                    continue;
                }
                if let Some(stream) = connect(&path, &message, events.clone()) {
                    open.insert(path, stream);
                    handed = true;
                }
            }
            if !handed && !wait {
                return Reached::NoInbox;
            }
        }
        if stop.load(Ordering::SeqCst) && withdrawing.is_none() {
            withdrawing = Some(Instant::now());
            for stream in open.values_mut() {
                let _ = wire::send(stream, &ToInbox::Withdraw);
            }
        }
        if let Some(since) = withdrawing
            && (open.is_empty() || since.elapsed() >= WITHDRAWING)
        {
            return withdrawn(place, ask);
        }
        match received.recv_timeout(Duration::from_millis(50)) {
            Ok((path, Some(ToAsker::Settled(settled)))) => {
                return answered(&mut open, &path, settled);
            }
            Ok((path, Some(ToAsker::Result(json)))) => {
                let elicitation = matches!(ask.call, super::Call::Elicit { .. });
                let settled = Settled::of_earlier_inbox(elicitation, json);
                return answered(&mut open, &path, settled);
            }
            Ok((_, Some(ToAsker::Refused(why)))) => return Reached::Refused(why),
            // That inbox closed (its question stays pending in the database), or withdrew it.
            Ok((path, _)) => {
                open.remove(&path);
            }
            Err(_) => {}
        }
    }
}

/// The inbox at `path` answered: the others are told to withdraw the question.
fn answered(open: &mut HashMap<PathBuf, UnixStream>, path: &PathBuf, settled: Settled) -> Reached {
    open.remove(path);
    for stream in open.values_mut() {
        let _ = wire::send(stream, &ToInbox::Withdraw);
    }
    Reached::Answered(settled)
}

/// Connects to the inbox at `path` and gives it the question; its messages go to `events`.
/// A socket nobody listens at is a dead inbox's, and is removed.
fn connect(
    path: &PathBuf,
    message: &ToInbox,
    events: mpsc::Sender<(PathBuf, Option<ToAsker>)>,
) -> Option<UnixStream> {
    let mut stream = match UnixStream::connect(path) {
        Ok(stream) => stream,
        Err(error) if error.kind() == std::io::ErrorKind::ConnectionRefused => {
            let _ = std::fs::remove_file(path);
            return None;
        }
        Err(_) => return None,
    };
    let _ = stream.set_write_timeout(Some(SEND_TIMEOUT));
    if !wire::same_user(&stream) || wire::send(&mut stream, message).is_err() {
        return None;
    }
    let reading = stream.try_clone().ok()?;
    let path = path.clone();
    // Every message of an inbox's is its last; none is a closed (or broken) connection.
    std::thread::spawn(move || {
        let message = wire::receive::<ToAsker>(&mut BufReader::new(reading));
        let _ = events.send((path, message.ok().flatten()));
    });
    Some(stream)
}

/// A request withdrawn with no inbox asking it (none open, or none answering in time): the
/// inboxes' record of it ends, so the next inbox does not ask it, and its journal, if an inbox
/// kept the person's answers in one, goes back with it (and stays, for a retry).
fn withdrawn(place: &Place, ask: &Ask) -> Reached {
    let run = ask.run();
    if place.data.join("inbox.sqlite3").exists()
        && let Ok(store) = super::store::Store::open(&place.data)
    {
        let _ = store.ended(&run, super::store::Ending::Withdrawn, false);
    }
    let journal = super::store::journal_path(&place.data, &run);
    Reached::Withdrawn {
        journal: journal.exists().then_some(journal),
    }
}
