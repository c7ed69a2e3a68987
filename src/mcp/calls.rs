//! The calls of this process that wait in an inbox, by the flag that withdraws each: one list
//! for the process, which its signals and its client's going away reach, whichever inbox each
//! call went to.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

static UNDER_WAY: Mutex<Vec<Weak<AtomicBool>>> = Mutex::new(Vec::new());

/// Keeps `stop`, the flag of a call under way, while the call holds it.
#[cfg_attr(
    not(feature = "team"),
    expect(
        dead_code,
        reason = "only a build that asks through an inbox has such calls"
    )
)]
pub fn keep(stop: &Arc<AtomicBool>) {
    let mut calls = UNDER_WAY.lock().unwrap_or_else(|e| e.into_inner());
    calls.retain(|call| call.strong_count() > 0);
    calls.push(Arc::downgrade(stop));
}

/// Withdraws every call under way, and waits until they are withdrawn or `patience` is up:
/// the process ends (a signal, its client gone), and no question of its may wait in an inbox
/// for an answer that would reach nobody.
pub fn withdraw_all(patience: Duration) {
    let under_way = || {
        let calls = UNDER_WAY.lock().unwrap_or_else(|e| e.into_inner());
        calls.iter().filter_map(Weak::upgrade).collect::<Vec<_>>()
    };
    for call in under_way() {
        call.store(true, Ordering::SeqCst);
    }
    let given_up = Instant::now() + patience;
    while !under_way().is_empty() && Instant::now() < given_up {
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_call_under_way_is_withdrawn_and_waited_for() {
        let call = Arc::new(AtomicBool::new(false));
        keep(&call);
        let held = call.clone();
        let ending = std::thread::spawn(move || {
            while !held.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(5));
            }
            drop(held);
        });
        let started = Instant::now();
        drop(call);
        withdraw_all(Duration::from_secs(10));
        ending.join().unwrap();
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
