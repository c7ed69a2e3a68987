"""A program in a pseudo-terminal, with its screen: keys go in, and the screen is read back.

The screen is pyte's when pyte can be imported (run.py installs it under target/agents/pylib),
else a crude one: the output with escape sequences stripped, searched as text. Terminal queries
the programs wait on (cursor position, device attributes) are answered either way.
"""

import fcntl
import os
import re
import signal
import struct
import subprocess
import termios
import threading
import time

try:
    import pyte
except ImportError:  # pragma: no cover - the crude screen below stands in
    pyte = None

KEYS = {
    "enter": "\r", "esc": "\x1b", "tab": "\t", "space": " ", "backspace": "\x7f",
    "up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
    "ctrl-c": "\x03", "ctrl-d": "\x04", "ctrl-s": "\x13",
}

ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[@-Z\\-_]|\x1b.")


class Terminal:
    """`argv` running in a new pty of `rows` x `cols`, in its own session."""

    def __init__(self, argv, env, cwd, rows=40, cols=120, log_path=None):
        self.rows, self.cols = rows, cols
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.raw = bytearray()
        self.lock = threading.Condition()
        self.log = open(log_path, "wb") if log_path else None
        if pyte:
            self.screen = pyte.Screen(cols, rows)
            self.screen.write_process_input = self._reply
            self.stream = pyte.ByteStream(self.screen)
        else:
            self.screen = self.stream = None

        def controlling_terminal():
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(
            argv, env=env, cwd=cwd, stdin=slave, stdout=slave, stderr=slave,
            start_new_session=True, preexec_fn=controlling_terminal, close_fds=True)
        os.close(slave)
        self.started = time.monotonic()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _reply(self, text):
        try:
            os.write(self.master, text.encode() if isinstance(text, str) else text)
        except OSError:
            pass

    def _read(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
            with self.lock:
                if not data:
                    self.closed = True
                    self.lock.notify_all()
                    return
                self.raw += data
                if self.log:
                    self.log.write(data)
                    self.log.flush()
                if self.stream:
                    try:
                        self.stream.feed(data)
                    except Exception:  # noqa: BLE001 - a sequence pyte trips on is not fatal
                        pass
                else:
                    # The crude screen still answers a cursor position query.
                    if b"\x1b[6n" in data:
                        self._reply("\x1b[1;1R")
                    if b"\x1b[c" in data or b"\x1b[0c" in data:
                        self._reply("\x1b[?62;22c")
                self.lock.notify_all()

    closed = False

    def text(self):
        """What the screen shows now, one line a row (or, with no pyte, everything printed)."""
        with self.lock:
            if self.screen:
                return "\n".join(line.rstrip() for line in self.screen.display)
            return ESCAPES.sub(b"", bytes(self.raw)).decode(errors="replace")

    def printed(self):
        """Everything printed so far, escapes stripped: text that has scrolled away too."""
        with self.lock:
            return ESCAPES.sub(b"", bytes(self.raw)).decode(errors="replace")

    def wait_for(self, pattern, timeout, where="screen"):
        """Waits until `pattern` (a regex) is on the screen; the match, or None at the timeout
        or when the program has ended."""
        regex = re.compile(pattern, re.S | re.I)
        deadline = time.monotonic() + timeout
        while True:
            found = regex.search(self.text() if where == "screen" else self.printed())
            if found:
                return found
            left = deadline - time.monotonic()
            if left <= 0 or (self.closed and self.proc.poll() is not None):
                return None
            with self.lock:
                self.lock.wait(min(left, 0.2))

    def wait_any(self, patterns, timeout):
        """The first of `patterns` (name -> regex) to show, as (name, match); (None, None) at
        the timeout."""
        deadline = time.monotonic() + timeout
        compiled = {k: re.compile(v, re.S | re.I) for k, v in patterns.items()}
        while True:
            screen = self.text()
            for name, regex in compiled.items():
                found = regex.search(screen)
                if found:
                    return name, found
            left = deadline - time.monotonic()
            if left <= 0 or (self.closed and self.proc.poll() is not None):
                return None, None
            with self.lock:
                self.lock.wait(min(left, 0.2))

    def quiet(self, seconds, timeout):
        """Waits until nothing was printed for `seconds` (at most `timeout`)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                size = len(self.raw)
            time.sleep(seconds)
            with self.lock:
                if len(self.raw) == size:
                    return True
        return False

    def type(self, text, delay=0.01):
        """Types `text` a character at a time, as a person (or a paste-wary TUI) wants."""
        for ch in text:
            os.write(self.master, ch.encode())
            time.sleep(delay)

    def press(self, *keys, delay=0.15):
        for key in keys:
            os.write(self.master, KEYS.get(key, key).encode())
            time.sleep(delay)

    def stop(self, grace=1.0):
        """Ends the program and everything it started in its session."""
        if self.proc.poll() is None:
            for sig, wait in ((signal.SIGHUP, grace), (signal.SIGTERM, grace), (signal.SIGKILL, 5)):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.proc.wait(wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # stragglers of the session
        except (ProcessLookupError, PermissionError):
            pass
        try:
            os.close(self.master)
        except OSError:
            pass
        self.reader.join(2)
        if self.log:
            self.log.close()
        return self.proc.returncode
