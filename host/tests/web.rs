//! `WebUi`'s HTTP side, spoken to as a page (and as strangers) would, while the plugin asks
//! through it: the view, a reply judged by the plugin, and the requests that must be refused.

use std::io::{Read, Write};
use std::net::TcpStream;

use interview_host::{Plugin, WebUi};
use serde_json::{Value as Json, json};

/// One HTTP/1.1 request with `Connection: close`: the status and the body.
fn http(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the server listens");
    let mut request = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(name, _)| *name == "Host") {
        request += &format!("Host: 127.0.0.1:{port}\r\n");
    }
    for (name, value) in headers {
        request += &format!("{name}: {value}\r\n");
    }
    request += &format!("Content-Length: {}\r\n\r\n{body}", body.len());
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().expect("a status code");
    let body = response
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

#[test]
fn a_page_answers_through_the_plugin_and_strangers_are_refused() {
    let ui = WebUi::start().expect("the server starts");
    let url = ui.url().to_string();
    let rest = url.strip_prefix("http://127.0.0.1:").unwrap();
    let (port, token) = rest.split_once('/').unwrap();
    let port: u16 = port.parse().unwrap();
    let base = format!("/{}", token.trim_end_matches('/'));
    let asking = std::thread::spawn(move || {
        let mut session = Plugin::load().unwrap().session(ui).unwrap();
        let request = r#"{"question": "Which?", "options": ["a", "b"], "allow_other": false}"#;
        session.call("interview", request).unwrap()
    });

    let view = |tab: &str, after: u64| {
        let (status, body) = http(
            port,
            "GET",
            &format!("{base}/view?after={after}&tab={tab}"),
            &[],
            "",
        );
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<Json>(&body).unwrap()
    };
    let mut shown = view("first", 0);
    while shown["kind"] != "select" {
        shown = view("first", shown["seq"].as_u64().unwrap());
    }
    assert_eq!(shown["frame"]["prompt"], "Which?");
    assert_eq!(shown["request"]["options"][1]["label"], "b");
    assert_eq!(
        view("second", 0)["kind"],
        "elsewhere",
        "a second tab can't answer"
    );

    let (status, page) = http(port, "GET", &format!("{base}/"), &[], "");
    assert!(
        status == 200 && page.contains("<script nonce="),
        "the page, with a nonce"
    );
    assert_eq!(
        http(port, "GET", "/0123456789abcdef/", &[], "").0,
        404,
        "a wrong token"
    );
    let foreign_host = [("Host", "attacker.example")];
    assert_eq!(
        http(port, "GET", &format!("{base}/"), &foreign_host, "").0,
        403
    );

    let seq = shown["seq"].as_u64().unwrap();
    let reply = |tab: &str, picked: u32| {
        json!({ "seq": seq, "tab": tab, "reply": { "picked": picked } }).to_string()
    };
    let json_type = ("Content-Type", "application/json");
    let path = format!("{base}/reply");
    let foreign = [json_type, ("Origin", "http://attacker.example")];
    assert_eq!(
        http(port, "POST", &path, &foreign, &reply("first", 0)).0,
        403
    );
    assert_eq!(
        http(port, "POST", &path, &[], &reply("first", 0)).0,
        415,
        "JSON only"
    );
    assert_eq!(
        http(port, "POST", &path, &[json_type], &reply("second", 0)).0,
        409
    );
    let own = [json_type, ("Origin", &format!("http://127.0.0.1:{port}"))];
    assert_eq!(http(port, "POST", &path, &own, &reply("first", 1)).0, 200);
    assert_eq!(
        view("first", seq)["kind"],
        "done",
        "the page is told the answers were sent"
    );

    let result: Json = serde_json::from_str(&asking.join().unwrap()).unwrap();
    assert_eq!(
        (&result["status"], &result["answer"]),
        (&json!("answered"), &json!("b"))
    );
}
