"""Keeps the agents on 127.0.0.1: the run goes on in a network namespace of its own, where the
only interface is loopback, and `/etc/resolv.conf` (in a mount namespace of its own too) names
a DNS server of ours on 127.0.0.1:53 that answers every question NXDOMAIN and notes the name.
Whatever an agent still tries to reach (an update check, telemetry) fails at once and shows up
in the summary by its host name.
"""

import fcntl
import os
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time

INSIDE = "INTERVIEW_AGENTS_SANDBOX"


def inside():
    return os.environ.get(INSIDE) == "1"


def reexec(argv):
    """Runs this script again inside new network and mount namespaces (as root, or as a
    mapped root where user namespaces are allowed); returns its exit code. None when the
    namespaces can't be had."""
    unshare = shutil.which("unshare")
    if not unshare:
        return None
    flags = ["--net", "--mount"]
    if os.geteuid() != 0:
        flags.append("--map-root-user")
    probe = subprocess.run([unshare, *flags, "true"], capture_output=True)
    if probe.returncode != 0:
        sys.stderr.write("cannot make a network namespace: %s\n" % probe.stderr.decode().strip())
        return None
    env = dict(os.environ, **{INSIDE: "1"})
    return subprocess.call([unshare, *flags, sys.executable, *argv], env=env)


def loopback_up():
    """Brings `lo` up (a new namespace has it down): SIOCSIFFLAGS with IFF_UP."""
    SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        ifreq = struct.pack("16sH22x", b"lo", 0)
        flags = struct.unpack("16sH22x", fcntl.ioctl(s, SIOCGIFFLAGS, ifreq))[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH22x", b"lo", flags | IFF_UP))


def own_resolver(workdir):
    """Points /etc/resolv.conf (in this mount namespace only) at 127.0.0.1."""
    path = os.path.join(workdir, "resolv.conf")
    with open(path, "w") as f:
        f.write("nameserver 127.0.0.1\noptions timeout:1 attempts:1\n")
    target = os.path.realpath("/etc/resolv.conf")
    subprocess.run(["mount", "--make-rprivate", "/"], check=False, capture_output=True)
    subprocess.run(["mount", "--bind", path, target], check=True)


class DnsLog:
    """A DNS server on 127.0.0.1:53 (UDP and TCP) that knows no names: every question gets
    NXDOMAIN, and is noted with its time."""

    def __init__(self):
        self.names = []  # (monotonic time, name, type)
        self.lock = threading.Lock()
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 53))
        self.tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.tcp.bind(("127.0.0.1", 53))
        self.tcp.listen(16)
        threading.Thread(target=self._serve_udp, daemon=True).start()
        threading.Thread(target=self._serve_tcp, daemon=True).start()

    def _answer(self, query):
        if len(query) < 12:
            return None
        ident, _flags, qdcount = struct.unpack(">HHH", query[:6])
        name, i = [], 12
        while i < len(query) and query[i] != 0:
            n = query[i]
            name.append(query[i + 1:i + 1 + n].decode(errors="replace"))
            i += 1 + n
        qtype = struct.unpack(">H", query[i + 1:i + 3])[0] if i + 3 <= len(query) else 0
        with self.lock:
            self.names.append((time.monotonic(), ".".join(name), qtype))
        question = query[12:i + 5]
        # Response, recursion available, NXDOMAIN; the question echoed, no answers.
        return struct.pack(">HHHHHH", ident, 0x8183, qdcount and 1, 0, 0, 0) + question

    def _serve_udp(self):
        while True:
            try:
                query, peer = self.udp.recvfrom(4096)
                reply = self._answer(query)
                if reply:
                    self.udp.sendto(reply, peer)
            except OSError:
                return

    def _serve_tcp(self):
        while True:
            try:
                conn, _ = self.tcp.accept()
            except OSError:
                return
            with conn:
                try:
                    conn.settimeout(2)
                    size = struct.unpack(">H", conn.recv(2))[0]
                    query = b""
                    while len(query) < size:
                        chunk = conn.recv(size - len(query))
                        if not chunk:
                            break
                        query += chunk
                    reply = self._answer(query)
                    if reply:
                        conn.sendall(struct.pack(">H", len(reply)) + reply)
                except (OSError, struct.error):
                    pass

    def since(self, start, end=None):
        """The names asked for between two times, each once, in order."""
        with self.lock:
            seen = []
            for t, name, _ in self.names:
                if t >= start and (end is None or t <= end) and name not in seen:
                    seen.append(name)
            return seen


def enter(workdir):
    """Inside the namespaces: loopback up, our resolver, the DNS log."""
    loopback_up()
    os.makedirs(workdir, exist_ok=True)
    own_resolver(workdir)
    return DnsLog()

