"""A bounded load test of the team inbox: two `interview inbox serve` on one PostgreSQL database,
hundreds of `interview ask --inbox` processes (half on each server), twenty answerers taking
questions from both lists at once, and one server killed with SIGKILL mid-run and started again.
Checks that every asker got exactly the answer meant for it, that every step was answered
exactly once (the answerers' 200s, the audit's `answered` lines and the askers agree), and prints
the figures.

    python3 tests/team/load.py target/debug/interview postgres://user@127.0.0.1:PORT/DB \
        [--askers 500] [--answerers 20] [--limit 90]

The database must be empty (a new one): the test counts everything in its audit trail.
"""

import argparse
import json
import multiprocessing
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("interview")
parser.add_argument("db")
parser.add_argument("--askers", type=int, default=500)
parser.add_argument("--answerers", type=int, default=20)
parser.add_argument("--limit", type=float, default=90, help="seconds the run may take")
options = parser.parse_args()
INTERVIEW = os.path.abspath(options.interview)
PROMPT = re.compile(r"^Replicas for job (\d+)\?$")


# Every asker's result is read by a process of its own, which notes when its first bytes arrive
# (the moment an agent reading it has its answer) and when its output closes (the asker's exit):
# in this process, which also polls 500 processes, the noting would wait its turn for the
# interpreter's lock. Its input: the read ends it inherits, and whose
# they are.
WATCHER = r"""
import json, os, selectors, sys, time
jobs = {int(fd): job for fd, job in json.load(sys.stdin).items()}
watched = selectors.DefaultSelector()
for fd, job in jobs.items():
    watched.register(fd, selectors.EVENT_READ, job)
first, closed, outputs = {}, {}, {job: b"" for job in jobs.values()}
while watched.get_map():
    for key, _ in watched.select():
        chunk = os.read(key.fd, 65536)
        if chunk:
            first.setdefault(key.data, time.monotonic())
            outputs[key.data] += chunk
        else:
            closed[key.data] = time.monotonic()
            watched.unregister(key.fd)
            os.close(key.fd)
json.dump({"first": first, "closed": closed, "outputs": {job: out.decode(errors="replace")
                                        for job, out in outputs.items()}}, sys.stdout)
"""


def token(*who):
    return subprocess.run([INTERVIEW, "inbox", "token", "add", "--db", options.db, *who],
                          check=True, capture_output=True, text=True).stdout.strip()


def serve(listen):
    process = subprocess.Popen([INTERVIEW, "inbox", "serve", "--db", options.db, "--listen", listen],
                               stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()
    assert "listens on http://" in line, line
    # The rest of what it says (a failure's reason) is passed on, so that it never blocks on a
    # full pipe and a failed run says why.
    def relay():
        for said in process.stderr:
            print(f"server {listen}: {said}", end="", file=sys.stderr)
    threading.Thread(target=relay, daemon=True).start()
    return process, line.split(" on ", 1)[1].strip().rstrip("/")


def call(url, person, method="GET", body=None):
    request = urllib.request.Request(url, method=method, data=body and json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {person}",
                                              "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")


def answerer(person, urls, go, done, taken, reports):
    """One person answering from both lists until `done`, in a process of their own (as each
    person is in a browser of their own), so that the moment each answer's 200 arrives is noted
    then, not when the other answerers let go of an interpreter's lock. Each answer's outcome
    goes to `reports` (its status, the step, the job, when it was sent, when the 200 came), and
    then a last `None`."""
    go.wait()
    while not done.is_set():
        for url in random.sample(urls, 2):
            try:
                status, listed = call(f"{url}/api/questions", person)
            except OSError:
                continue  # that server is down: the other one
            if status != 200:
                continue
            questions = listed["questions"]
            random.shuffle(questions)
            for q in questions[:10]:
                job = int(PROMPT.match(q["frame"]["prompt"]).group(1))
                path = f"{url}/api/questions/{q['question']}/steps/{q['seq']}/reply"
                began = time.monotonic()
                try:
                    status, _ = call(path, person, "POST", {"entered": str(job)})
                except OSError:
                    reports.put((None, q["question"], q["seq"], job, began, None))
                    continue
                at = time.monotonic()
                if status == 200:
                    with taken.get_lock():
                        taken.value += 1
                reports.put((status, q["question"], q["seq"], job, began, at))
            break
        time.sleep(0.05)
    reports.put(None)


def main():
    started = time.monotonic()
    agent = token("--agent", "ci")
    people = [token("--person", f"p{n}") for n in range(options.answerers)]
    servers = [list(serve("127.0.0.1:0")), list(serve("127.0.0.1:0"))]
    urls = [url for _, url in servers]
    # Each a new interpreter: this one has threads, which a fork would not carry over whole.
    processes = multiprocessing.get_context("spawn")
    go, done, taken = processes.Event(), processes.Event(), processes.Value("i")
    reports = processes.Queue()
    answerers = [processes.Process(target=answerer, args=(p, urls, go, done, taken, reports),
                                   daemon=True) for p in people]
    for process in answerers:
        process.start()
    # When each job's answer was sent and accepted (its 200), and when its asker's result came
    # out on its standard output and its process exited: the delivery.
    sent_at, answered_at, resulted_at, exited_at = {}, {}, {}, {}

    with tempfile.TemporaryDirectory() as place:
        request = os.path.join(place, "request-{}.json")
        askers, results = [], {}  # results: the read end of each asker's standard output
        # Jobs from 1: each answer is in the question's range, so none is refused.
        for job in range(1, options.askers + 1):
            with open(request.format(job), "w") as file:
                json.dump({"question": f"Replicas for job {job}?", "type": "number", "min": 1,
                           "max": 1_000_000, "integer": True}, file)
            err = open(os.path.join(place, f"err-{job}.txt"), "w")
            read, write = os.pipe()
            askers.append((job, time.monotonic(), subprocess.Popen(
                [INTERVIEW, "ask", request.format(job), "--inbox", urls[job % 2]],
                stdin=subprocess.DEVNULL, stdout=write, stderr=err, cwd=place,
                env={**os.environ, "INTERVIEW_INBOX_TOKEN": agent}, start_new_session=True)))
            os.close(write)
            err.close()
            results[read] = job
        watcher = subprocess.Popen([sys.executable, "-c", WATCHER], pass_fds=list(results),
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        watcher.stdin.write(json.dumps(results))
        watcher.stdin.close()
        for read in results:
            os.close(read)

        # Answered once every asker waits, so that the figures are of 500 askers waiting and
        # not of 500 processes starting on the same two cores.
        while time.monotonic() - started < options.limit:
            status, listed = call(f"{urls[1]}/api/questions", people[0])
            if status == 200 and len(listed["questions"]) >= options.askers:
                break
            time.sleep(0.2)
        asked = time.monotonic()
        go.set()

        # One server killed outright a third of the way through, and started again on its
        # address a second later; its askers retry meanwhile, and the other server goes on.
        killed_at = None
        while taken.value < options.askers // 3 and time.monotonic() - started < options.limit:
            time.sleep(0.05)
        victim, listen = servers[0][0], urls[0].removeprefix("http://")
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        killed_at = taken.value
        time.sleep(1)
        servers[0] = list(serve(listen))

        # Each asker's time, from its start to its exit, watched for all at once.
        ended = {}
        while len(ended) < len(askers) and time.monotonic() - started < options.limit:
            for job, began, process in askers:
                if job not in ended and process.poll() is not None:
                    ended[job] = time.monotonic() - began
            time.sleep(0.02)
        latencies, wrong = list(ended.values()), []
        for _, _, process in askers:
            if process.poll() is None:
                process.kill()
                process.wait()
        watched = json.loads(watcher.stdout.read())
        watcher.wait()
        resulted_at.update((int(job), at) for job, at in watched["first"].items())
        exited_at.update((int(job), at) for job, at in watched["closed"].items())
        for job, _, process in askers:
            text = watched["outputs"][str(job)]
            try:
                value = json.loads(text)["answers"][0]["value"]
            except (ValueError, KeyError, IndexError):
                value = None
            if process.returncode != 0 or value != job:
                with open(os.path.join(place, f"err-{job}.txt")) as file:
                    wrong.append((job, process.returncode, text[:200], file.read()[-300:]))
        finished = time.monotonic()
        done.set()
        accepted, conflicts, answer_ms, failures, other = [], 0, [], 0, {}
        for _ in answerers:
            for status, question, seq, job, began, at in iter(lambda: reports.get(timeout=35), None):
                if status == 200:
                    sent_at[job], answered_at[job] = began, at
                    accepted.append((question, seq, job))
                    answer_ms.append((at - began) * 1000)
                elif status == 409:
                    conflicts += 1
                elif status is None:
                    failures += 1
                else:
                    other[status] = other.get(status, 0) + 1
        for process in answerers:
            process.join(timeout=5)
    # Stopped as a service manager stops them: each ends cleanly, its PostgreSQL connections
    # closed off its async threads (where closing one panics).
    stopped_with = []
    for process, _ in servers:
        process.send_signal(signal.SIGTERM)
        stopped_with.append(process.wait(timeout=20))

    audit = subprocess.run([INTERVIEW, "inbox", "audit", "--db", options.db], check=True,
                           capture_output=True, text=True).stdout.splitlines()
    events = [json.loads(line) for line in audit]
    answered = [(e["question"], e["step"]) for e in events if e["event"] == "answered"]
    finished_questions = [e["question"] for e in events if e["event"] == "finished"]
    asked_questions = [e["question"] for e in events if e["event"] == "asked"]

    elapsed = finished - asked
    # Outside the killed server's restart, whose askers wait to reach it again.
    def delivered(by, since=answered_at):
        return [(by[job] - since[job]) * 1000 for job in since
                if job in by and job % 2 == 1]
    delivery, to_exit = delivered(resulted_at), delivered(exited_at)
    # The server wakes the asker before it sends the 200, which its answerer may get after the
    # asker has its result: from the answer's sending, the bound from above.
    from_sending = delivered(resulted_at, sent_at)
    print(f"team inbox load: {options.askers} askers on 2 servers, {options.answerers} answerers, "
          f"one server killed (SIGKILL) after {killed_at} answers and restarted")
    print(f"  all answered in {elapsed:.1f} s ({options.askers / elapsed:.1f} questions/s) once "
          f"all were asked; {time.monotonic() - started:.1f} s with set-up")
    print(f"  answer POST: p50 {percentile(answer_ms, .5):.0f} ms, p95 "
          f"{percentile(answer_ms, .95):.0f} ms, max {max(answer_ms, default=0):.0f} ms")
    print(f"  delivery, from the answer's 200 to its asker's result (the other server's askers): "
          f"p50 {percentile(delivery, .5):.1f} ms, p95 {percentile(delivery, .95):.1f} ms, "
          f"p99 {percentile(delivery, .99):.1f} ms; to its exit: p50 "
          f"{percentile(to_exit, .5):.1f} ms, p99 {percentile(to_exit, .99):.1f} ms")
    print(f"  from the answer's sending to its asker's result: p50 "
          f"{percentile(from_sending, .5):.1f} ms, p99 {percentile(from_sending, .99):.1f} ms")
    print(f"  asker start to exit: p50 {percentile(latencies, .5):.1f} s, p95 "
          f"{percentile(latencies, .95):.1f} s, max {max(latencies, default=0):.1f} s")
    print(f"  second answers refused (409): {conflicts}; answers the killed server never "
          f"responded to: {failures}; other statuses: {other or 'none'}")

    problems = []
    if wrong:
        problems.append(f"{len(wrong)} askers did not get their answer, e.g. {wrong[:3]}")
    if len(set(accepted)) != len(accepted) or len({(q, s) for q, s, _ in accepted}) != len(accepted):
        problems.append("a step was accepted twice")
    # Every acknowledged answer is kept; one whose response the kill cut off may be kept or not.
    acknowledged = {(q, s) for q, s, _ in accepted}
    unacknowledged = set(answered) - acknowledged
    if not acknowledged <= set(answered) or len(unacknowledged) > failures:
        problems.append(f"the audit's answers ({len(answered)}) are not the accepted ones "
                        f"({len(accepted)}, and {failures} without a response)")
    if len(answered) != len(set(answered)):
        problems.append("the audit has a step answered twice")
    if len(set(asked_questions)) != options.askers or len(set(finished_questions)) != options.askers:
        problems.append(f"the audit has {len(set(asked_questions))} questions asked and "
                        f"{len(set(finished_questions))} finished, not {options.askers}")
    if finished - started > options.limit:
        problems.append(f"the run took longer than {options.limit} s")
    if other:
        problems.append(f"answers got unexpected statuses: {other}")
    if any(stopped_with):
        problems.append(f"the servers, stopped with SIGTERM, exited with {stopped_with}")
    if problems:
        sys.exit("FAILED: " + "; ".join(problems))
    print("  every question answered exactly once, as the audit says")


if __name__ == "__main__":
    main()
