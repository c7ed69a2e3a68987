//! The team inbox under load, measured: `cargo bench --bench team_load --features postgres`.
//!
//! A load generator of its own, in this process, speaks the server's HTTP API as askers and
//! people do, so that the server is what is measured, not the machine's processes: `ASKERS`
//! askers each put up a step and wait for its reply on a long poll, then `ANSWERERS` people
//! answer them all as fast as the server takes answers. For each store (SQLite; PostgreSQL when
//! `INTERVIEW_BENCH_POSTGRES` names a server, as `postgres://user@host:port/db`, one server and
//! two on one database) it reports answers a second (each accepted, stored, audited and woken
//! to its waiting asker) and the delivery time, from an answer's 200 to its asker's poll
//! returning the reply. The anchor, measured in the same run: the smallest round trip the
//! store allows, a row inserted and its NOTIFY received by another connection (PostgreSQL), or
//! a row committed as the server commits (SQLite, WAL, `synchronous=FULL`).
//!
//! `INTERVIEW_BENCH_ASKERS` and `INTERVIEW_BENCH_ANSWERERS` change the counts (500 and 20);
//! `INTERVIEW_BENCH_EXE` names the `interview` to measure (by default the one cargo built).

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use postgres::fallible_iterator::FallibleIterator;
use serde_json::{Value as Json, json};

/// A confirm widget's view, as an asker puts it up.
fn view(n: usize) -> Json {
    json!({
        "frame": {"place": null, "position": 1, "total": 1, "header": null,
                  "prompt": format!("Deploy job {n}?"), "required": true,
                  "mark_optional": false, "hint": null, "error": null, "context": null,
                  "declinable": false},
        "request": {"initial": null},
    })
}

fn count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A database of the run's own, and the tokens on it.
struct Database {
    url: String,
    agent: String,
    person: String,
    _dir: Option<tempfile::TempDir>,
}

/// The `interview` measured: the one cargo built for the bench, or the executable
/// `INTERVIEW_BENCH_EXE` names (a release build with the postgres feature).
fn interview() -> Command {
    match std::env::var_os("INTERVIEW_BENCH_EXE") {
        Some(exe) => Command::new(exe),
        None => Command::new(env!("CARGO_BIN_EXE_interview")),
    }
}

fn token(db: &str, who: &[&str]) -> String {
    let output = interview()
        .args(["inbox", "token", "add", "--db", db])
        .args(who)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

impl Database {
    fn with_tokens(url: String, dir: Option<tempfile::TempDir>) -> Database {
        let agent = token(&url, &["--agent", "load"]);
        let person = token(&url, &["--person", "ann"]);
        Database {
            url,
            agent,
            person,
            _dir: dir,
        }
    }

    fn sqlite() -> Database {
        let dir = tempfile::tempdir().unwrap();
        let url = dir.path().join("team.sqlite3").display().to_string();
        Database::with_tokens(url, Some(dir))
    }

    /// A fresh database named `name` on the server `admin` names.
    fn postgres(admin: &str, name: &str) -> Database {
        let mut client = postgres::Client::connect(admin, postgres::NoTls).unwrap();
        // Each on its own: neither may run in a transaction, as one batch would.
        client
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))
            .unwrap();
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        let base = admin.rsplit_once('/').map_or(admin, |(base, _)| base);
        Database::with_tokens(format!("{base}/{name}"), None)
    }
}

/// `interview inbox serve` on `db`, and its address.
struct Server(Child, String);

impl Server {
    fn start(db: &str, askers: usize) -> Server {
        let mut child = interview()
            .args(["inbox", "serve", "--db", db, "--listen", "127.0.0.1:0"])
            .args(["--polls-per-agent", &askers.max(1).to_string()])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut said = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        said.read_line(&mut line).unwrap();
        let url = line
            .split_once(" on ")
            .unwrap()
            .1
            .trim()
            .trim_end_matches('/');
        let url = url.to_owned();
        // What it says later (a failure's reason) is passed on: read, so that it never
        // writes to a pipe nobody reads.
        std::thread::spawn(move || {
            for line in said.lines().map_while(Result::ok) {
                eprintln!("server: {line}");
            }
        });
        Server(child, url)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn client() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(60))
        .max_idle_connections_per_host(1_000)
        .build()
}

/// Requests the server's end reset, sent again as an asker does (see the report).
static RESENT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn call(agent: &ureq::Agent, method: &str, url: &str, token: &str, body: Option<Json>) -> Json {
    for _ in 0..10 {
        let request = agent
            .request(method, url)
            .set("authorization", &format!("Bearer {token}"));
        let response = match &body {
            Some(body) => request.send_json(body.clone()),
            None => request.call(),
        };
        return match response {
            Ok(response) => response.into_json().unwrap(),
            Err(ureq::Error::Status(status, response)) => {
                json!({"status": status, "error": response.into_string().unwrap_or_default()})
            }
            // As an asker does: a connection that failed is tried again (and counted).
            Err(ureq::Error::Transport(_)) => {
                RESENT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
    }
    panic!("{method} {url}: ten tries failed");
}

/// What one run measured.
struct Figures {
    answers_per_second: f64,
    delivery: Vec<Duration>,
}

/// `askers` questions put up through `servers` in turn, and answered by `answerers` people.
fn run(db: &Database, servers: &[Server], askers: usize, answerers: usize) -> Figures {
    let urls: Vec<String> = servers.iter().map(|s| s.1.clone()).collect();
    let posted = Arc::new(Barrier::new(askers + 1));
    let waiting: Vec<_> = (0..askers)
        .map(|n| {
            let (url, token) = (urls[n % urls.len()].clone(), db.agent.clone());
            let posted = posted.clone();
            std::thread::spawn(move || {
                let agent = client();
                let body = json!({"key": format!("job-{n}"), "run": format!("run-{n}"),
                    "from": {}, "folder": null, "to": null, "kind": "confirm",
                    "view": view(n), "after": null, "deadline": null});
                let step = call(
                    &agent,
                    "POST",
                    &format!("{url}/api/steps"),
                    &token,
                    Some(body),
                );
                let (question, seq) = (
                    step["question"].as_i64().unwrap(),
                    step["seq"].as_i64().unwrap(),
                );
                posted.wait();
                let poll = format!("{url}/api/steps/{question}/{seq}?wait=20");
                loop {
                    let state = call(&agent, "GET", &poll, &token, None);
                    if state["state"] == "replied" {
                        return (question, Instant::now());
                    }
                    assert!(
                        state["state"] == "waiting" || state["status"] == 429,
                        "{state}"
                    );
                }
            })
        })
        .collect();
    posted.wait();
    // Every asker waits: the people start.
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    let people: Vec<_> = (0..answerers)
        .map(|i| {
            let (url, token) = (urls[i % urls.len()].clone(), db.person.clone());
            std::thread::spawn(move || {
                let agent = client();
                let listed = call(&agent, "GET", &format!("{url}/api/questions"), &token, None);
                let mine = listed["questions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|q| q["question"].as_i64().unwrap() as usize % answerers == i);
                let mut accepted = Vec::new();
                for question in mine.cloned().collect::<Vec<_>>() {
                    let id = question["question"].as_i64().unwrap();
                    let path = format!("{url}/api/questions/{id}/steps/{}/reply", question["seq"]);
                    let reply = json!({"answered": true});
                    let answered = call(&agent, "POST", &path, &token, Some(reply));
                    assert_eq!(answered["accepted"], true, "{answered}");
                    accepted.push((id, Instant::now()));
                }
                accepted
            })
        })
        .collect();
    // When each answer's 200 came, by question.
    let accepted: std::collections::HashMap<i64, Instant> =
        people.into_iter().flat_map(|p| p.join().unwrap()).collect();
    assert_eq!(accepted.len(), askers, "not every question was answered");
    let last = *accepted.values().max().unwrap();
    // The server wakes the asker before it sends the 200: an asker that read its reply first
    // counts as 0.
    let delivery = (waiting.into_iter().map(|w| w.join().unwrap()))
        .map(|(question, got)| got.saturating_duration_since(accepted[&question]))
        .collect();
    Figures {
        answers_per_second: askers as f64 / (last - started).as_secs_f64(),
        delivery,
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

fn report(what: &str, figures: &Figures) {
    let mut delivery = figures.delivery.clone();
    delivery.sort();
    let resent = RESENT.swap(0, std::sync::atomic::Ordering::Relaxed);
    println!(
        "{what:<34} {:>8.0} answers/s   delivery p50 {:>7.1} ms  p99 {:>7.1} ms   ({resent} resent)",
        figures.answers_per_second,
        percentile(&delivery, 0.5).as_secs_f64() * 1e3,
        percentile(&delivery, 0.99).as_secs_f64() * 1e3,
    );
}

/// The smallest round trip PostgreSQL allows: a row inserted and NOTIFY sent in one
/// transaction, received by another connection.
fn postgres_anchor(url: &str) -> Vec<Duration> {
    let mut listener = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let mut sender = postgres::Client::connect(url, postgres::NoTls).unwrap();
    sender
        .batch_execute("CREATE TABLE IF NOT EXISTS anchor (v bigint)")
        .unwrap();
    listener.batch_execute("LISTEN anchor").unwrap();
    (0..300)
        .map(|v: i64| {
            let started = Instant::now();
            let mut tx = sender.transaction().unwrap();
            tx.execute("INSERT INTO anchor (v) VALUES ($1)", &[&v])
                .unwrap();
            tx.batch_execute("NOTIFY anchor").unwrap();
            tx.commit().unwrap();
            let mut notices = listener.notifications();
            let mut heard = notices.timeout_iter(Duration::from_secs(5));
            heard.next().unwrap().expect("no notice within 5 s");
            started.elapsed()
        })
        .collect()
}

/// A row committed as the server's SQLite store commits one (WAL, `synchronous=FULL`).
fn sqlite_anchor() -> Vec<Duration> {
    let dir = tempfile::tempdir().unwrap();
    let db = rusqlite::Connection::open(dir.path().join("anchor.sqlite3")).unwrap();
    db.pragma_update(None, "journal_mode", "WAL").unwrap();
    db.pragma_update(None, "synchronous", "FULL").unwrap();
    db.execute_batch("CREATE TABLE anchor (v INTEGER)").unwrap();
    (0..300)
        .map(|v: i64| {
            let started = Instant::now();
            db.execute("INSERT INTO anchor (v) VALUES (?1)", [v])
                .unwrap();
            started.elapsed()
        })
        .collect()
}

fn report_anchor(what: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{what:<34} {:>8.0} a second   p50 {:>7.2} ms  p99 {:>7.2} ms",
        1.0 / ms(percentile(&samples, 0.5)) * 1e3,
        ms(percentile(&samples, 0.5)),
        ms(percentile(&samples, 0.99)),
    );
}

fn main() {
    let askers = count("INTERVIEW_BENCH_ASKERS", 500);
    let answerers = count("INTERVIEW_BENCH_ANSWERERS", 20);
    // Each asker holds a connection, and so does each of the server's.
    // SAFETY: setrlimit with a struct of our own.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
    println!("{askers} askers waiting, {answerers} people answering them all");
    report_anchor("anchor: SQLite row committed", sqlite_anchor());
    let sqlite = Database::sqlite();
    let one = [Server::start(&sqlite.url, askers)];
    report("SQLite, one server", &run(&sqlite, &one, askers, answerers));
    let Ok(admin) = std::env::var("INTERVIEW_BENCH_POSTGRES") else {
        println!("(PostgreSQL: set INTERVIEW_BENCH_POSTGRES to a server's URL)");
        return;
    };
    report_anchor(
        "anchor: PostgreSQL insert + NOTIFY",
        postgres_anchor(&admin),
    );
    let database = Database::postgres(&admin, "interview_bench_one");
    let one = [Server::start(&database.url, askers)];
    report(
        "PostgreSQL, one server",
        &run(&database, &one, askers, answerers),
    );
    drop(one);
    let database = Database::postgres(&admin, "interview_bench_two");
    let two = [
        Server::start(&database.url, askers),
        Server::start(&database.url, askers),
    ];
    report(
        "PostgreSQL, two servers",
        &run(&database, &two, askers, answerers),
    );
}
