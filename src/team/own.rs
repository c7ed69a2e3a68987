//! This machine's own inbox on the team inbox's protocol: the first `interview inbox` open
//! serves the place's store on its socket (`inbox.sock`, in the private sockets folder), every
//! inbox answers through it as `inbox --team` answers a team's, and the askers ask through it
//! as `--inbox URL` asks a team, so that the plugin runs once, with the asker. An inbox whose
//! server closed serves in its place. The agents' and the person's tokens are made once and
//! kept in the place, readable by this user alone.
//!
//! `interview inbox --web` is the same inbox, its person on a page in a browser.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use interview_host::{Exit, Plugin};

use super::server::Unserved;
use super::store::{self, Access, Holder, Kind, Store};
use crate::inbox::Place;
use crate::inbox::place::PlaceError;

/// How long an asker whose process went away is waited for before its question is withdrawn:
/// on this machine it is heard from every few seconds while alive.
const ASKER_GRACE_MS: i64 = 2_000;

/// How its askers name this machine's inbox in what they say.
const NAME: &str = "this machine's inbox (`interview inbox`)";

/// How often an inbox that does not serve looks whether it should.
const LOOK_AGAIN: Duration = Duration::from_millis(300);

/// Where this machine's inbox is served, and its tokens kept.
#[derive(Clone)]
struct Served {
    socket: PathBuf,
    db: PathBuf,
    tokens: PathBuf,
}

impl Served {
    /// Where `place`'s inbox is served: an error when its socket's path is too long for one
    /// (no inbox could ever listen there, and its askers would wait for one forever).
    fn of(place: &Place) -> Result<Served, PlaceError> {
        Ok(Served {
            socket: crate::inbox::place::socket_in(&place.sockets, "inbox.sock")?,
            db: place.data.join("inbox-team.sqlite3"),
            tokens: place.data.join("inbox-tokens.json"),
        })
    }

    fn url(&self) -> String {
        format!("unix:{}", self.socket.display())
    }

    /// The tokens kept, if any.
    fn tokens(&self) -> Option<Tokens> {
        let text = std::fs::read_to_string(&self.tokens).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// The tokens `store` takes: those kept, or new ones, added to it and kept (mode 0600).
    fn tokens_of(&self, store: &dyn Store) -> Result<Tokens, TokensError> {
        let known = |token: &str| matches!(store.holder(&super::token::hash(token)), Ok(Some(_)));
        if let Some(tokens) = self.tokens()
            && known(&tokens.agent)
            && known(&tokens.person)
        {
            return Ok(tokens);
        }
        let tokens = Tokens {
            agent: super::token::generate().map_err(TokensError::NoToken)?,
            person: super::token::generate().map_err(TokensError::NoToken)?,
        };
        for (token, kind, name) in [
            (&tokens.agent, Kind::Agent, "agents"),
            (&tokens.person, Kind::Person, "you"),
        ] {
            let holder = Holder {
                kind,
                name: name.into(),
                groups: Vec::new(),
            };
            (store.add_token(&super::token::hash(token), &holder)).map_err(TokensError::Store)?;
        }
        self.keep(&tokens)?;
        Ok(tokens)
    }

    /// Keeps `tokens` in the tokens' file, should it have gone (removed by hand): the askers
    /// find them there.
    fn keep_tokens(&self, tokens: &Tokens) {
        if !self.tokens.exists() {
            let _ = self.keep(tokens);
        }
    }

    /// Writes `tokens` into the tokens' file (mode 0600), whole under another name, then put
    /// in place: a reader never sees half.
    fn keep(&self, tokens: &Tokens) -> Result<(), TokensError> {
        let fresh = self
            .tokens
            .with_extension(format!("json.{}.new", std::process::id()));
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .mode(0o600)
            .open(&fresh)
            .map_err(|error| TokensError::Unkept {
                file: fresh.clone(),
                error,
            })?;
        let text = serde_json::to_string(tokens).map_err(TokensError::Unwritten)?;
        (file.write_all(text.as_bytes()))
            .and_then(|()| file.sync_all())
            .and_then(|()| std::fs::rename(&fresh, &self.tokens))
            .map_err(|error| TokensError::Unkept { file: fresh, error })
    }
}

/// Why this machine's inbox has no tokens for its askers and its person: it cannot open
/// without them.
#[derive(Debug)]
enum TokensError {
    /// No token could be drawn.
    NoToken(super::token::NoToken),
    /// The store would not take a new token.
    Store(store::StoreError),
    /// The tokens' file could not be written (`file`, the new one being made).
    Unkept {
        file: PathBuf,
        error: std::io::Error,
    },
    /// The tokens did not turn into JSON.
    Unwritten(serde_json::Error),
}

impl std::fmt::Display for TokensError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokensError::NoToken(why) => why.fmt(f),
            TokensError::Store(why) => why.fmt(f),
            TokensError::Unkept { file, error } => write!(
                f,
                "cannot keep the inbox's tokens in {}: {error}",
                file.display()
            ),
            TokensError::Unwritten(why) => why.fmt(f),
        }
    }
}

impl std::error::Error for TokensError {}

/// The tokens of this machine's inbox: its askers' and its person's.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Tokens {
    agent: String,
    person: String,
}

/// How `interview inbox` asks: in this terminal (`numbered`: in numbered lines), or on a page
/// in a browser, opened when a question comes and no page shows it (`web`: `Some(open)`).
pub struct Asking {
    pub numbered: bool,
    #[cfg(feature = "web")]
    pub web: Option<bool>,
}

/// `interview inbox`: answers this machine's questions in this terminal (or a page), serving
/// them while no other inbox does, until Ctrl-C, SIGTERM or SIGHUP.
pub fn inbox(plugin: Plugin, asking: &Asking) -> Result<Exit, (Exit, String)> {
    // One plugin for the terminal and for the server it may run.
    let plugin = Arc::new(plugin);
    let failed = |why: &dyn std::fmt::Display| (Exit::Failed, why.to_string());
    let place = Place::find().map_err(|e| failed(&e))?;
    crate::inbox::place::private_dir(&place.sockets).map_err(|e| failed(&e))?;
    crate::inbox::place::private_dir(&place.data).map_err(|e| failed(&e))?;
    // Every file this inbox makes from now on (its database, its socket, its claims) is the
    // user's alone, to read and write; it makes no folder.
    // SAFETY: umask cannot fail.
    unsafe { libc::umask(0o177) };
    let served = Served::of(&place).map_err(|e| failed(&e))?;
    let desktop = desktop(asking).map_err(|e| failed(&e))?;
    let db = served.db.display().to_string();
    let tokens = {
        let store = store::open(&db, Access::Create).map_err(|e| failed(&e))?;
        served.tokens_of(&*store).map_err(|e| failed(&e))?
    };
    let closing = Arc::new(AtomicBool::new(false));
    let failed_to_serve: Arc<std::sync::Mutex<Option<Unserved>>> = Arc::default();
    let serving = {
        let (closing, plugin) = (closing.clone(), plugin.clone());
        let (served, tokens) = (served.clone(), tokens.clone());
        let failed = failed_to_serve.clone();
        std::thread::spawn(move || keep_served(&served, &tokens, &plugin, &closing, &failed))
    };
    let url = served.url();
    let own = super::answering::Inbox::Own {
        url: &url,
        token: tokens.person,
        claims: place.sockets.clone(),
    };
    let ended = super::answering::run(own, desktop, &plugin);
    closing.store(true, Ordering::SeqCst);
    let _ = serving.join();
    // No inbox served it, this one neither: why this one could not.
    let failed_to_serve = failed_to_serve
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    ended.map_err(|(exit, why)| match failed_to_serve {
        Some(serving) if exit == Exit::Failed => (exit, format!("{why}; and {serving}")),
        _ => (exit, why),
    })
}

/// Where the person answers; the page's address said first, on stderr.
fn desktop(asking: &Asking) -> Result<super::answering::Desktop, crate::people::PageError> {
    #[cfg(feature = "web")]
    if let Some(open) = asking.web {
        // The inbox waits for its page as long as the person takes: a question is not
        // answered `unavailable` because nobody opened the page yet.
        let forever = Duration::from_secs(100 * 365 * 24 * 3600);
        let started = web_page();
        let mut page = crate::people::page_served(started, open, forever)?;
        page.stays_for_more(true);
        let _ = writeln!(
            std::io::stderr(),
            "interview inbox: the questions are at {}",
            page.url()
        );
        let page = Arc::new(std::sync::Mutex::new(page));
        return Ok(super::answering::Desktop::Page(page));
    }
    Ok(super::answering::Desktop::Terminal {
        numbered: asking.numbered,
    })
}

/// The web inbox's page: on `INTERVIEW_INBOX_PORT` when set (a port forwarded over SSH),
/// else on any free port; with a secret new every time, so that a tab left open from an earlier
/// inbox, or a bookmark, never shows questions to, or takes answers from, whatever listens there
/// now.
#[cfg(feature = "web")]
fn web_page() -> std::io::Result<interview_host::ui::WebUi> {
    let port: u16 = match std::env::var("INTERVIEW_INBOX_PORT") {
        Ok(port) => port.trim().parse().map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("INTERVIEW_INBOX_PORT is {port:?}, not a port number"),
            )
        })?,
        Err(_) => 0,
    };
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).map_err(|e| {
        std::io::Error::new(e.kind(), format!("cannot listen on 127.0.0.1:{port}: {e}"))
    })?;
    interview_host::ui::WebUi::serve(listener, interview_host::ui::WebUi::new_token()?)
}

/// Serves the inbox whenever no other inbox does, and keeps its tokens where the askers find
/// them, until `closing`; why it last could not serve goes to `failed`.
fn keep_served(
    served: &Served,
    tokens: &Tokens,
    plugin: &Arc<Plugin>,
    closing: &AtomicBool,
    failed: &std::sync::Mutex<Option<Unserved>>,
) {
    let socket = &served.socket;
    let db = served.db.display().to_string();
    while !closing.load(Ordering::SeqCst) {
        served.keep_tokens(tokens);
        // Another inbox serves it: looked at again, to serve once it closes.
        if answers(socket) {
            std::thread::sleep(LOOK_AGAIN);
            continue;
        }
        let store = match store::open(&db, Access::Write) {
            Ok(store) => store,
            Err(why) => {
                *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(Unserved::Store(why));
                std::thread::sleep(LOOK_AGAIN);
                continue;
            }
        };
        let settings = super::server::Settings {
            listen: format!("unix:{}", socket.display()),
            public_url: None,
            grace_ms: ASKER_GRACE_MS,
            hosts: Vec::new(),
            keep_ms: super::admin::KEEP_MS,
            polls_per_agent: None,
            tools: Vec::new(),
            announce: false,
        };
        let until_closed = async {
            while !closing.load(Ordering::SeqCst) {
                served.keep_tokens(tokens);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        };
        // Should it not start (another inbox took the socket first), it is looked at again.
        if let Err(why) = super::server::serve(settings, store, plugin.clone(), until_closed) {
            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
            std::thread::sleep(LOOK_AGAIN);
        }
    }
}

/// Whether an inbox serves on `socket` now.
fn answers(socket: &std::path::Path) -> bool {
    std::os::unix::net::UnixStream::connect(socket).is_ok()
}

/// The agents' way into this machine's inbox, for requests that `stop` withdraws: `None` when
/// no inbox is open and `wait` is not asked for; with `wait`, once one has been opened here
/// (it then waits for the next to open), unless `given_up` is set first.
pub fn asker(
    wait: bool,
    given_up: &AtomicBool,
    stop: &Arc<AtomicBool>,
) -> Option<super::remote::Team> {
    let place = Place::find().ok()?;
    let served = match Served::of(&place) {
        Ok(served) => served,
        Err(why) => {
            crate::stderr::warn(&format!("{why}: this machine's inbox is not asked"));
            return None;
        }
    };
    let mut said = false;
    loop {
        // Another user's folder, or one others may enter, could hold their socket and tokens:
        // they would answer for this user. The inbox makes its folders private as it opens.
        let untrusted = [&place.sockets, &place.data]
            .into_iter()
            .find_map(|dir| crate::inbox::place::untrusted(dir));
        if let Some(why) = untrusted.filter(|_| served.tokens.exists() || answers(&served.socket)) {
            crate::stderr::warn(&format!("{why}: this machine's inbox there is not asked"));
            return None;
        }
        if let Some(tokens) = served.tokens()
            && (wait || answers(&served.socket))
        {
            let url = served.url();
            let team = super::remote::Team::with_token(url, tokens.agent, None, None, stop.clone());
            return team.ok().map(|team| team.named(NAME));
        }
        if !wait || given_up.load(Ordering::SeqCst) {
            return None;
        }
        // Said once, for whoever reads the asker's log: nothing else shows it waits.
        if !std::mem::replace(&mut said, true) {
            crate::stderr::warn(&format!(
                "waiting for `interview inbox` to be opened on this machine (its folder: {})",
                place.sockets.display()
            ));
        }
        std::thread::sleep(LOOK_AGAIN);
    }
}
