"""What the package keeps when things go wrong, as the Rust command does: bad bytes, endless
input, a damaged component, a plugin that breaks its sandbox, signals, and calls at the same
time."""

import fcntl
import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

import interview
from interview import Limits, PluginError, ScriptedUi, Status
from interview._contract import EXIT

from conftest import ROOT
from test_command import DEPLOY, ELICITATION, both, python_command

LIMIT = Limits().request_bytes
PLUGIN = ROOT / "host" / "plugin" / "interview.wasm"
TWO = json.dumps({"questions": [{"question": "Name?"}, {"question": "Why?"}]})


@pytest.fixture
def two_questions(tmp_path):
    path = tmp_path / "two.json"
    path.write_text(TWO)
    return str(path)


def test_answer_bytes_that_are_not_utf8_become_replacement_characters(rust_command, two_questions):
    run = both(rust_command, "ask", two_questions, answers=b"a\xffb\xf0\x80c\nquit\n")
    assert run.returncode == 1
    assert json.loads(run.stdout)["answers"][0]["value"] == "a\ufffdb\ufffd\ufffdc"
    select_run = both(rust_command, "ask", str(DEPLOY), answers=b"\xff\xfe2\n\n\nquit\n")
    assert len(json.loads(select_run.stdout)["answers"]) == 3, "the first answer is kept"


def endless(command, args, payload=b"y\n" * (32 << 10), total=20 << 20):
    """Runs ``command`` with ``total`` bytes of ``payload`` offered on stdin, like `yes`: the
    output, the exit code, the most memory it held (KiB) and how much it read before it
    stopped."""
    process = subprocess.Popen([*command, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    written = 0

    def write():
        nonlocal written
        try:
            while written < total:
                written += process.stdin.write(payload)
            process.stdin.close()
        except (BrokenPipeError, ValueError):
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    writer.join(timeout=30)
    return output, process.returncode, usage.ru_maxrss, written


def test_an_endless_request_is_refused_at_the_limit_like_the_rust_command(rust_command):
    python, code, kib, written = endless([sys.executable, "-m", "interview"], ["ask", "-"])
    rust, rust_code, _, _ = endless([str(rust_command)], ["ask", "-"])
    assert (python, code) == (rust, rust_code)
    assert code == 2 and f"more than {LIMIT} bytes".encode() in python
    assert written < 3 * LIMIT // 2, f"read {written} bytes of an endless input"
    assert kib < 200 << 10, f"held {kib} KiB"


def test_an_endless_answer_line_is_dropped_and_memory_stays_bounded(rust_command, two_questions):
    line = b"x" * (1 << 20)
    python, code, kib, _ = endless([sys.executable, "-m", "interview"], ["ask", two_questions],
                                   payload=line, total=20 << 20)
    result = json.loads(python)
    assert code == 1 and result["status"] == "cancelled" and result["answers"] == []
    assert kib < 200 << 10, f"held {kib} KiB for a 20 MB line"
    answers = "y" * (LIMIT + 1) + "\nAda\nquit\n"
    run = both(rust_command, "ask", two_questions, answers=answers)
    rust = subprocess.run([str(rust_command), "ask", two_questions], input=answers,
                          capture_output=True, text=True, timeout=60)
    said = f"> ! That line is more than {LIMIT} bytes; type a shorter answer.\n> "
    assert said in run.stderr and said in rust.stderr, "in the Rust command's words"
    assert json.loads(run.stdout)["answers"][0]["value"] == "Ada"


@pytest.mark.parametrize("name", ["x\u202e\u009bgnp.json", b"bad\xff.json"], ids=["bidi", "not-utf8"])
def test_unreadable_file_names_are_escaped_like_the_rust_command(rust_command, tmp_path, name):
    path = os.path.join(os.fsencode(tmp_path), os.fsencode(name))
    run = both(rust_command, "ask", path, answers=b"")
    assert run.returncode == 2
    assert b"\xe2\x80\xae" not in run.stdout and b"\xff" not in run.stdout
    if run.stdout:
        json.loads(run.stdout)


# Component files that cannot be the plugin, as the Rust command's tests make them: cut short, a
# core module instead of a component, and a component without the plugin's exports.
BROKEN = {
    "truncated": lambda whole: whole[:len(whole) // 3],
    "core-module": lambda whole: b"\0asm\1\0\0\0",
    "no-exports": lambda whole: b"\0asm\x0d\0\1\0",
}


@pytest.fixture(params=sorted(BROKEN))
def broken_component(request, tmp_path):
    path = tmp_path / f"{request.param}.wasm"
    path.write_bytes(BROKEN[request.param](PLUGIN.read_bytes()))
    return str(path)


ELICITATION_RPC = {"jsonrpc": "2.0", "id": 9, "method": "elicitation/create",
                   "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}}


def test_a_component_that_cannot_run_gives_the_rust_commands_failed_result(
        rust_command, broken_component, tmp_path):
    elicitation = tmp_path / "elicitation.json"
    elicitation.write_text(json.dumps(ELICITATION_RPC))
    commands = [
        (["ask", str(DEPLOY)], "1\n"),
        (["check", str(DEPLOY)], ""),
        (["schema"], ""),
        (["elicit", str(elicitation)], ""),
        (["elicit", "-"], json.dumps({"message": "m", "requestedSchema": {}})),
    ]
    for args, answers in commands:
        # Both run wasmtime, which words the failure alike: `both` holds stdout to the Rust
        # command's, byte for byte, and the exit code.
        run = both(rust_command, "--component", broken_component, *args, answers=answers)
        assert run.returncode == 4, args
        result = json.loads(run.stdout)
        if args[0] == "elicit":
            reply = result.get("result", result)
            assert reply["action"] == "cancel", (args, result)
            message = reply["_meta"]["interview/failure"]["message"]
        else:
            assert (result["status"], result["answers"]) == ("failed", []), (args, result)
            message = result["error"]["message"]
        assert "component" in message, message
        assert message in run.stderr and "Traceback" not in run.stderr, run.stderr
        if args == ["elicit", str(elicitation)]:
            assert result["id"] == 9, "a JSON-RPC elicitation is answered under its id"


def test_a_component_that_cannot_run_raises_plugin_error(broken_component):
    with pytest.raises(PluginError, match="cannot (compile|instantiate) the component") as failure:
        interview.Plugin(broken_component).check("interview", {"question": "A?"})
    assert failure.value.function is None, "not a failure of the plugin's own code"


# Words of the plugin's own results that a host gave before the plugin wrote them: in capitals in a
# copy of the plugin (the same length, so still a valid component), they show whose words a
# result is in.
WORDS = [b"The request is invalid, so nothing was asked",
         b"The question tool failed before the user answered",
         b"The question tool failed after the user answered", b"interview/failure"]


def reworded(component: bytes) -> bytes:
    for words in WORDS:
        assert component.count(words) == 1, words
        component = component.replace(words, words.upper())
    return component


def with_package_plugin(tmp_path, change) -> dict:
    """The environment of a command that imports a copy of the installed package whose own
    plugin is ``change``d."""
    copy = tmp_path / "site" / "interview"
    shutil.copytree(Path(interview.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "interview.wasm").write_bytes(change((copy / "interview.wasm").read_bytes()))
    return {**os.environ, "PYTHONPATH": str(copy.parent)}


def command_in(env, *args, answers=""):
    return subprocess.run([sys.executable, "-m", "interview", *args], input=answers, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("command", ["ask", "check", "elicit"])
def test_a_request_that_cannot_be_read_is_answered_in_the_plugins_words(tmp_path, command):
    component = tmp_path / "reworded.wasm"
    component.write_bytes(reworded(PLUGIN.read_bytes()))
    missing = tmp_path / "missing.json"
    run = python_command("--component", str(component), command, str(missing))
    assert run.returncode == 2, run.stderr
    message = f"cannot read the request from {missing}: No such file or directory (os error 2)"
    plugin = interview.Plugin(component)
    if command == "elicit":
        assert run.stdout == plugin.unreadable_elicitation(message).reply + "\n"
    else:
        assert run.stdout == plugin.unreadable("", message).json + "\n"
        assert json.loads(run.stdout)["text"].startswith("THE REQUEST IS INVALID, SO NOTHING WAS ASKED")


def test_a_component_that_cannot_run_is_answered_in_the_package_plugins_words(
        tmp_path, broken_component):
    env = with_package_plugin(tmp_path, reworded)
    ask = command_in(env, "--component", broken_component, "ask", str(DEPLOY), answers="1\n")
    assert ask.returncode == 4, ask.stderr
    result = json.loads(ask.stdout)
    assert result["status"] == "failed"
    assert result["text"].startswith("THE QUESTION TOOL FAILED BEFORE THE USER ANSWERED: cannot ")
    elicit = command_in(env, "--component", broken_component, "elicit", "-",
                        answers=json.dumps(ELICITATION_RPC))
    assert elicit.returncode == 4, elicit.stderr
    reply = json.loads(elicit.stdout)
    assert reply["id"] == 9 and reply["result"]["action"] == "cancel"
    assert reply["result"]["_meta"]["INTERVIEW/FAILURE"]["message"].startswith("cannot ")


def test_a_package_whose_own_plugin_cannot_run_still_answers_with_one_failed_result(tmp_path):
    env = with_package_plugin(tmp_path, BROKEN["truncated"])
    ask = command_in(env, "ask", str(DEPLOY), answers="1\n")
    assert ask.returncode == 4, ask.stderr
    result = json.loads(ask.stdout)
    assert (result["status"], result["answers"]) == ("failed", [])
    assert result["error"]["message"].startswith("cannot compile the component: ")
    assert "(the built-in plugin, which words this result, could not start: " in result["text"]
    elicit = command_in(env, "elicit", "-", answers=json.dumps(ELICITATION_RPC))
    assert (elicit.returncode, elicit.stdout) == (4, '{"action":"cancel"}\n'), elicit.stderr


def test_the_last_resort_result_is_printed_with_every_invisible_character_escaped(tmp_path):
    # No plugin words this result (neither the component named nor the package's own runs), so
    # the command's own pass is all that escapes the component's name in it.
    env = with_package_plugin(tmp_path, BROKEN["truncated"])
    missing = tmp_path / "missing\u034f\ufe0f\U000e0041\u202e.wasm"
    ask = command_in(env, "--component", str(missing), "ask", str(DEPLOY), answers="1\n")
    assert ask.returncode == EXIT["failed"], ask.stderr
    assert ask.stdout.isascii(), ask.stdout
    assert "missing\\u034f\\ufe0f\\udb40\\udc41\\u202e.wasm" in ask.stdout
    assert str(missing) in json.loads(ask.stdout)["error"]["message"]


# How each way a run ends is reached (the plugin failing: a core module given as the component).
# Interrupted is the signal tests' below.
ENDINGS = {
    "answered": (["check", str(DEPLOY)], ""),
    "cancelled": (["ask", str(DEPLOY)], "\n"),
    "invalid": (["check", "/nonexistent/request.json"], ""),
    "unavailable": (["ask", str(DEPLOY)], ""),
    "failed": (["--component", "{broken}", "check", str(DEPLOY)], ""),
    "declined": (["elicit", str(ELICITATION)], "decline\n"),
    "unwritten": (["schema"], ""),
}


@pytest.mark.parametrize("ending", sorted(set(EXIT) - {"interrupted"}))
def test_each_way_a_run_ends_exits_with_the_rust_commands_code(rust_command, tmp_path, ending):
    broken = tmp_path / "core-module.wasm"
    broken.write_bytes(BROKEN["core-module"](b""))
    args, answers = ENDINGS[ending]
    args = [arg.format(broken=broken) for arg in args]
    # The Rust command asks an open `interview inbox` before it finds nobody there: none here.
    env = {**os.environ, "INTERVIEW_INBOX": "/nonexistent"}
    # Stdout a full disk where the result is not to be written.
    with open("/dev/full" if ending == "unwritten" else os.devnull, "w") as stdout:
        codes = [subprocess.run([*command, *args], input=answers, stdout=stdout,
                                stderr=subprocess.PIPE, text=True, env=env, timeout=60).returncode
                 for command in ([sys.executable, "-m", "interview"], [str(rust_command)])]
    assert codes == [EXIT[ending], EXIT[ending]], ending


def test_a_pasted_answer_too_large_for_the_sandbox_is_played_back_like_the_rust_command(
        rust_command, tmp_path):
    path = tmp_path / "paste.json"
    path.write_text(json.dumps({"question": "Paste the log"}))
    run = both(rust_command, "ask", str(path), answers="x" * LIMIT + "\n")
    assert run.returncode == 0 and json.loads(run.stdout)["answer"] == "x" * LIMIT
    assert "played back into a fresh instance with larger limits" in run.stderr


def test_answers_the_plugin_fails_on_for_good_come_back_like_the_rust_commands_in_the_plugins_words(
        rust_command, tmp_path):
    # Three pasted logs: too much for the plugin even with the replay's larger limits.
    path = tmp_path / "three.json"
    path.write_text(json.dumps({"questions": [{"question": q} for q in ("One?", "Two?", "Three?")]}))
    answers = ("x" * LIMIT + "\n") * 3 + "\n"
    python = command_in(with_package_plugin(tmp_path, reworded), "ask", str(path), answers=answers)
    rust = subprocess.run([str(rust_command), "ask", str(path)], input=answers,
                          capture_output=True, text=True, timeout=120)
    assert python.returncode == rust.returncode == 4, python.stderr[-500:]
    result, expected = json.loads(python.stdout), json.loads(rust.stdout)
    assert (result["status"], result["answers"]) == (expected["status"], expected["answers"])
    assert [a["question"] for a in result["answers"]] == ["One?", "Two?", "Three?"]
    assert result["error"]["message"].startswith("the plugin failed in `call`: ")
    assert result["text"].startswith("THE QUESTION TOOL FAILED AFTER THE USER ANSWERED")


def test_a_plugin_out_of_memory_fails_with_the_answers_given():
    plugin = interview.Plugin(limits=Limits(memory_bytes=4 << 20))
    with pytest.raises(PluginError) as failure:
        plugin.call("interview", {"question": "Paste the log"}, ScriptedUi(["x" * (3 << 20)]))
    assert failure.value.function == "call"
    assert [(g.prompt, g.answer) for g in failure.value.given] == [("Paste the log", "x" * (3 << 20))]
    # Worded by the same plugin, in an instance whose limits hold the answer it words.
    result = plugin.failed(str(failure.value), failure.value.given)
    assert result.status is Status.FAILED and result.answers[0]["answer"] == "x" * (3 << 20)
    assert result.error["message"] == str(failure.value)


def test_the_compute_budget_stops_the_plugin_but_not_the_person():
    # Checking two lists of ten thousand options (the most a request may hold) takes the plugin
    # tens of milliseconds even on a fast machine, and a budget of one tick (0.01 s) runs out at
    # the engine's next tick, within 0.01 s: stopped whatever the machine's speed.
    request = {"questions": [{"question": f"Pick {i}", "type": "multi_select",
                              "options": [f"option {j}" for j in range(10_000)]} for i in range(2)]}
    with pytest.raises(PluginError, match="computed for more than 0.01s"):
        interview.Plugin(limits=Limits(compute=0.01)).check("interview", request)

    class Slow(ScriptedUi):
        def text(self, frame, request):
            time.sleep(0.4)
            return super().text(frame, request)

    result = interview.Plugin(limits=Limits(compute=0.3)).call(
        "interview", {"question": "Name?"}, Slow(["Ada"]))
    assert result.data["answer"] == "Ada"


def test_calls_at_the_same_time_each_ask_their_own_ui(plugin):
    both_asking = threading.Barrier(2, timeout=30)

    class Waiting(ScriptedUi):
        # Both calls are under way before either asks its question.
        def mode(self):
            both_asking.wait()
            return super().mode()

    results = {}

    def ask(name):
        results[name] = plugin.call("interview", {"question": "Name?"}, Waiting([name]))

    threads = [threading.Thread(target=ask, args=(name,)) for name in ("Ada", "Grace")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert {name: result.data["answer"] for name, result in results.items()} == {
        "Ada": "Ada", "Grace": "Grace"}


def in_terminal(command, stop):
    """Runs ``command`` with a pseudo-terminal for stdin and stderr (stdout a pipe, as an agent
    reads it), answers the first question of the deploy example, and sends ``stop`` once the
    second is asked: its stdout and exit code."""
    master, slave = pty.openpty()
    # A session of its own whose controlling terminal is the pty, so that the command is the job
    # in its foreground: the Rust command asks nobody from a terminal that is not its own.
    process = subprocess.Popen(command, stdin=slave, stderr=slave, stdout=subprocess.PIPE,
                               start_new_session=True,
                               preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    screen = b""

    def wait_for(text):
        nonlocal screen
        deadline = time.monotonic() + 30
        while text not in screen:
            assert time.monotonic() < deadline, f"never saw {text!r}: {screen[-500:]!r}"
            if select.select([master], [], [], 1)[0]:
                screen += os.read(master, 1 << 16)

    try:
        wait_for(b"Question 1 of")
        os.write(master, b"2\n")
        wait_for(b"Question 2 of")
        process.send_signal(stop)
        output, _ = process.communicate(timeout=30)
        return output, process.returncode
    finally:
        process.kill()
        os.close(master)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_returns_the_answers_so_far_like_the_rust_command(rust_command, stop):
    python = in_terminal([sys.executable, "-m", "interview", "ask", str(DEPLOY)], stop)
    rust = in_terminal([str(rust_command), "ask", "--numbered", str(DEPLOY)], stop)
    assert python == rust
    output, code = python
    assert code == EXIT["interrupted"]
    result = json.loads(output)
    assert result["status"] == "cancelled"
    assert [a["value"] for a in result["answers"]] == ["staging"]


def stopped_on_a_quiet_pipe(args, stop, answers=()):
    """Runs the command with stdin a pipe that this side holds open, so that its input never
    ends, and sends ``stop`` once the question is drawn: after each of ``answers`` (a line, and
    the text on stderr that says it was taken). Its stdout and exit code."""
    process = subprocess.Popen([sys.executable, "-m", "interview", *args], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    screen = b""

    def wait_for(text):
        nonlocal screen
        deadline = time.monotonic() + 60
        while text not in screen:
            assert process.poll() is None, f"it ended ({process.returncode}) before {text!r}: {screen!r}"
            assert time.monotonic() < deadline, f"never saw {text!r}: {screen[-500:]!r}"
            if select.select([process.stderr], [], [], 1)[0]:
                screen += os.read(process.stderr.fileno(), 1 << 16)

    try:
        # Drawn before any byte came: nothing tells the command that someone is there.
        wait_for(b"Question 1 of")
        for line, taken in answers:
            process.stdin.write(line)
            process.stdin.flush()
            wait_for(taken)
        process.send_signal(stop)
        # The input stays open until the command has ended: only the signal ends it.
        code = process.wait(timeout=30)
        return process.stdout.read().decode(), code
    finally:
        process.kill()
        for stream in (process.stdin, process.stdout, process.stderr):
            stream.close()


STOPS = pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                                ids=["SIGINT", "SIGTERM", "SIGHUP"])


@STOPS
def test_a_signal_before_the_first_line_cancels_a_call_with_one_result(stop):
    output, code = stopped_on_a_quiet_pipe(["ask", str(DEPLOY)], stop)
    assert code == EXIT["interrupted"]
    result = json.loads(output)  # one JSON text, nothing else
    assert (result["status"], result["answers"]) == ("cancelled", [])


@STOPS
def test_a_signal_between_questions_keeps_the_answers_so_far(stop):
    output, code = stopped_on_a_quiet_pipe(["ask", str(DEPLOY)], stop,
                                           answers=[(b"2\n", b"Question 2 of")])
    assert code == EXIT["interrupted"]
    result = json.loads(output)
    assert result["status"] == "cancelled"
    assert [a["value"] for a in result["answers"]] == ["staging"]


@STOPS
@pytest.mark.parametrize("answers", [[], [(b"Ada Lovelace\n", b"Question 2 of")]],
                         ids=["before the first line", "between questions"])
def test_a_signal_cancels_an_elicitation_with_one_reply(stop, answers):
    output, code = stopped_on_a_quiet_pipe(["elicit", str(ELICITATION)], stop, answers)
    assert code == EXIT["interrupted"]
    assert json.loads(output) == {"jsonrpc": "2.0", "id": 7, "result": {"action": "cancel"}}


@pytest.mark.parametrize("command", ["ask", "elicit"])
def test_input_that_has_already_ended_is_nobody_there(command):
    request = DEPLOY if command == "ask" else ELICITATION
    with open(os.devnull, "rb") as nothing:
        run = subprocess.run([sys.executable, "-m", "interview", command, str(request)],
                             stdin=nothing, capture_output=True, text=True, timeout=60)
    assert run.returncode == 3, run.stderr
    assert "Question 1 of" not in run.stderr, "nothing is asked"
    reply = json.loads(run.stdout)
    if command == "ask":
        assert (reply["status"], reply["reason"]) == ("unavailable", "no-input")
    else:
        assert reply["result"] == {"action": "cancel"}
