//! The askers' long polls waiting on one server, and the one task that looks after them all.
//!
//! A poll waits on its own step and is woken when that step settles (answered, expired,
//! withdrawn): at once when this server took the answer, else when [`watching`] finds it in the
//! database, which it reads once a second for every waiting step together. The same task
//! marks the waiting askers as heard from. Five hundred waiting askers cost a server two
//! statements a second, not five hundred.
//!
//! Each agent may hold only so many polls here at once (`--polls-per-agent`): one agent's
//! askers, however many or hostile, cannot take every connection the server has and keep the
//! others' askers out.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::Notify;

use super::server::{App, blocking};
use super::store::Posted;

/// How often the database is read for steps settled by another server.
const RECHECK: Duration = Duration::from_secs(1);

/// The steps waited on here, and how many polls each agent holds.
pub(super) struct Waiting {
    steps: Mutex<HashMap<Posted, Polls>>,
    agents: Mutex<HashMap<String, usize>>,
    /// The most polls one agent may hold at once.
    per_agent: usize,
}

/// The polls on one step: what wakes them, what they are told, and how many there are.
struct Polls {
    woken: Arc<Notify>,
    told: Told,
    count: usize,
}

/// What a step's polls are told as they are woken, when the one who woke them knew it (this
/// server took the answer): they return it without reading it back.
type Told = Arc<Mutex<Option<serde_json::Value>>>;

/// One poll's place in [`Waiting`]; it leaves when dropped.
pub(super) struct Poll<'a> {
    waiting: &'a Waiting,
    at: Posted,
    agent: String,
    /// Notified when the step may have settled.
    pub(super) woken: Arc<Notify>,
    told: Told,
}

/// A poll refused because its agent holds as many as it may: it has this many.
#[derive(Debug)]
pub(super) struct TooMany(pub(super) usize);

impl Waiting {
    /// Polls waited on here, at most `per_agent` (at least 1) of them one agent's.
    pub(super) fn new(per_agent: usize) -> Waiting {
        Waiting {
            steps: Mutex::default(),
            agents: Mutex::default(),
            per_agent: per_agent.max(1),
        }
    }

    /// A poll of `agent`'s on `at` begins, unless that agent has as many as it may.
    pub(super) fn enter(&self, at: Posted, agent: &str) -> Result<Poll<'_>, TooMany> {
        {
            let mut agents = lock(&self.agents);
            let held = agents.entry(agent.to_owned()).or_default();
            if *held >= self.per_agent {
                return Err(TooMany(*held));
            }
            *held += 1;
        }
        let mut steps = self.lock();
        let polls = steps.entry(at).or_insert_with(|| Polls {
            woken: Arc::default(),
            told: Told::default(),
            count: 0,
        });
        polls.count += 1;
        Ok(Poll {
            waiting: self,
            at,
            agent: agent.to_owned(),
            woken: polls.woken.clone(),
            told: polls.told.clone(),
        })
    }

    /// `at` may have settled: its polls look.
    pub(super) fn wake(&self, at: Posted) {
        if let Some(polls) = self.lock().get(&at) {
            polls.woken.notify_waiters();
        }
    }

    /// `at` has settled as `state` says (what its poll returns): its polls return it.
    pub(super) fn settle(&self, at: Posted, state: serde_json::Value) {
        if let Some(polls) = self.lock().get(&at) {
            *lock(&polls.told) = Some(state);
            polls.woken.notify_waiters();
        }
    }

    fn steps(&self) -> Vec<Posted> {
        self.lock().keys().copied().collect()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Posted, Polls>> {
        lock(&self.steps)
    }
}

impl Poll<'_> {
    /// What the poll was told as it was woken, if anything.
    pub(super) fn told(&self) -> Option<serde_json::Value> {
        lock(&self.told).clone()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
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
        drop(steps);
        let mut agents = lock(&self.waiting.agents);
        if let Some(held) = agents.get_mut(&self.agent) {
            *held -= 1;
            if *held == 0 {
                agents.remove(&self.agent);
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
                crate::stderr::warn(&format!(
                    "cannot mark the waiting askers as heard: {}",
                    refused.1
                ));
            }
        }
        match blocking(&app, move |store| store.settled(&steps)).await {
            Ok(settled) => settled.into_iter().for_each(|at| app.waiting.wake(at)),
            Err(refused) => {
                crate::stderr::warn(&format!("cannot look for answers: {}", refused.1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_holds_at_most_its_share_of_polls_and_gets_each_back_as_one_ends() {
        let waiting = Waiting::new(2);
        let step = |seq| Posted { question: 1, seq };
        let first = waiting.enter(step(1), "ci").unwrap();
        let _second = waiting.enter(step(2), "ci").unwrap();
        assert_eq!(
            waiting.enter(step(3), "ci").err().map(|TooMany(held)| held),
            Some(2)
        );
        // Another agent is not held back by the first's polls.
        let _other = waiting.enter(step(3), "laptop").unwrap();
        drop(first);
        let _third = waiting.enter(step(3), "ci").unwrap();
        assert_eq!(waiting.steps().len(), 2);
        assert!(waiting.enter(step(4), "ci").is_err());
    }
}
