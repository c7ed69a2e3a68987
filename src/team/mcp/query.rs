//! What the endpoint's URL says of its calls: whom they are for, read as the command line's
//! options, their project, and whether they may run as MCP tasks.

use std::fmt;

use crate::team::Deadline;
use crate::team::remote::Addressed;

/// The longest project name the URL may give (it is shown on the team page).
const LONGEST_PROJECT: usize = 200;

/// What an agent's calls say of their project (the URL's `project`), shown with each question
/// and filtered by on the team page, as an asker's folder is.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::team) struct Project(pub(in crate::team) String);

/// The URL allows its calls to run as MCP tasks (`tasks=yes`), for a client that takes them.
///
/// Not by default: a client that takes tasks may move a call that became one to the
/// background and tell its model to carry on without the answer (Claude Code does), where the
/// agent asked because it needed the person's decision to go on. A hosted agent that cannot
/// hold a request open for as long as a person takes is given a URL with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::team) struct AsTasks;

/// What the endpoint URL's query says of its calls.
#[derive(Debug)]
pub(super) struct Read {
    /// Whom they are for, `to`, `deadline` (a span, 1s to 30d) and `escalate_to` (with a
    /// deadline), as the command line's `--to`, `--deadline` and `--escalate-to`.
    pub(super) addressed: Addressed,
    /// Their `project`.
    pub(super) project: Option<Project>,
    /// `tasks=yes`.
    pub(super) tasks: Option<AsTasks>,
}

/// Reads the endpoint URL's query (see [`Read`]); a setting it does not have, or a value out
/// of range, is why not.
pub(super) fn read(query: &str) -> Result<Read, QueryError> {
    let (mut to, mut deadline, mut escalate_to, mut project) = (None, None, None, None);
    let mut tasks = None;
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decoded(value).ok_or_else(|| QueryError::NotUtf8(name.to_owned()))?;
        let value = Some(value).filter(|v| !v.is_empty());
        match name {
            "to" => to = value,
            "escalate_to" => escalate_to = value,
            "project" => match value {
                Some(name) if name.chars().count() > LONGEST_PROJECT => {
                    return Err(QueryError::LongProject);
                }
                name => project = name.map(Project),
            },
            "tasks" => match value.as_deref() {
                Some("yes") => tasks = Some(AsTasks),
                Some("no") | None => tasks = None,
                Some(other) => return Err(QueryError::Tasks(other.to_owned())),
            },
            "deadline" => {
                let span = value.unwrap_or_default();
                let ms = crate::spans::span_ms(&span)
                    .filter(|ms| crate::spans::DEADLINES_MS.contains(ms))
                    .ok_or(QueryError::Deadline(span))?;
                deadline = Some(ms);
            }
            // A misspelt name would send the question to anyone: it is refused instead.
            other => {
                let other = percent_decoded(other).unwrap_or_default();
                return Err(QueryError::Unknown(other));
            }
        }
    }
    if escalate_to.is_some() && deadline.is_none() {
        return Err(QueryError::EscalationWithoutDeadline);
    }
    if escalate_to.is_some() && escalate_to == to {
        return Err(QueryError::EscalationToSame);
    }
    let deadline = deadline.map(|after_ms| Deadline {
        after_ms,
        escalate_to,
    });
    Ok(Read {
        addressed: Addressed { to, deadline },
        project,
        tasks,
    })
}

/// Why the endpoint URL's query cannot be read: the request is refused (400) with its
/// sentence, for whoever wrote the URL to correct it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum QueryError {
    /// The value of the setting named is not UTF-8 once decoded.
    NotUtf8(String),
    /// `project` is longer than [`LONGEST_PROJECT`] characters.
    LongProject,
    /// `tasks` is neither `yes` nor `no`: what it is.
    Tasks(String),
    /// `deadline` is not a span from 1s to 30d: what it is.
    Deadline(String),
    /// A setting the URL does not have (a misspelt name would send the question to anyone).
    Unknown(String),
    /// `escalate_to` without a `deadline`, after which the question would go to them.
    EscalationWithoutDeadline,
    /// `escalate_to` names whom the questions are for already.
    EscalationToSame,
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use interview_text::sanitize::line;
        match self {
            QueryError::NotUtf8(name) => write!(f, "{name}: not UTF-8"),
            QueryError::LongProject => {
                write!(f, "project: longer than {LONGEST_PROJECT} characters")
            }
            QueryError::Tasks(value) => write!(f, "tasks={}: yes or no", line(value)),
            QueryError::Deadline(span) => write!(
                f,
                "deadline={span}: a span from 1s to 30d, as 90s, 30m, 12h, 7d"
            ),
            QueryError::Unknown(name) => write!(
                f,
                "{}: not a setting of the endpoint's URL (to, deadline, escalate_to, project, \
                 tasks)",
                line(name)
            ),
            QueryError::EscalationWithoutDeadline => f.write_str(
                "escalate_to needs a deadline: the time after which the question goes to them",
            ),
            QueryError::EscalationToSame => {
                f.write_str("escalate_to is whom the questions are for already")
            }
        }
    }
}

impl std::error::Error for QueryError {}

/// A query value with `+` as a space and `%XX` as its byte; `None` when that is not UTF-8.
fn percent_decoded(value: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(value.len());
    let mut rest = value.bytes();
    while let Some(byte) = rest.next() {
        bytes.push(match byte {
            b'+' => b' ',
            b'%' => {
                let hex = [rest.next()?, rest.next()?];
                u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?
            }
            byte => byte,
        });
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_says_whom_calls_are_for_as_the_command_line_does() {
        let addressed = |query: &str| read(query).map(|read| read.addressed);
        let given = addressed("to=ops+team&deadline=30m&escalate_to=lead%20dev").unwrap();
        assert_eq!(given.to.as_deref(), Some("ops team"));
        let deadline = given.deadline.unwrap();
        assert_eq!(deadline.after_ms, 30 * 60_000);
        assert_eq!(deadline.escalate_to.as_deref(), Some("lead dev"));
        assert!(addressed("").unwrap().to.is_none());
        let refused = |query: &str| addressed(query).unwrap_err();
        assert_eq!(refused("deadline=31d"), QueryError::Deadline("31d".into()));
        assert!(
            refused("deadline=31d").to_string().contains("1s to 30d"),
            "{}",
            refused("deadline=31d")
        );
        assert_eq!(
            refused("escalate_to=lead"),
            QueryError::EscalationWithoutDeadline
        );
        assert_eq!(
            refused("to=a&deadline=1h&escalate_to=a"),
            QueryError::EscalationToSame
        );
        assert_eq!(refused("to=%FF"), QueryError::NotUtf8("to".into()));
        assert_eq!(refused("To=ops"), QueryError::Unknown("To".into()));
        assert!(refused("To=ops").to_string().contains("not a setting"));
    }

    #[test]
    fn the_query_names_the_calls_project_within_bounds() {
        let project = |query: &str| read(query).map(|read| read.project);
        assert_eq!(
            project("to=ops&project=web%20shop").unwrap(),
            Some(Project("web shop".into()))
        );
        assert_eq!(project("project=").unwrap(), None);
        assert_eq!(project("").unwrap(), None);
        let long = format!("project={}", "é".repeat(LONGEST_PROJECT + 1));
        assert_eq!(project(&long).unwrap_err(), QueryError::LongProject);
        assert!(project(&format!("project={}", "é".repeat(LONGEST_PROJECT))).is_ok());
    }

    #[test]
    fn calls_run_as_tasks_only_where_the_url_says_so() {
        let tasks = |query: &str| read(query).map(|read| read.tasks);
        assert_eq!(tasks("").unwrap(), None);
        assert_eq!(tasks("to=ops&tasks=yes").unwrap(), Some(AsTasks));
        assert_eq!(tasks("tasks=no").unwrap(), None);
        assert_eq!(tasks("tasks=1").unwrap_err(), QueryError::Tasks("1".into()));
        assert_eq!(
            tasks("tasks=1").unwrap_err().to_string(),
            "tasks=1: yes or no"
        );
    }
}
