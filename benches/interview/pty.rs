//! Programs run in a pseudo-terminal, as a person's terminal runs them, and timed from the
//! outside: from spawn to the first frame, to a prompt, to exit, and the bytes each key costs.
//! The same driver runs `interview` and its anchors, so that what it adds falls on both.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, PtySize, native_pty_system};

/// A program running in an 80x24 pseudo-terminal.
pub struct Run {
    started: Instant,
    child: Box<dyn Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    output: Receiver<(Instant, Vec<u8>)>,
    seen: Vec<u8>,
    // Kept open so that the program's terminal stays alive until it is done with.
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Run {
    /// Starts `program` with `args`; the clock starts just before the spawn.
    pub fn start(program: &Path, args: &[&str], env: &[(&str, &Path)]) -> Run {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: 24,
                cols: 80,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut command = CommandBuilder::new(program);
        command.args(args);
        command.env("TERM", "xterm-256color");
        command.env_remove("NO_COLOR");
        for (key, value) in env {
            command.env(key, value);
        }
        let mut reader = pty
            .master
            .try_clone_reader()
            .expect("the terminal's output");
        let writer = pty.master.take_writer().expect("the terminal's input");
        let (send, output) = channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 65536];
            while let Ok(n @ 1..) = reader.read(&mut buffer) {
                if send.send((Instant::now(), buffer[..n].to_vec())).is_err() {
                    break;
                }
            }
        });
        let started = Instant::now();
        let child = pty.slave.spawn_command(command).expect("spawning");
        drop(pty.slave);
        Run {
            started,
            child,
            writer,
            output,
            seen: Vec::new(),
            _master: pty.master,
        }
    }

    /// Reads until nothing more comes for `quiet`: how long after the start the last byte
    /// came, and how many bytes came.
    pub fn settle(&mut self, quiet: Duration) -> (Duration, usize) {
        let (mut last, mut bytes) = (self.started, 0);
        loop {
            match self.output.recv_timeout(quiet) {
                Ok((at, chunk)) => {
                    last = at;
                    bytes += chunk.len();
                    self.seen.extend_from_slice(&chunk);
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    return (last - self.started, bytes);
                }
            }
        }
    }

    /// Reads until `text` has been written (within 10 s).
    pub fn wait_for(&mut self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self
            .seen
            .windows(text.len())
            .any(|window| window == text.as_bytes())
        {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok((_, chunk)) => self.seen.extend_from_slice(&chunk),
                Err(_) => panic!(
                    "{text:?} never came; the terminal showed {:?}",
                    String::from_utf8_lossy(&self.seen)
                ),
            }
        }
    }

    /// Types `keys`.
    pub fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("typing");
        self.writer.flush().expect("typing");
    }

    /// Waits for the program to end: the time from its start.
    pub fn exit(mut self) -> Duration {
        self.child.wait().expect("waiting for the program");
        self.started.elapsed()
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
