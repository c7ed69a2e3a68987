//! The inbox's side of its socket: the askers that connect, the queue of their questions, and
//! handing each answer to whoever waits for it.
//!
//! One thread accepts connections and one thread reads each asker (at most [`MOST_ASKERS`] at
//! once); the person's loop (in [`super::window`]) takes the questions one at a time with
//! [`Desk::next`] and ends each with [`Desk::end`].

use std::collections::VecDeque;
use std::io::{BufReader, Read};
use std::os::unix::net::{UnixListener, UnixStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::store::{Earlier, Ending, Held, Store};
use super::wire::{self, ToAsker, ToInbox};
use crate::settled::Settled;
use crate::store_error::StoreError;

/// How long an asker has to say what it asks once connected, all of it.
const FIRST_MESSAGE: Duration = Duration::from_secs(10);
/// How long a write to an asker may take: one that stopped reading is given up on.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a question being answered in another inbox is left alone before it is looked at
/// again.
const ELSEWHERE: Duration = Duration::from_secs(2);
/// How long the questions kept from before wait when the inbox opens: an asker still alive
/// finds the new inbox within this (it looks every 300 ms), and its question is asked; the
/// question of one that does not has no asker any more, and is let go.
const REJOIN: Duration = Duration::from_secs(2);
/// The most askers read at once: each holds a thread and up to a message's worth of memory.
/// One more is hung up on, and comes back when it looks again.
const MOST_ASKERS: usize = 128;

/// The queue of questions, shared by the threads of one inbox.
pub struct Desk {
    queue: Mutex<Queue>,
    changed: Condvar,
    store: Mutex<Store>,
    next_asker: AtomicU64,
    askers: AtomicUsize,
    /// The connections that have not said what they ask yet, oldest first: at
    /// [`MOST_ASKERS`], the oldest is hung up on for a newcomer, so that silent connections
    /// cannot keep an asker out.
    silent: Mutex<VecDeque<(u64, UnixStream)>>,
}

#[derive(Default)]
struct Queue {
    items: VecDeque<Item>,
}

/// One run's question in the queue.
struct Item {
    held: Held,
    /// The connections waiting for its answer: one, or more when its process asked it again
    /// while it waited. None only while the askers of runs kept from before have not come
    /// back (see [`REJOIN`]): one that does not is let go.
    waiting: Vec<Waiter>,
    state: State,
}

enum State {
    Waiting,
    /// The person is answering it here; the flag, once the UI is up, stops it.
    Asking {
        stop: Option<Arc<AtomicBool>>,
        /// The askers that withdrew it meanwhile: they get the answers given so far.
        withdrawn_by: Vec<u64>,
    },
    /// Left alone until then: another inbox is answering it (its journal is in use), or the
    /// inbox has just opened and its asker, if alive, has not found it yet.
    Later(Instant),
}

struct Waiter {
    id: u64,
    stream: UnixStream,
}

/// A question the person is to answer now.
pub struct Turn {
    pub held: Held,
    /// Questions waiting after this one.
    pub behind: usize,
    /// The last run of the same request that ended without its answer, if any: this one asks
    /// it again.
    pub earlier: Option<Earlier>,
}

/// How a question the person was asked here ended.
pub enum Ended {
    /// With the plugin's result, for the askers waiting.
    Answered(Settled),
    /// Stopped before the end, with the plugin's result so far: the asker withdrew it or went
    /// away, or the person closed the inbox.
    CutOff(Settled),
    /// Another inbox holds it: tried again later.
    Elsewhere,
}

/// What became of the question after [`Desk::end`], for the person to be told and its journal
/// to be kept or let go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum After {
    /// Its answer reached its asker: the journal has done its work.
    Sent,
    /// Its asker withdrew it, and got the answers given so far. The journal is kept, for a
    /// retry of the same request.
    Withdrawn,
    /// Its asker went away: nobody got what the person gave (`answered`: all of it). The
    /// journal is kept, for a retry of the same request.
    Gone { answered: bool },
    /// It stays: another inbox is on it, or another asker of the same run waits for it, to
    /// be asked on from its journal.
    Kept,
    /// The person closed the inbox mid-question: it stays pending, with its journal.
    Closed,
}

impl Desk {
    /// A desk over `store`, holding the questions it has pending already.
    pub fn new(store: Store) -> Result<Arc<Desk>, StoreError> {
        let items = store
            .asking()?
            .into_iter()
            .map(|held| Item {
                held,
                waiting: Vec::new(),
                state: State::Later(Instant::now() + REJOIN),
            })
            .collect();
        Ok(Arc::new(Desk {
            queue: Mutex::new(Queue { items }),
            changed: Condvar::new(),
            store: Mutex::new(store),
            next_asker: AtomicU64::new(1),
            askers: AtomicUsize::new(0),
            silent: Mutex::new(VecDeque::new()),
        }))
    }

    /// Accepts askers on `listener` until the process ends, each read on a thread of its own.
    /// Out of file descriptors, it waits a moment rather than spin. At [`MOST_ASKERS`], the
    /// connection silent longest is hung up on for the newcomer; with none silent (every one
    /// an asker waiting for its answer), or out of threads, the newcomer is hung up on.
    pub fn accept(self: &Arc<Self>, listener: UnixListener) {
        let desk = self.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let stream = match stream {
                    Ok(stream) => stream,
                    Err(_) => {
                        std::thread::sleep(Duration::from_millis(100));
                        continue;
                    }
                };
                if desk.askers.fetch_add(1, Ordering::SeqCst) >= MOST_ASKERS
                    && !desk.hang_up_on_the_silent()
                {
                    desk.askers.fetch_sub(1, Ordering::SeqCst);
                    continue;
                }
                let id = desk.next_asker.fetch_add(1, Ordering::Relaxed);
                if let Ok(clone) = stream.try_clone() {
                    lock(&desk.silent).push_back((id, clone));
                }
                let serving = desk.clone();
                let spawned = std::thread::Builder::new().spawn(move || {
                    let _counted = Counted(&serving.askers);
                    serving.serve(id, stream);
                    serving.spoke(id);
                });
                if spawned.is_err() {
                    desk.askers.fetch_sub(1, Ordering::SeqCst);
                }
            }
        });
    }

    /// Hangs up on the connection silent longest, if there is one.
    fn hang_up_on_the_silent(&self) -> bool {
        let oldest = lock(&self.silent).pop_front();
        oldest.is_some_and(|(_, stream)| {
            let _ = stream.shutdown(std::net::Shutdown::Both);
            true
        })
    }

    /// Connection `id` said what it asks (or ended): not silent any more.
    fn spoke(&self, id: u64) {
        lock(&self.silent).retain(|(silent, _)| *silent != id);
    }

    /// Where the person's journal of `run` is kept.
    pub fn journal(&self, run: &str) -> std::path::PathBuf {
        lock(&self.store).journal(run)
    }

    /// Gives what the person typed to the `earlier` run of a request to `run`, its retry, if
    /// it may still be taken over: whether it was.
    pub fn take_over(&self, earlier: &Earlier, run: &str) -> bool {
        earlier.resumable
            && lock(&self.store)
                .take_over(&earlier.run, run)
                .unwrap_or(false)
    }

    /// The next question nobody is answering, oldest first; `None` once `quit` is set. A
    /// question kept from before whose asker did not come back is let go on the way.
    pub fn next(&self, quit: &AtomicBool) -> Option<Turn> {
        let mut queue = lock(&self.queue);
        loop {
            if quit.load(Ordering::SeqCst) {
                return None;
            }
            let now = Instant::now();
            let ready = |item: &Item| match item.state {
                State::Waiting => true,
                State::Later(until) => until <= now,
                State::Asking { .. } => false,
            };
            if let Some(at) = (queue.items.iter()).position(|i| ready(i) && i.waiting.is_empty()) {
                let item = queue.items.remove(at).expect("the item is in the queue");
                self.let_go(&item.held.run, Ending::Gone);
                continue;
            }
            if let Some(at) = queue.items.iter().position(ready) {
                // Answered, or let go, in another inbox meanwhile (one that shares the
                // database).
                if self.is_over(&queue.items[at].held.run) {
                    queue.items.remove(at);
                    continue;
                }
                let behind = queue.items.iter().filter(|i| !i.waiting.is_empty()).count() - 1;
                let item = &mut queue.items[at];
                item.state = State::Asking {
                    stop: None,
                    withdrawn_by: Vec::new(),
                };
                let held = item.held.clone();
                let earlier = lock(&self.store)
                    .earlier(&held.key, &held.run)
                    .unwrap_or_else(|error| {
                        crate::warn(&error.to_string());
                        None
                    });
                return Some(Turn {
                    held,
                    behind,
                    earlier,
                });
            }
            queue = self
                .changed
                .wait_timeout(queue, Duration::from_millis(200))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Who asks the questions waiting while the person answers another: oldest first.
    pub fn waiting(&self) -> Vec<super::From> {
        let queue = lock(&self.queue);
        (queue.items.iter())
            .filter(|item| !item.waiting.is_empty() && !matches!(item.state, State::Asking { .. }))
            .map(|item| item.held.ask.from.clone())
            .collect()
    }

    /// The person's UI for `run` is up, and `stop` stops it: set at once when the question's
    /// askers have withdrawn it or gone already.
    pub fn asking_with(&self, run: &str, ui_stop: Arc<AtomicBool>) {
        let mut queue = lock(&self.queue);
        if let Some(item) = queue.items.iter_mut().find(|i| i.held.run == run)
            && let State::Asking { stop, withdrawn_by } = &mut item.state
        {
            if !withdrawn_by.is_empty() || item.waiting.is_empty() {
                ui_stop.store(true, Ordering::SeqCst);
            }
            *stop = Some(ui_stop);
        }
    }

    /// Ends the turn of `run`: what the question came to, and what becomes of it.
    pub fn end(&self, run: &str, ended: Ended) -> After {
        let mut queue = lock(&self.queue);
        let Some(at) = queue.items.iter().position(|i| i.held.run == run) else {
            return After::Kept;
        };
        let withdrawn_by = match &mut queue.items[at].state {
            State::Asking { withdrawn_by, .. } => std::mem::take(withdrawn_by),
            _ => Vec::new(),
        };
        let withdrawn = !withdrawn_by.is_empty();
        let after = match ended {
            Ended::Answered(result) => {
                let item = queue.items.remove(at).expect("the item is in the queue");
                self.hand(item, result)
            }
            // Withdrawn before it could be taken here: as if it had never been started.
            Ended::Elsewhere if withdrawn => {
                let item = queue.items.remove(at).expect("the item is in the queue");
                self.drop_withdrawn(item);
                After::Withdrawn
            }
            Ended::Elsewhere => {
                queue.items[at].state = State::Later(Instant::now() + ELSEWHERE);
                After::Kept
            }
            // The answers so far go to the askers that withdrew it, and to no other: one that
            // asks the same meanwhile is asked it on, from the journal.
            Ended::CutOff(result) if withdrawn => {
                let item = &mut queue.items[at];
                let message = ToAsker::Settled(result);
                item.waiting.retain(|waiter| {
                    let withdrew = withdrawn_by.contains(&waiter.id);
                    if withdrew {
                        let _ = wire::send(&mut &waiter.stream, &message);
                    }
                    !withdrew
                });
                if item.waiting.is_empty() {
                    queue.items.remove(at);
                    self.let_go(run, Ending::Withdrawn);
                    After::Withdrawn
                } else {
                    item.state = State::Waiting;
                    After::Kept
                }
            }
            Ended::CutOff(_) if queue.items[at].waiting.is_empty() => {
                queue.items.remove(at);
                self.let_go(run, Ending::Gone);
                After::Gone { answered: false }
            }
            Ended::CutOff(_) => {
                queue.items[at].state = State::Waiting;
                After::Closed
            }
        };
        self.changed.notify_all();
        after
    }

    /// Hands the answer to every asker of `item` waiting; none that takes it means its asker
    /// went away, and the answer reached nobody.
    fn hand(&self, item: Item, result: Settled) -> After {
        let message = ToAsker::Settled(result);
        let handed = (item.waiting.iter())
            .filter(|w| wire::send(&mut &w.stream, &message).is_ok())
            .count();
        let store = lock(&self.store);
        if handed > 0 {
            warn_of(store.delivered(&item.held.run));
            After::Sent
        } else {
            warn_of(store.ended(&item.held.run, Ending::Gone, true));
            After::Gone { answered: true }
        }
    }

    fn drop_withdrawn(&self, item: Item) {
        for waiter in &item.waiting {
            let _ = wire::send(&mut &waiter.stream, &ToAsker::Withdrawn);
        }
        self.let_go(&item.held.run, Ending::Withdrawn);
    }

    /// `run` ended without its answer reaching it: kept so, for a retry within the window.
    fn let_go(&self, run: &str, how: Ending) {
        warn_of(lock(&self.store).ended(run, how, false));
    }

    /// Whether `run` is over in another inbox sharing the database. A run whose row is
    /// missing (the database could not keep it) is still asked: its asker waits.
    fn is_over(&self, run: &str) -> bool {
        lock(&self.store).is_over(run).unwrap_or(false)
    }

    /// Reads one asker: its question, then perhaps its withdrawal, until it hangs up.
    fn serve(&self, id: u64, stream: UnixStream) {
        if !wire::same_user(&stream) {
            return;
        }
        let Ok(reading) = stream.try_clone() else {
            return;
        };
        let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
        let mut reading = BufReader::new(Reading {
            stream: reading,
            until: Some(Instant::now() + FIRST_MESSAGE),
        });
        let ask = match wire::receive(&mut reading) {
            Ok(Some(ToInbox::Ask(ask))) => ask,
            Ok(None) => return,
            Ok(Some(ToInbox::Withdraw)) => return,
            // Said, so that the asker gives up instead of asking again.
            Err(error) => {
                let _ = wire::send(&mut &stream, &ToAsker::Refused(error.to_string()));
                return;
            }
        };
        self.spoke(id);
        let held = Held::new(ask);
        warn_of(lock(&self.store).hold(&held));
        let run = held.run.clone();
        self.add(held, Waiter { id, stream });
        reading.get_mut().until = None;
        loop {
            match wire::receive::<ToInbox>(&mut reading) {
                Ok(Some(ToInbox::Withdraw)) => self.withdraw(&run, id),
                Ok(Some(ToInbox::Ask(_))) => {}
                Ok(None) | Err(_) => break,
            }
        }
        self.hang_up(&run, id);
    }

    fn add(&self, held: Held, waiter: Waiter) {
        let mut queue = lock(&self.queue);
        match queue.items.iter_mut().find(|i| i.held.run == held.run) {
            Some(item) => item.waiting.push(waiter),
            None => queue.items.push_back(Item {
                held,
                waiting: vec![waiter],
                state: State::Waiting,
            }),
        }
        self.changed.notify_all();
    }

    /// Asker `id` no longer wants the answer to `run`. A question the person is answering is
    /// stopped, and its answers so far go to the asker (another asker of the same run is asked
    /// on, from there); one nobody started is let go, unless another asker waits for it.
    fn withdraw(&self, run: &str, id: u64) {
        let mut queue = lock(&self.queue);
        let Some(at) = queue.items.iter().position(|i| i.held.run == run) else {
            return;
        };
        let item = &mut queue.items[at];
        match &mut item.state {
            State::Asking { stop, withdrawn_by } => {
                withdrawn_by.push(id);
                if let Some(stop) = stop {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            State::Waiting | State::Later(_) if item.waiting.iter().any(|w| w.id != id) => {
                if let Some(at) = item.waiting.iter().position(|w| w.id == id) {
                    let waiter = item.waiting.remove(at);
                    let _ = wire::send(&mut &waiter.stream, &ToAsker::Withdrawn);
                }
            }
            State::Waiting | State::Later(_) => {
                let item = queue.items.remove(at).expect("the item is in the queue");
                self.drop_withdrawn(item);
            }
        }
        self.changed.notify_all();
    }

    /// Asker `id` hung up without a word: it went away (killed, its process group
    /// interrupted). With no other asker of the run left, its question is withdrawn: the
    /// person's UI is stopped if they are on it ([`Desk::end`] then lets it go), else it leaves
    /// the queue.
    fn hang_up(&self, run: &str, id: u64) {
        let mut queue = lock(&self.queue);
        let Some(at) = queue.items.iter().position(|i| i.held.run == run) else {
            return;
        };
        let item = &mut queue.items[at];
        item.waiting.retain(|w| w.id != id);
        if item.waiting.is_empty() {
            match &item.state {
                State::Asking { stop, .. } => {
                    if let Some(stop) = stop {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                State::Waiting | State::Later(_) => {
                    queue.items.remove(at);
                    self.let_go(run, Ending::Gone);
                }
            }
        }
        self.changed.notify_all();
    }
}

/// One asker's connection, read within a deadline for its first message: an asker that
/// dribbles its question byte by byte is cut off at the deadline, whatever each read takes.
struct Reading {
    stream: UnixStream,
    until: Option<Instant>,
}

impl Read for Reading {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let timeout = match self.until {
            Some(until) => {
                let left = until.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(std::io::ErrorKind::TimedOut.into());
                }
                Some(left)
            }
            None => None,
        };
        self.stream.set_read_timeout(timeout)?;
        self.stream.read(buffer)
    }
}

/// One asker counted in while its thread runs, counted out when it ends (or panics).
struct Counted<'a>(&'a AtomicUsize);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// A database that failed to keep something: said, and the inbox goes on (the askers waiting
/// still get their answers; only what outlives this inbox is at risk).
fn warn_of(result: Result<(), StoreError>) {
    if let Err(error) = result {
        crate::warn(&error.to_string());
    }
}
