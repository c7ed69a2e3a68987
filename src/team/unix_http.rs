//! HTTP/1.1 to a team inbox served on a Unix socket (`--inbox unix:PATH`), with hyper's
//! client: the same requests and answers as over TCP, for a machine or a container that
//! reaches the inbox through a socket file rather than a network.

use std::path::Path;
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;

use super::http_relay::Answer;
use super::reach_error::ReachError;

/// What a URL for a Unix socket starts with: `unix:/run/interview/inbox.sock`.
pub const SCHEME: &str = "unix:";

/// The socket file a `unix:PATH` URL names; `None` for any other URL.
pub fn socket_of(url: &str) -> Option<&Path> {
    url.strip_prefix(SCHEME)
        .filter(|path| !path.is_empty())
        .map(Path::new)
}

/// Whether `url` can be a team inbox's address: `http://HOST…`, `https://HOST…`, or
/// `unix:PATH`.
pub fn is_address(url: &str) -> bool {
    let host = ["http://", "https://"]
        .iter()
        .find_map(|scheme| url.strip_prefix(scheme));
    host.is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/')) || socket_of(url).is_some()
}

/// One request to the server on `socket`: `method` on `path` with `token`, and `body` as JSON;
/// its status and body (at most `limit` bytes), or why there is none. Blocking: it runs on a
/// runtime of its own, on the caller's thread, for at most `timeout`.
pub fn send(
    socket: &Path,
    request: Request<'_>,
    limit: usize,
    timeout: Duration,
) -> Result<Answer, ReachError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(ReachError::NoRuntime)?;
    let asked = runtime
        .block_on(async { tokio::time::timeout(timeout, exchange(socket, request, limit)).await });
    let failure = |why: ReachError| ReachError::on_socket(socket, why);
    asked
        .map_err(|_| failure(ReachError::NoAnswer { within: timeout }))?
        .map_err(failure)
}

/// What is sent: the method, the path with its query, the token and the JSON body.
pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub token: &'a str,
    pub body: Option<Vec<u8>>,
}

async fn exchange(socket: &Path, request: Request<'_>, limit: usize) -> Result<Answer, ReachError> {
    let transport = |e: &dyn std::fmt::Display| ReachError::Transport(e.to_string());
    let stream = (tokio::net::UnixStream::connect(socket).await).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused => {
            ReachError::NoServer(e)
        }
        _ => transport(&e),
    })?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| transport(&e))?;
    tokio::spawn(connection);
    let mut built = hyper::Request::builder()
        .method(request.method)
        .uri(request.path)
        // A Unix socket has no host name; the server's host check takes its own.
        .header(hyper::header::HOST, "localhost")
        .header(
            hyper::header::AUTHORIZATION,
            format!("Bearer {}", request.token),
        );
    if request.body.is_some() {
        built = built.header(hyper::header::CONTENT_TYPE, "application/json");
    }
    let body = Full::new(Bytes::from(request.body.unwrap_or_default()));
    let sent = built.body(body).map_err(|e| transport(&e))?;
    let response = (sender.send_request(sent).await).map_err(|e| transport(&e))?;
    let status = response.status().as_u16();
    let retry_after = (response.headers().get(hyper::header::RETRY_AFTER))
        .and_then(|value| value.to_str().ok()?.trim().parse().ok())
        .map(Duration::from_secs);
    let body = Limited::new(response.into_body(), limit)
        .collect()
        .await
        .map_err(
            |e| match e.downcast_ref::<http_body_util::LengthLimitError>() {
                Some(_) => ReachError::TooLarge { limit },
                None => transport(&e),
            },
        )?
        .to_bytes();
    let text = String::from_utf8(body.to_vec()).map_err(|e| transport(&e))?;
    Ok(Answer {
        status,
        text,
        retry_after,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_unix_url_with_a_path_names_a_socket() {
        assert_eq!(
            socket_of("unix:/run/inbox.sock"),
            Some(Path::new("/run/inbox.sock"))
        );
        assert_eq!(socket_of("unix:inbox.sock"), Some(Path::new("inbox.sock")));
        assert_eq!(socket_of("unix:"), None);
        assert_eq!(socket_of("http://127.0.0.1:8470"), None);
    }

    #[test]
    fn an_address_is_an_http_url_with_a_host_or_a_socket_path() {
        for url in [
            "http://127.0.0.1:8470",
            "https://inbox.example.com/",
            "unix:/run/x.sock",
        ] {
            assert!(is_address(url), "{url}");
        }
        for url in [
            "unix:",
            "UNIX:/x",
            "http://",
            "https:///x",
            "inbox.example.com",
            "",
        ] {
            assert!(!is_address(url), "{url}");
        }
    }
}
