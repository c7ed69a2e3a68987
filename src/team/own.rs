//! This machine's own inbox on the team inbox's protocol: the first `interview inbox` open
//! serves the place's store on its socket (`inbox.sock`, in the private sockets folder), every
//! inbox answers through it as `inbox --team` answers a team's, and the askers ask through it
//! as `--inbox URL` asks a team, so that the plugin runs once, with the asker. An inbox whose
//! server closed serves in its place. The agents' and the person's tokens are made once and
//! kept in the place, readable by this user alone.
//!
//! While it does not yet do all that the socket inbox of [`crate::inbox`] does, it is chosen
//! with `INTERVIEW_INBOX_PROTOCOL=http`, by the inbox and its askers alike.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use interview_host::{Exit, Plugin};

use super::store::{self, Access, Holder, Kind, Store};
use crate::inbox::Place;

/// The environment variable that chooses this inbox, as `http`.
const CHOOSER: &str = "INTERVIEW_INBOX_PROTOCOL";

/// How long an asker whose process went away is waited for before its question is withdrawn:
/// on this machine it is heard from every few seconds while alive.
const ASKER_GRACE_MS: i64 = 2_000;

/// How often an inbox that does not serve looks whether it should.
const LOOK_AGAIN: Duration = Duration::from_millis(300);

/// Whether this machine's inbox is the one on the team protocol.
pub fn chosen() -> bool {
    std::env::var(CHOOSER).is_ok_and(|value| value == "http")
}

/// Where this machine's inbox is served, and its tokens kept.
struct Served {
    socket: PathBuf,
    db: PathBuf,
    tokens: PathBuf,
}

impl Served {
    fn of(place: &Place) -> Served {
        Served {
            socket: place.sockets.join("inbox.sock"),
            db: place.data.join("inbox-team.sqlite3"),
            tokens: place.data.join("inbox-tokens.json"),
        }
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
    fn tokens_of(&self, store: &dyn Store) -> Result<Tokens, String> {
        let known = |token: &str| matches!(store.holder(&super::token::hash(token)), Ok(Some(_)));
        if let Some(tokens) = self.tokens()
            && known(&tokens.agent)
            && known(&tokens.person)
        {
            return Ok(tokens);
        }
        let tokens = Tokens {
            agent: super::token::generate()?,
            person: super::token::generate()?,
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
            (store.add_token(&super::token::hash(token), &holder)).map_err(|e| e.to_string())?;
        }
        // Written whole under another name, then put in place: a reader never sees half.
        let fresh = self
            .tokens
            .with_extension(format!("json.{}.new", std::process::id()));
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .mode(0o600)
            .open(&fresh)
            .map_err(|e| format!("cannot keep the inbox's tokens in {}: {e}", fresh.display()))?;
        let text = serde_json::to_string(&tokens).map_err(|e| e.to_string())?;
        (file.write_all(text.as_bytes()))
            .and_then(|()| file.sync_all())
            .and_then(|()| std::fs::rename(&fresh, &self.tokens))
            .map_err(|e| format!("cannot keep the inbox's tokens in {}: {e}", fresh.display()))?;
        Ok(tokens)
    }
}

/// The tokens of this machine's inbox: its askers' and its person's.
#[derive(serde::Serialize, serde::Deserialize)]
struct Tokens {
    agent: String,
    person: String,
}

/// `interview inbox`: answers this machine's questions in this terminal, serving them while no
/// other inbox does, until Ctrl-C, SIGTERM or SIGHUP.
pub fn inbox(plugin: Plugin, numbered: bool) -> Result<Exit, (Exit, String)> {
    // One plugin for the terminal and for the server it may run.
    let plugin = Arc::new(plugin);
    let failed = |why: String| (Exit::Failed, why);
    let place = Place::find().map_err(failed)?;
    crate::inbox::place::private_dir(&place.sockets).map_err(failed)?;
    crate::inbox::place::private_dir(&place.data).map_err(failed)?;
    // Every file this inbox makes from now on (its database, its socket, its claims) is the
    // user's alone, to read and write; it makes no folder.
    // SAFETY: umask cannot fail.
    unsafe { libc::umask(0o177) };
    let served = Served::of(&place);
    let db = served.db.display().to_string();
    let tokens = {
        let store = store::open(&db, Access::Create).map_err(|e| failed(e.to_string()))?;
        served.tokens_of(&*store).map_err(failed)?
    };
    let closing = Arc::new(AtomicBool::new(false));
    let serving = {
        let (closing, plugin) = (closing.clone(), plugin.clone());
        let (socket, db) = (served.socket.clone(), db.clone());
        std::thread::spawn(move || keep_served(&socket, &db, &plugin, &closing))
    };
    let url = served.url();
    let own = super::answering::Inbox::Own {
        url: &url,
        token: tokens.person,
        claims: place.sockets.clone(),
    };
    let ended = super::answering::run(own, numbered, &plugin);
    closing.store(true, Ordering::SeqCst);
    let _ = serving.join();
    ended
}

/// Serves the inbox on `socket` whenever no other inbox does, until `closing`.
fn keep_served(socket: &std::path::Path, db: &str, plugin: &Arc<Plugin>, closing: &AtomicBool) {
    while !closing.load(Ordering::SeqCst) {
        // Another inbox serves it: looked at again, to serve once it closes.
        if answers(socket) {
            std::thread::sleep(LOOK_AGAIN);
            continue;
        }
        let Ok(store) = store::open(db, Access::Write) else {
            std::thread::sleep(LOOK_AGAIN);
            continue;
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
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        };
        // Should it not start (another inbox took the socket first), it is looked at again.
        if super::server::serve(settings, store, plugin.clone(), until_closed).is_err() {
            std::thread::sleep(LOOK_AGAIN);
        }
    }
}

/// Whether an inbox serves on `socket` now.
fn answers(socket: &std::path::Path) -> bool {
    std::os::unix::net::UnixStream::connect(socket).is_ok()
}

/// The agents' way into this machine's inbox, for requests that `stop` withdraws: `None` when
/// no inbox is open and `wait` is not asked for; with `wait`, once one has been opened, unless
/// `given_up` is set first.
pub fn asker(
    wait: bool,
    given_up: &AtomicBool,
    stop: &Arc<AtomicBool>,
) -> Option<super::remote::Team> {
    let place = Place::find().ok()?;
    let served = Served::of(&place);
    loop {
        let open = answers(&served.socket);
        if let (true, Some(tokens)) = (open || wait, served.tokens()) {
            let team = super::remote::Team::with_token(
                served.url(),
                tokens.agent,
                None,
                None,
                stop.clone(),
            );
            return team.ok();
        }
        if !wait || given_up.load(Ordering::SeqCst) {
            return None;
        }
        std::thread::sleep(LOOK_AGAIN);
    }
}
