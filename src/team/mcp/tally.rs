//! Bounds on what agents hold at the endpoint at once, in all and by agent, with a ticket that
//! gives its place back when dropped.
//!
//! Two are kept: the calls being asked (each holds one of the runtime's blocking threads while
//! its plugin waits for a person, and the server's own database work needs the rest), and the
//! open requests (each an event stream that holds a connection for as long as it is open,
//! never closed for a newcomer). Without them, one agent's token could take every thread or
//! every connection, and lock the people out of the page.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// How many of something the agents hold, and how many they may.
#[derive(Clone)]
pub(super) struct Tally(Arc<Mutex<Counts>>);

struct Counts {
    total: usize,
    by_agent: HashMap<String, usize>,
    most: usize,
    per_agent: usize,
}

/// A place in a [`Tally`], given back when dropped.
pub(super) struct Ticket {
    tally: Tally,
    agent: String,
}

/// Why a place was refused: the count held, and by whom.
#[derive(Debug, PartialEq)]
pub(super) enum Full {
    /// The agent holds `per_agent` already.
    Agent(usize),
    /// All agents together hold `most`.
    Server(usize),
}

impl Tally {
    /// At most `most` in all, `per_agent` (at least 1) of them one agent's.
    pub(super) fn new(most: usize, per_agent: usize) -> Tally {
        Tally(Arc::new(Mutex::new(Counts {
            total: 0,
            by_agent: HashMap::new(),
            most,
            per_agent: per_agent.clamp(1, most.max(1)),
        })))
    }

    fn lock(&self) -> MutexGuard<'_, Counts> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for `agent`, unless it or the server holds as many as they may.
    pub(super) fn enter(&self, agent: &str) -> Result<Ticket, Full> {
        let mut counts = self.lock();
        let held = counts.by_agent.get(agent).copied().unwrap_or(0);
        if held >= counts.per_agent {
            return Err(Full::Agent(held));
        }
        if counts.total >= counts.most {
            return Err(Full::Server(counts.total));
        }
        counts.total += 1;
        *counts.by_agent.entry(agent.to_owned()).or_default() += 1;
        Ok(Ticket {
            tally: self.clone(),
            agent: agent.to_owned(),
        })
    }

    /// Waits until nothing is held, or `longest` has passed.
    pub(super) async fn emptied(&self, longest: Duration) {
        let until = tokio::time::Instant::now() + longest;
        while self.lock().total > 0 && tokio::time::Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut counts = self.tally.lock();
        counts.total -= 1;
        if let Some(held) = counts.by_agent.get_mut(&self.agent) {
            *held -= 1;
            if *held == 0 {
                counts.by_agent.remove(&self.agent);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_bounded_by_agent_and_in_all_and_given_back() {
        let tally = Tally::new(3, 2);
        let first = tally.enter("ci").unwrap();
        let _second = tally.enter("ci").unwrap();
        assert_eq!(tally.enter("ci").err(), Some(Full::Agent(2)));
        let _other = tally.enter("nightly").unwrap();
        assert_eq!(tally.enter("docs").err(), Some(Full::Server(3)));
        drop(first);
        assert!(tally.enter("ci").is_ok());
    }
}
