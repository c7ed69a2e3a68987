//! Limits on the plugin: memory, and compute time between two host calls. Waiting for a person
//! is host time and never counts, so an hour-long answer is fine; a guest that loops is stopped.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use wasmtime::{Engine, StoreLimits, StoreLimitsBuilder};

/// How much the plugin may use: read with the getters, set from the defaults with the `with_`
/// methods (`Limits::default().with_memory_bytes(16 << 20)`), so that a limit added later
/// breaks no caller.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    memory_bytes: usize,
    compute: Duration,
    request_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_bytes: 64 << 20,
            compute: Duration::from_secs(2),
            request_bytes: 8 << 20,
        }
    }
}

impl Limits {
    /// Linear memory of the plugin, in bytes (default 64 MiB); also the most option text the
    /// host copies out of it for one question (a plugin may name one text for many options).
    pub fn memory_bytes(&self) -> usize {
        self.memory_bytes
    }

    /// Guest computation per export call, not counting time in host calls, the UI's (default
    /// 2 s).
    pub fn compute(&self) -> Duration {
        self.compute
    }

    /// The largest arguments JSON the host hands over (default 8 MiB); the plugin itself
    /// refuses more than 1 MiB with an `invalid` result that says so. Also the longest line
    /// the line mode reads.
    pub fn request_bytes(&self) -> usize {
        self.request_bytes
    }

    /// These limits with `bytes` of memory.
    pub fn with_memory_bytes(self, bytes: usize) -> Limits {
        Limits {
            memory_bytes: bytes,
            ..self
        }
    }

    /// These limits with `compute` of guest computation per call.
    pub fn with_compute(self, compute: Duration) -> Limits {
        Limits { compute, ..self }
    }

    /// These limits with requests of up to `bytes`.
    pub fn with_request_bytes(self, bytes: usize) -> Limits {
        Limits {
            request_bytes: bytes,
            ..self
        }
    }

    /// The limits for replaying a request the plugin failed after the person answered: more
    /// compute and memory, so that a request that was merely large still gets its result.
    pub(crate) fn enlarged(&self) -> Limits {
        Limits {
            memory_bytes: self.memory_bytes.saturating_mul(REPLAY_MEMORY),
            compute: self.compute * REPLAY_COMPUTE,
            request_bytes: self.request_bytes,
        }
    }

    pub(crate) fn store_limits(&self) -> StoreLimits {
        // Tables hold host memory too (a funcref is a pointer or more), so they have a cap of
        // their own; the plugin's function table has a few hundred entries.
        StoreLimitsBuilder::new()
            .memory_size(self.memory_bytes)
            .table_elements(TABLE_ELEMENTS)
            .tables(8)
            .memories(2)
            .instances(4)
            .trap_on_grow_failure(true)
            .build()
    }
}

/// Elements of any one table.
pub(crate) const TABLE_ELEMENTS: usize = 10_000;
/// How many times the memory and the compute time a call the plugin failed after the person
/// answered is played back with.
pub(crate) const REPLAY_MEMORY: usize = 4;
pub(crate) const REPLAY_COMPUTE: u32 = 5;

/// How often the epoch advances while guest code runs, and so how often a running guest's
/// compute time is checked.
pub(crate) const TICK: Duration = Duration::from_millis(10);

/// An engine's epoch: advanced every [`TICK`] while guest code of the engine runs, and not at
/// all while none does. A process that waits an hour for a person wakes for nothing: five
/// hundred askers waiting on one machine would otherwise wake it 50,000 times a second.
pub(crate) struct Epoch {
    engine: Engine,
    state: Mutex<Running>,
    changed: Condvar,
}

#[derive(Default)]
struct Running {
    /// Export calls in guest code now (a call inside a host import is not counted).
    guests: usize,
    stopped: bool,
}

impl Epoch {
    pub(crate) fn new(engine: &Engine) -> Arc<Epoch> {
        Arc::new(Epoch {
            engine: engine.clone(),
            state: Mutex::default(),
            changed: Condvar::new(),
        })
    }

    /// Advances the epoch every [`TICK`] while a guest runs, until stopped.
    pub(crate) fn tick(&self) {
        let mut state = self.lock();
        loop {
            while state.guests == 0 && !state.stopped {
                state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            if state.stopped {
                return;
            }
            drop(state);
            std::thread::sleep(TICK);
            self.engine.increment_epoch();
            state = self.lock();
        }
    }

    /// Guest code runs until the guard is dropped (an export call, or instantiation).
    pub(crate) fn guest(&self) -> InGuest<'_> {
        self.count(true);
        InGuest(self)
    }

    /// The guest waits on the host until the guard is dropped (an import, a person
    /// answering): its time is not the guest's.
    pub(crate) fn host(&self) -> InHost<'_> {
        self.count(false);
        InHost(self)
    }

    fn count(&self, more: bool) {
        let mut state = self.lock();
        state.guests = if more {
            state.guests + 1
        } else {
            state.guests.saturating_sub(1)
        };
        self.changed.notify_all();
    }

    fn stop(&self) {
        self.lock().stopped = true;
        self.changed.notify_all();
    }

    fn lock(&self) -> MutexGuard<'_, Running> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// See [`Epoch::guest`].
pub(crate) struct InGuest<'a>(&'a Epoch);

impl Drop for InGuest<'_> {
    fn drop(&mut self) {
        self.0.count(false);
    }
}

/// See [`Epoch::host`].
pub(crate) struct InHost<'a>(&'a Epoch);

impl Drop for InHost<'_> {
    fn drop(&mut self) {
        self.0.count(true);
    }
}

/// An engine's [`Epoch`] with a thread of its own, stopped when dropped.
pub(crate) struct Ticker {
    epoch: Arc<Epoch>,
}

impl Ticker {
    pub(crate) fn start(engine: &Engine) -> Ticker {
        let epoch = Epoch::new(engine);
        let ticking = epoch.clone();
        std::thread::Builder::new()
            .name("interview-epoch".into())
            .spawn(move || ticking.tick())
            .expect("spawning the epoch thread");
        Ticker { epoch }
    }

    pub(crate) fn epoch(&self) -> &Arc<Epoch> {
        &self.epoch
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.epoch.stop();
    }
}

/// Guest compute time of the current export call: wall time minus time spent in host calls.
#[derive(Debug)]
pub(crate) struct GuestClock {
    started: Instant,
    in_host: Duration,
}

impl GuestClock {
    pub(crate) fn new() -> Self {
        GuestClock {
            started: Instant::now(),
            in_host: Duration::ZERO,
        }
    }

    /// Starts counting a new export call.
    pub(crate) fn restart(&mut self) {
        *self = GuestClock::new();
    }

    pub(crate) fn add_host_time(&mut self, spent: Duration) {
        self.in_host += spent;
    }

    pub(crate) fn guest_time(&self) -> Duration {
        self.started.elapsed().saturating_sub(self.in_host)
    }
}
