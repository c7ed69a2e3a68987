"""Who answers, a strategy per case.

A person is set up before the agent starts (`mcp_env` goes into the MCP server's environment
through the agent's own MCP configuration), acts while the agent runs (`serve`, on a thread of
its own, until the deadline), and is stopped after it. `expect` says what the model should get
when this person is the one asked.
"""

import os
import subprocess
import threading
import time

from term import Terminal


class Expect:
    """What the model should get: a status, and text that its answer must carry."""

    def __init__(self, status, carries=(), why=""):
        self.status = status
        self.carries = list(carries)
        self.why = why

    def __str__(self):
        return self.status + ("" if not self.carries else " " + "+".join(self.carries))


class Person:
    name = ""

    def __init__(self, interview, case_dir, scenario):
        self.interview = interview
        self.dir = case_dir
        self.scenario = scenario
        self.notes = []  # what happened, for the report
        self.failure = None  # why this person could not do their part

    def mcp_env(self):
        return {}

    def start(self, env):
        pass

    def serve(self, deadline):
        pass

    def stop(self):
        pass

    def expect(self, agent, mode):
        raise NotImplementedError


class Nobody(Person):
    """Nobody answers: no terminal, no inbox, and nobody at the agent's own screen."""

    name = "nobody"

    def expect(self, agent, mode):
        if mode == "interactive" and agent.renders_forms:
            return Expect("pending", why="the agent draws the form in its own TUI, where a person "
                          "would answer it: the call waits for them (no one pressed a key)")
        return Expect("unavailable", why="nobody can be asked: the model is told so at once, "
                      "not that a user cancelled or declined")


class Inbox(Person):
    """The person answers in `interview inbox`, in a terminal of their own, found through the
    directory INTERVIEW_INBOX names (given to both sides). The inbox draws each question with
    the arrow-key widgets of `interview ask`; the person presses the scenario's keys once the
    question is on the inbox's screen."""

    name = "inbox"

    def __init__(self, interview, case_dir, scenario):
        super().__init__(interview, case_dir, scenario)
        self.inbox = os.path.join(case_dir, "inbox")
        os.makedirs(self.inbox, exist_ok=True)
        self.term = None

    def mcp_env(self):
        return {"INTERVIEW_INBOX": self.inbox}

    def start(self, env):
        env = dict(env, INTERVIEW_INBOX=self.inbox)
        self.term = Terminal([self.interview, "inbox"], env, self.dir, rows=30, cols=100,
                             log_path=os.path.join(self.dir, "inbox.pty"))
        time.sleep(0.5)
        if self.term.proc.poll() is not None:
            self.failure = "`interview inbox` exited at once (%s): %s" % (
                self.term.proc.returncode, " ".join(self.term.printed().split())[:200])

    def serve(self, deadline):
        if self.failure:
            return
        press(self, self.term, self.scenario["inbox_keys"], deadline, "the inbox")

    def stop(self):
        if self.term:
            with open(os.path.join(self.dir, "inbox.screen.txt"), "w") as f:
                f.write(self.term.text())
            self.term.stop()

    def expect(self, agent, mode):
        return Expect("answered", self.scenario.get("answer_carries", ()),
                      why="the person answered in the inbox")


class Own(Person):
    """The person answers in the agent's own dialog, on the agent's screen: the run attaches
    the agent's terminal once it is up, and the person presses the scenario's `own_keys`, each
    step once its text is on that screen. Nothing is expected of the result on its own: a
    differential case compares it with what interview returned for the same keys."""

    name = "own"

    def __init__(self, interview, case_dir, scenario):
        super().__init__(interview, case_dir, scenario)
        self.term = None
        self.attached = threading.Event()
        self.done = threading.Event()  # every step's keys were pressed

    def attach(self, term):
        self.term = term
        self.attached.set()

    def serve(self, deadline):
        if not self.attached.wait(max(0.0, deadline - time.monotonic())):
            self.failure = "the agent's terminal never came up"
            return
        if press(self, self.term, self.scenario["own_keys"], deadline, "the agent's screen"):
            self.done.set()

    def expect(self, agent, mode):
        return Expect("answered", why="the person answered in the agent's own dialog")


# Seconds a step after the first waits for its pattern (a dialog answers a key in well under
# one); the first waits as long as the case allows, since it waits for the call itself.
STEP_LIMIT = 10


def press(person, term, steps, deadline, where):
    """Presses each step's keys once its pattern is on `term`'s screen. A key is a name of
    term.KEYS, or `text:...`, typed a character at a time. Notes what was done; on a pattern
    that never shows, sets the person's failure and stops."""
    for step, (pattern, keys) in enumerate(steps):
        left = deadline - time.monotonic()
        if step:
            left = min(left, STEP_LIMIT)
        if left <= 0 or not term.wait_for(pattern, left):
            person.failure = "%s never showed %r" % (where, pattern)
            if term.proc.poll() is not None:
                person.failure += " (it exited with %s)" % term.proc.returncode
            return False
        time.sleep(0.3)  # as a person would: read, then press
        # What the person saw before each step, for reading a run afterwards.
        with open(os.path.join(person.dir, "screens.txt"), "a") as f:
            f.write("=== %s, before %s\n%s\n" % (where, " ".join(keys), term.text()))
        for key in keys:
            if key.startswith("text:"):
                term.type(key[5:], delay=0.02)
                time.sleep(0.15)
            else:
                term.press(key)
        person.notes.append("pressed %s at %r" % (" ".join(keys), pattern))
    return True


def has_inbox(interview):
    """Whether this build of `interview` has the inbox command yet."""
    try:
        probe = subprocess.run([interview, "inbox", "--help"], capture_output=True, timeout=20,
                               stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


PEOPLE = {"nobody": Nobody, "inbox": Inbox, "own": Own}


def rehearse(interview, scenario, home, scratch):
    """Presses the inbox person's keys in `interview ask`, whose widgets the inbox shares, and
    says whether they give the answers the case expects: a check of the keys themselves, apart
    from the inbox. Returns (ok, what ask returned)."""
    import json
    request = os.path.join(scratch, "rehearsal-request.json")
    result = os.path.join(scratch, "rehearsal-result.json")
    with open(request, "w") as f:
        json.dump(scenario["arguments"], f)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": home, "TERM": "xterm-256color",
           "LANG": "C.UTF-8"}
    # The request on stdin, so that ask draws on and reads keys from the terminal (/dev/tty).
    term = Terminal(["sh", "-c", 'exec "$0" ask - < "$1" > "$2"', interview, request, result],
                    env, scratch, rows=30, cols=100)
    try:
        rehearsal = Person(interview, scratch, scenario)
        if not press(rehearsal, term, scenario["inbox_keys"], time.monotonic() + 30, "ask"):
            return False, rehearsal.failure
        term.proc.wait(15)
    except subprocess.TimeoutExpired:
        return False, "ask did not finish"
    finally:
        term.stop()
    try:
        with open(result) as f:
            got = json.load(f)
    except (OSError, ValueError) as e:
        return False, "no result: %s" % e
    ok = got.get("status") == "answered" and all(c in got.get("text", "")
                                                  for c in scenario["answer_carries"])
    return ok, " ".join(got.get("text", "").split())
