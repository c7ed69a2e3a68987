//! The askers' long polls waiting on one server, and the one task that looks after them all.
//!
//! A poll waits on its own step and is woken when that step settles (answered, expired,
//! withdrawn): at once when this server took the answer, else when [`watching`] finds it in the
//! database, which it reads once a second for every waiting step together. The same task
//! marks the waiting askers as heard from. Five hundred waiting askers cost a server two
//! statements a second, not five hundred.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::Notify;

use super::server::{App, blocking};
use super::store::Posted;

/// How often the database is read for steps settled by another server.
const RECHECK: Duration = Duration::from_secs(1);

/// The steps waited on here.
#[derive(Default)]
pub(super) struct Waiting {
    steps: Mutex<HashMap<Posted, Polls>>,
}

/// The polls on one step: what wakes them, and how many there are.
struct Polls {
    woken: Arc<Notify>,
    count: usize,
}

/// One poll's place in [`Waiting`]; it leaves when dropped.
pub(super) struct Poll<'a> {
    waiting: &'a Waiting,
    at: Posted,
    /// Notified when the step may have settled.
    pub(super) woken: Arc<Notify>,
}

impl Waiting {
    /// A poll on `at` begins.
    pub(super) fn enter(&self, at: Posted) -> Poll<'_> {
        let mut steps = self.lock();
        let polls = steps.entry(at).or_insert_with(|| Polls {
            woken: Arc::default(),
            count: 0,
        });
        polls.count += 1;
        Poll {
            waiting: self,
            at,
            woken: polls.woken.clone(),
        }
    }

    /// `at` may have settled: its polls look.
    pub(super) fn wake(&self, at: Posted) {
        if let Some(polls) = self.lock().get(&at) {
            polls.woken.notify_waiters();
        }
    }

    fn steps(&self) -> Vec<Posted> {
        self.lock().keys().copied().collect()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Posted, Polls>> {
        self.steps.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Poll<'_> {
    fn drop(&mut self) {
        let mut steps = self.waiting.lock();
        if let Some(polls) = steps.get_mut(&self.at) {
            polls.count -= 1;
            if polls.count == 0 {
                steps.remove(&self.at);
            }
        }
    }
}

/// Once a second (more often for a grace period under 3 s), wakes the polls whose steps settled elsewhere; every `heard_every`, marks
/// their askers as heard from (they are alive: a long poll is open), so that their questions
/// are not withdrawn as gone however long they wait.
pub(super) async fn watching(app: App, heard_every: Duration) {
    let mut heard = tokio::time::Instant::now();
    let mut ticks = tokio::time::interval(RECHECK.min(heard_every));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let steps = app.waiting.steps();
        if steps.is_empty() {
            continue;
        }
        if heard.elapsed() >= heard_every {
            heard = tokio::time::Instant::now();
            let mut questions: Vec<i64> = steps.iter().map(|at| at.question).collect();
            questions.sort_unstable();
            questions.dedup();
            let now = super::store::now_ms();
            if let Err(refused) = blocking(&app, move |store| store.seen(&questions, now)).await {
                eprintln!(
                    "interview: cannot mark the waiting askers as heard: {}",
                    refused.1
                );
            }
        }
        match blocking(&app, move |store| store.settled(&steps)).await {
            Ok(settled) => settled.into_iter().for_each(|at| app.waiting.wake(at)),
            Err(refused) => eprintln!("interview: cannot look for answers: {}", refused.1),
        }
    }
}
