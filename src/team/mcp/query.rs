//! What the endpoint's URL says of its calls: whom they are for, read as the command line's
//! options, their project, and whether they may run as MCP tasks.

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
pub(super) fn read(query: &str) -> Result<Read, String> {
    let (mut to, mut deadline, mut escalate_to, mut project) = (None, None, None, None);
    let mut tasks = None;
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decoded(value).ok_or_else(|| format!("{name}: not UTF-8"))?;
        let value = Some(value).filter(|v| !v.is_empty());
        match name {
            "to" => to = value,
            "escalate_to" => escalate_to = value,
            "project" => match value {
                Some(name) if name.chars().count() > LONGEST_PROJECT => {
                    let why = format!("project: longer than {LONGEST_PROJECT} characters");
                    return Err(why);
                }
                name => project = name.map(Project),
            },
            "tasks" => match value.as_deref() {
                Some("yes") => tasks = Some(AsTasks),
                Some("no") | None => tasks = None,
                Some(other) => {
                    let other = interview_text::sanitize::line(other);
                    return Err(format!("tasks={other}: yes or no"));
                }
            },
            "deadline" => {
                let span = value.unwrap_or_default();
                let ms = crate::spans::span_ms(&span)
                    .filter(|ms| crate::spans::DEADLINES_MS.contains(ms))
                    .ok_or_else(|| {
                        format!("deadline={span}: a span from 1s to 30d, as 90s, 30m, 12h, 7d")
                    })?;
                deadline = Some(ms);
            }
            // A misspelt name would send the question to anyone: it is refused instead.
            other => {
                return Err(format!(
                    "{}: not a setting of the endpoint's URL (to, deadline, escalate_to, project, \
                     tasks)",
                    interview_text::sanitize::line(&percent_decoded(other).unwrap_or_default())
                ));
            }
        }
    }
    if escalate_to.is_some() && deadline.is_none() {
        return Err(
            "escalate_to needs a deadline: the time after which the question \
                    goes to them"
                .into(),
        );
    }
    if escalate_to.is_some() && escalate_to == to {
        return Err("escalate_to is whom the questions are for already".into());
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
        assert!(
            refused("deadline=31d").contains("1s to 30d"),
            "{}",
            refused("deadline=31d")
        );
        assert!(refused("escalate_to=lead").contains("needs a deadline"));
        assert!(refused("to=a&deadline=1h&escalate_to=a").contains("already"));
        assert!(refused("to=%FF").contains("UTF-8"));
        assert!(refused("To=ops").contains("not a setting"));
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
        assert!(project(&long).unwrap_err().contains("longer than"));
        assert!(project(&format!("project={}", "é".repeat(LONGEST_PROJECT))).is_ok());
    }

    #[test]
    fn calls_run_as_tasks_only_where_the_url_says_so() {
        let tasks = |query: &str| read(query).map(|read| read.tasks);
        assert_eq!(tasks("").unwrap(), None);
        assert_eq!(tasks("to=ops&tasks=yes").unwrap(), Some(AsTasks));
        assert_eq!(tasks("tasks=no").unwrap(), None);
        assert!(tasks("tasks=1").unwrap_err().contains("yes or no"));
    }
}
