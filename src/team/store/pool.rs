//! Connections kept for reuse, opened as they are needed up to a bound: a caller beyond it
//! waits for one to be put back. Both stores keep theirs so (PostgreSQL's connections, SQLite's
//! reading ones).

use std::sync::{Condvar, Mutex, MutexGuard};

use super::StoreError;

/// Connections of type `C`, at most `most` open at once.
pub(super) struct Pool<C> {
    /// The connections not in use, and how many are open in all.
    state: Mutex<(Vec<C>, usize)>,
    /// Signalled when a connection is put back or let go.
    returned: Condvar,
    most: usize,
}

impl<C> Pool<C> {
    /// A pool of at most `most` connections, none open yet.
    pub(super) fn new(most: usize) -> Pool<C> {
        Pool {
            state: Mutex::new((Vec::new(), 0)),
            returned: Condvar::new(),
            most,
        }
    }

    /// A connection: an idle one, one made by `open` while fewer than the most are open (the
    /// pool not locked meanwhile), else the next one put back; why `open` could not make one.
    pub(super) fn take(
        &self,
        open: impl FnOnce() -> Result<C, StoreError>,
    ) -> Result<C, StoreError> {
        let mut state = self.state();
        loop {
            if let Some(conn) = state.0.pop() {
                return Ok(conn);
            }
            if state.1 < self.most {
                state.1 += 1;
                drop(state);
                let opened = open();
                if opened.is_err() {
                    self.let_go();
                }
                return opened;
            }
            state = (self.returned.wait(state)).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Gives `conn` back, for the next caller.
    pub(super) fn put_back(&self, conn: C) {
        self.state().0.push(conn);
        self.returned.notify_one();
    }

    /// A connection taken is not coming back (it was closed): another may be opened instead.
    pub(super) fn let_go(&self) {
        self.state().1 -= 1;
        self.returned.notify_one();
    }

    fn state(&self) -> MutexGuard<'_, (Vec<C>, usize)> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_opens_up_to_its_bound_reuses_what_is_put_back_and_reopens_what_is_let_go() {
        let pool = Pool::new(2);
        let opened = std::sync::atomic::AtomicUsize::new(0);
        let open = || Ok(opened.fetch_add(1, std::sync::atomic::Ordering::SeqCst));
        // One that could not be opened takes no place.
        for _ in 0..3 {
            assert!(
                pool.take(|| Err::<usize, _>(StoreError::Unreachable("down".into())))
                    .is_err()
            );
        }
        let (a, b) = (pool.take(open).unwrap(), pool.take(open).unwrap());
        assert_eq!((a, b), (0, 1));
        pool.put_back(a);
        assert_eq!(pool.take(open).unwrap(), 0, "an idle one is reused");
        pool.let_go();
        assert_eq!(pool.take(open).unwrap(), 2, "one let go is opened anew");
        // A caller beyond the bound waits for one put back.
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| pool.take(open).unwrap());
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert!(!waiting.is_finished(), "opened beyond the bound");
            pool.put_back(7);
            assert_eq!(waiting.join().unwrap(), 7);
        });
    }
}
