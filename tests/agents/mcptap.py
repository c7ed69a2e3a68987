#!/usr/bin/env python3
"""`mcptap.py TRACE -- COMMAND...`: runs an MCP server over stdio and passes every line through
unchanged, writing each to TRACE with the time and its direction (`C>` from the client, `S>`
from the server). The harness puts it in front of `interview mcp` so that a run shows which
protocol revision the agent spoke, whether a form was sent and how the agent answered it, and
how long each step took. Everything else (environment, terminal, exit code) is the server's.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time


def main():
    trace_path, rest = sys.argv[1], sys.argv[2:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    trace = open(trace_path, "a", encoding="utf-8")
    lock = threading.Lock()

    def note(direction, raw):
        text = raw.decode("utf-8", errors="replace").rstrip("\n")
        with lock:
            trace.write(json.dumps({"t": round(time.time(), 4), "dir": direction, "line": text}) + "\n")
            trace.flush()

    # The tap lives as long as the server, so that what the server does with a signal is what
    # counts (and its exit is written down), not the tap dying first and closing the server's
    # pipes under it. A Ctrl-C at the agent's terminal reaches the server itself when it is in
    # the agent's process group (as this tap is); a SIGTERM may be meant for the tap's pid
    # alone (the MCP SDKs' close), so it is passed on. (Handlers, not SIG_IGN, which the
    # server would inherit.)
    signal.signal(signal.SIGINT, lambda *_: None)
    server = subprocess.Popen(rest, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    signal.signal(signal.SIGTERM, lambda *_: server.send_signal(signal.SIGTERM))
    # What of the server's environment the harness sets through the agent's MCP configuration.
    env = {k: v for k, v in os.environ.items() if k.startswith("INTERVIEW_")}
    note("--", json.dumps({"started": rest, "pid": server.pid, "env": env}).encode())

    def upstream():
        try:
            for line in iter(sys.stdin.buffer.readline, b""):
                note("C>", line)
                server.stdin.write(line)
                server.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        finally:
            try:
                server.stdin.close()
            except OSError:
                pass

    threading.Thread(target=upstream, daemon=True).start()
    out = sys.stdout.buffer
    try:
        for line in iter(server.stdout.readline, b""):
            note("S>", line)
            out.write(line)
            out.flush()
    except (BrokenPipeError, OSError):
        pass
    code = server.wait()
    note("--", json.dumps({"exit": code, "pid": server.pid}).encode())
    os._exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    main()
