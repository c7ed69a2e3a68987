//! Webhooks: telling a person or group that a question waits for them, in a body Slack's
//! incoming webhooks take as it is (`text`, and Block Kit `blocks` with a button to the
//! question's page), as do the chat tools that copy them (Mattermost, Rocket.Chat, Discord's
//! `/slack` endpoints).
//!
//! The agent's text (the question, its folder) is only in the Block Kit section, sanitized to
//! one line and escaped as Slack's `mrkdwn` wants (`&`, `<`, `>`), so that a question cannot
//! mention a channel or forge a link there; the plain `text`, which the other chat tools render
//! as Markdown (where `@channel` and `[a](link)` would work), holds only names the admin gave
//! and the link. The section is kept within Slack's 3,000 characters.

use std::fmt;
use std::time::Duration;

use serde_json::{Value as Json, json};

use super::store::Notice;

/// How long one try may take, connection included.
const TIMEOUT: Duration = Duration::from_secs(10);
/// The most of a question's prompt a message quotes, and of its folder.
const PROMPT_CHARS: usize = 300;
const FOLDER_CHARS: usize = 200;
/// The most a Block Kit section's text may hold.
const SECTION_CHARS: usize = 3000;

/// Posts `notice`'s message to its webhook, linking to the page at `public_url`: the status
/// the webhook answered with, or why it gave none.
pub fn send(notice: &Notice, public_url: &str) -> Result<u16, NotifyError> {
    let agent = ureq::AgentBuilder::new().timeout(TIMEOUT).build();
    // A receiver slower than the timeout, or a sender that died mid-send, can be sent the
    // same notice again: each try of a notice carries its one key, for a receiver to drop
    // the repeats.
    match agent
        .post(&notice.url)
        .set("Idempotency-Key", &idempotency_key(notice))
        .send_json(message(notice, public_url))
    {
        Ok(response) => Ok(response.status()),
        Err(ureq::Error::Status(status, _)) => Ok(status),
        Err(ureq::Error::Transport(failed)) => Err(NotifyError(failed.kind())),
    }
}

/// Why a webhook gave no status: its kind only (no connection, no DNS name, a TLS failure,
/// too many redirects). ureq's words for it begin with the URL, whose path is the secret: what
/// the audit keeps of it must not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotifyError(pub ureq::ErrorKind);

impl fmt::Display for NotifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for NotifyError {}

/// The key every try of `notice` carries in its `Idempotency-Key` header.
pub fn idempotency_key(notice: &Notice) -> String {
    format!("interview-notice-{}-{}", notice.question, notice.id)
}

/// The message of `notice`: who asks what, of whom, and the button to answer it.
pub fn message(notice: &Notice, public_url: &str) -> Json {
    let link = format!(
        "{}/q/{}/",
        public_url.trim_end_matches('/'),
        notice.question
    );
    let agent = plain(&notice.agent);
    let to = notice.to.as_deref().map_or("anyone".to_owned(), plain);
    let prompt = prompt_of(&notice.view);
    let place = notice
        .folder
        .as_deref()
        .map(|f| format!(" in `{}`", escaped(&cut(&plain(f), FOLDER_CHARS))))
        .unwrap_or_default();
    let (lead, fallback) = match notice.event.as_str() {
        "escalated" => (
            format!(
                "Nobody answered in time, so this question now waits for *{}*: *{}* asks{place}",
                escaped(&to),
                escaped(&agent)
            ),
            format!("Nobody answered in time: {agent} asks {to} instead"),
        ),
        _ => (
            format!("*{}* asks *{}*{place}", escaped(&agent), escaped(&to)),
            format!("{agent} asks {to}"),
        ),
    };
    json!({
        "text": format!("{fallback}: {link}"),
        "blocks": [
            {
                "type": "section",
                "text": { "type": "mrkdwn", "text": section(&lead, &prompt) },
            },
            {
                "type": "actions",
                "elements": [{
                    "type": "button",
                    "text": { "type": "plain_text", "text": "Answer" },
                    "url": link,
                }],
            },
        ],
    })
}

/// What the question asks: its current step's prompt, or for a review, that answers wait to
/// be sent.
fn prompt_of(view: &Json) -> String {
    match view["frame"]["prompt"].as_str() {
        Some(prompt) => cut(&plain(prompt), PROMPT_CHARS),
        None => "Review the answers and send them".to_owned(),
    }
}

/// The section's text: `lead`, and the prompt quoted below it, escaped, within Slack's limit
/// (escaping may make a prompt five times longer).
fn section(lead: &str, prompt: &str) -> String {
    let text = format!("{lead}\n>{}", escaped(prompt));
    if text.chars().count() <= SECTION_CHARS {
        return text;
    }
    // Cut where no escape is split: at a character of the prompt, before escaping.
    let room = SECTION_CHARS.saturating_sub(lead.chars().count() + 3);
    let mut kept = String::new();
    for c in prompt.chars() {
        let next = escaped(c.encode_utf8(&mut [0; 4]));
        if kept.chars().count() + next.chars().count() > room {
            break;
        }
        kept.push_str(&next);
    }
    format!("{lead}\n>{kept}…")
}

/// `text` cut to `chars` characters, with an ellipsis when it was longer.
fn cut(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// Agent text on one line, without control or invisible characters.
fn plain(text: &str) -> String {
    interview_text::sanitize::line(text)
}

/// `text` as Slack's `mrkdwn` reads it literally: `&`, `<` and `>` escaped, so that `<!channel>`
/// or `<https://evil|a link>` stays text.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(event: &str, prompt: &str) -> Notice {
        Notice {
            id: 1,
            url: "http://127.0.0.1:9/hook".into(),
            event: event.into(),
            tries: 0,
            question: 7,
            agent: "ci".into(),
            folder: Some("/src/app".into()),
            to: Some("ops".into()),
            view: json!({"frame": {"prompt": prompt}, "request": {}}),
        }
    }

    #[test]
    fn a_message_names_the_asker_the_addressee_and_links_to_the_question() {
        let message = message(
            &notice("asked", "Deploy now?"),
            "https://inbox.example.com/",
        );
        let section = message["blocks"][0]["text"]["text"].as_str().unwrap();
        assert_eq!(section, "*ci* asks *ops* in `/src/app`\n>Deploy now?");
        let button = &message["blocks"][1]["elements"][0];
        assert_eq!(button["url"], "https://inbox.example.com/q/7/");
        assert_eq!(
            message["text"],
            "ci asks ops: https://inbox.example.com/q/7/"
        );
    }

    #[test]
    fn an_escalation_says_nobody_answered_in_time() {
        let message = message(&notice("escalated", "Deploy now?"), "http://h");
        let section = message["blocks"][0]["text"]["text"].as_str().unwrap();
        assert!(section.starts_with("Nobody answered in time"), "{section}");
        let text = message["text"].as_str().unwrap();
        assert_eq!(
            text,
            "Nobody answered in time: ci asks ops instead: http://h/q/7/"
        );
    }

    #[test]
    fn agent_text_cannot_mention_a_channel_forge_a_link_or_break_the_line() {
        let prompt = "<!channel> see <https://evil.example|docs> & \u{1b}[31mred\nnext";
        let message = message(&notice("asked", prompt), "http://h");
        let section = message["blocks"][0]["text"]["text"].as_str().unwrap();
        let quoted = section.split_once('>').unwrap().1;
        assert!(
            !quoted.contains('<') && !quoted.contains('\u{1b}'),
            "{quoted}"
        );
        assert!(quoted.contains("&lt;!channel&gt;") && quoted.contains("&amp;"));
        assert!(!quoted.contains('\n'), "{quoted}");
        // The plain text, which other chat tools render as Markdown, holds none of it.
        let text = message["text"].as_str().unwrap();
        assert!(
            !text.contains("channel") && !text.contains("evil"),
            "{text}"
        );
    }

    #[test]
    fn a_section_stays_within_slacks_limit_whatever_the_agent_sent() {
        // Everything as long as it may be, and made five times longer by escaping.
        let mut long = notice("asked", &"&".repeat(1000));
        long.folder = Some("&".repeat(5000));
        (long.agent, long.to) = ("&".repeat(64), Some("&".repeat(64)));
        let message = message(&long, "http://h");
        let section = message["blocks"][0]["text"]["text"].as_str().unwrap();
        assert!(
            section.chars().count() <= SECTION_CHARS,
            "{}",
            section.len()
        );
        assert!(
            section.ends_with("&amp;…"),
            "no escape is cut in two: {section}"
        );
    }

    #[test]
    fn a_long_prompt_is_cut() {
        let message = message(&notice("asked", &"é".repeat(1000)), "http://h");
        let section = message["blocks"][0]["text"]["text"].as_str().unwrap();
        assert_eq!(section.chars().filter(|c| *c == 'é').count(), PROMPT_CHARS);
    }
}
