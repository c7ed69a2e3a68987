//! The page's side of the web UI's protocol, spoken over plain HTTP/1.1 the way the page's
//! script speaks it: the handshake that proves the server knows the secret after the `#` of
//! the address, then views and replies in the session it makes. Shared by the tests of
//! `WebUi` and of `interview ask --ui web`.

#![allow(dead_code, reason = "each test file uses its own part")]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use hmac::Mac;
use serde_json::{Value as Json, json};

/// What a server answered: the status, the header lines, the body.
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: String,
}

/// One HTTP/1.1 request with `Connection: close`, waiting at most `limit` for the answer.
pub fn http(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
    limit: Duration,
) -> std::io::Result<Answer> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(limit))?;
    let mut request = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(name, _)| *name == "Host") {
        request += &format!("Host: 127.0.0.1:{port}\r\n");
    }
    for (name, value) in headers {
        request += &format!("{name}: {value}\r\n");
    }
    request += &format!("Content-Length: {}\r\n\r\n{body}", body.len());
    stream.write_all(request.as_bytes())?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let status = response
        .get(9..12)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("not an HTTP answer: {response:?}")))?;
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    Ok(Answer {
        status,
        head: head.to_string(),
        body: body.to_string(),
    })
}

/// The port and the secret of a page's address, `http://127.0.0.1:PORT/#SECRET`.
pub fn address(url: &str) -> (u16, String) {
    let rest = url
        .strip_prefix("http://127.0.0.1:")
        .unwrap_or_else(|| panic!("not a page's address: {url}"));
    let (port, secret) = rest
        .split_once("/#")
        .unwrap_or_else(|| panic!("no secret after `/#`: {url}"));
    (port.parse().expect("a port"), secret.to_string())
}

/// `HMAC-SHA256(secret, words)` in hex, as the page's script computes it.
fn proof(secret: &str, words: &str) -> String {
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(words.as_bytes());
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A page in session with its server.
pub struct Page {
    pub port: u16,
    secret: String,
    session: String,
}

impl Page {
    /// Makes a session with the server at `url`, checking that it proves it knows the secret.
    pub fn open(url: &str) -> Page {
        let (port, secret) = address(url);
        let nonce = "0f".repeat(16);
        let json_type = [("Content-Type", "application/json")];
        let hello = json!({ "nonce": nonce }).to_string();
        let Answer {
            status, body: said, ..
        } = http(
            port,
            "POST",
            "/hello",
            &json_type,
            &hello,
            Duration::from_secs(10),
        )
        .expect("the server answers hello");
        assert_eq!(status, 200, "{said}");
        let said: Json = serde_json::from_str(&said).unwrap();
        let theirs = said["nonce"].as_str().expect("the server's nonce");
        assert_eq!(
            said["proof"].as_str(),
            Some(proof(&secret, &format!("interview server {nonce} {theirs}")).as_str()),
            "the server proves it knows the secret"
        );
        let session = proof(&secret, &format!("interview session {nonce} {theirs}"));
        Page {
            port,
            secret,
            session,
        }
    }

    /// A request in this page's session, with `headers` besides; a view or a reply taken is
    /// checked to carry the server's proof that it sent it, as the page's script checks it.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
        limit: Duration,
    ) -> std::io::Result<(u16, String)> {
        let mut all = vec![("X-Interview-Session", self.session.as_str())];
        all.extend_from_slice(headers);
        let Answer { status, head, body } = http(self.port, method, path, &all, body, limit)?;
        if status == 200 {
            let expected = proof(
                &self.secret,
                &format!("interview response {} {body}", self.session),
            );
            let given = head.lines().find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("X-Interview-Proof")
                    .then(|| value.trim())
            });
            assert_eq!(given, Some(expected.as_str()), "{method} {path}: {head}");
        }
        Ok((status, body))
    }

    /// The view after `after`, for the tab `tab`: status and body.
    pub fn view(&self, after: u64, tab: &str, limit: Duration) -> std::io::Result<(u16, String)> {
        let path = format!("/view?after={after}&tab={tab}");
        self.request("GET", &path, &[], "", limit)
    }

    /// Posts `reply` (JSON) with `headers` besides the session's.
    pub fn reply(&self, headers: &[(&str, &str)], reply: &str) -> (u16, String) {
        self.request("POST", "/reply", headers, reply, Duration::from_secs(10))
            .expect("the server answers the reply")
    }
}
