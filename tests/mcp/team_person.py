"""A team inbox of a test's own, and a person on it: `interview inbox serve` on a fresh SQLite
database with its tokens, and the HTTP API a person's page uses (list the open questions,
answer one step). Shared by the MCP clients' tests that ask a team."""

import contextlib
import json
import os
import subprocess
import tempfile
import time
import urllib.request


def token(interview, db, *who):
    """A new token of `who` (`--agent NAME`, `--person NAME`)."""
    return subprocess.run([interview, "inbox", "token", "add", "--db", db, *who], check=True,
                          capture_output=True, text=True).stdout.strip()


@contextlib.contextmanager
def team_inbox(interview, agent="ci"):
    """`interview inbox serve` on a fresh database: its URL, the agent's token and ann's (a
    person's); stopped on leaving."""
    with tempfile.TemporaryDirectory() as place:
        db = os.path.join(place, "team.sqlite3")
        agent, ann = token(interview, db, "--agent", agent), token(interview, db, "--person", "ann")
        server = subprocess.Popen(
            [interview, "inbox", "serve", "--db", db, "--listen", "127.0.0.1:0"],
            stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            line = server.stderr.readline()
            assert "listens on http://127.0.0.1:" in line, line
            yield line.split(" on ", 1)[1].strip().rstrip("/"), agent, ann
        finally:
            server.terminate()
            server.wait(timeout=20)


def api(url, person, path, body=None):
    """A request of `person`'s (a token): its status and JSON body."""
    request = urllib.request.Request(
        f"{url}{path}", data=body and json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {person}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def open_questions(url, person):
    status, listed = api(url, person, "/api/questions")
    assert status == 200, listed
    return listed["questions"]


def open_question(url, person, patience=30):
    """The one open question `person` sees, once there is one."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        questions = open_questions(url, person)
        if questions:
            assert len(questions) == 1, questions
            return questions[0]
        time.sleep(0.1)
    raise AssertionError("no question came to the team inbox")


def answer(url, person, question, reply):
    """`person`'s `reply` to `question`'s current step: the status and body."""
    path = f"/api/questions/{question['question']}/steps/{question['seq']}/reply"
    return api(url, person, path, reply)
