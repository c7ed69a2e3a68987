"""`interview mcp` asking on a terminal, driven by the official MCP Python SDK's client while a
person answers in a pseudo-terminal: a slow answer gets progress notifications, two calls at
once queue for the one person, a cancelled call gives the terminal back, and Esc cancels.

The pty is either the server's controlling terminal (`--ui terminal`, as when an agent's MCP
server runs in a terminal of its own), or with `--tty`, a terminal named by path that is not
the server's at all (`--tty /dev/pts/N`, as a tmux pane the person chose). Run with the SDK
installed:

    python tests/mcp/python_sdk_terminal.py target/debug/interview [--tty]
"""

import asyncio
import fcntl
import os
import struct
import sys
import termios
import threading
import time

from jsonschema import Draft202012Validator
from mcp import ClientSession, types
from mcp.client.stdio import StdioServerParameters, stdio_client

INTERVIEW = sys.argv[1] if len(sys.argv) > 1 else "target/debug/interview"
BY_PATH = "--tty" in sys.argv[2:]
DOWN, ENTER = "\x1b[B", "\r"


def field(value, name):
    """A result's field by its wire name: mcp 1.x keeps it (`structuredContent`), 2.x
    snake-cases it."""
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in name)
    return getattr(value, name) if hasattr(value, name) else getattr(value, snake)


async def withdraw(session, call, request_id):
    """Cancels a call as a client does: mcp 2.x sends `notifications/cancelled` itself when
    the caller gives up; 1.x only when told."""
    if request_id is None:
        call.cancel()
        return
    notification = types.CancelledNotification(
        params=types.CancelledNotificationParams(requestId=request_id, reason="moved on")
    )
    await session.send_notification(types.ClientNotification(notification))

# Starts the server in a session of its own whose controlling terminal is the pty, keeping
# stdin and stdout as the MCP pipes.
LAUNCHER = """
import fcntl, os, sys, termios
if os.getsid(0) != os.getpid():  # the SDK may have started a session already
    os.setsid()
tty = os.open(sys.argv[1], os.O_RDWR)
fcntl.ioctl(tty, termios.TIOCSCTTY, 0)
os.close(tty)
os.execvp(sys.argv[2], sys.argv[2:])
"""


class Terminal:
    """The pty the person looks at: everything the server drew, and keys to type."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.output = b""
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.output += data

    def text(self):
        with self.lock:
            return self.output.decode("utf-8", "replace")

    async def wait_for(self, text, after=0, timeout=10.0):
        deadline = time.monotonic() + timeout
        while text not in self.text()[after:]:
            assert time.monotonic() < deadline, f"{text!r} never shown: {self.text()[after:]!r}"
            await asyncio.sleep(0.05)

    def type(self, keys):
        os.write(self.master, keys.encode())

    def is_cooked(self):
        """Canonical mode and echo: the terminal as the shell wants it."""
        lflag = termios.tcgetattr(self.slave)[3]
        return bool(lflag & termios.ICANON) and bool(lflag & termios.ECHO)


async def main():
    term = Terminal()
    env = {**os.environ, "TERM": "xterm-256color", "NO_COLOR": "1"}
    path = os.ttyname(term.slave)
    if BY_PATH:
        server = StdioServerParameters(command=INTERVIEW, args=["mcp", "--tty", path], env=env)
    else:
        server = StdioServerParameters(
            command=sys.executable,
            args=["-c", LAUNCHER, path, INTERVIEW, "mcp", "--ui", "terminal"],
            env=env,
        )
    print("the terminal:", f"--tty {path}" if BY_PATH else "the controlling terminal")
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            conforms = Draft202012Validator(field(listed.tools[0], "outputSchema")).validate

            # A slow answer: progress notifications keep the call alive meanwhile.
            progress = []

            async def on_progress(value, total, message):
                progress.append((value, message))

            call = asyncio.create_task(
                session.call_tool(
                    "interview",
                    {"question": "Deploy to?", "options": ["staging", "production"]},
                    progress_callback=on_progress,
                )
            )
            await term.wait_for("Deploy to?")
            await asyncio.sleep(5.5)
            term.type(DOWN + ENTER)
            result = await call
            conforms(field(result, "structuredContent"))
            assert field(result, "structuredContent")["answer"] == "production", result
            assert progress and progress[0][0] == 1, progress
            # Each says where to answer.
            where = f"Waiting for you in the terminal {path}" if BY_PATH else \
                "Waiting for you in the terminal"
            assert all(message == where for _, message in progress), progress
            print(f"slow answer: {result.content[0].text}; progress: {progress}")

            # Two calls at once: the second waits for the person to finish the first.
            mark = len(term.text())
            first = asyncio.create_task(
                session.call_tool("interview", {"question": "First?", "type": "confirm"})
            )
            await term.wait_for("First?", after=mark)
            second = asyncio.create_task(
                session.call_tool("interview", {"question": "Second?", "type": "confirm"})
            )
            await asyncio.sleep(0.5)
            assert "Second?" not in term.text()[mark:], "the second call waits its turn"
            term.type("y")
            await term.wait_for("Second?", after=mark)
            term.type("n")
            first, second = await first, await second
            conforms(field(first, "structuredContent"))
            conforms(field(second, "structuredContent"))
            assert field(first, "structuredContent")["native"]["answer"] is True, first
            assert field(second, "structuredContent")["native"]["answer"] is False, second
            print("queued calls:", first.content[0].text, "|", second.content[0].text)

            # A cancelled call withdraws its question and gives the terminal back.
            mark = len(term.text())
            legacy = hasattr(types, "ClientNotification") and hasattr(session, "_request_id")
            request_id = session._request_id if legacy else None
            call = asyncio.create_task(session.call_tool("interview", {"question": "Name?"}))
            await term.wait_for("Name?", after=mark)
            term.type("Ad")
            await asyncio.sleep(0.3)
            assert not term.is_cooked(), "raw mode while asking"
            await withdraw(session, call, request_id)
            await term.wait_for("Interrupted", after=mark)
            deadline = time.monotonic() + 5
            while not term.is_cooked():
                assert time.monotonic() < deadline, "the terminal was not given back"
                await asyncio.sleep(0.05)
            assert "\x1b[?25h" in term.text()[mark:], "the cursor is shown again"
            call.cancel()
            print("cancelled: the question was withdrawn and the terminal given back")

            # The person is free for the next call.
            mark = len(term.text())
            call = asyncio.create_task(
                session.call_tool("interview", {"question": "Again?", "type": "confirm"})
            )
            await term.wait_for("Again?", after=mark)
            term.type("y")
            result = await call
            assert field(result, "structuredContent")["status"] == "answered", result
            print("after the cancel:", result.content[0].text)

            # Esc alone (told from the start of an arrow key by the pause after it) cancels.
            mark = len(term.text())
            call = asyncio.create_task(
                session.call_tool("interview", {"question": "Leave?", "options": ["a", "b"]})
            )
            await term.wait_for("Leave?", after=mark)
            term.type("\x1b")
            result = await call
            assert field(result, "structuredContent")["status"] == "cancelled", result
            assert term.is_cooked(), "the terminal is given back"
            print("Esc:", result.content[0].text)


if __name__ == "__main__":
    asyncio.run(main())
