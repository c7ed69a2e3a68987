//! Accepting connections and reading their requests, in one thread that never stops accepting.
//!
//! One thread waits on the listening socket and on every connection still sending its request
//! (mio: epoll), so an idle or slow connection costs a file descriptor and a buffer, never a
//! thread. A whole request is handed, with its connection, to the few threads that answer.
//!
//! What keeps it serving whatever clients do:
//! - at most [`MAX_CONNECTIONS`] connections are read at once; one more sheds the oldest;
//! - a connection has [`REQUEST_DEADLINE`] to send its whole request, then it is closed
//!   (a slowloris client trickling bytes gains nothing);
//! - out of file descriptors (EMFILE), the oldest connection is shed to make room, or, when
//!   there is none, accepting pauses for [`ACCEPT_BACKOFF`] and resumes: the loop ends only
//!   when its owner stops it.

use std::collections::HashMap;
use std::io::{self, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use mio::net::{TcpListener, TcpStream};
use mio::{Events, Interest, Poll, Token, Waker};

use super::http::{self, Reading, Response};

/// Connections read at once; a browser page needs two or three.
pub(super) const MAX_CONNECTIONS: usize = 64;
/// How long a connection may take to send its whole request (a browser takes milliseconds).
pub(super) const REQUEST_DEADLINE: Duration = Duration::from_secs(5);
/// How long accepting pauses when no file descriptor can be had.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);
/// How long a refusal may take to write: it is small and the socket's buffer empty.
const REFUSAL_DEADLINE: Duration = Duration::from_millis(200);

const LISTENER: Token = Token(0);
const WAKER: Token = Token(1);

/// A request read whole, and the connection to answer it on (blocking again).
pub(super) struct Job {
    pub(super) stream: std::net::TcpStream,
    pub(super) request: http::Request,
}

/// The accepting thread; dropping it stops the thread and closes what it was reading.
pub(super) struct Listener {
    waker: Arc<Waker>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Listener {
    /// Accepts on `listener` and hands each whole request to `jobs`; when `jobs` is full, the
    /// request is answered 503 at once rather than queued without bound.
    pub(super) fn start(
        listener: std::net::TcpListener,
        jobs: SyncSender<Job>,
    ) -> io::Result<Listener> {
        listener.set_nonblocking(true)?;
        let mut listener = TcpListener::from_std(listener);
        let poll = Poll::new()?;
        poll.registry()
            .register(&mut listener, LISTENER, Interest::READABLE)?;
        let waker = Arc::new(Waker::new(poll.registry(), WAKER)?);
        let stop = Arc::new(AtomicBool::new(false));
        let mut accepting = Accepting {
            poll,
            listener,
            jobs,
            reading: HashMap::new(),
            next: WAKER.0 + 1,
            paused_until: None,
        };
        let stopped = stop.clone();
        let thread = std::thread::Builder::new()
            .name("interview-web-accept".into())
            .spawn(move || accepting.run(&stopped))?;
        Ok(Listener {
            waker,
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = self.waker.wake();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A connection still sending its request.
struct Reader {
    stream: TcpStream,
    received: Vec<u8>,
    opened: Instant,
}

struct Accepting {
    poll: Poll,
    listener: TcpListener,
    jobs: SyncSender<Job>,
    reading: HashMap<Token, Reader>,
    next: usize,
    /// Out of file descriptors: accept again at this time.
    paused_until: Option<Instant>,
}

impl Accepting {
    fn run(&mut self, stop: &AtomicBool) {
        let mut events = Events::with_capacity(256);
        while !stop.load(Ordering::SeqCst) {
            if let Err(e) = self.poll.poll(&mut events, Some(self.next_wake())) {
                if e.kind() != io::ErrorKind::Interrupted {
                    // Not expected from epoll; pausing keeps a persistent fault from spinning.
                    std::thread::sleep(ACCEPT_BACKOFF);
                }
                continue;
            }
            for event in &events {
                match event.token() {
                    LISTENER => self.accept(),
                    WAKER => {}
                    token => self.read(token),
                }
            }
            if self.paused_until.is_some_and(|t| Instant::now() >= t) {
                self.paused_until = None;
                // The listener's readiness was reported once (edge-triggered): the connections
                // left waiting in its backlog get no new event, so they are fetched now.
                self.accept();
            }
            self.expire();
        }
    }

    /// How long the poll may sleep: until the next deadline, the end of a pause, or a second.
    fn next_wake(&self) -> Duration {
        let now = Instant::now();
        let deadlines = self.reading.values().map(|r| r.opened + REQUEST_DEADLINE);
        deadlines
            .chain(self.paused_until)
            .min()
            .map_or(Duration::from_secs(1), |t| t.saturating_duration_since(now))
    }

    /// Accepts until the backlog is empty.
    fn accept(&mut self) {
        if self.paused_until.is_some() {
            return;
        }
        loop {
            match self.listener.accept() {
                Ok((stream, _)) => self.add(stream),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if out_of_descriptors(&e) => {
                    if !self.shed_oldest() {
                        self.paused_until = Some(Instant::now() + ACCEPT_BACKOFF);
                        return;
                    }
                }
                // A connection reset before it was accepted, an interrupted call: the next one.
                Err(e) if transient(&e) => {}
                Err(_) => {
                    self.paused_until = Some(Instant::now() + ACCEPT_BACKOFF);
                    return;
                }
            }
        }
    }

    fn add(&mut self, mut stream: TcpStream) {
        if self.reading.len() >= MAX_CONNECTIONS {
            self.shed_oldest();
        }
        let token = Token(self.next);
        self.next = self.next.checked_add(1).unwrap_or(WAKER.0 + 1);
        if self
            .poll
            .registry()
            .register(&mut stream, token, Interest::READABLE)
            .is_ok()
        {
            let reader = Reader {
                stream,
                received: Vec::new(),
                opened: Instant::now(),
            };
            self.reading.insert(token, reader);
        }
    }

    /// Closes the connection that has been sending its request longest; false when none is.
    fn shed_oldest(&mut self) -> bool {
        let oldest = self
            .reading
            .iter()
            .min_by_key(|(_, r)| r.opened)
            .map(|(token, _)| *token);
        match oldest {
            Some(token) => {
                self.close(token, Some(Response::text(503, "Too many connections.")));
                true
            }
            None => false,
        }
    }

    /// Reads what `token`'s connection sent; a whole request goes to the answering threads.
    fn read(&mut self, token: Token) {
        let Some(reader) = self.reading.get_mut(&token) else {
            return;
        };
        let mut chunk = [0u8; 8192];
        let ended = loop {
            match reader.stream.read(&mut chunk) {
                Ok(0) => break true,
                Ok(n) => {
                    reader.received.extend_from_slice(&chunk[..n]);
                    if reader.received.len() > http::MAX_HEAD_BYTES + http::MAX_BODY_BYTES {
                        break false;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break false,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break true,
            }
        };
        match http::read(&reader.received) {
            Reading::Complete(request) => self.hand_over(token, request),
            Reading::Refused(response) => self.close(token, Some(response)),
            Reading::Partial if ended => self.close(token, None),
            Reading::Partial => {}
        }
    }

    fn hand_over(&mut self, token: Token, request: http::Request) {
        let Some(stream) = self.take(token) else {
            return;
        };
        if stream.set_nonblocking(false).is_err() {
            return;
        }
        match self.jobs.try_send(Job { stream, request }) {
            Ok(()) => {}
            Err(TrySendError::Full(job)) => {
                let busy = Response::text(503, "The page's server is busy: try again.");
                let _ = busy.send(job.stream, Instant::now() + REFUSAL_DEADLINE);
            }
            Err(TrySendError::Disconnected(_)) => {}
        }
    }

    /// Stops reading `token`'s connection: its stream, blocking, unless it is already gone.
    fn take(&mut self, token: Token) -> Option<std::net::TcpStream> {
        let mut reader = self.reading.remove(&token)?;
        let _ = self.poll.registry().deregister(&mut reader.stream);
        Some(reader.stream.into())
    }

    /// Closes `token`'s connection, after `response` if there is one.
    fn close(&mut self, token: Token, response: Option<Response>) {
        if let (Some(stream), Some(response)) = (self.take(token), response)
            && stream.set_nonblocking(false).is_ok()
        {
            let _ = response.send(stream, Instant::now() + REFUSAL_DEADLINE);
        }
    }

    /// Closes the connections past their deadline.
    fn expire(&mut self) {
        let now = Instant::now();
        let late: Vec<Token> = self
            .reading
            .iter()
            .filter(|(_, r)| now >= r.opened + REQUEST_DEADLINE)
            .map(|(token, _)| *token)
            .collect();
        for token in late {
            self.close(
                token,
                Some(Response::text(408, "The request took too long.")),
            );
        }
    }
}

/// The process or the system has no file descriptor (or buffer) left for a new connection.
fn out_of_descriptors(error: &io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
    )
}

fn transient(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::Interrupted
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    ) || matches!(error.raw_os_error(), Some(libc::EPROTO | libc::EPERM))
}
