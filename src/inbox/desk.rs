//! The inbox's side of its socket: the askers that connect, the queue of their questions, and
//! handing each answer to whoever waits for it.
//!
//! One thread accepts connections and one thread reads each asker; the person's loop (in
//! [`super::window`]) takes the questions one at a time with [`Desk::next`].

use std::collections::VecDeque;
use std::io::BufReader;
use std::os::unix::net::{UnixListener, UnixStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::Value as Json;

use super::store::{Held, Store};
use super::wire::{self, ToAsker, ToInbox};

/// How long an asker has to say what it asks once connected.
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

/// The queue of questions, shared by the threads of one inbox.
pub struct Desk {
    queue: Mutex<Queue>,
    changed: Condvar,
    store: Mutex<Store>,
    next_asker: AtomicU64,
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
        withdrawn: bool,
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
    Result(Json),
    /// The person closed the inbox mid-question: it stays pending.
    Left,
    /// Another inbox holds it: tried again later.
    Elsewhere,
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
        }))
    }

    /// Accepts askers on `listener` until the process ends, each read on a thread of its own.
    pub fn accept(self: &Arc<Self>, listener: UnixListener) {
        let desk = self.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let desk = desk.clone();
                std::thread::spawn(move || desk.serve(stream));
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
                if !self.still_pending(&queue.items[at].held.key) {
                    queue.items.remove(at);
                    continue;
                }
                let behind = queue.items.len() - 1;
                let item = &mut queue.items[at];
                item.state = State::Asking {
                    stop: None,
                    withdrawn: false,
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

    /// Ends the turn of `key`.
    pub fn end(&self, key: &str, ended: Ended) {
        let mut queue = lock(&self.queue);
        let Some(at) = queue.items.iter().position(|i| i.held.key == key) else {
            return;
        };
        match ended {
            Ended::Left => queue.items[at].state = State::Waiting,
            Ended::Elsewhere => queue.items[at].state = State::Later(Instant::now() + ELSEWHERE),
            Ended::Result(result) => {
                let item = queue.items.remove(at).expect("the item is in the queue");
                let store = lock(&self.store);
                let withdrawn = matches!(
                    item.state,
                    State::Asking {
                        withdrawn: true,
                        ..
                    }
                );
                // Kept before it is handed: an asker that dies meanwhile finds it when it asks
                // again. A withdrawn question's answers go to its asker alone.
                if !withdrawn {
                    warn_of(store.answered(key, &result));
                }
                let message = ToAsker::Result(result);
                let handed = item
                    .waiting
                    .into_iter()
                    .filter(|w| wire::send(&mut &w.stream, &message).is_ok())
                    .count();
                if withdrawn {
                    warn_of(store.withdraw(key));
                } else if handed > 0 {
                    warn_of(store.delivered(key));
                }
            }
        }
        self.changed.notify_all();
    }

    /// The person's UI for `key` is up, and `stop` stops it: set at once when the asker has
    /// withdrawn the question already.
    pub fn asking_with(&self, key: &str, ui_stop: Arc<AtomicBool>) {
        let mut queue = lock(&self.queue);
        if let Some(item) = queue.items.iter_mut().find(|i| i.held.key == key)
            && let State::Asking { stop, withdrawn } = &mut item.state
        {
            if *withdrawn {
                ui_stop.store(true, Ordering::SeqCst);
            }
            *stop = Some(ui_stop);
        }
    }

    /// Whether the turn of `key` ended because its asker withdrew it.
    pub fn withdrawn(&self, key: &str) -> bool {
        let queue = lock(&self.queue);
        queue.items.iter().any(|item| {
            item.held.key == key
                && matches!(
                    item.state,
                    State::Asking {
                        withdrawn: true,
                        ..
                    }
                )
        })
    }

    fn still_pending(&self, key: &str) -> bool {
        lock(&self.store)
            .pending()
            .map(|pending| pending.iter().any(|held| held.key == key))
            .unwrap_or(true)
    }

    /// Reads one asker: its question, then perhaps its withdrawal, until it hangs up.
    fn serve(&self, stream: UnixStream) {
        if !wire::same_user(&stream) {
            return;
        }
        let Ok(reading) = stream.try_clone() else {
            return;
        };
        let _ = reading.set_read_timeout(Some(FIRST_MESSAGE));
        let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
        let mut reading = BufReader::new(reading);
        let Ok(Some(ToInbox::Ask(ask))) = wire::receive(&mut reading) else {
            return;
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
        let _ = reading.get_ref().set_read_timeout(None);
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
    /// stopped, and its answers so far go to the asker; one nobody started is dropped.
    fn withdraw(&self, key: &str, id: u64) {
        let mut queue = lock(&self.queue);
        let Some(at) = queue.items.iter().position(|i| i.held.key == key) else {
            return;
        };
        let item = &mut queue.items[at];
        let others = item.waiting.iter().filter(|w| w.id != id).count();
        if others > 0 {
            if let Some(at) = item.waiting.iter().position(|w| w.id == id) {
                let waiter = item.waiting.remove(at);
                let _ = wire::send(&mut &waiter.stream, &ToAsker::Withdrawn);
            }
            return;
        }
        match &mut item.state {
            State::Asking { stop, withdrawn } => {
                *withdrawn = true;
                if let Some(stop) = stop {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            State::Waiting | State::Later(_) => {
                let item = queue.items.remove(at).expect("the item is in the queue");
                for waiter in &item.waiting {
                    let _ = wire::send(&mut &waiter.stream, &ToAsker::Withdrawn);
                }
                warn_of(lock(&self.store).withdraw(key));
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

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// A database that failed to keep something: said, and the inbox goes on (the asker that waits
/// still gets its answer).
fn warn_of(result: Result<(), String>) {
    if let Err(error) = result {
        crate::warn(&error);
    }
}
