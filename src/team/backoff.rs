//! How long to wait before trying again a team inbox that could not be reached: a pause that
//! doubles with each failure, up to [`LONGEST`], and starts over once the server answers.

use std::time::Duration;

/// The longest pause between two tries: a server that comes back is heard from within this.
pub const LONGEST: Duration = Duration::from_secs(5);

/// The pauses between the tries of one request, or of one loop of requests.
#[derive(Clone, Copy, Debug)]
pub struct Backoff {
    first: Duration,
    next: Duration,
}

impl Backoff {
    /// Pauses that begin at `first`.
    pub const fn from(first: Duration) -> Self {
        Backoff { first, next: first }
    }

    /// The pause before the next try; the one after it will be twice as long.
    pub fn failed(&mut self) -> Duration {
        let pause = self.next;
        self.next = (pause * 2).min(LONGEST);
        pause
    }

    /// The pause the next failure would take, without counting one (for a server that asks
    /// to be asked again later without saying when).
    pub fn current(&self) -> Duration {
        self.next
    }

    /// The server answered: the next failure starts from the first pause again.
    pub fn answered(&mut self) {
        self.next = self.first;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_double_up_to_the_longest_and_start_over_once_answered() {
        let mut backoff = Backoff::from(Duration::from_millis(500));
        let pauses: Vec<u128> = (0..6).map(|_| backoff.failed().as_millis()).collect();
        assert_eq!(pauses, [500, 1000, 2000, 4000, 5000, 5000]);
        assert_eq!(backoff.current(), LONGEST);
        backoff.answered();
        assert_eq!(backoff.failed(), Duration::from_millis(500));
    }
}
