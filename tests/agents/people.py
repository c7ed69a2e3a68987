"""Who answers, a strategy per case.

A person is set up before the agent starts (`mcp_env` goes into the MCP server's environment
through the agent's own MCP configuration), acts while the agent runs (`serve`, on a thread of
its own, until the deadline), and is stopped after it. `expect` says what the model should get
when this person is the one asked.
"""

import os
import re
import signal
import subprocess
import threading
import time

from term import Terminal


class Expect:
    """What the model should get: a status, and text that its answer must carry; with
    `exact`, the answers' values must be those and nothing else (run.py, `exact_values`)."""

    def __init__(self, status, carries=(), why="", exact=False):
        self.status = status
        self.carries = list(carries)
        self.why = why
        self.exact = exact

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
    cols = 100

    def __init__(self, interview, case_dir, scenario):
        super().__init__(interview, case_dir, scenario)
        self.inbox = os.path.join(case_dir, "inbox")
        os.makedirs(self.inbox, exist_ok=True)
        self.term = None

    def mcp_env(self):
        return {"INTERVIEW_INBOX": self.inbox}

    def start(self, env):
        env = dict(env, INTERVIEW_INBOX=self.inbox)
        self.term = Terminal([self.interview, "inbox"], env, self.dir, rows=30, cols=self.cols,
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


class Retry(Inbox):
    """The person answers in `interview inbox`, but stops the agent's first run while its
    question waits there (Ctrl-C at the agent's terminal), and runs it again. The inbox must
    withdraw the question at once and say so; a key pressed while nothing is shown answers
    nothing; the second run's question is shown as asked again, and what the person answers it
    is what that run's model gets: nothing of the first run's, which nobody answered.

    run.py's `run_retry` starts and stops the runs; this person watches the inbox, interrupts
    the agent and answers. A step sets `failure` when the inbox does not show what it must,
    and returns a false value."""

    name = "retry"
    cols = 140  # the withdrawal's line (about 110 characters) on one row, to be read whole
    # Pressed while nothing is shown: Enter alone would take the first option (Postgres) of a
    # question it reached, which the person's own answer (SQLite) is not.
    IDLE_KEYS = ["enter"]

    def __init__(self, interview, case_dir, scenario):
        super().__init__(interview, case_dir, scenario)
        self.question = scenario["inbox_keys"][0][0]  # the first step's pattern
        self.answered_at = None  # when the person pressed their answer's keys in run 2

    def serve(self, deadline):
        pass  # the steps below are run.py's to call, between the runs

    def sees_question(self, limit):
        """Run 1's question is on the inbox's screen."""
        if self.failure:
            return False
        if not self.term.wait_for(self.question, limit):
            self.failure = "the inbox never showed the first run's question"
            return False
        self.notes.append("run 1's question is on the inbox's screen")
        return True

    def interrupt(self, proc):
        """Ctrl-C at the agent's terminal: SIGINT to its foreground process group, every
        process in it (a headless run started without a terminal is the leader of its own)."""
        time.sleep(0.3)  # as a person would: see the question come, turn to the agent
        os.killpg(proc.pid, signal.SIGINT)
        self.notes.append("Ctrl-C to the agent (SIGINT to its process group)")
        return time.monotonic()

    def sees_withdrawn(self, limit, ways):
        """The inbox says the question was withdrawn, in one of `ways` (names of WITHDRAWN),
        and shows nothing waiting after it: its last words are 'Waiting for questions…', and
        no 'more waiting' line. The way it said it, or None."""
        said = self.term.wait_any({way: WITHDRAWN[way] + r".*Waiting for questions"
                                   for way in ways}, limit)[0]
        if not said:
            self.failure = "the inbox never said the question was withdrawn (%s)" % " or ".join(
                "'%s'" % way for way in ways)
            return None
        screen = self.term.text()
        after = screen[screen.rfind("✖ "):].splitlines()[1:]
        shown = [line.strip() for line in after if line.strip()]
        if shown != ["Waiting for questions…"] or "more waiting" in screen:
            self.failure = "after the withdrawal the inbox still shows: %r" % shown
            return None
        self.notes.append("the inbox said: " + screen[screen.rfind("✖ "):].splitlines()[0])
        return said

    def presses_while_idle(self):
        """Keys pressed while the inbox shows no question (a person turning back to it too
        soon, or pressing Enter to see whether it is alive)."""
        self.term.press(*self.IDLE_KEYS)
        self.notes.append("pressed %s while nothing was shown" % " ".join(self.IDLE_KEYS))
        time.sleep(0.5)

    def answers_again(self, limit, still_waiting):
        """Run 2's question, shown as asked again (afresh: nothing was typed to run 1), is
        answered with the scenario's keys. `still_waiting()` says whether the run is still
        running and unanswered, just before the keys: a run that had been handed something
        already would be done."""
        again = ASKED_AGAIN + ".*" + self.question
        deadline = time.monotonic() + limit
        while not self.term.wait_for(again, 0.5):
            if not still_waiting():
                self.failure = "the second run was done before the inbox asked it again"
                return False
            if time.monotonic() > deadline:
                self.failure = "the inbox never showed the question as asked again"
                return False
        if not re.search(AFRESH, self.term.text()):
            self.failure = "the inbox did not say the run was new, asked afresh"
            return False

        def ready(step):
            if step == 0:  # the moment the person answers
                if not still_waiting():
                    self.failure = "the second run was done before the person answered"
                    return False
                self.answered_at = time.monotonic()
            return True

        steps = [(again, self.scenario["inbox_keys"][0][1])] + self.scenario["inbox_keys"][1:]
        if not press(self, self.term, steps, time.monotonic() + STEP_LIMIT, "the inbox", ready):
            return False
        if not self.term.wait_for(ASKED_AGAIN + r".*✔ Sent to", STEP_LIMIT):
            self.failure = "the inbox never said the answer was sent"
            return False
        return True

    def expect(self, agent, mode):
        return Expect("answered", self.scenario.get("answer_carries", ()),
                      why="the first run was interrupted while its question waited in the inbox; "
                      "the second run's question, asked again there, was answered")


# What the inbox says of a question withdrawn: its asker went away (the connection closed:
# killed, or its process group interrupted), or withdrew it itself (the MCP call was
# cancelled); and of a retry of it.
WITHDRAWN = {
    "stopped waiting": r"✖ [^\n]+ stopped waiting: nothing was sent to it\.",
    "withdrew": r"✖ [^\n]+ withdrew this question before anything was answered\.",
}
ASKED_AGAIN = r"── [^\n]+ asks again"
AFRESH = (r"\(the run that asked this moments ago stopped waiting; this is a new run, "
          r"asked afresh\)")


class Remote(Person):
    """The person answers on the team inbox, over its HTTP API (as its page does), and the
    agent reaches the team inbox itself: no `interview mcp` runs beside it, only the remote
    MCP server `interview inbox serve` serves at /mcp (Streamable HTTP), configured in the
    agent's own form for a remote server, with an agent's token as `Authorization: Bearer`.

    `start` makes the inbox (SQLite in the case's folder), a token for the agent and one for
    the person, and starts the server; `endpoint` is then what the agent is configured with
    (agents.py, `remote_server`). The URL names the person (`?to=`), so that the agent's
    client is seen to keep the URL's query. `serve` polls `GET /api/questions` and answers
    each step with the scenario's `remote_replies` (the answers the inbox person's keys give),
    once a question of that kind and prompt is open."""

    name = "remote"
    who = "ann"  # the person, and whom the agent's questions are for
    asker = "agent"  # the agent token's name

    def __init__(self, interview, case_dir, scenario):
        super().__init__(interview, case_dir, scenario)
        self.team = os.path.join(case_dir, "team")
        os.makedirs(self.team, exist_ok=True)
        self.db = os.path.join(self.team, "inbox.sqlite3")
        self.server = None
        self.base = None  # http://127.0.0.1:PORT
        self.agent_token = self.person_token = None
        self.asked = []  # the questions as the person saw them, one per step
        self.stopped = threading.Event()  # the case is over: `serve` gives up quietly

    def start(self, env):
        def token(*who):
            return subprocess.run([self.interview, "inbox", "token", "add", "--db", self.db, *who],
                                  check=True, capture_output=True, text=True, env=env,
                                  timeout=30).stdout.strip()
        try:
            self.agent_token = token("--agent", self.asker)
            self.person_token = token("--person", self.who)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            self.failure = "`interview inbox token add` failed: %s" % (
                getattr(e, "stderr", "") or e)
            return
        # Port 0: the server says which port it took, on its first line.
        self.log = open(os.path.join(self.dir, "inbox-serve.log"), "w")
        self.server = subprocess.Popen(
            [self.interview, "inbox", "serve", "--db", self.db, "--listen", "127.0.0.1:0"],
            env=env, cwd=self.team, stdin=subprocess.DEVNULL, stdout=self.log,
            stderr=subprocess.PIPE, text=True)
        first = self.server.stderr.readline()
        self.log.write(first)
        found = re.search(r"listens on (http://127\.0\.0\.1:\d+)", first)
        if not found:
            self.failure = "`interview inbox serve` did not start: %r" % first.strip()
            return
        self.base = found.group(1)
        # The rest of its words, into the log, so that its pipe never fills.
        threading.Thread(target=lambda: [self.log.write(line) for line in self.server.stderr],
                         daemon=True).start()

    def endpoint(self):
        """(URL, agent token) for the agent's configuration. With no server up, a port where
        nothing listens (discard's): the agent still gets a remote server, and fails to reach
        it, rather than another way of asking."""
        base = self.base or "http://127.0.0.1:9"
        return base + "/mcp?to=" + self.who, self.agent_token or "no-token"

    def api(self, path, body=None):
        import json
        import urllib.error
        import urllib.request
        request = urllib.request.Request(
            self.base + path, data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": "Bearer " + self.person_token,
                     "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")
        except OSError as error:  # the server is gone (stopped, or it died)
            return None, str(error)

    def serve(self, deadline):
        if self.failure:
            return
        answered = set()  # (question, seq): a step once answered is not answered again
        for step, (kind, prompt, reply) in enumerate(self.scenario["remote_replies"]):
            # The first step waits for the agent's call; a next one comes at once.
            by = deadline if step == 0 else min(deadline, time.monotonic() + STEP_LIMIT)
            shown = None
            while shown is None and time.monotonic() < by:
                status, listed = self.api("/api/questions")
                if self.stopped.is_set():
                    return
                if status != 200:
                    self.failure = "GET /api/questions: %s %s" % (status, listed)
                    return
                open_ = [q for q in listed["questions"] if (q["question"], q["seq"]) not in answered]
                if len(open_) > 1:
                    self.failure = "%d questions open at once, one expected" % len(open_)
                    return
                shown = open_[0] if open_ else None
                if shown is None:
                    time.sleep(0.2)
            if shown is None:
                self.failure = "the team inbox never showed a %s step %r" % (kind, prompt)
                return
            self.asked.append(shown)
            said = (shown.get("frame") or {}).get("prompt") or ""
            if shown["kind"] != kind or not re.search(prompt, said):
                self.failure = "step %d: the team inbox showed a %s %r, not a %s %r" % (
                    step + 1, shown["kind"], said, kind, prompt)
                return
            if shown.get("to") != self.who:
                self.failure = "the question is for %r, not %r (the URL's ?to=)" % (
                    shown.get("to"), self.who)
                return
            time.sleep(0.3)  # as a person would: read, then answer
            path = "/api/questions/%s/steps/%s/reply" % (shown["question"], shown["seq"])
            status, body = self.api(path, reply)
            if status != 200:
                self.failure = "step %d: the reply %s was refused: %s %s" % (
                    step + 1, reply, status, body)
                return
            answered.add((shown["question"], shown["seq"]))
            self.notes.append("answered the %s %r with %s" % (kind, said, reply))

    def route(self):
        """What the team inbox saw of the agent's call, for the summary's MCP column (there is
        no line recorder between an agent and a remote server)."""
        if not self.asked:
            return "HTTP /mcp; no question came"
        first = self.asked[0]
        client = (first.get("from") or {}).get("client") or "?"
        return "HTTP /mcp; asked by agent '%s', client %s, to %s; %d steps answered" % (
            first.get("agent"), client, first.get("to"), len(self.notes))

    def stop(self):
        self.stopped.set()
        if self.server:
            self.server.terminate()
            try:
                self.server.wait(10)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()
            self.log.close()

    def expect(self, agent, mode):
        return Expect("answered", self.scenario.get("answer_carries", ()), exact=True,
                      why="the person answered on the team inbox, to the remote MCP server")


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


def press(person, term, steps, deadline, where, ready=None):
    """Presses each step's keys once its pattern is on `term`'s screen. A key is a name of
    term.KEYS, or `text:...`, typed a character at a time. Notes what was done; on a pattern
    that never shows, sets the person's failure and stops. `ready(step)`, if given, is asked
    just before a step's keys, and stops the steps when it says False."""
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
        if ready and not ready(step):
            return False
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


PEOPLE = {"nobody": Nobody, "inbox": Inbox, "retry": Retry, "own": Own, "remote": Remote}


def has_team_mcp(interview):
    """Whether this build's team inbox serves MCP at /mcp (its `serve` help says so)."""
    try:
        probe = subprocess.run([interview, "inbox", "serve", "--help"], capture_output=True,
                               text=True, timeout=20, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0 and "/mcp" in probe.stdout + probe.stderr


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
