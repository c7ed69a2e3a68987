//! The questions in a browser page: a UI of the host like the terminal ones, where the plugin
//! still decides everything and the page only draws and reads.
//!
//! [`WebUi::start`] serves one page on 127.0.0.1, on a random port, with a random secret of 128
//! bits after the `#` of its address (`http://127.0.0.1:PORT/#SECRET`), which a browser never
//! sends: the page and the server prove to each other that they know it before anything else
//! (see `routes`), so that a program of another user's that takes the port after this one ends
//! learns nothing, and the open tab stops rather than show what it says. Each widget call puts the
//! widget up for the page and blocks until the page posts the person's reply, which goes back
//! to the plugin to judge: a refused answer comes back as the same widget with its error. The
//! page long-polls for the widget, so a reload shows the current one again; the first tab to
//! ask owns the request, and another tab is told it is open elsewhere. When the page stops
//! asking for a few seconds (its tab closed), the open question is cancelled and the answers
//! given so far are kept.
//!
//! A request whose page nobody opens within the [open timeout](WebUi::open_timeout) is
//! answered `unavailable`, as when there is no terminal; once a page has asked, the person has
//! all the time they need.
//!
//! The server is the host's one serving loop ([`crate::serving`]), on a runtime of its own in
//! one thread (an embedder needs no async runtime of its own), bounded so that no client can
//! make it stop serving the page.

mod opener;
mod routes;
mod server;
pub mod wire;

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};
use wire::WidgetRelay;

use super::*;

/// How long a page may go without asking before its tab counts as closed.
const GRACE: Duration = Duration::from_secs(6);
/// How long the page's last view (`done`) waits to be fetched before the server stops.
const LINGER: Duration = Duration::from_secs(2);

/// What the UI has to tell whoever runs it, about the page rather than the questions. More
/// kinds may come: a notice not known to the embedder can be left unsaid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PageNotice<'a> {
    /// A request has questions to answer and no page shows them: the address to open.
    Waiting {
        /// The page's address, secret included.
        url: &'a str,
    },
    /// No browser could be started to show the page (see [`WebUi::open_browser`]): the
    /// address said with [`Waiting`](PageNotice::Waiting) is the only way to it.
    NoBrowser {
        /// Why, for the person.
        error: &'a str,
    },
    /// Nobody opened the page within the open timeout: the request is answered `unavailable`.
    NotOpened {
        /// The page's address, secret included.
        url: &'a str,
        /// How long the request waited.
        waited: Duration,
    },
}

type Notify = Box<dyn FnMut(PageNotice<'_>) + Send>;

/// How long the first view of a request, on a page kept for more, takes no keys or replies.
const SETTLE_MS: u64 = 400;

/// A UI in a browser page (see the module documentation).
pub struct WebUi {
    exchange: Arc<Exchange>,
    server: server::Server,
    url: String,
    stop: Arc<AtomicBool>,
    cancelled: bool,
    interrupted: bool,
    /// Open the browser when a question is put up and no page is showing.
    open: bool,
    /// The last request finished: the next question starts a new one.
    fresh: bool,
    /// The current request has questions (the plugin found it valid and asked how to reach
    /// the person): how it ends is the page's to show.
    asking: bool,
    /// Nobody opened the page in time for the current request.
    unopened: bool,
    open_timeout: Duration,
    notify: Option<Notify>,
    /// The file the browser is given instead of the address (see `opener`).
    redirect: Option<opener::Redirect>,
    /// Who asks the current request, and from which project folder, for the page to say.
    asker: Option<String>,
    folder: Option<String>,
    /// The page stays for later requests: its endings say the next question comes there.
    stays: bool,
}

/// What the page shows and what it sent back, shared with the server's thread.
struct Exchange {
    state: Mutex<State>,
    /// Wakes the UI's waits (a thread of the plugin's, blocking).
    changed: Condvar,
    /// Wakes the page's long polls (tasks of the server's).
    woken: tokio::sync::Notify,
}

struct State {
    /// Counts the views; a reply names the view it answers.
    seq: u64,
    /// What the page shows now: `{seq, kind, ...}`.
    view: Json,
    /// The reply to the current view, once posted.
    reply: Option<Json>,
    /// The tab that answers (a random id the page keeps in its session storage).
    owner: Option<String>,
    /// The tab that was answering when the last request ended: the only one its ending is
    /// for. Another tab opened since is shown that nothing is asked now.
    ended_in: Option<String>,
    /// When the page last asked, and how many of its asks are waiting.
    last_seen: Option<Instant>,
    polling: usize,
    /// The last view the page showed (it asked for what comes after it).
    delivered: u64,
    /// The UI is going away: waiting asks end now.
    closing: bool,
}

impl Exchange {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells every wait, the UI's and the page's, that the state changed.
    fn wake(&self) {
        self.changed.notify_all();
        self.woken.notify_waiters();
    }

    /// Whether a page that was open has stopped asking (its tab closed).
    fn abandoned(state: &State) -> bool {
        state.polling == 0 && state.last_seen.is_some_and(|t| t.elapsed() > GRACE)
    }

    /// Whether a page is open and asking.
    fn showing(state: &State) -> bool {
        state.last_seen.is_some() && !Exchange::abandoned(state)
    }
}

impl WebUi {
    /// How long a request waits, by default, for its page to be opened before it is answered
    /// `unavailable`: under the two minutes an agent's shell tool commonly allows a command,
    /// and long enough to notice a browser tab and switch to it.
    pub const DEFAULT_OPEN_TIMEOUT: Duration = Duration::from_secs(90);

    /// Serves the page on 127.0.0.1 on a random port. Open [`url`](WebUi::url) in a browser,
    /// or call [`open_browser`](WebUi::open_browser).
    pub fn start() -> io::Result<WebUi> {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        WebUi::serve(listener, WebUi::new_token()?)
    }

    /// A new secret for [`serve`](WebUi::serve): 128 random bits in lowercase hex.
    pub fn new_token() -> io::Result<String> {
        routes::random_hex(16)
    }

    /// Serves the page on `listener` (bound to a loopback address) with `secret`, which must
    /// be at least 128 bits in lowercase hex, new for every page: it is all that keeps other
    /// local users out, and what lets the page tell its server from another program that
    /// took the port.
    pub fn serve(listener: std::net::TcpListener, secret: String) -> io::Result<WebUi> {
        let valid = secret.len() >= 32
            && secret
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if !valid {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the page's secret must be at least 32 lowercase hex digits",
            ));
        }
        if !listener.local_addr()?.ip().is_loopback() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the page is served on a loopback address only",
            ));
        }
        let port = listener.local_addr()?.port();
        let url = format!("http://127.0.0.1:{port}/#{secret}");
        let exchange = Arc::new(Exchange {
            // From 1: a page's first ask (after 0) is answered at once.
            state: Mutex::new(State {
                seq: 1,
                view: json!({ "seq": 1, "kind": "waiting" }),
                reply: None,
                owner: None,
                ended_in: None,
                last_seen: None,
                polling: 0,
                delivered: 0,
                closing: false,
            }),
            changed: Condvar::new(),
            woken: tokio::sync::Notify::new(),
        });
        let site = routes::Site::new(secret, port);
        let server = server::Server::start(listener, exchange.clone(), site)?;
        Ok(WebUi {
            exchange,
            server,
            url,
            stop: Arc::new(AtomicBool::new(false)),
            cancelled: false,
            interrupted: false,
            open: false,
            fresh: false,
            asking: false,
            unopened: false,
            open_timeout: WebUi::DEFAULT_OPEN_TIMEOUT,
            notify: None,
            redirect: None,
            asker: None,
            folder: None,
            stays: false,
        })
    }

    /// Opens the page in the browser (see [`open_browser`](WebUi::open_browser)) whenever a
    /// question is put up and no page is showing: at the first question, and again for a later
    /// one after the person closed the tab (as an MCP server's UI, which serves many requests).
    pub fn open_when_needed(&mut self, open: bool) {
        self.open = open;
    }

    /// How long a request waits for a page to be opened when none shows, before it is
    /// answered `unavailable` ([`DEFAULT_OPEN_TIMEOUT`](WebUi::DEFAULT_OPEN_TIMEOUT) unless
    /// set). A page that has asked once keeps its request open for as long as the person takes.
    pub fn open_timeout(&mut self, timeout: Duration) {
        self.open_timeout = timeout;
    }

    /// Calls `notify` with what there is to say about the page: its address when a request
    /// waits for it, and that nobody opened it in time. The address is said only then, when
    /// there is a question to answer at it.
    pub fn on_notice(&mut self, notify: impl FnMut(PageNotice<'_>) + Send + 'static) {
        self.notify = Some(Box::new(notify));
    }

    /// Who asks the next request (an agent's name), for the page to say above the question
    /// and in its title; the page shows it as text, never as markup.
    pub fn set_asker(&mut self, asker: Option<String>) {
        self.asker = asker;
    }

    /// The project folder the next request comes from, for the page to say beside who asks.
    pub fn set_folder(&mut self, folder: Option<String>) {
        self.folder = folder;
    }

    /// Whether the page is kept for later requests (an inbox, an MCP server): its endings
    /// then say that the next question will come there, instead of telling the person to
    /// close the tab.
    pub fn stays_for_more(&mut self, stays: bool) {
        self.stays = stays;
    }

    /// The page's address, secret included: `http://127.0.0.1:PORT/#SECRET`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Opens the page in the person's browser: `$BROWSER`, else `xdg-open`, else `open`,
    /// given the path of a file readable only by this user that forwards to the page, so that
    /// the token never shows on a command line. An error when the file cannot be written or
    /// no browser could be started.
    pub fn open_browser(&mut self) -> io::Result<()> {
        if self.redirect.is_none() {
            let name = routes::random_hex(8)?;
            self.redirect = Some(opener::Redirect::create(&self.url, &name)?);
        }
        let redirect = self.redirect.as_ref().expect("created above");
        opener::open(redirect.path())
    }

    /// A flag that withdraws the open question when set (a signal, a cancelled MCP call).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Puts a view up and waits for its reply; `None` when the question was withdrawn or the
    /// page went away.
    fn ask(&mut self, kind: &str, mut view: Json) -> Option<Json> {
        // The first view of a request on a page kept for more: a press meant for the request
        // before (a double click, a double Enter) must not answer it.
        if self.stays && !self.asking {
            view["settle"] = SETTLE_MS.into();
        }
        self.begin();
        let exchange = self.exchange.clone();
        let mut state = exchange.lock();
        state.seq += 1;
        let seq = state.seq;
        view["seq"] = state.seq.into();
        view["kind"] = kind.into();
        if let Some(asker) = &self.asker {
            view["asker"] = asker.as_str().into();
        }
        if let Some(folder) = &self.folder {
            view["folder"] = folder.as_str().into();
        }
        state.view = view;
        state.reply = None;
        exchange.wake();
        let mut opened = false;
        loop {
            if let Some(reply) = state.reply.take() {
                return Some(reply);
            }
            if self.stop.load(Ordering::SeqCst) {
                self.interrupted = true;
                return None;
            }
            if Exchange::abandoned(&state) {
                if state.delivered >= seq {
                    // The person saw this question and closed the tab.
                    self.interrupted = true;
                    return None;
                }
                // Closed before this question came: the person may come back to it.
                state.owner = None;
                state.last_seen = None;
            }
            if self.open && !opened && state.last_seen.is_none() {
                opened = true;
                let _ = self.open_browser();
            }
            state = exchange
                .changed
                .wait_timeout(state, Duration::from_millis(200))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Starts a request when the last one has finished: how that one ended is forgotten.
    fn begin(&mut self) {
        if std::mem::take(&mut self.fresh) {
            self.cancelled = false;
            self.interrupted = false;
            self.unopened = false;
        }
        self.asking = true;
    }

    fn notify(&mut self, notice: PageNotice<'_>) {
        if let Some(notify) = &mut self.notify {
            notify(notice);
        }
    }

    /// Whether a page shows the request: one already open, or one opened within the open
    /// timeout after the address was said (and the browser opened, when asked to). A stop
    /// meanwhile counts as shown: the first question then reports it, as it would with a page.
    fn wait_for_page(&mut self) -> bool {
        let exchange = self.exchange.clone();
        {
            let mut state = exchange.lock();
            if Exchange::showing(&state) {
                return true;
            }
            // A tab closed earlier: whichever page asks next owns the request.
            state.owner = None;
            state.last_seen = None;
        }
        let url = self.url.clone();
        self.notify(PageNotice::Waiting { url: &url });
        if self.open
            && let Err(error) = self.open_browser()
        {
            let error = error.to_string();
            self.notify(PageNotice::NoBrowser { error: &error });
        }
        // A timeout too long to add to the clock (u64::MAX seconds) is no timeout.
        let deadline = Instant::now().checked_add(self.open_timeout);
        let mut state = exchange.lock();
        loop {
            if state.last_seen.is_some() || self.stop.load(Ordering::SeqCst) {
                return true;
            }
            let left = deadline.map_or(Duration::MAX, |d| {
                d.saturating_duration_since(Instant::now())
            });
            if left.is_zero() {
                break;
            }
            state = exchange
                .changed
                .wait_timeout(state, left.min(Duration::from_millis(200)))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        drop(state);
        let waited = self.open_timeout;
        self.notify(PageNotice::NotOpened { url: &url, waited });
        false
    }
}

impl WidgetRelay for WebUi {
    /// The page's reply that reads; one that doesn't puts the view up again with an error. A
    /// withdrawn question, or a page that went away, leaves it (`Nav::Cancel`).
    fn relay<R>(
        &mut self,
        kind: &str,
        mut view: Json,
        read: fn(&Json) -> Option<R>,
        leave: fn(Nav) -> R,
    ) -> R {
        loop {
            let Some(reply) = self.ask(kind, view.clone()) else {
                self.cancelled = true;
                return leave(Nav::Cancel);
            };
            if let Some(read) = read(&reply) {
                self.cancelled = reply["nav"] == "cancel" || reply["review"] == "cancel";
                return read;
            }
            view["error"] = "The page sent a reply this question can't take.".into();
        }
    }
}

impl Ui for WebUi {
    /// The question was withdrawn (the stop flag) or the page went away.
    fn stop_reason(&self) -> Option<StopReason> {
        self.interrupted.then_some(StopReason::Interrupted)
    }

    /// Called once a request is known to have questions: the page's address is said now, and
    /// nobody opening it in time makes the request `unavailable`.
    fn mode(&mut self) -> UiMode {
        self.begin();
        if self.wait_for_page() {
            UiMode::Widgets
        } else {
            self.unopened = true;
            UiMode::Unavailable(Absence::PageNotOpened)
        }
    }

    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        self.relay_select(frame, request)
    }

    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply {
        self.relay_multi_select(frame, request)
    }

    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        self.relay_text(frame, request)
    }

    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        self.relay_confirm(frame, request)
    }

    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        self.relay_number(frame, request)
    }

    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        self.relay_review(request)
    }

    fn finished(&mut self) {
        let ending = if self.unopened {
            "unopened"
        } else if self.interrupted {
            "withdrawn"
        } else if self.cancelled {
            "cancelled"
        } else {
            "sent"
        };
        // A request refused as invalid asked nothing: the page keeps what it showed.
        if std::mem::take(&mut self.asking) {
            let exchange = self.exchange.clone();
            let mut state = exchange.lock();
            state.seq += 1;
            state.view =
                json!({ "seq": state.seq, "kind": "done", "ending": ending, "more": self.stays });
            state.ended_in = state.owner.clone();
            exchange.wake();
        }
        // A stop was for this request; how it ended is still told (`interrupted`) until the
        // next one starts.
        self.stop.store(false, Ordering::SeqCst);
        self.fresh = true;
    }
}

impl Drop for WebUi {
    /// Stops the server once the page has its last view, or after two seconds.
    fn drop(&mut self) {
        let deadline = Instant::now() + LINGER;
        let exchange = self.exchange.clone();
        let mut state = exchange.lock();
        while state.delivered < state.seq
            && state.last_seen.is_some()
            && !Exchange::abandoned(&state)
            && Instant::now() < deadline
        {
            state = exchange
                .changed
                .wait_timeout(state, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        state.closing = true;
        drop(state);
        self.exchange.wake();
        self.server.stop();
    }
}
