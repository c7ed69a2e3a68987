//! `WebUi`'s HTTP side, spoken to as a page (and as strangers) would, while the plugin asks
//! through it: the view, a reply judged by the plugin, and the requests that must be refused.

use std::io::{Read, Write};
use std::net::TcpStream;

use interview_host::Plugin;

use interview_host::ui::WebUi;
use serde_json::{Value as Json, json};

mod page;

use page::Page;

/// One HTTP/1.1 request with `Connection: close`, outside any session: the status and the body.
fn http(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    page::http(
        port,
        method,
        path,
        headers,
        body,
        std::time::Duration::from_secs(10),
    )
    .map(|answer| (answer.status, answer.body))
    .expect("the server answers")
}

#[test]
fn a_page_answers_through_the_plugin_and_strangers_are_refused() {
    let ui = WebUi::start().expect("the server starts");
    let url = ui.url().to_string();
    let (port, secret) = page::address(&url);
    let asking = std::thread::spawn(move || {
        let mut session = Plugin::load().unwrap().session(ui).unwrap();
        let request = r#"{"question": "Which?", "options": ["a", "b"], "allow_other": false}"#;
        session.call("interview", request).unwrap().json
    });

    let (status, served) = http(port, "GET", "/", &[], "");
    assert!(
        status == 200 && served.contains("<script nonce="),
        "the page, with a nonce"
    );
    assert!(
        !served.contains(&secret),
        "the page is the same for anyone and holds no secret"
    );
    // Without the handshake, nothing but the page.
    let stranger = |path: &str| http(port, "GET", path, &[], "").0;
    assert_eq!(stranger("/view?after=0&tab=x"), 401, "no session");
    let forged = [("X-Interview-Session", secret.as_str())];
    assert_eq!(
        http(port, "GET", "/view?after=0&tab=x", &forged, "").0,
        401,
        "the secret itself is not a session"
    );
    assert_eq!(
        stranger(&format!("/{secret}/")),
        404,
        "no page under a path"
    );
    let json_type = ("Content-Type", "application/json");
    assert_eq!(
        http(
            port,
            "POST",
            "/hello",
            &[json_type],
            r#"{"nonce": "short"}"#
        )
        .0,
        400,
        "a nonce too short to keep proofs apart"
    );

    let page = Page::open(&url);
    let view = |tab: &str, after: u64| {
        let (status, body) = page
            .view(after, tab, std::time::Duration::from_secs(10))
            .unwrap();
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<Json>(&body).unwrap()
    };
    let mut shown = view("first", 0);
    while shown["kind"] != "select" {
        shown = view("first", shown["seq"].as_u64().unwrap());
    }
    assert_eq!(shown["frame"]["prompt"], "Which?");
    assert_eq!(shown["request"]["options"][1]["label"], "b");
    // Anyone on the machine may shake hands: a flood of it pushes out no open tab's session.
    for n in 0..100 {
        let nonce = json!({ "nonce": format!("{n:032x}") }).to_string();
        let (status, ..) = http(port, "POST", "/hello", &[json_type], &nonce);
        assert_eq!(status, 200);
    }
    assert_eq!(view("first", 0)["frame"]["prompt"], "Which?");
    assert_eq!(
        view("second", 0)["kind"],
        "elsewhere",
        "a second tab can't answer"
    );
    let foreign_host = [("Host", "attacker.example")];
    assert_eq!(http(port, "GET", "/", &foreign_host, "").0, 403);

    let seq = shown["seq"].as_u64().unwrap();
    let reply = |tab: &str, picked: u32| {
        json!({ "seq": seq, "tab": tab, "reply": { "picked": picked } }).to_string()
    };
    assert_eq!(
        http(port, "POST", "/reply", &[json_type], &reply("first", 0)).0,
        401,
        "a reply outside a session"
    );
    let foreign = [json_type, ("Origin", "http://attacker.example")];
    assert_eq!(page.reply(&foreign, &reply("first", 0)).0, 403);
    assert_eq!(page.reply(&[], &reply("first", 0)).0, 415, "JSON only");
    assert_eq!(page.reply(&[json_type], &reply("second", 0)).0, 409);
    let own = [json_type, ("Origin", &format!("http://127.0.0.1:{port}"))];
    assert_eq!(page.reply(&own, &reply("first", 1)).0, 200);
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

/// The port of a page's address.
fn port_of(ui: &WebUi) -> u16 {
    page::address(ui.url()).0
}

/// The threads of this process now.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").unwrap().count()
}

/// Lets this process hold `wanted` file descriptors, as far as its hard limit allows.
fn allow_descriptors(wanted: u64) -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        if limit.rlim_cur < wanted {
            limit.rlim_cur = wanted.min(limit.rlim_max);
            assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
        }
    }
    limit.rlim_cur
}

#[test]
fn thousands_of_idle_connections_leave_the_page_served_by_a_few_threads() {
    const IDLE: usize = 2000;
    assert!(
        allow_descriptors(IDLE as u64 + 512) >= IDLE as u64 + 256,
        "this test needs {IDLE} connections' worth of file descriptors"
    );
    let before = threads();
    let ui = WebUi::start().expect("the server starts");
    let port = port_of(&ui);
    let mut idle = Vec::with_capacity(IDLE);
    for n in 0..IDLE {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
        // Some say nothing, some start a request and stall, as slowloris does.
        if n % 2 == 1 {
            let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ");
        }
        idle.push(stream);
    }
    let during = threads();
    // The server's own are its accepting thread and four answering ones; the rest is room
    // for the other tests of this file, which run alongside with servers of their own.
    assert!(
        during <= before + 60,
        "{during} threads with {IDLE} idle connections, {before} before"
    );
    let started = std::time::Instant::now();
    let (status, body) = http(port, "GET", "/", &[], "");
    assert_eq!(status, 200, "{body}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "served in {:?}",
        started.elapsed()
    );
    drop(idle);
    drop(ui);
}

#[test]
fn strangers_trickling_request_bodies_never_keep_the_page_out() {
    let ui = WebUi::start().expect("the server starts");
    let port = port_of(&ui);
    // More than the page keeps connections, each with a whole head and a body that never
    // comes: each is a request whose body still arrives, which must not count as one in
    // progress, or these would hold every place.
    let head = format!(
        "POST /hello HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{{"
    );
    let trickling: Vec<TcpStream> = (0..100)
        .map(|_| {
            let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
            stream.write_all(head.as_bytes()).unwrap();
            stream
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(300));
    for _ in 0..3 {
        let started = std::time::Instant::now();
        let (status, body) = http(port, "GET", "/", &[], "");
        assert_eq!(status, 200, "{body}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(2),
            "served after {:?}",
            started.elapsed()
        );
    }
    drop(trickling);
}

#[test]
fn a_slow_upload_still_sending_outlasts_strangers_that_went_silent() {
    let ui = WebUi::start().expect("the server starts");
    let port = port_of(&ui);
    let head = |length: usize| {
        format!(
            "POST /hello HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
             Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
        )
    };
    // A person's page whose body comes in pieces, 100 ms apart; between two pieces, 40
    // strangers connect and go silent after a head and a byte. 160 in all, far more than
    // the page keeps (64): each newcomer closes the connection silent longest, and the
    // person's, heard after the strangers before it, is never that one.
    let body = format!(r#"{{"nonce": "{}"}}"#, "0".repeat(32));
    let stalled = head(100) + "{";
    let mut strangers = Vec::new();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream.write_all(head(body.len()).as_bytes()).unwrap();
    for piece in body.as_bytes().chunks(12) {
        for _ in 0..40 {
            let mut stranger = TcpStream::connect(("127.0.0.1", port)).expect("connects");
            stranger.write_all(stalled.as_bytes()).unwrap();
            strangers.push(stranger);
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        stream.write_all(piece).expect("still open");
    }
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    let mut answer = [0u8; 12];
    stream.read_exact(&mut answer).expect("answered");
    assert_eq!(
        &answer,
        b"HTTP/1.1 200",
        "{}",
        String::from_utf8_lossy(&answer)
    );
}

#[test]
fn a_connection_that_never_finishes_its_request_is_closed() {
    let ui = WebUi::start().expect("the server starts");
    let port = port_of(&ui);
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(15)))
        .unwrap();
    let started = std::time::Instant::now();
    let mut answer = String::new();
    let read = stream.read_to_string(&mut answer);
    let took = started.elapsed();
    assert!(read.is_ok(), "the server closed it, in {took:?}: {read:?}");
    // Hyper closes a connection whose head is late without a word: nobody waits to read one.
    assert!(answer.is_empty(), "{answer}");
    assert!(
        took < std::time::Duration::from_secs(8),
        "closed after {took:?}"
    );
}

/// What a page said through its notices, as text.
fn noted(ui: &mut WebUi) -> std::sync::Arc<std::sync::Mutex<Vec<String>>> {
    let notes = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let kept = notes.clone();
    ui.on_notice(move |notice| kept.lock().unwrap().push(format!("{notice:?}")));
    notes
}

#[test]
fn a_page_nobody_opens_leaves_the_request_unavailable_after_the_open_timeout() {
    let mut ui = WebUi::start().expect("the server starts");
    ui.open_timeout(std::time::Duration::from_secs(1));
    let notes = noted(&mut ui);
    let url = ui.url().to_string();
    let mut session = Plugin::load().unwrap().session(ui).unwrap();
    let started = std::time::Instant::now();
    let result = session
        .call(
            "interview",
            r#"{"question": "Which?", "options": ["a", "b"]}"#,
        )
        .unwrap()
        .json;
    let took = started.elapsed();
    let result: Json = serde_json::from_str(&result).unwrap();
    assert_eq!(result["status"], "unavailable", "{result}");
    assert!(took < std::time::Duration::from_secs(5), "took {took:?}");
    let notes = notes.lock().unwrap().clone();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].starts_with("Waiting") && notes[0].contains(&url),
        "{notes:?}"
    );
    assert!(notes[1].starts_with("NotOpened"), "{notes:?}");
}

#[test]
fn an_invalid_request_says_no_address() {
    let mut ui = WebUi::start().expect("the server starts");
    let notes = noted(&mut ui);
    let mut session = Plugin::load().unwrap().session(ui).unwrap();
    let result = session
        .call("interview", r#"{"question": "Which?", "options": 3}"#)
        .unwrap()
        .json;
    let result: Json = serde_json::from_str(&result).unwrap();
    assert_eq!(result["status"], "invalid", "{result}");
    assert_eq!(*notes.lock().unwrap(), Vec::<String>::new());
}
