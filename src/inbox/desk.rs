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

use serde_json::Value as Json;

use super::store::{Held, Store};
use super::wire::{self, ToAsker, ToInbox};

/// How long an asker has to say what it asks once connected, all of it.
const FIRST_MESSAGE: Duration = Duration::from_secs(10);
/// How long a write to an asker may take: one that stopped reading is given up on.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a question being answered in another inbox is left alone before it is looked at
/// again.
const ELSEWHERE: Duration = Duration::from_secs(2);
/// How long the questions kept from before wait when the inbox opens: an asker still alive
/// finds the new inbox within this (it looks every 300 ms), and its question is then asked as
/// awaited, not as an orphan's.
const REJOIN: Duration = Duration::from_secs(1);
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
}

#[derive(Default)]
struct Queue {
    items: VecDeque<Item>,
}

/// One question in the queue.
struct Item {
    held: Held,
    /// The connections waiting for its answer; none when its asker died.
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
    /// Whether anyone waits for the answer (else the asker died, and it is kept for later).
    pub awaited: bool,
    /// Questions waiting after this one.
    pub behind: usize,
}

/// How a question the person was asked here ended.
pub enum Ended {
    /// With the plugin's result: for the askers waiting, or kept for when it is asked again.
    Answered(Json),
    /// Stopped before the end, with the plugin's result so far: the asker withdrew it, or the
    /// person closed the inbox.
    CutOff(Json),
    /// Another inbox holds it: tried again later.
    Elsewhere,
}

/// What becomes of the question's journal, and of the inbox, after [`Desk::end`].
#[derive(Debug, PartialEq)]
pub enum After {
    /// The question is done: its journal has done its work.
    Done,
    /// The question stays (another asker waits for it): its journal keeps the answers.
    Kept,
    /// The person closed the inbox mid-question: it stays pending, with its journal.
    Closed,
}

impl Desk {
    /// A desk over `store`, holding the questions it has pending already.
    pub fn new(store: Store) -> Result<Arc<Desk>, String> {
        let items = store
            .pending()?
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
        }))
    }

    /// Accepts askers on `listener` until the process ends, each read on a thread of its own.
    /// Out of file descriptors, it waits a moment rather than spin; out of threads, or at
    /// [`MOST_ASKERS`], it hangs up on the newcomer.
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
                if desk.askers.fetch_add(1, Ordering::SeqCst) >= MOST_ASKERS {
                    desk.askers.fetch_sub(1, Ordering::SeqCst);
                    continue;
                }
                let serving = desk.clone();
                let spawned = std::thread::Builder::new().spawn(move || {
                    let _counted = Counted(&serving.askers);
                    serving.serve(stream);
                });
                if spawned.is_err() {
                    desk.askers.fetch_sub(1, Ordering::SeqCst);
                }
            }
        });
    }

    /// Where the person's journal of `key` is kept.
    pub fn journal(&self, key: &str) -> std::path::PathBuf {
        lock(&self.store).journal(key)
    }

    /// The next question nobody is answering, live askers' first; `None` once `quit` is set.
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
            let chosen = (queue.items.iter())
                .position(|item| ready(item) && !item.waiting.is_empty())
                .or_else(|| queue.items.iter().position(ready));
            if let Some(at) = chosen {
                // Answered in another inbox meanwhile (one that shares the database).
                if self.answered_elsewhere(&queue.items[at].held.key) {
                    queue.items.remove(at);
                    continue;
                }
                let behind = queue.items.len() - 1;
                let item = &mut queue.items[at];
                item.state = State::Asking {
                    stop: None,
                    withdrawn_by: Vec::new(),
                };
                return Some(Turn {
                    held: item.held.clone(),
                    awaited: !item.waiting.is_empty(),
                    behind,
                });
            }
            queue = self
                .changed
                .wait_timeout(queue, Duration::from_millis(200))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// The person's UI for `key` is up, and `stop` stops it: set at once when the asker has
    /// withdrawn the question already.
    pub fn asking_with(&self, key: &str, ui_stop: Arc<AtomicBool>) {
        let mut queue = lock(&self.queue);
        if let Some(item) = queue.items.iter_mut().find(|i| i.held.key == key)
            && let State::Asking { stop, withdrawn_by } = &mut item.state
        {
            if !withdrawn_by.is_empty() {
                ui_stop.store(true, Ordering::SeqCst);
            }
            *stop = Some(ui_stop);
        }
    }

    /// Ends the turn of `key`: what the question came to, and what becomes of its journal.
    pub fn end(&self, key: &str, ended: Ended) -> After {
        let mut queue = lock(&self.queue);
        let Some(at) = queue.items.iter().position(|i| i.held.key == key) else {
            return After::Done;
        };
        let withdrawn_by = match &mut queue.items[at].state {
            State::Asking { withdrawn_by, .. } => std::mem::take(withdrawn_by),
            _ => Vec::new(),
        };
        let withdrawn = !withdrawn_by.is_empty();
        let after = match (ended, withdrawn) {
            (Ended::Answered(result), _) => {
                let item = queue.items.remove(at).expect("the item is in the queue");
                self.hand(key, item, result);
                After::Done
            }
            // Withdrawn before it could be taken here: as if it had never been started.
            (Ended::Elsewhere, true) => {
                let item = queue.items.remove(at).expect("the item is in the queue");
                self.drop_withdrawn(key, item);
                After::Done
            }
            (Ended::Elsewhere, false) => {
                queue.items[at].state = State::Later(Instant::now() + ELSEWHERE);
                After::Kept
            }
            // The answers so far go to the askers that withdrew it, and to no other: one that
            // asks the same meanwhile is asked it on, from the journal.
            (Ended::CutOff(result), true) => {
                let item = &mut queue.items[at];
                let message = ToAsker::Result(result);
                item.waiting.retain(|waiter| {
                    let withdrew = withdrawn_by.contains(&waiter.id);
                    if withdrew {
                        let _ = wire::send(&mut &waiter.stream, &message);
                    }
                    !withdrew
                });
                if item.waiting.is_empty() {
                    queue.items.remove(at);
                    warn_of(lock(&self.store).withdraw(key));
                    After::Done
                } else {
                    item.state = State::Waiting;
                    After::Kept
                }
            }
            (Ended::CutOff(_), false) => {
                queue.items[at].state = State::Waiting;
                After::Closed
            }
        };
        self.changed.notify_all();
        after
    }

    /// Keeps the answer to `key`, then hands it to every asker waiting.
    fn hand(&self, key: &str, item: Item, result: Json) {
        let store = lock(&self.store);
        // Kept before it is handed: an asker that dies meanwhile finds it when it asks again.
        warn_of(store.answered(key, &result));
        let message = ToAsker::Result(result);
        let handed = item
            .waiting
            .iter()
            .filter(|w| wire::send(&mut &w.stream, &message).is_ok())
            .count();
        if handed > 0 {
            warn_of(store.delivered(key));
        }
    }

    fn drop_withdrawn(&self, key: &str, item: Item) {
        for waiter in &item.waiting {
            let _ = wire::send(&mut &waiter.stream, &ToAsker::Withdrawn);
        }
        warn_of(lock(&self.store).withdraw(key));
    }

    /// Whether another inbox sharing the database has answered `key`. A question whose row is
    /// missing (the database could not keep it) is still asked: its asker waits.
    fn answered_elsewhere(&self, key: &str) -> bool {
        lock(&self.store).is_answered(key).unwrap_or(false)
    }

    /// Reads one asker: its question, then perhaps its withdrawal, until it hangs up.
    fn serve(&self, stream: UnixStream) {
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
        let held = Held {
            key: ask.key(),
            ask,
        };
        let kept = lock(&self.store).take_answer(&held.key);
        if let Ok(Some(result)) = kept {
            let _ = wire::send(&mut &stream, &ToAsker::Result(result));
            return;
        }
        warn_of(lock(&self.store).hold(&held));
        let id = self.next_asker.fetch_add(1, Ordering::Relaxed);
        let key = held.key.clone();
        self.add(held, Waiter { id, stream });
        reading.get_mut().until = None;
        loop {
            match wire::receive::<ToInbox>(&mut reading) {
                Ok(Some(ToInbox::Withdraw)) => self.withdraw(&key, id),
                Ok(Some(ToInbox::Ask(_))) => {}
                Ok(None) | Err(_) => break,
            }
        }
        self.hang_up(&key, id);
    }

    fn add(&self, held: Held, waiter: Waiter) {
        let mut queue = lock(&self.queue);
        match queue.items.iter_mut().find(|i| i.held.key == held.key) {
            Some(item) => item.waiting.push(waiter),
            None => queue.items.push_back(Item {
                held,
                waiting: vec![waiter],
                state: State::Waiting,
            }),
        }
        self.changed.notify_all();
    }

    /// Asker `id` no longer wants the answer to `key`. A question the person is answering is
    /// stopped, and its answers so far go to the asker (another asker of the same is asked on,
    /// from there); one nobody started is dropped, unless another asker waits for it.
    fn withdraw(&self, key: &str, id: u64) {
        let mut queue = lock(&self.queue);
        let Some(at) = queue.items.iter().position(|i| i.held.key == key) else {
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
                self.drop_withdrawn(key, item);
            }
        }
        self.changed.notify_all();
    }

    /// Asker `id` hung up: if it had not withdrawn, it died, and its question stays for the
    /// person to answer and the answer for when it asks again.
    fn hang_up(&self, key: &str, id: u64) {
        let mut queue = lock(&self.queue);
        if let Some(item) = queue.items.iter_mut().find(|i| i.held.key == key) {
            item.waiting.retain(|w| w.id != id);
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
fn warn_of(result: Result<(), String>) {
    if let Err(error) = result {
        crate::warn(&error);
    }
}
