//! A command run in a real pseudo-terminal and read back through a terminal emulator (vt100):
//! what a person sees, the keys they press, and the terminal's state after.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use serde_json::Value as Json;

pub const UP: &str = "\x1b[A";
pub const DOWN: &str = "\x1b[B";
pub const LEFT: &str = "\x1b[D";
pub const HOME: &str = "\x1b[H";
pub const END: &str = "\x1b[F";
pub const PAGE_DOWN: &str = "\x1b[6~";
pub const SHIFT_TAB: &str = "\x1b[Z";
pub const ESC: &str = "\x1b";
pub const ENTER: &str = "\r";
pub const ALT_ENTER: &str = "\x1b\r";
pub const CTRL_C: &str = "\x03";
pub const CTRL_X: &str = "\x18";

/// What the emulated terminal was asked to do besides drawing.
#[derive(Default)]
pub struct Seen {
    /// Window or icon title changes.
    pub titles: usize,
}

impl vt100::Callbacks for Seen {
    fn set_window_title(&mut self, _: &mut vt100::Screen, _: &[u8]) {
        self.titles += 1;
    }
    fn set_window_icon_name(&mut self, _: &mut vt100::Screen, _: &[u8]) {
        self.titles += 1;
    }
}

/// A pseudo-terminal of `rows` and `cols`.
pub fn open_pty(rows: u16, cols: u16) -> portable_pty::PtyPair {
    native_pty_system()
        .openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap()
}

pub fn size(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("a terminal has at least one row and column")
}

/// The command running in a pseudo-terminal, and the screen it draws.
pub struct Term {
    pub screen: Arc<Mutex<vt100::Parser<Seen>>>,
    /// How many bytes the terminal received, for counting.
    pub received: Arc<Mutex<usize>>,
    /// Every byte the terminal received, to be sure of what was never drawn.
    pub output: Arc<Mutex<Vec<u8>>>,
    pub writer: Box<dyn Write + Send>,
    pub master: Box<dyn portable_pty::MasterPty + Send>,
    pub child: Box<dyn portable_pty::Child + Send + Sync>,
    pub result: PathBuf,
}

impl Term {
    /// Runs `interview ask <request>` at `rows` x `cols`, then prints its exit code and the
    /// terminal's line discipline on the same screen.
    pub fn start(name: &str, request: &Json, rows: u16, cols: u16, env: &[(&str, &str)]) -> Term {
        Term::start_with(name, request, rows, cols, env, "ask")
    }

    /// Runs `interview <command> <request>`, where `command` is the subcommand and its options.
    pub fn start_with(
        name: &str,
        request: &Json,
        rows: u16,
        cols: u16,
        env: &[(&str, &str)],
        command: &str,
    ) -> Term {
        let request_path = write_request_file(name, request);
        let result = request_path.with_extension("out.json");
        let _ = std::fs::remove_file(&result);
        let command = format!(
            "{bin} {command} {request} > {result}",
            bin = env!("CARGO_BIN_EXE_interview"),
            request = request_path.display(),
            result = result.display(),
        );
        Term::run(&command, result, rows, cols, env)
    }

    /// Runs `command` in the terminal, then prints its exit code and the line discipline.
    pub fn run(command: &str, result: PathBuf, rows: u16, cols: u16, env: &[(&str, &str)]) -> Term {
        Term::run_in(command, result, (rows, cols), (rows, cols), env)
    }

    /// Runs `command` in a pseudo-terminal that reports `reported` rows and columns, read back
    /// through an emulator of `rows` and `cols`.
    pub fn run_in(
        command: &str,
        result: PathBuf,
        reported: (u16, u16),
        (rows, cols): (u16, u16),
        env: &[(&str, &str)],
    ) -> Term {
        let script = format!(
            "{command}; code=$?; printf '\\nEXIT=%s\\n' $code; \
             stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; printf 'END\\n'"
        );
        let pty = open_pty(reported.0, reported.1);
        let mut command = CommandBuilder::new("sh");
        command.args(["-c", &script]);
        command.env("TERM", "xterm-256color");
        command.env(
            "XDG_CACHE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
        );
        command.env_remove("NO_COLOR");
        for (key, value) in env {
            command.env(key, value);
        }
        let child = pty.slave.spawn_command(command).unwrap();
        drop(pty.slave);
        let screen = Arc::new(Mutex::new(vt100::Parser::new_with_callbacks(
            size(rows),
            size(cols),
            1000,
            Seen::default(),
        )));
        let received = Arc::new(Mutex::new(0));
        let output = Arc::new(Mutex::new(Vec::new()));
        let mut reader = pty.master.try_clone_reader().unwrap();
        let (parser, count, bytes) = (screen.clone(), received.clone(), output.clone());
        std::thread::spawn(move || {
            let mut buffer = [0u8; 65536];
            while let Ok(n) = reader.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                parser.lock().unwrap().process(&buffer[..n]);
                *count.lock().unwrap() += n;
                bytes.lock().unwrap().extend_from_slice(&buffer[..n]);
            }
        });
        let writer = pty.master.take_writer().unwrap();
        Term {
            screen,
            received,
            output,
            writer,
            master: pty.master,
            child,
            result,
        }
    }

    /// The command's processes (the children of the shell the terminal runs).
    pub fn command(&self) -> Vec<i32> {
        let shell = self.child.process_id().unwrap().to_string();
        let pid = std::process::Command::new("pgrep")
            .args(["-P", &shell])
            .output()
            .unwrap();
        let pids: Vec<i32> = String::from_utf8_lossy(&pid.stdout)
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        assert!(!pids.is_empty(), "the command is running");
        pids
    }

    /// The most memory the command has held so far, in KiB.
    pub fn peak_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.command()[0]));
        let status = status.unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// Sends `signal` to the command.
    pub fn signal(&self, signal: libc::c_int) {
        for pid in self.command() {
            // SAFETY: signalling a process this test started.
            unsafe { libc::kill(pid, signal) };
        }
    }

    pub fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    /// Sends a key and lets the UI read it alone (a lone Esc must not run into the next key).
    pub fn key(&mut self, key: &str) {
        self.send(key);
        std::thread::sleep(Duration::from_millis(60));
    }

    /// Everything the terminal was sent so far, scrolled off or drawn over included.
    pub fn output(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    pub fn contents(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// Waits until the screen shows `text`; the screen then.
    pub fn wait(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.contents();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "{text:?} never appeared. The screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the screen stops changing (for counting what one key costs).
    pub fn settle(&self) -> usize {
        let mut last = *self.received.lock().unwrap();
        loop {
            std::thread::sleep(Duration::from_millis(80));
            let now = *self.received.lock().unwrap();
            if now == last {
                return now;
            }
            last = now;
        }
    }

    pub fn resize(&mut self, rows: u16, cols: u16) {
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        self.screen
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(size(rows), size(cols));
    }

    /// Waits for the command to end: its exit code, its result, and the screen after.
    pub fn finish(mut self) -> Finished {
        let screen = self.wait("END");
        let _ = self.child.wait();
        let code = screen
            .split("EXIT=")
            .nth(1)
            .and_then(|s| s.lines().next())
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let result = std::fs::read_to_string(&self.result).unwrap_or_default();
        let output = self.output();
        let parser = self.screen.lock().unwrap();
        Finished {
            code,
            output,
            result: serde_json::from_str(&result).unwrap_or(Json::Null),
            restored: {
                let modes = screen.split("EXIT=").nth(1).unwrap_or("");
                let words: Vec<&str> = modes.split_whitespace().collect();
                words.contains(&"icanon")
                    && words.contains(&"echo")
                    && !parser.screen().hide_cursor()
                    && !parser.screen().bracketed_paste()
            },
            screen,
        }
    }
}

pub struct Finished {
    pub code: i32,
    pub result: Json,
    pub screen: String,
    /// Every byte the terminal was sent.
    pub output: String,
    /// Canonical mode, echo, a visible cursor and no bracketed paste: the terminal as it was.
    pub restored: bool,
}

/// The request file for a test that runs its own command line.
pub fn write_request_file(name: &str, request: &Json) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("terminal");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, request.to_string()).unwrap();
    path
}
