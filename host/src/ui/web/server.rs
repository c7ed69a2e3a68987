//! The page's server: the accepting thread ([`Listener`]) and a fixed few threads that answer
//! the requests it reads, so that no number of clients can make the process start more.

use std::io;
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::Exchange;
use super::listener::{Job, Listener};
use super::routes::{self, Site};

/// Threads answering requests: a long-poll holds one for up to five seconds, and a page keeps
/// one long-poll going, with a reply now and then.
pub(super) const WORKERS: usize = 4;
/// Whole requests waiting for a thread; past these, a request is answered 503 at once.
const QUEUED: usize = 32;
/// How long a response may take to write: a client that reads slowly is dropped after it.
const WRITE_DEADLINE: Duration = Duration::from_secs(5);

/// The running server; [`stop`](Server::stop) (or dropping it) ends its threads.
pub(super) struct Server {
    listener: Option<Listener>,
    workers: Vec<JoinHandle<()>>,
}

impl Server {
    /// Serves `site` from `listener`, with `exchange` between the page and the UI.
    pub(super) fn start(
        listener: std::net::TcpListener,
        exchange: Arc<Exchange>,
        site: Site,
    ) -> io::Result<Server> {
        let (jobs, queue) = sync_channel::<Job>(QUEUED);
        let queue = Arc::new(Mutex::new(queue));
        let site = Arc::new(site);
        let mut workers = Vec::with_capacity(WORKERS);
        for _ in 0..WORKERS {
            let (queue, exchange, site) = (queue.clone(), exchange.clone(), site.clone());
            let worker = std::thread::Builder::new()
                .name("interview-web".into())
                .spawn(move || answer(&queue, &exchange, &site))?;
            workers.push(worker);
        }
        // Should this fail, `jobs` is dropped with it and the workers end on their own.
        let listener = Listener::start(listener, jobs)?;
        Ok(Server {
            listener: Some(listener),
            workers,
        })
    }

    /// Stops accepting and waits for the answering threads. Long-polls must have been told
    /// to end (the exchange's `closing`) for this to be quick.
    pub(super) fn stop(&mut self) {
        // The accepting thread owns the queue's sender: once it is gone, each worker's wait
        // for a job ends.
        drop(self.listener.take());
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Answers jobs until the accepting thread is gone.
fn answer(queue: &Mutex<Receiver<Job>>, exchange: &Exchange, site: &Site) {
    loop {
        // The lock is let go before routing: a long-poll must not keep the others from jobs.
        let job = {
            let queue = queue.lock().unwrap_or_else(|e| e.into_inner());
            queue.recv()
        };
        let Ok(job) = job else {
            return;
        };
        let response = routes::route(&job.request, exchange, site);
        let _ = response.send(job.stream, Instant::now() + WRITE_DEADLINE);
    }
}
