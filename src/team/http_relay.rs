//! The team inbox over HTTP, from the asking process (`--inbox URL`): each thing a
//! [`RemoteUi`](super::remote::RemoteUi) says is one request to the server's API, sent with
//! the agent's token.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value as Json;

use super::reach_error::ReachError;
use super::remote::{HEED_STOP, Outcome, POLL_SECONDS, Relay, Said};
use super::unix_http;

/// How long a long poll's connection may take beyond the wait it asks of the server.
const POLL_TIMEOUT: Duration = Duration::from_secs(POLL_SECONDS + 15);
/// What an answer's envelope adds to it at most (`{"state": "replied", "by": …}`).
const ENVELOPE: usize = 64 << 10;

/// The server at a URL, as a token's holder: an agent's, or a person's answering in a
/// terminal.
#[derive(Clone)]
pub struct HttpRelay {
    transport: Transport,
    /// The token (`INTERVIEW_INBOX_TOKEN`).
    token: String,
    /// How messages name it: `the team inbox at URL`.
    name: String,
}

/// How the server is reached.
#[derive(Clone)]
enum Transport {
    /// Over TCP, and TLS for `https://`: the server's address (`http://host:port`, or behind a
    /// proxy `https://…`), without a trailing slash.
    Network { agent: ureq::Agent, url: String },
    /// Over the Unix socket of a `unix:PATH` URL.
    Socket(PathBuf),
}

impl HttpRelay {
    /// The team inbox at `url`, asked with `token`.
    pub fn new(url: &str, token: &str) -> HttpRelay {
        let transport = match unix_http::socket_of(url) {
            Some(socket) => Transport::Socket(socket.to_owned()),
            None => Transport::Network {
                agent: ureq::AgentBuilder::new()
                    .timeout_connect(Duration::from_secs(10))
                    .timeout(POLL_TIMEOUT)
                    .build(),
                url: url.trim_end_matches('/').to_owned(),
            },
        };
        HttpRelay {
            transport,
            name: format!("the team inbox at {url}"),
            token: token.to_owned(),
        }
    }

    /// The same, named `name` in what it says (this machine's inbox is no team's).
    pub fn named(self, name: &str) -> HttpRelay {
        HttpRelay {
            name: name.to_owned(),
            ..self
        }
    }

    /// One request, sent from a thread of its own so that Ctrl-C is heard during a long poll:
    /// its status and body, or why it got none; `None` when stopped first.
    pub(super) fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<&Json>,
        stopped: &dyn Fn() -> bool,
    ) -> Option<Result<Answer, ReachError>> {
        let exchange = self.exchange(method, path, body);
        let (sent, received) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = sent.send(exchange());
        });
        loop {
            match received.recv_timeout(HEED_STOP) {
                Ok(outcome) => return Some(outcome),
                Err(mpsc::RecvTimeoutError::Timeout) if !stopped() => {}
                // Stopped: the request is left to end on its own.
                Err(_) => return None,
            }
        }
    }

    /// The request, ready to be sent from another thread.
    fn exchange(
        &self,
        method: &str,
        path: &str,
        body: Option<&Json>,
    ) -> Box<dyn FnOnce() -> Result<Answer, ReachError> + Send> {
        let limit = super::BODY_LIMIT + ENVELOPE;
        match &self.transport {
            Transport::Network { agent, url } => {
                let request = (agent.request(method, &format!("{url}{path}")))
                    .set("authorization", &format!("Bearer {}", self.token));
                let body = body.cloned();
                Box::new(move || {
                    let response = match body {
                        Some(body) => request.send_json(body),
                        None => request.call(),
                    };
                    match response {
                        Ok(response) | Err(ureq::Error::Status(_, response)) => {
                            let status = response.status();
                            let retry_after = (response.header("retry-after"))
                                .and_then(|seconds| seconds.trim().parse().ok())
                                .map(Duration::from_secs);
                            read_body(response, limit).map(|text| Answer {
                                status,
                                text,
                                retry_after,
                            })
                        }
                        Err(error) => Err(ReachError::Transport(error.to_string())),
                    }
                })
            }
            Transport::Socket(socket) => {
                let socket = socket.clone();
                let (method, path, token) =
                    (method.to_owned(), path.to_owned(), self.token.clone());
                let body = body.map(|body| body.to_string().into_bytes());
                Box::new(move || {
                    let request = unix_http::Request {
                        method: &method,
                        path: &path,
                        token: &token,
                        body,
                    };
                    unix_http::send(&socket, request, limit, POLL_TIMEOUT)
                })
            }
        }
    }
}

impl Relay for HttpRelay {
    fn once(&self, said: &Said<'_>, stopped: &dyn Fn() -> bool) -> Outcome {
        let finish;
        let (method, path, body) = match said {
            Said::Whoami { to, escalate_to } => {
                let query: Vec<String> = [("to", to), ("escalate_to", escalate_to)]
                    .into_iter()
                    .filter_map(|(name, value)| {
                        Some(format!("{name}={}", percent_encoded((*value)?)))
                    })
                    .collect();
                let path = match query.is_empty() {
                    true => "/api/whoami".to_owned(),
                    false => format!("/api/whoami?{}", query.join("&")),
                };
                ("GET", path, None)
            }
            Said::Step(body) => ("POST", "/api/steps".to_owned(), Some(*body)),
            Said::Reply { question, seq } => (
                "GET",
                format!("/api/steps/{question}/{seq}?wait={POLL_SECONDS}"),
                None,
            ),
            Said::Finish { question, status } => {
                finish = serde_json::json!({ "status": status });
                let path = format!("/api/questions/{question}/finish");
                ("POST", path, Some(&finish))
            }
        };
        self.request(method, &path, body, stopped)
    }

    fn name(&self) -> &str {
        &self.name
    }
}

impl HttpRelay {
    /// One request to the server's API and what its answer means; [`Outcome::Stopped`] as soon
    /// as `stopped` is true.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Json>,
        stopped: &dyn Fn() -> bool,
    ) -> Outcome {
        self.answered(self.send(method, path, body, stopped))
    }

    /// What a request's answer means to the asker.
    pub(super) fn answered(&self, sent: Option<Result<Answer, ReachError>>) -> Outcome {
        match sent {
            None => Outcome::Stopped,
            Some(Err(why)) => Outcome::Unreachable(why),
            Some(Ok(Answer {
                status: 200..=299,
                text,
                ..
            })) => match serde_json::from_str(&text) {
                Ok(json) => Outcome::Answered(json),
                Err(e) => Outcome::Unreachable(ReachError::Unreadable(e)),
            },
            Some(Ok(Answer {
                status: 429,
                retry_after,
                ..
            })) => Outcome::Busy(retry_after),
            Some(Ok(Answer {
                status: code @ 400..=499,
                text,
                ..
            })) => {
                let error = serde_json::from_str::<Json>(&text)
                    .ok()
                    .and_then(|j| j["error"].as_str().map(str::to_owned))
                    .unwrap_or(text);
                let why = format!(
                    "{} refused: {} ({code})",
                    self.name,
                    interview_text::sanitize::line(&error)
                );
                Outcome::Refused(why, Some(code))
            }
            Some(Ok(Answer { status, .. })) => Outcome::Unreachable(ReachError::Status(status)),
        }
    }
}

/// What the server answered a request.
pub(super) struct Answer {
    pub(super) status: u16,
    pub(super) text: String,
    /// When it asked to be asked again (`Retry-After`, in seconds).
    pub(super) retry_after: Option<Duration>,
}

/// A response's body, as long as any the server may send: a reply it took at its own limit
/// ([`super::BODY_LIMIT`]) comes whole (ureq's own `into_string` stops at 10 MB, which left
/// an asker retrying a longer answer forever).
fn read_body(response: ureq::Response, limit: usize) -> Result<String, ReachError> {
    use std::io::Read;
    let mut text = String::new();
    let read = (response.into_reader().take(limit as u64 + 1)).read_to_string(&mut text);
    match read {
        Ok(length) if length > limit => Err(ReachError::TooLarge { limit }),
        Ok(_) => Ok(text),
        Err(error) => Err(ReachError::Transport(error.to_string())),
    }
}

/// `text` for a URL's query, every byte but unreserved ones as `%XX`.
fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
