#!/usr/bin/env python3
"""Real agents calling `interview mcp`, against a fake model server on 127.0.0.1.

    python3 tests/agents/run.py --interview target/debug/interview [--with-inbox]

Installs the pinned agents from npm into target/agents (once per version), then, in a network
namespace where only loopback exists, runs each agent headless and in its TUI (in a pseudo-
terminal) with `interview mcp` configured as its README section says. The fake model makes one
call of the `interview` tool and records the tool result the agent sends back: that is what a
real model would have read. Each case's person (nobody, or someone answering in
`interview inbox`) says what the model should get. A summary table ends the run; the exit code
is non-zero when a case got something else than expected, unless the case is a known failure
listed in KNOWN_FAILURES with its reason (and a known failure that passes is reported too).
With the inbox, one more case per agent (headless, `run_retry`) interrupts a run whose question
waits in the inbox, as Ctrl-C at its terminal would, and runs it again: the second run must get
only what the person answered it. The remote person (`--persons remote`, and its headless
cases with the inbox) configures the agent with the team inbox's remote MCP server (`interview
inbox serve`, at /mcp) instead of `interview mcp`, and answers over the inbox's HTTP API.

Everything a case did is kept under target/agents/runs/latest/<case>/: the model requests
(model.jsonl), the MCP lines (mcp.trace), the terminal output (pty.log, screen.txt), stdout and
stderr, and result.json.
"""

import argparse
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
# pyte, when run.py has installed it (term.py falls back to plain text without it).
sys.path.insert(0, os.path.join(REPO, "target", "agents", "pylib"))

import agents as agent_defs  # noqa: E402
import differential  # noqa: E402
import fakemodel  # noqa: E402
import people  # noqa: E402
import sandbox  # noqa: E402
from term import Terminal  # noqa: E402

PYTE = "pyte==0.8.2"

SCENARIOS = {
    "single": {
        "prompt": "Ask me which database to use, with the interview tool.",
        "arguments": {"questions": [
            {"id": "database", "header": "Database", "question": "Which database?",
             "options": ["Postgres", "SQLite"]},
        ]},
        # What the inbox's person presses, once the question is on the inbox's screen.
        "inbox_keys": [(r"Which database\?", ["down", "enter"])],
        # What the remote person replies on the team inbox's HTTP API, step by step (the kind
        # and prompt of the step, and the reply: the shapes of host/src/ui/web/wire.rs),
        # answering as the inbox person's keys do.
        "remote_replies": [("select", r"Which database\?", {"picked": 1})],
        "answer_carries": ["SQLite"],
    },
    "batch": {
        "prompt": "Ask me which database and which checks, with the interview tool.",
        "arguments": {"questions": [
            {"id": "database", "header": "Database", "question": "Which database?",
             "options": ["Postgres", "SQLite"]},
            {"id": "checks", "header": "Checks", "question": "Which checks should run first?",
             "multi": True, "options": ["Unit tests", "Lint", "Migrations dry-run"]},
        ]},
        "inbox_keys": [
            (r"Which database\?", ["enter"]),
            (r"Which checks should run first\?", ["space", "down", "down", "space", "enter"]),
            (r"Review your answers", ["enter"]),
        ],
        "remote_replies": [
            ("select", r"Which database\?", {"picked": 0}),
            ("multi_select", r"Which checks should run first\?", {"picked": [0, 2]}),
            ("review", r"", {"review": "submit"}),
        ],
        "answer_carries": ["Postgres", "Unit tests", "Migrations dry-run"],
    },
}

# Cases whose result is known to be wrong today: (agent, mode, person) -> why. They still run
# and are checked against what is right; a listed case that passes is reported as XPASS and
# fails the run, so that this list is kept true.
# Differential cases are keyed (agent, "differential", case).
KNOWN_FAILURES: dict = {}

# How long each step may take, in seconds.
LIMITS = {
    "install": 900, "tui_ready": 45, "call": 40, "headless": 90,
    "result": 30, "inbox_result": 60, "pending": 6, "final_text": 15,
    # The retry case: an agent's exit on Ctrl-C, and the inbox's word that the question was
    # withdrawn ("at once": the asker's socket closes, or it withdraws on the signal).
    "ctrl_c": 10, "withdrawn": 5,
}


def log(*parts):
    print(*parts, flush=True)


# --- outside the sandbox: installing ---------------------------------------------------------

def install(root, chosen):
    """npm-installs each chosen agent at its pinned version, unless it is there already."""
    times = {}
    for agent in chosen:
        started = time.monotonic()
        have = agent.installed_version()
        if have == agent.version and os.path.exists(agent.exe):
            times["install " + agent.name] = 0.0
            continue
        log(f"installing {agent.package}@{agent.version} into {agent.root} (had {have})")
        os.makedirs(agent.root, exist_ok=True)
        with open(os.path.join(agent.root, "package.json"), "w") as f:
            json.dump({"private": True, "name": "interview-agents-" + agent.name}, f)
        done = subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", agent.root,
             f"{agent.package}@{agent.version}"],
            capture_output=True, text=True, timeout=LIMITS["install"])
        if done.returncode != 0 or agent.installed_version() != agent.version:
            sys.exit(f"npm install {agent.package}@{agent.version} failed:\n{done.stderr[-2000:]}")
        times["install " + agent.name] = time.monotonic() - started
    return times


def install_pyte(root):
    """pyte (a terminal screen in Python) under target/agents/pylib, for reading the TUIs."""
    lib = os.path.join(root, "pylib")
    if not os.path.exists(os.path.join(lib, "pyte")):
        log(f"installing {PYTE} into {lib}")
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                               "--disable-pip-version-check", "--target", lib, PYTE],
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            log("pyte could not be installed; the TUIs are read as plain text:\n" + done.stderr[-500:])
    return lib


def versions(chosen):
    """Each agent's own word for its version (a placeholder binary or a broken install fails
    here, before any case)."""
    out = {}
    for agent in chosen:
        try:
            got = subprocess.run([agent.exe, "--version"], capture_output=True, text=True,
                                 timeout=60, env=dict(os.environ, HOME=os.path.join(agent.root, "version-home")),
                                 stdin=subprocess.DEVNULL)
            out[agent.name] = (got.stdout.strip() or got.stderr.strip()).splitlines()[0]
        except (OSError, subprocess.TimeoutExpired, IndexError) as e:
            out[agent.name] = f"unknown ({e})"
    return out


# --- inside: one case ------------------------------------------------------------------------

class Case:
    def __init__(self, agent, mode, person, scenario, spec=None):
        self.agent, self.mode, self.person, self.scenario = agent, mode, person, scenario
        self.id = f"{agent}-{mode}-{person}-{scenario}"
        # A differential case's scenario (differential.py): the agent's own tool is called
        # and answered on its screen (person "own"), or interview's tool of the agent's
        # dialect, answered in the inbox; None for the scenarios above.
        self.spec = spec


def tool_result_text(result):
    """The text the model reads in a recorded tool result, whatever the dialect; and whether
    the agent marked it as an error."""
    if result is None:
        return None, False
    if "tool_use_id" in result:  # Anthropic
        content = result.get("content")
        if isinstance(content, list):
            content = "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
        return str(content or ""), bool(result.get("is_error"))
    if "call_id" in result:  # OpenAI Responses
        output = result.get("output")
        if isinstance(output, list):
            output = "\n".join(b.get("text", "") for b in output if isinstance(b, dict))
        elif isinstance(output, dict):
            output = output.get("content") or json.dumps(output)
        return str(output or ""), False
    response = result.get("response") or {}  # Gemini functionResponse
    if "error" in response:
        return str(response["error"]), True
    output = response.get("output", response)
    return output if isinstance(output, str) else json.dumps(output), False


PHRASES = [
    (r"No human is available to answer", "unavailable"),
    (r"^\s*(<[^>]+>\s*)?User (selected|answered|wrote|chose|picked|confirmed|entered)", "answered"),
    (r"User (cancelled|dismissed)", "cancelled"),
    (r"User declined", "declined"),
    (r"The request is invalid", "invalid"),
]


def status_of(text):
    """(status, how it was read): from the result JSON the agent passed on when it did, else
    from the plugin's words."""
    for start in [m.start() for m in re.finditer(r"\{", text)][:50]:
        try:
            value, _ = json.JSONDecoder().raw_decode(text[start:])
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("status"), str):
            return value["status"], "json"
    for pattern, status in PHRASES:
        if re.search(pattern, text, re.M):
            return status, "text"
    return "other: " + " ".join(text.split())[:80], "text"


def mcp_route(trace_path):
    """What went over MCP, in a few words: protocol revision, whether a form was sent and what
    came back, and the status the server returned."""
    try:
        with open(trace_path) as f:
            lines = [json.loads(l) for l in f if l.strip()]
    except OSError:
        return {"summary": "no MCP trace"}
    msgs = []
    for entry in lines:
        if entry["dir"] in ("C>", "S>"):
            try:
                msgs.append((entry["t"], entry["dir"], json.loads(entry["line"])))
            except ValueError:
                msgs.append((entry["t"], entry["dir"], {"unparsed": entry["line"][:200]}))
    version, form, reply, status, calls = None, None, None, None, 0
    env = {}
    for entry in lines:
        if entry["dir"] == "--" and '"started"' in entry["line"]:
            env.update(json.loads(entry["line"]).get("env") or {})
    for t, d, m in msgs:
        params = m.get("params") or {}
        meta = params.get("_meta") or {}
        if d == "C>" and m.get("method") == "initialize" and not version:
            version = params.get("protocolVersion")
        if d == "C>" and not version and meta.get("io.modelcontextprotocol/protocolVersion"):
            version = meta["io.modelcontextprotocol/protocolVersion"]
        if d == "C>" and m.get("method") == "tools/call":
            calls += 1
            if form and not reply and params.get("inputResponses"):
                action = (params["inputResponses"].get("form") or {}).get("action")
                reply = (action, t - form[0])
        if d == "S>" and m.get("method") == "elicitation/create" and not form:
            form = (t, m.get("id"))
        if d == "S>" and (m.get("result") or {}).get("resultType") == "input_required" and not form:
            form = (t, None)
        if d == "C>" and form and not reply and form[1] is not None and m.get("id") == form[1] \
                and "method" not in m:
            reply = ((m.get("result") or {}).get("action") or "error", t - form[0])
        if d == "S>" and isinstance((m.get("result") or {}).get("structuredContent"), dict):
            status = m["result"]["structuredContent"].get("status")
    parts = [f"MCP {version or '?'}"]
    if form:
        kind = "elicitation/create" if form[1] is not None else "input_required"
        parts.append(f"{kind} form → " + (f"{reply[0]} in {reply[1] * 1000:.0f} ms" if reply else "no reply"))
    else:
        parts.append("no form")
    if status:
        parts.append(f"server: {status}")
    return {"summary": "; ".join(parts), "version": version, "form": bool(form),
            "reply": reply[0] if reply else None, "server_status": status, "calls": calls,
            "server_env": env}


def reap(case_dir):
    """Ends what a case left running: the processes (by id) whose command line, working
    directory or HOME lies in the case's folder. Codex's TUI, for one, starts a daemon
    (`codex app-server`, in a session of its own) that outlives it and runs the MCP servers."""
    ended = []
    for sig in (signal.SIGTERM, signal.SIGKILL):
        found = []
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmdline = f.read().decode(errors="replace")
                with open(f"/proc/{pid}/environ", "rb") as f:
                    environ = f.read().decode(errors="replace").split("\0")
                cwd = os.readlink(f"/proc/{pid}/cwd")
            except OSError:
                continue
            home = next((e[5:] for e in environ if e.startswith("HOME=")), "")
            if case_dir in cmdline or cwd.startswith(case_dir) or home.startswith(case_dir):
                found.append(int(pid))
        for pid in found:
            try:
                os.kill(pid, sig)
                ended.append(pid)
            except ProcessLookupError:
                pass
        if not found:
            break
        time.sleep(1.0)
    return sorted(set(ended))


def next_message_sent(run, spec):
    """Whether the agent sent the model the person's next message (`spec["next_message"]`)."""
    said = spec.get("next_message")
    return bool(said) and any(said in fakemodel._texts(r.get("body")) for r in list(run.requests)
                              if r.get("method") == "POST")


def case_home(case, ctx):
    """The case's folder, the home in it, and the project folder (a git repository) in that;
    the home has a warm plugin cache, as anyone who ran interview once has: a cold one makes
    the first start compile the component for seconds, and Codex starts its first turn without
    waiting for the server (the tool is then missing from that turn)."""
    cdir = os.path.join(ctx["runs"], case.id)
    home = os.path.join(cdir, "home")
    work = os.path.join(home, "work")
    os.makedirs(work)
    subprocess.run(["git", "init", "-q", work], check=True)
    shutil.copytree(ctx["plugin_cache"], os.path.join(home, ".cache", "interview"))
    return cdir, home, work


def shed_installs(runs):
    """Removes what an agent installed into a case's home for itself: Codex's TUI copies its
    400 MB app server into every home it starts in, which is 5 GB over a run's cases, more than
    a CI machine may have free. The case's logs, screens and traces stay."""
    for installed in glob.glob(os.path.join(runs, "*", "home", ".codex", "packages")):
        shutil.rmtree(installed, ignore_errors=True)


def case_env(ctx, home):
    """What every process of a case starts from (the agent gets its own variables on top)."""
    env = {
        "PATH": ctx["bin"] + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home, "USER": "agent", "LOGNAME": "agent", "SHELL": "/bin/bash",
        "LANG": "C.UTF-8", "TERM": "xterm-256color", "COLORTERM": "truecolor",
        "TMPDIR": os.path.join(home, "tmp"),
    }
    os.makedirs(env["TMPDIR"], exist_ok=True)
    return env


def tapped(ctx, command, trace):
    """The MCP server's command, through the line recorder unless --no-tap."""
    if not ctx["tap"]:
        return command
    return [sys.executable, os.path.join(HERE, "mcptap.py"), trace, "--", *command]


def start_headless(agent, prompt, work, env, cdir, suffix=""):
    """The agent headless: stdin closed, stdout and stderr to files, no terminal, in a process
    group (and session) of its own, as a script or CI job starts it."""
    with open(os.path.join(cdir, "stdout" + suffix), "wb") as out, \
            open(os.path.join(cdir, "stderr" + suffix), "wb") as err:
        return subprocess.Popen(agent.headless(prompt), cwd=work, env=env,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                start_new_session=True)


def end_group(proc):
    """Ends what is left of a headless run's process group."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
            time.sleep(0.2)
        except (ProcessLookupError, PermissionError):
            break
    proc.wait()


def run_case(case, ctx):
    if case.person == "retry":
        return run_retry(case, ctx)
    agent = ctx["agents"][case.agent]
    scenario = case.spec or SCENARIOS[case.scenario]
    cdir, home, work = case_home(case, ctx)
    marker = "[" + case.id + "]"
    tool = "interview"
    command = ["interview", "mcp"]
    if case.spec:
        # The same call, to the agent's own tool or to interview's tool of its dialect.
        if case.person == "own":
            tool = case.spec["own_tool"]
        else:
            tool = case.spec["dialect"]
            command += ["--tools", case.spec["dialect"]]
    run = fakemodel.Run(marker, scenario["arguments"], os.path.join(cdir, "model.jsonl"),
                        tool=tool, own=case.person == "own")
    person = people.PEOPLE[case.person](ctx["interview"], cdir, scenario)
    times = {}
    notes = []
    pending = False
    trace = os.path.join(cdir, "mcp.trace")
    base_env = case_env(ctx, home)
    command = tapped(ctx, command, trace)
    started = time.monotonic()
    dns_from = started
    with fakemodel.FakeModel(run) as server:
        # The person first: the remote person's server is what the agent is configured with.
        person.start(base_env)
        remote = person.endpoint() if hasattr(person, "endpoint") else None
        agent.configure(home, work, server.url, command, person.mcp_env(),
                        own_tool=case.spec is not None, remote=remote)
        env = dict(base_env, **agent.env(home, server.url),
                   **(agent.own_tool_env if case.spec else {}),
                   **(agent.remote_env(remote[1]) if remote else {}))
        prompt = scenario["prompt"] + " " + marker
        deadline = time.monotonic() + LIMITS["headless"]
        serving = threading.Thread(target=person.serve, args=(deadline,), daemon=True)
        serving.start()
        if case.mode == "headless":
            proc = start_headless(agent, prompt, work, env, cdir)
            try:
                proc.wait(LIMITS["headless"])
            except subprocess.TimeoutExpired:
                notes.append(f"headless run still going after {LIMITS['headless']} s: stopped")
            end_group(proc)
            times["agent"] = time.monotonic() - started
            notes.append(f"exit {proc.returncode}")
        else:
            term = Terminal(agent.interactive(), env, work, log_path=os.path.join(cdir, "pty.log"))
            if hasattr(person, "attach"):
                person.attach(term)
            try:
                ready_by = time.monotonic() + LIMITS["tui_ready"]
                ready = term.wait_for(agent.ready, LIMITS["tui_ready"])
                while ready and agent.busy and re.search(agent.busy, term.text(), re.M) \
                        and time.monotonic() < ready_by:
                    time.sleep(0.2)
                if not ready:
                    notes.append("the TUI never showed its prompt")
                else:
                    times["tui ready"] = time.monotonic() - started
                    term.quiet(1.0, 10)
                    term.type(prompt)
                    time.sleep(1.0)
                    term.press("enter")
                    sent = time.monotonic()
                    if not run.wait(lambda: run.call_id is not None, 8):
                        # A TUI may still be busy starting (MCP servers); Enter again.
                        term.press("enter")
                    run.wait(lambda: run.call_id is not None, LIMITS["call"])
                    if run.call_id is not None:
                        times["prompt → call"] = run.called_at - sent
                        # As long as nobody answers, a form on the agent's screen shows in
                        # a few seconds, and anything else comes back at once; a person
                        # (who hasn't given up) may take longer.
                        def limit():
                            if case.person != "nobody" and not person.failure:
                                return LIMITS["inbox_result"]
                            return LIMITS["pending" if agent.renders_forms else "result"]
                        since = time.monotonic()
                        # An own tool that gives the model nothing (the agent drops the call):
                        # the person's last keys send the next message, and the request that
                        # carries it is what the case waits for.
                        nothing = case.person == "own" and case.spec.get("own_gives_nothing")
                        while run.result is None and time.monotonic() < since + limit():
                            run.wait(lambda: run.result is not None, 0.5)
                            if nothing and person.done.is_set() and next_message_sent(run, case.spec):
                                break
                            if case.spec and person.failure:
                                break  # the keys went wrong: nothing more will come
                        if run.result is not None:
                            term.wait_for(re.escape(fakemodel.FINAL_TEXT), LIMITS["final_text"])
                        elif agent.form and term.wait_for(agent.form, 1):
                            pending = True
                            notes.append("the form is on the agent's screen, waiting")
            finally:
                with open(os.path.join(cdir, "screen.txt"), "w") as f:
                    f.write(term.text())
                term.stop()
                times["agent"] = time.monotonic() - started
        serving.join(timeout=1)
        person.stop()
    wanted = person.mcp_env()
    if wanted and ctx["tap"]:
        reached = mcp_route(trace).get("server_env", {})
        notes.append("the MCP configuration's env reached the server: " + ", ".join(
            f"{k} {'yes' if reached.get(k) == v else 'NO'}" for k, v in wanted.items()))
    left = reap(cdir)
    if left:
        notes.append(f"ended {len(left)} processes left running: {left}")
    if run.called_at and run.result_at:
        times["call → result"] = run.result_at - run.called_at
    route = mcp_route(trace) if ctx["tap"] else {"summary": "(no tap)"}
    if hasattr(person, "route"):  # a remote server: nothing of ours between agent and server
        route = {"summary": person.route()}
    text, is_error = tool_result_text(run.result)
    if run.call_id is None:
        main = [r for r in run.requests if marker in json.dumps(r.get("body", ""))]
        got, how = ("no call: the tool was not offered" if main else "no call: no request"), ""
    elif case.spec and case.person == "own" and case.spec.get("own_gives_nothing"):
        got, how = ("nothing, the call dropped" if next_message_sent(run, case.spec)
                     else "no result"), ""
    elif run.result is None:
        got, how = ("pending" if pending else "no result"), ""
    elif case.spec:
        got, how = "a result", ""  # judged beside the other run of its pair
    else:
        got, how = status_of(text)
    if is_error:
        how += ", is_error"
    expect = person.expect(agent, case.mode)
    ok = got == expect.status and all(c in (text or "") for c in expect.carries)
    if expect.exact and ok and exact_values(text) != expect.carries:
        ok = False
        got += " %s" % exact_values(text)
    if case.spec:
        ok = got in ("a result", "nothing, the call dropped") and not person.failure
    known = None if case.spec else KNOWN_FAILURES.get((case.agent, case.mode, case.person))
    if person.failure and not ctx["inbox_exists"] and case.person == "inbox":
        known = "this build of interview has no `inbox` command yet"
    if not ok and not ctx["team_mcp"] and case.person == "remote":
        known = "this build's team inbox serves no MCP at /mcp yet"
    verdict = ("XPASS" if known else "PASS") if ok else ("XFAIL" if known else "FAIL")
    hosts = ctx["dns"].since(dns_from) if ctx["dns"] else []
    outcome = {
        "case": case.id, "agent": case.agent, "mode": case.mode, "person": case.person,
        "scenario": case.scenario, "got": got, "read_from": how.strip(", "),
        "expected": str(expect), "why_expected": expect.why, "verdict": verdict,
        "known_failure": known, "model_read": text, "tool_result": run.result,
        "tool_name": run.tool_name, "mcp": route, "vendor_hosts": hosts,
        "person_failure": person.failure, "person_notes": person.notes, "notes": notes,
        "times": {k: round(v, 2) for k, v in times.items()},
        "fake_server_errors": run.errors,
        "requests": [f"{r['method']} {r['path']} → {r.get('answer')}" for r in run.requests],
    }
    with open(os.path.join(cdir, "result.json"), "w") as f:
        json.dump(outcome, f, indent=1)
    return outcome


def answer_values(text):
    """The values a result gave the model: each answer's `value` in the result JSON where the
    agent passed it on, else what the plugin's words say was chosen ('User selected: 2.
    SQLite')."""
    for start in [m.start() for m in re.finditer(r"\{", text or "")][:50]:
        try:
            value, _ = json.JSONDecoder().raw_decode(text[start:])
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("answers"), list):
            return [a.get("value") for a in value["answers"] if isinstance(a, dict)]
    return re.findall(r"User selected: (?:\d+\. )?([^\n<]+?)\s*$", text or "", re.M)


def exact_values(text):
    """The values a result gave the model, a multi-select's one by one, as a flat list: from
    the JSON (`["Unit tests", "Migrations dry-run"]`) or from the plugin's words ("User
    selected: Unit tests, Migrations dry-run"; no option of the scenarios has a comma)."""
    flat = []
    for value in answer_values(text):
        if isinstance(value, list):
            flat += value
        elif isinstance(value, str):
            flat += value.split(", ")
        else:
            flat.append(value)
    return flat


def mcp_servers(trace):
    """The MCP servers a trace saw start: pid -> exit code as the tap saw it (negative: the
    signal that ended it), None while it runs."""
    servers = {}
    try:
        with open(trace) as f:
            for line in f:
                entry = json.loads(line)
                if entry["dir"] == "--":
                    said = json.loads(entry["line"])
                    if "started" in said:
                        servers[said["pid"]] = None
                    elif "exit" in said and "pid" in said:
                        servers[said["pid"]] = said["exit"]
    except (OSError, ValueError, KeyError):
        pass
    return servers


def proc_stat(pid):
    """(state, process group) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return fields[0], int(fields[2])
    except (OSError, IndexError, ValueError):
        return None


def running(pid):
    stat = proc_stat(pid)
    return stat is not None and stat[0] != "Z"


def client_said(trace, since):
    """What the client sent over MCP after `since` (wall-clock time), by method."""
    said = []
    try:
        with open(trace) as f:
            for line in f:
                entry = json.loads(line)
                if entry["dir"] == "C>" and entry["t"] >= since:
                    said.append(json.loads(entry["line"]).get("method") or "a response")
    except (OSError, ValueError, KeyError):
        pass
    return said


def run_retry(case, ctx):
    """The retry case (person `retry`, headless): the agent's first run is interrupted as a
    person would at its terminal (SIGINT to its process group) while its question waits in
    the inbox, and the inbox must withdraw the question at once. The person presses a key
    while nothing is shown, and runs the same agent with the same case again, in the same
    folder, with the same inbox open: the question must be shown as asked again, and what the
    person answers it there must be exactly what the second run's model gets. The first run's
    question was never answered: an answer (or a cancel) the second run got without the person
    would have come from the first run, or from the key pressed in between.

    What each agent does with the Ctrl-C is its own (`ctrl_c` in agents.py, said there as
    observed); the case checks that too, since the withdrawal depends on it."""
    agent = ctx["agents"][case.agent]
    scenario = SCENARIOS[case.scenario]
    cdir, home, work = case_home(case, ctx)
    marker = "[" + case.id + "]"
    prompt = scenario["prompt"] + " " + marker  # the same prompt, and so the same call, twice
    trace = os.path.join(cdir, "mcp.trace")
    command = tapped(ctx, ["interview", "mcp"], trace)
    person = people.Retry(ctx["interview"], cdir, scenario)
    runs = [fakemodel.Run(marker, scenario["arguments"], os.path.join(cdir, f"model-{n}.jsonl"))
            for n in (1, 2)]
    base_env = case_env(ctx, home)
    problems, notes, times = [], [], {}
    interrupted_at = []  # when run 1 was interrupted, once it was
    started = dns_from = time.monotonic()

    def heard():
        """What the person found wrong goes with the problems, and the case goes on: a run 2
        after a question that was not withdrawn shows what a next run gets then."""
        if person.failure:
            problems.append(person.failure)
            person.failure = None

    def one_run(n, server, env, during, wait):
        """Run n of the agent headless, with `during(proc)` acting while it runs, then `wait`
        seconds for it to end; its MCP trace is kept as mcp-n.trace (a server still running
        writes on into it)."""
        server.serve(runs[n - 1])
        proc = start_headless(agent, prompt, work, env, cdir, f"-{n}")
        t = time.monotonic()
        try:
            during(proc)
            try:
                proc.wait(wait)
            except subprocess.TimeoutExpired:
                if wait:
                    problems.append(f"run {n} still going after {wait} s")
        finally:
            end_group(proc)
            times[f"run {n}"] = time.monotonic() - t
            notes.append(f"run {n}: exit {proc.returncode}")
            if os.path.exists(trace):
                os.replace(trace, os.path.join(cdir, f"mcp-{n}.trace"))

    def interrupted(proc):
        """Run 1: Ctrl-C once its question is in the inbox, and what became of it."""
        if not person.sees_question(LIMITS["headless"]):
            return heard()
        if proc.poll() is not None or runs[0].result is not None:
            problems.append("run 1 was done before its question was interrupted")
            return
        # Whether the Ctrl-C reaches interview mcp itself: it does when the agent starts its
        # MCP servers in its own process group.
        groups = {pid: (proc_stat(pid) or (None, None))[1] for pid in mcp_servers(trace)}
        notes.append("run 1: interview mcp in the agent's process group: " + ", ".join(
            f"{pid} {'yes' if group == proc.pid else 'no'}" for pid, group in groups.items()))
        wall = time.time()
        at = person.interrupt(proc)
        interrupted_at.append(at)
        try:
            proc.wait(LIMITS["ctrl_c"])
            times["Ctrl-C → run 1 exits"] = time.monotonic() - at
        except subprocess.TimeoutExpired:
            pass
        exited = proc.poll() is not None
        if exited != agent.ctrl_c["exits"]:
            problems.append(f"run 1 {'exited' if exited else 'kept running'} on Ctrl-C")
        said = person.sees_withdrawn(LIMITS["withdrawn"], agent.ctrl_c["withdrawn"])
        heard()
        if said:
            times["Ctrl-C → withdrawn"] = time.monotonic() - at
            notes.append(f"run 1: the inbox said it {said}")
        # The servers of run 1 (there may be more than one), gone with it or not.
        servers = mcp_servers(trace)
        by = time.monotonic() + LIMITS["ctrl_c"]
        while any(running(pid) for pid in servers) and time.monotonic() < by:
            time.sleep(0.2)
        servers = mcp_servers(trace)
        left = [pid for pid in servers if running(pid)]
        notes.append("run 1: interview mcp after the Ctrl-C: " + ", ".join(
            f"{pid} " + ("still running" if pid in left
                         else f"ended by signal {-code}" if code is not None and code < 0
                         else f"exited {code}" if code is not None
                         else "gone, its tap killed before it could say how")
            for pid, code in servers.items()))
        notes.append("run 1: the client said over MCP after the Ctrl-C: "
                     + (", ".join(client_said(trace, wall)) or "nothing"))
        if bool(left) != agent.ctrl_c["server_outlives"]:
            problems.append(f"run 1's interview mcp {'outlived' if left else 'died with'} "
                            "the Ctrl-C")
        # What the agent told the model after the Ctrl-C, if anything.
        after = [r for r in runs[0].requests if r.get("t", 0) >= at and r["method"] == "POST"]
        notes.append(f"run 1: {len(after)} model requests after the Ctrl-C"
                     + (", with a tool result" if runs[0].result is not None else ""))
        if runs[0].result is not None:
            said = tool_result_text(runs[0].result)[0] or ""
            text = " ".join(said.split())[:80]
            # A result of interview's (answered, cancelled, ...) is one the person never gave
            # to this run. The client's own word that its server went away (opencode says
            # "MCP error -32000: Connection closed" when it is quick enough to tell its model
            # before it exits) is not an answer: noted, not a failure.
            if status_of(said)[0].startswith("other: "):
                notes.append(f"run 1: the client told its model its server was gone: {text}")
            else:
                problems.append(f"run 1's model was given a result: {text}")
        person.presses_while_idle()

    def answered(proc):
        """Run 2: the person answers the question asked again; the run must still be waiting
        for them then."""
        person.answers_again(LIMITS["headless"],
                             lambda: proc.poll() is None and runs[1].result is None)
        heard()

    with fakemodel.FakeModel(runs[0]) as server:
        # One configuration for both runs: the same agent, the same MCP server, the same folder.
        agent.configure(home, work, server.url, command, person.mcp_env())
        env = dict(base_env, **agent.env(home, server.url))
        person.start(base_env)
        try:
            one_run(1, server, env, interrupted, 0)
            if interrupted_at:
                one_run(2, server, env, answered, LIMITS["headless"])
        finally:
            person.stop()
    left = reap(cdir)
    if left:
        notes.append(f"ended {len(left)} processes left running: {left}")
    second = runs[1]
    if second.called_at and second.result_at:
        times["call → result"] = second.result_at - second.called_at
    route = mcp_route(os.path.join(cdir, "mcp-2.trace")) if ctx["tap"] else {"summary": "(no tap)"}
    text, is_error = tool_result_text(second.result)
    expect = person.expect(agent, case.mode)
    got, how = "-", ""
    if interrupted_at:
        if second.call_id is None:
            problems.append("run 2 made no call")
        elif second.result is None:
            problems.append("run 2's model got no result")
        else:
            got, how = status_of(text)
            values = answer_values(text)
            if got != expect.status or values != expect.carries or is_error:
                problems.append(f"run 2's model got {got} {values}"
                                + (" (is_error)" if is_error else ""))
            if person.answered_at is None or second.result_at < person.answered_at:
                took = second.result_at - second.called_at
                problems.append(f"run 2's model got its result {took:.1f} s after the call, "
                                "before the person answered")
    if problems:
        got, how = "; ".join(problems), ""
    ok = not problems
    known = KNOWN_FAILURES.get((case.agent, case.mode, case.person))
    if not ok and not ctx["inbox_exists"]:
        known = "this build of interview has no `inbox` command yet"
    verdict = ("XPASS" if known else "PASS") if ok else ("XFAIL" if known else "FAIL")
    times["agent"] = time.monotonic() - started
    outcome = {
        "case": case.id, "agent": case.agent, "mode": case.mode, "person": case.person,
        "scenario": case.scenario, "got": got, "read_from": how,
        "expected": str(expect) + ", asked again", "why_expected": expect.why,
        "verdict": verdict, "known_failure": known, "model_read": text,
        "tool_result": second.result, "first_run_result": runs[0].result,
        "tool_name": second.tool_name, "mcp": route,
        "vendor_hosts": ctx["dns"].since(dns_from) if ctx["dns"] else [],
        "person_failure": person.failure, "person_notes": person.notes, "notes": notes,
        "times": {k: round(v, 2) for k, v in times.items()},
        "fake_server_errors": runs[0].errors + runs[1].errors,
        "requests": [f"run {n}: {r['method']} {r['path']} → {r.get('answer')}"
                     for n, run in ((1, runs[0]), (2, runs[1])) for r in run.requests],
    }
    with open(os.path.join(cdir, "result.json"), "w") as f:
        json.dump(outcome, f, indent=1)
    return outcome


def run_pair(agent, name, spec, ctx, sides=("own", "inbox")):
    """One differential case: the agent's own tool answered on its screen, and interview's tool
    of its dialect answered in the inbox, the two runs side by side (each with its own home,
    terminal, fake model and inbox); what the model read of each, compared. `sides` may name
    one of the two, to try its keys alone (the case then fails)."""
    runs = {person: {"case": "-", "got": "not run", "verdict": "FAIL", "tool_result": None,
                     "vendor_hosts": [], "times": {}, "person_failure": None,
                     "mcp": {"summary": ""}} for person in ("own", "inbox")}

    def side(person):
        case = Case(agent, "interactive", person, "diff-" + name, spec=spec)
        try:
            runs[person] = run_case(case, ctx)
        except Exception as e:  # noqa: BLE001 - a harness fault is this case's failure
            import traceback
            traceback.print_exc()
            runs[person] = dict(runs[person], case=case.id, got=f"harness error: {e}")

    threads = [threading.Thread(target=side, args=(p,)) for p in sides]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    own, ours = runs["own"], runs["inbox"]
    problems = [f"{who}: {r['got']}" + (f" ({r['person_failure']})" if r.get("person_failure") else "")
                for who, r in (("own tool", own), ("interview", ours)) if r["verdict"] != "PASS"]
    views = None
    if not problems:
        try:
            views = spec["compare"](own["tool_result"], ours["tool_result"])
        except Exception as e:  # noqa: BLE001 - a result of another shape is a difference
            problems.append(f"unreadable result: {e!r}")
    if views and views[0] != views[1]:
        problems.append("the model read different things")
    known = KNOWN_FAILURES.get((agent, "differential", name))
    ok = not problems
    verdict = ("XPASS" if known else "PASS") if ok else ("XFAIL" if known else "FAIL")
    outcome = {
        "case": f"{agent}-differential-{name}", "agent": agent, "mode": "differential",
        "person": "own vs inbox", "scenario": name, "verdict": verdict, "known_failure": known,
        "got": "same" if ok else "; ".join(problems), "expected": "the same result",
        "read_from": "", "own_read": views[0] if views else None,
        "interview_read": views[1] if views else None,
        "runs": [own["case"], ours["case"]],
        "mcp": ours["mcp"], "vendor_hosts": own["vendor_hosts"] + ours["vendor_hosts"],
        "times": {"agent": own["times"].get("agent", 0) + ours["times"].get("agent", 0),
                  **({"call → result": ours["times"]["call → result"]}
                     if "call → result" in ours["times"] else {})},
    }
    with open(os.path.join(ctx["runs"], f"{agent}-differential-{name}.json"), "w") as f:
        json.dump(outcome, f, indent=1)
    return outcome


# --- inside: the whole run -------------------------------------------------------------------

def warm_plugin(interview, root):
    """Runs the plugin once in a home of its own, so that its compiled component is cached;
    each case's home gets a copy of that cache."""
    home = os.path.join(root, "warm-home")  # kept: a cache that fits the binary is reused
    os.makedirs(home, exist_ok=True)
    req = json.dumps({"questions": [{"question": "Warm?", "options": ["yes"]}]})
    subprocess.run([interview, "check", "-"], input=req.encode(), capture_output=True,
                   env={"HOME": home, "PATH": os.environ.get("PATH", "")}, timeout=300)
    cache = os.path.join(home, ".cache", "interview")
    if not os.path.isdir(cache):
        os.makedirs(cache)
    return cache


def table(rows, headers):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(h)
              for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def inside(args):
    started = time.time()
    phases = json.loads(os.environ.get("INTERVIEW_AGENTS_PHASES", "{}"))
    root = os.path.join(REPO, "target", "agents")
    t = time.monotonic()
    runs = os.path.join(root, "runs", "latest")
    shutil.rmtree(runs, ignore_errors=True)
    os.makedirs(runs)
    dns = None
    if sandbox.inside():
        dns = sandbox.enter(os.path.join(root, "runs"))
    # The binary under test, copied so that a rebuild meanwhile changes nothing.
    bin_dir = os.path.join(root, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    interview = os.path.join(bin_dir, "interview")
    shutil.copy2(os.path.abspath(args.interview), interview + ".new")
    os.replace(interview + ".new", interview)
    cache = warm_plugin(interview, root)
    inbox_exists = people.has_inbox(interview)
    team_mcp = people.has_team_mcp(interview)
    phases["sandbox + plugin cache"] = time.monotonic() - t
    chosen = {a.name: a for a in (cls(root, vendor_off=not args.vendor_calls)
                                  for cls in agent_defs.ALL) if a.name in args.agents}
    ctx = {"agents": chosen, "interview": interview, "bin": bin_dir, "runs": runs,
           "plugin_cache": cache, "tap": not args.no_tap, "dns": dns,
           "inbox_exists": inbox_exists, "team_mcp": team_mcp}
    persons = ["nobody"] + (["inbox"] if args.with_inbox else [])
    cases = [Case(a, m, p, s) for a in chosen for m in args.modes
             for p in persons for s in args.scenarios]
    # The retry case, one per agent: headless, the single question, with the inbox.
    cases += [Case(a, "headless", "retry", "single") for a in chosen
              if args.with_inbox and "headless" in args.modes and "single" in args.scenarios]
    # The remote person (the agent configured with the team inbox's /mcp): every mode and
    # scenario when asked for by name; with the inbox, every scenario headless and the single
    # question in the TUI (the 12 cases add about 1.5 min on 2 cores; the TUIs' batches, 2 min
    # more, reach the server by the same configuration).
    if "remote" in args.persons:
        cases += [Case(a, m, "remote", s) for a in chosen for m in args.modes
                  for s in args.scenarios]
    elif args.with_inbox:
        cases += [Case(a, m, "remote", s) for a in chosen for m in args.modes
                  for s in args.scenarios if m == "headless" or s == "single"]
    if args.persons:
        cases = [c for c in cases if c.person in args.persons]
    pairs = [(a, name, spec) for a in chosen if args.differential
             for name, spec in differential.SPECS.get(a, {}).items()
             if not args.diff_cases or name in args.diff_cases]
    log(f"{len(cases)} cases, {len(pairs)} differential cases; runs in {runs}" + ("" if dns else " (NOT isolated from the network)"))
    if args.with_inbox:
        # The inbox person's keys, pressed in `interview ask` (the same widgets): when an inbox
        # case fails, this tells whether the keys were the trouble.
        for name in args.scenarios:
            t = time.monotonic()
            scratch = os.path.join(runs, "rehearsal-" + name)
            os.makedirs(scratch)
            warm_home = os.path.dirname(os.path.dirname(cache))
            ok, said = people.rehearse(interview, SCENARIOS[name], warm_home, scratch)
            log(f"inbox keys for {name}, pressed in `interview ask`: "
                f"{'right' if ok else 'WRONG'}: {said}")
            phases[f"inbox keys rehearsed in ask ({name})"] = time.monotonic() - t
        if not inbox_exists:
            log("note: this interview has no `inbox` command; the inbox cases are expected to fail")
    if any(c.person == "remote" for c in cases) and not team_mcp:
        log("note: this interview's team inbox serves no /mcp; the remote cases are expected to fail")
    results = []
    all_hosts = []

    def record(outcome, phase, started, said):
        phases[phase] = time.monotonic() - started
        shed_installs(runs)
        results.append(outcome)
        for h in outcome["vendor_hosts"]:
            if h not in all_hosts:
                all_hosts.append(h)
        log(f"{outcome['verdict']:5}  {outcome['case']}: {said}  {phases[phase]:.1f} s")

    for case in cases:
        t = time.monotonic()
        try:
            outcome = run_case(case, ctx)
        except Exception as e:  # noqa: BLE001 - a harness fault is this case's failure
            import traceback
            traceback.print_exc()
            outcome = {"case": case.id, "agent": case.agent, "mode": case.mode,
                       "person": case.person, "scenario": case.scenario, "got": f"harness error: {e}",
                       "expected": "", "verdict": "FAIL", "mcp": {"summary": ""}, "times": {},
                       "vendor_hosts": [], "known_failure": None, "read_from": ""}
        record(outcome, f"case {case.id}", t, f"got {outcome['got']} ({outcome['mcp']['summary']})")
    for agent, name, spec in pairs:
        t = time.monotonic()
        outcome = run_pair(agent, name, spec, ctx, args.diff_sides)
        record(outcome, f"differential {agent} {name}", t, outcome["got"])
        if outcome["own_read"] != outcome["interview_read"]:
            log(f"         own tool:  {json.dumps(outcome['own_read'])[:400]}")
            log(f"         interview: {json.dumps(outcome['interview_read'])[:400]}")
    with open(os.path.join(runs, "results.json"), "w") as f:
        json.dump(results, f, indent=1)

    log("\nWhat the model got (the tool result the agent sent back):\n")
    rows = []
    for r in results:
        got = r["got"] + (f" ({r['read_from']})" if r.get("read_from") else "")
        answer = r["times"].get("call → result")
        rows.append([r["agent"], r["mode"], r["person"], r["scenario"], got, r["expected"],
                     r["verdict"], "-" if answer is None else f"{answer:.2f}",
                     f"{r['times'].get('agent', 0):.1f}", r["mcp"]["summary"],
                     ",".join(r["vendor_hosts"]) or "-"])
    log(table(rows, ["agent", "mode", "person", "case", "model got", "expected", "verdict",
                     "call→result s", "run s", "over MCP", "vendor hosts asked"]))
    retried = [r for r in results if r["person"] == "retry"]
    if retried:
        log("\nWhat the Ctrl-C did (the retry cases' first run):")
        for r in retried:
            seen = [n[len("run 1: "):] for n in r.get("notes") or [] if n.startswith("run 1: ")]
            seen += [f"{k} in {v:.2f} s" for k, v in r["times"].items() if k.startswith("Ctrl-C")]
            log(f"  {r['agent']}: " + "; ".join(seen))
    known = [r for r in results if r["verdict"] in ("XFAIL", "XPASS")]
    if known:
        log("\nexpected_failure (known wrong today; checked against what is right):")
        for r in known:
            log(f"  {r['verdict']} {r['case']}: {r['known_failure']}")
    failed = [r for r in results if r["verdict"] in ("FAIL", "XPASS")]
    for r in failed:
        log(f"\n{r['verdict']} {r['case']}: got {r['got']}, expected {r['expected']}")
        for key in ("person_failure", "notes", "model_read"):
            if r.get(key):
                log(f"  {key}: {r[key] if not isinstance(r[key], str) else ' '.join(r[key].split())[:300]}")
    reached = sorted({r["agent"] + " " + r["mode"] for r in results
                      for n in r.get("notes") or [] if "env reached the server" in n and "NO" not in n})
    if reached:
        log("\nINTERVIEW_INBOX reached `interview mcp` through the agent's MCP configuration: "
            + ", ".join(reached))
    log("\nphases (s):")
    for name, seconds in phases.items():
        log(f"  {seconds:7.1f}  {name}")
    log(f"\nhost names the agents tried to resolve (answered NXDOMAIN): {', '.join(all_hosts) or 'none'}"
        if dns else "\nnot isolated: no DNS log")
    counts = {v: sum(r["verdict"] == v for r in results) for v in ("PASS", "FAIL", "XFAIL", "XPASS")}
    log(f"\nknown failures: {counts['XFAIL']} still failing (XFAIL), {counts['XPASS']} passing (XPASS)")
    log(f"{counts['PASS']} passed, {counts['FAIL'] + counts['XPASS']} failed")
    total = time.time() - float(os.environ.get("INTERVIEW_AGENTS_STARTED") or started)
    log(f"time: {total:.0f} s ({total / 60:.1f} min), from the start of run.py")
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--interview", help="the interview binary to test")
    parser.add_argument("--install-only", action="store_true",
                        help="install the chosen agents (and the terminal reader) and stop: "
                        "CI does it while it builds, so that the network's time is not the run's")
    parser.add_argument("--agents", default="claude,codex,gemini,opencode",
                        help="of claude, codex, gemini, opencode")
    parser.add_argument("--modes", default="headless,interactive")
    parser.add_argument("--scenarios", default="single,batch")
    parser.add_argument("--with-inbox", action="store_true",
                        help="also the person who answers in `interview inbox`")
    parser.add_argument("--persons", default="",
                        help="only the cases of these people, of nobody, inbox, retry, remote "
                        "(separated by commas; inbox and retry need --with-inbox; remote, "
                        "named here, runs in every mode, and --with-inbox alone runs it "
                        "headless)")
    parser.add_argument("--differential", action="store_true",
                        help="also the differential cases: each agent's own ask-the-user tool "
                        "against interview's tool of its dialect, answered with the same keys")
    parser.add_argument("--diff-cases", default="",
                        help="only these differential cases, by name, separated by commas")
    parser.add_argument("--diff-sides", default="own,inbox",
                        help="of own, inbox: which run of each differential case (both to "
                        "compare; one alone, to try its keys)")
    parser.add_argument("--no-tap", action="store_true",
                        help="run `interview mcp` itself, not through the MCP line recorder")
    parser.add_argument("--vendor-calls", action="store_true",
                        help="leave out the settings that keep each agent off its vendor's hosts "
                        "(the namespace still does), to see in the DNS log what they stop")
    parser.add_argument("--no-netns", action="store_true",
                        help="run without the network namespace (the agents may then reach out)")
    args = parser.parse_args()
    for name in ("agents", "modes", "scenarios", "persons", "diff_cases", "diff_sides"):
        setattr(args, name, [x for x in getattr(args, name).split(",") if x])
    if not args.install_only and not (args.interview and os.path.exists(args.interview)):
        sys.exit(f"no such binary: {args.interview} (--interview names the one to test)")
    if sandbox.inside():
        sys.exit(inside(args))
    os.environ["INTERVIEW_AGENTS_STARTED"] = str(time.time())
    root = os.path.join(REPO, "target", "agents")
    os.makedirs(root, exist_ok=True)
    chosen = [a for a in (cls(root) for cls in agent_defs.ALL) if a.name in args.agents]
    started = time.monotonic()
    phases = install(root, chosen)
    install_pyte(root)
    phases["install (total)"] = time.monotonic() - started
    if args.install_only:
        log(f"installed in {phases['install (total)']:.0f} s: "
            + ", ".join(f"{name} {version}" for name, version in versions(chosen).items()))
        return
    for name, version in versions(chosen).items():
        log(f"{name}: {version}")
    os.environ["INTERVIEW_AGENTS_PHASES"] = json.dumps(phases)
    argv = [os.path.abspath(__file__), *sys.argv[1:]]
    if args.no_netns:
        log("warning: --no-netns: nothing keeps the agents off the network but their settings")
        sys.exit(inside(args))
    code = sandbox.reexec(argv)
    if code is None:
        sys.exit("no network namespace could be made (unshare); rerun with --no-netns only if "
                 "the agents' own settings may be trusted to keep them off the network")
    sys.exit(code)


if __name__ == "__main__":
    main()
