//! The team inbox's own commands: `interview inbox serve`, `inbox token add|list|revoke`,
//! `inbox hook add|list|remove` and `inbox audit`. Read apart from the asking commands' options: they share none.

use std::ffi::OsString;
use std::io::Write;

use lexopt::Arg::{Long, Value};
use serde_json::json;

use super::store::{self, Access, Holder, Hook, Kind};

const USAGE: &str = "\
Usage:
  interview inbox serve --db PATH [--listen ADDRESS] [--public-url URL] [--allow-host NAME]...
                        [--asker-grace SPAN] [--keep SPAN] [--polls-per-agent N]
                        [--tools NAME,...]
  interview inbox token add --db PATH (--person NAME [--group GROUP]... | --agent NAME [--to NAME]...)
  interview inbox token list --db PATH
  interview inbox token revoke --db PATH NAME
  interview inbox hook add --db PATH (--for NAME | --anyone) URL
  interview inbox hook list --db PATH
  interview inbox hook remove --db PATH URL
  interview inbox audit --db PATH [--since WHEN]

--db-env      the name of an environment variable that holds --db's value (a URL with its
              password is then on no command line)
--db          the database: an SQLite file, or postgres://… (what the URL leaves out comes
              from PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD, PGSERVICE and ~/.pgpass,
              as for psql); `token add` makes one (where
              there is none, or in an empty database), the other commands use one; a file
              or database of another program's is refused and left as it was
--listen      where to serve, default 127.0.0.1:8470 (TLS: put a reverse proxy in front), or
              unix:PATH, a Unix socket: whoever may open the file reaches the server (a
              container it is mounted into, with no network), and each request still needs
              its token
--public-url  the address people open, for the links in webhooks' messages
              (default: http://ADDRESS, or unix:PATH, as listened on)
--allow-host  a host name the server answers to besides the public URL's and localhost
              (requests naming another are refused, against DNS rebinding); repeatable
--asker-grace how long an asker may go unheard before its question is withdrawn
              (it went away: killed, cut off); 1s to 1h, default 60s
--polls-per-agent
              how many askers of one agent (one name's tokens) may wait on this server at once;
              beyond it an asker is told to poll again shortly (429). Default: half the
              connections the server serves (the open-files limit less 96, halved)
--tools       the tools MCP clients are offered at /mcp besides `interview`, by the names
              `interview mcp --tools` takes (ask_question, AskUserQuestion, ...); repeatable
--group       a group the person answers for (questions asked with --to GROUP); repeatable
--to          whom an agent's questions may be for, a person or a group: the first when a
              question names nobody, and no one else (without it, anyone); repeatable
--for         the person or group whose questions the webhook tells of (asked, or escalated
              to them); --anyone: the questions asked without --to
--keep        how long questions are kept once closed, and the audit's lines: 1h to 3650d,
              default 30d (a secret answer is erased once its asker has it)
--since       seconds since the epoch, or an age: 90s, 30m, 12h, 7d
";

/// How long closed questions and audit lines are kept unless `--keep` says otherwise.
pub(super) const KEEP_MS: i64 = 30 * 86_400_000;

/// Runs the command in `args` (see [`crate::cli::is_team_server_command`]); `Err` is what to say on stderr,
/// usage errors with the usage (exit 2), others exit 4.
pub fn run(args: Vec<OsString>) -> Result<(), (u8, String)> {
    let usage = |message: String| (2, format!("{message}\n\n{USAGE}"));
    let first = args
        .get(1)
        .and_then(|a| a.to_str())
        .unwrap_or("")
        .to_owned();
    let mut parser = lexopt::Parser::from_args(args.into_iter().skip(2));
    let mut words = Vec::new();
    let (mut db, mut listen, mut since, mut public_url) = (None, None, None, None);
    let mut grace = None;
    let mut hosts = Vec::new();
    let mut keep = None;
    let mut polls_per_agent = None;
    let mut tools = Vec::new();
    let (mut hook_for, mut anyone) = (None, false);
    let (mut person, mut agent, mut groups, mut asks) = (None, None, Vec::new(), Vec::new());
    let value = |parser: &mut lexopt::Parser| -> Result<String, (u8, String)> {
        let value = parser.value().map_err(|e| usage(e.to_string()))?;
        value
            .into_string()
            .map_err(|v| usage(format!("'{}' is not UTF-8", v.display())))
    };
    while let Some(arg) = parser.next().map_err(|e| usage(e.to_string()))? {
        match arg {
            Long("db") => db = Some(value(&mut parser)?),
            Long("db-env") => {
                let name = value(&mut parser)?;
                let url = std::env::var(&name)
                    .map_err(|_| usage(format!("--db-env {name}: no such variable is set")))?;
                db = Some(url);
            }
            Long("listen") => listen = Some(value(&mut parser)?),
            Long("since") => since = Some(value(&mut parser)?),
            Long("public-url") => public_url = Some(value(&mut parser)?),
            Long("asker-grace") => grace = Some(value(&mut parser)?),
            Long("allow-host") => hosts.push(value(&mut parser)?),
            Long("keep") => keep = Some(value(&mut parser)?),
            Long("polls-per-agent") => {
                let given = value(&mut parser)?;
                let n = given
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=100_000).contains(n));
                let n = n.ok_or_else(|| {
                    usage(format!("--polls-per-agent {given}: a count, 1 to 100000"))
                })?;
                polls_per_agent = Some(n);
            }
            Long("tools") => {
                let given = value(&mut parser)?;
                tools.extend(
                    given
                        .split(',')
                        .filter(|t| !t.is_empty())
                        .map(str::to_owned),
                );
            }
            Long("for") => hook_for = Some(value(&mut parser)?),
            Long("anyone") => anyone = true,
            Long("person") => person = Some(value(&mut parser)?),
            Long("agent") => agent = Some(value(&mut parser)?),
            Long("group") => groups.push(value(&mut parser)?),
            Long("to") => asks.push(value(&mut parser)?),
            Long("help") => {
                print!("{USAGE}");
                return Ok(());
            }
            Value(word) => words.push(word.to_string_lossy().into_owned()),
            other => return Err(usage(format!("unexpected argument {other:?}"))),
        }
    }
    let db = db.ok_or_else(|| usage("--db is needed: the inbox's database".into()))?;
    let words: Vec<&str> = std::iter::once(first.as_str())
        .chain(words.iter().map(String::as_str))
        .collect();
    if store::is_postgres(&db) && !cfg!(feature = "postgres") {
        return Err(usage(store::WITHOUT_POSTGRES.into()));
    }
    let open = |access| store::open(&db, access).map_err(stored);
    match words.as_slice() {
        ["serve"] => {
            let listen = listen.as_deref().unwrap_or("127.0.0.1:8470");
            if let Some(url) = &public_url {
                web_url(url).map_err(|e| usage(e.to_string()))?;
            }
            let grace_ms = match grace.as_deref() {
                None => store::SILENCE_MS,
                Some(span) => crate::spans::span_ms(span)
                    .filter(|ms| (1_000..=3_600_000).contains(ms))
                    .ok_or_else(|| {
                        usage(format!("--asker-grace {span}: 1s to 1h, as 90s or 5m"))
                    })?,
            };
            let plain = |c: char| c.is_ascii_alphanumeric() || "-.".contains(c);
            if let Some(host) = hosts.iter().find(|h| h.is_empty() || !h.chars().all(plain)) {
                return Err(usage(format!(
                    "--allow-host {host}: a host name, as inbox.example.com"
                )));
            }
            let keep_ms = match keep.as_deref() {
                None => KEEP_MS,
                Some(span) => crate::spans::span_ms(span)
                    .filter(|ms| (3_600_000..=3_650 * 86_400_000).contains(ms))
                    .ok_or_else(|| usage(format!("--keep {span}: 1h to 3650d, as 30d")))?,
            };
            let settings = super::server::Settings {
                listen: listen.to_owned(),
                public_url,
                grace_ms,
                hosts,
                keep_ms,
                polls_per_agent,
                tools,
                announce: true,
            };
            let store = open(Access::Write)?;
            let plugin = interview_host::Plugin::builder()
                .build()
                .map_err(|e| (4, format!("the plugin does not load: {}", e.chain())))?;
            super::server::run(settings, store, plugin).map_err(|e| (4, e.to_string()))
        }
        ["token", "add"] => {
            let holder = match (person, agent) {
                (Some(name), None) if asks.is_empty() => Holder {
                    kind: Kind::Person,
                    name,
                    groups,
                },
                (Some(_), None) => return Err(usage("--to is for an --agent".into())),
                (None, Some(name)) if groups.is_empty() => Holder {
                    kind: Kind::Agent,
                    name,
                    groups: asks,
                },
                (None, Some(_)) => return Err(usage("--group is for a --person".into())),
                _ => {
                    return Err(usage(
                        "one of --person NAME or --agent NAME is needed".into(),
                    ));
                }
            };
            valid_name(&holder.name).map_err(|e| usage(e.to_string()))?;
            for group in &holder.groups {
                valid_name(group).map_err(|e| usage(e.to_string()))?;
            }
            let token = super::token::generate().map_err(|e| (4, e.to_string()))?;
            open(Access::Create)?
                .add_token(&super::token::hash(&token), &holder)
                .map_err(stored)?;
            // The token is said once, on stdout, for a script to keep; it is not stored.
            println!("{token}");
            Ok(())
        }
        ["token", "list"] => {
            let mut out = std::io::stdout().lock();
            for entry in open(Access::Read)?.tokens().map_err(stored)? {
                let (groups, to) = match entry.holder.kind {
                    Kind::Person => (Some(&entry.holder.groups), None),
                    Kind::Agent => (None, Some(&entry.holder.groups)),
                };
                let line = json!({
                    "name": entry.holder.name, "kind": entry.holder.kind.as_str(),
                    "groups": groups, "to": to, "hash": entry.hash_prefix,
                    "created_at": timestamp(entry.created_at),
                    "revoked_at": entry.revoked_at.map(timestamp),
                });
                let _ = writeln!(out, "{line}");
            }
            Ok(())
        }
        ["token", "revoke", name] => match open(Access::Write)?.revoke(name).map_err(stored)? {
            0 => Err((4, format!("no live token of '{name}' to revoke"))),
            n => {
                eprintln!("interview: revoked {n} token(s) of '{name}'");
                Ok(())
            }
        },
        ["hook", "add", url] => {
            web_url(url).map_err(|e| usage(e.to_string()))?;
            let addressed = match (hook_for, anyone) {
                (Some(name), false) => {
                    valid_name(&name).map_err(|e| usage(e.to_string()))?;
                    Some(name)
                }
                (None, true) => None,
                _ => return Err(usage("one of --for NAME or --anyone is needed".into())),
            };
            let hook = Hook {
                addressed,
                url: (*url).to_owned(),
                created_at: store::now_ms(),
            };
            open(Access::Write)?.add_hook(&hook).map_err(stored)
        }
        ["hook", "list"] => {
            let mut out = std::io::stdout().lock();
            for hook in open(Access::Read)?.hooks().map_err(stored)? {
                let line = json!({
                    "for": hook.addressed, "url": hook.url,
                    "created_at": timestamp(hook.created_at),
                });
                let _ = writeln!(out, "{line}");
            }
            Ok(())
        }
        ["hook", "remove", url] => match open(Access::Write)?.remove_hook(url).map_err(stored)? {
            0 => Err((4, "no webhook at that URL".into())),
            n => {
                eprintln!("interview: removed {n} webhook(s)");
                Ok(())
            }
        },
        ["audit"] => {
            let since = match since {
                Some(since) => parse_since(&since).map_err(|e| usage(e.to_string()))?,
                None => 0,
            };
            let mut out = std::io::stdout().lock();
            for entry in open(Access::Read)?.audit(since).map_err(stored)? {
                let line = json!({
                    "at": timestamp(entry.at), "event": entry.event, "actor": entry.actor,
                    "address": entry.address, "question": entry.question, "step": entry.seq,
                    "detail": entry.detail,
                });
                // Agent text is in it: control, bidirectional and invisible characters are
                // written as \uXXXX, so that the line reads in a terminal as it is.
                let line = interview_text::json::to_string(&line, false);
                if writeln!(out, "{line}").is_err() {
                    break;
                }
            }
            Ok(())
        }
        other => Err(usage(format!("unknown command: inbox {}", other.join(" ")))),
    }
}

/// A name of a person, agent or group: shown in lists and matched by `--to`, so plain.
fn valid_name(name: &str) -> Result<(), ArgError> {
    let plain = |c: char| c.is_alphanumeric() || "-_.@".contains(c);
    if name.is_empty() || name.len() > 64 || !name.chars().all(plain) {
        return Err(ArgError::NotAName(name.to_owned()));
    }
    Ok(())
}

/// An `http://` or `https://` URL with a host: where a webhook posts, or the page's address.
fn web_url(url: &str) -> Result<(), ArgError> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    match rest {
        Some(rest) if !rest.starts_with(['/', '?', '#']) && !rest.is_empty() => Ok(()),
        _ => Err(ArgError::NotAWebUrl(url.to_owned())),
    }
}

/// `--since`: seconds since the epoch, or an age (`30m`) back from now; in ms.
fn parse_since(text: &str) -> Result<i64, ArgError> {
    let bad = || ArgError::Since(text.to_owned());
    let text = text.trim();
    if let Ok(seconds) = text.parse::<i64>() {
        return seconds.checked_mul(1000).ok_or_else(bad);
    }
    let age = crate::spans::span_ms(text).ok_or_else(bad)?;
    Ok(store::now_ms() - age)
}

/// A value on the command line that cannot be what its option takes: bad usage (exit 2), said
/// with the usage.
#[derive(Debug, PartialEq, Eq)]
enum ArgError {
    /// Not a name of a person, agent or group (1 to 64 plain characters).
    NotAName(String),
    /// Not an `http://` or `https://` URL with a host.
    NotAWebUrl(String),
    /// `--since` is neither seconds since the epoch nor an age.
    Since(String),
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use interview_text::sanitize::line;
        match self {
            ArgError::NotAName(name) => write!(
                f,
                "'{}' is not a name: 1 to 64 letters, digits, '-', '_', '.' or '@'",
                line(name)
            ),
            ArgError::NotAWebUrl(url) => {
                write!(f, "'{}' is not an http:// or https:// URL", line(url))
            }
            ArgError::Since(text) => write!(
                f,
                "invalid --since '{text}': seconds since the epoch, or 90s, 30m, 12h, 7d"
            ),
        }
    }
}

impl std::error::Error for ArgError {}

/// ms since the epoch as an RFC 3339 time in UTC, to the millisecond.
fn timestamp(ms: i64) -> String {
    let (days, rest) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s, milli) = (
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000,
    );
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

/// A store's failure as the command ends on it: exit 4, with its sentence.
fn stored(error: store::StoreError) -> (u8, String) {
    (4, error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_and_print_as_people_write_them() {
        assert_eq!(timestamp(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(timestamp(1_764_131_405_123), "2025-11-26T04:30:05.123Z");
        assert_eq!(parse_since("1700000000"), Ok(1_700_000_000_000));
        let hour_ago = parse_since("1h").unwrap();
        assert!((store::now_ms() - 3_600_000 - hour_ago).abs() < 1000);
        assert_eq!(parse_since("soon"), Err(ArgError::Since("soon".into())));
        assert!(
            parse_since("soon")
                .unwrap_err()
                .to_string()
                .contains("'soon'")
        );
        assert!(parse_since("").is_err());
    }

    #[test]
    fn names_are_plain() {
        assert!(valid_name("ann.lee@ops").is_ok());
        assert!(valid_name("a b").is_err());
        let error = valid_name("\u{1b}[31m").unwrap_err();
        assert_eq!(error, ArgError::NotAName("\u{1b}[31m".into()));
        assert!(error.to_string().contains("not a name"));
    }
}
