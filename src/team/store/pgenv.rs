//! A PostgreSQL connection's settings as libpq users expect them: the URL (`--db`), with what
//! it leaves out taken from the environment (`PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`,
//! `PGPASSWORD`), then from the service file (`PGSERVICE`, in `PGSERVICEFILE` or
//! `~/.pg_service.conf`), then the password from the password file (`PGPASSFILE`, or
//! `~/.pgpass`, used only when no other user may read it). So a password need never be on a
//! command line, where every local user sees it in `ps`.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use ::postgres::Config;
use ::postgres::config::Host;

/// Where a setting comes from: the environment, read by name (a seam for the tests).
pub type Environment<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The settings of `url` (a `postgres://` URL), completed from `env` and the files it names.
pub fn config(url: &str, env: Environment) -> Result<Config, PgEnvError> {
    // The URL's own error says where it is wrong, never what its password is.
    let mut config: Config = url.parse().map_err(PgEnvError::Url)?;
    let service = match env("PGSERVICE") {
        Some(name) => service(&name, env)?,
        None => HashMap::new(),
    };
    let setting = |variable: &str, key: &str| env(variable).or_else(|| service.get(key).cloned());
    if config.get_hosts().is_empty()
        && let Some(hosts) = setting("PGHOST", "host")
    {
        for host in hosts.split(',') {
            config.host(host);
        }
    }
    if config.get_ports().is_empty()
        && let Some(port) = setting("PGPORT", "port")
    {
        let Ok(port) = port.trim().parse() else {
            return Err(PgEnvError::Port(port));
        };
        config.port(port);
    }
    if config.get_user().is_none()
        && let Some(user) = setting("PGUSER", "user")
    {
        config.user(&user);
    }
    if config.get_dbname().is_none()
        && let Some(dbname) = setting("PGDATABASE", "dbname")
    {
        config.dbname(&dbname);
    }
    if config.get_password().is_none() {
        let password = setting("PGPASSWORD", "password").or_else(|| from_passfile(&config, env));
        if let Some(password) = password {
            config.password(password);
        }
    }
    Ok(config)
}

/// The settings of service `name` in the service file.
fn service(name: &str, env: Environment) -> Result<HashMap<String, String>, PgEnvError> {
    let path = env("PGSERVICEFILE")
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|home| Path::new(&home).join(".pg_service.conf")))
        .ok_or(PgEnvError::NoServiceFile)?;
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => return Err(PgEnvError::ServiceFile { path, error }),
    };
    let mut settings = HashMap::new();
    let mut in_service = false;
    let mut found = false;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            in_service = section.trim() == name;
            found |= in_service;
        } else if in_service && let Some((key, value)) = line.split_once('=') {
            settings.insert(key.trim().to_owned(), value.trim().to_owned());
        }
    }
    if !found {
        return Err(PgEnvError::NoSuchService {
            name: name.to_owned(),
            path,
        });
    }
    Ok(settings)
}

/// Why a PostgreSQL URL and its environment give no settings to connect with: the database
/// cannot be reached, and the sentence says which setting is wrong (never a password).
#[derive(Debug)]
pub enum PgEnvError {
    /// The URL does not read, in the driver's words (which say where, not the password).
    Url(::postgres::Error),
    /// `PGPORT` (or the service's `port`) is not a port number: what it is.
    Port(String),
    /// `PGSERVICE` is set, and neither `PGSERVICEFILE` nor `HOME` names a service file.
    NoServiceFile,
    /// The service file at `path` cannot be read.
    ServiceFile {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The service file at `path` has no section `[name]`.
    NoSuchService { name: String, path: PathBuf },
}

impl fmt::Display for PgEnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgEnvError::Url(error) => write!(f, "the PostgreSQL URL does not read: {error}"),
            PgEnvError::Port(port) => {
                write!(f, "the PostgreSQL port {port:?} is not a port number")
            }
            PgEnvError::NoServiceFile => f.write_str(
                "PGSERVICE is set, and there is no service file (PGSERVICEFILE, or HOME)",
            ),
            PgEnvError::ServiceFile { path, error } => write!(
                f,
                "cannot read the service file {}: {error}",
                path.display()
            ),
            PgEnvError::NoSuchService { name, path } => {
                write!(f, "PGSERVICE={name}: no such service in {}", path.display())
            }
        }
    }
}

impl std::error::Error for PgEnvError {}

/// The password the password file gives for `config`'s first host, port, database and user:
/// `host:port:database:user:password` lines, `*` matching anything, `\:` and `\\` escaped. A
/// file that another user may read is not used, as libpq does not.
fn from_passfile(config: &Config, env: Environment) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let path = env("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|home| Path::new(&home).join(".pgpass")))?;
    let meta = std::fs::metadata(&path).ok()?;
    if !meta.is_file() || meta.permissions().mode() & 0o077 != 0 {
        return None;
    }
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(host)) => host.clone(),
        // A socket folder, and no host at all, are `localhost` to the password file.
        _ => "localhost".to_owned(),
    };
    let port = config
        .get_ports()
        .first()
        .copied()
        .unwrap_or(5432)
        .to_string();
    let user = config
        .get_user()
        .map(str::to_owned)
        .or_else(|| env("USER"))?;
    let dbname = config.get_dbname().map_or(user.clone(), str::to_owned);
    let wanted = [host, port, dbname, user];
    let text = std::fs::read_to_string(&path).ok()?;
    text.lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .map(fields)
        .find(|fields| {
            fields.len() == 5
                && (fields.iter().zip(&wanted))
                    .all(|(field, wanted)| field == "*" || field == wanted)
        })
        .map(|mut fields| fields.remove(4))
}

/// A password file line's fields: split at `:`, with `\:` and `\\` standing for themselves.
fn fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => fields.last_mut().expect("one field").extend(chars.next()),
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => fields.last_mut().expect("one field").push(c),
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, String)]) -> impl Fn(&str) -> Option<String> + use<> {
        let pairs: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        move |name| pairs.get(name).cloned()
    }

    #[test]
    fn what_the_url_leaves_out_comes_from_the_environment() {
        let env = env(&[
            ("PGHOST", "db.internal".into()),
            ("PGPORT", "6543".into()),
            ("PGPASSWORD", "from-env".into()),
            ("PGUSER", "ignored".into()),
        ]);
        let config = config("postgres://inbox@/team", &env).unwrap();
        assert_eq!(config.get_hosts(), [Host::Tcp("db.internal".into())]);
        assert_eq!(config.get_ports(), [6543]);
        assert_eq!(config.get_user(), Some("inbox"), "the URL's own user stays");
        assert_eq!(config.get_dbname(), Some("team"));
        assert_eq!(config.get_password(), Some(&b"from-env"[..]));
    }

    #[test]
    fn a_password_file_gives_the_password_only_when_only_its_owner_reads_it() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pgpass");
        std::fs::write(
            &file,
            "# comment\nother:5432:*:*:wrong\ndb.internal:*:team:inbox:s3cr\\:et\n",
        )
        .unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        let with = env(&[("PGPASSFILE", file.display().to_string())]);
        let config = config("postgres://inbox@db.internal/team", &with).unwrap();
        assert_eq!(config.get_password(), Some(&b"s3cr:et"[..]));
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let config = super::config("postgres://inbox@db.internal/team", &with).unwrap();
        assert_eq!(
            config.get_password(),
            None,
            "a file others may read is not used"
        );
    }

    #[test]
    fn a_service_names_the_settings_in_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("services");
        std::fs::write(
            &file,
            "[other]\nhost=nowhere\n\n[team]\nhost = db.internal\nport=7000\nuser=inbox\n\
             dbname=team\npassword=from-service\n",
        )
        .unwrap();
        let with = env(&[
            ("PGSERVICE", "team".into()),
            ("PGSERVICEFILE", file.display().to_string()),
        ]);
        let config = config("postgres://", &with).unwrap();
        assert_eq!(config.get_hosts(), [Host::Tcp("db.internal".into())]);
        assert_eq!(config.get_ports(), [7000]);
        assert_eq!(config.get_user(), Some("inbox"));
        assert_eq!(config.get_password(), Some(&b"from-service"[..]));
        let missing = env(&[
            ("PGSERVICE", "nope".into()),
            ("PGSERVICEFILE", file.display().to_string()),
        ]);
        let error = super::config("postgres://", &missing).unwrap_err();
        assert!(
            matches!(&error, PgEnvError::NoSuchService { name, .. } if name == "nope"),
            "{error}"
        );
    }
}
