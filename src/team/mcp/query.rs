//! Whom the endpoint's calls are for: its URL's query, read as the command line's options.

use crate::team::Deadline;
use crate::team::remote::Addressed;

/// Whom calls are for, from the endpoint URL's query: `to`, `deadline` (a span, 1s to 30d)
/// and `escalate_to` (with a deadline), as the command line's `--to`, `--deadline` and
/// `--escalate-to`.
pub(super) fn addressed(query: &str) -> Result<Addressed, String> {
    let (mut to, mut deadline, mut escalate_to) = (None, None, None);
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decoded(value).ok_or_else(|| format!("{name}: not UTF-8"))?;
        let value = Some(value).filter(|v| !v.is_empty());
        match name {
            "to" => to = value,
            "escalate_to" => escalate_to = value,
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
                    "{}: not a setting of the endpoint's URL (to, deadline, escalate_to)",
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
    Ok(Addressed { to, deadline })
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
        let read = addressed("to=ops+team&deadline=30m&escalate_to=lead%20dev").unwrap();
        assert_eq!(read.to.as_deref(), Some("ops team"));
        let deadline = read.deadline.unwrap();
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
}
