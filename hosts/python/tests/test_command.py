"""`python -m interview` answers like the Rust command in numbered mode: the same lines on stdin
give the same result on stdout and the same exit code."""

import json
import os
import subprocess
import sys

import pytest

from interview._contract import ESCAPED
from interview.__main__ import escape_invisible

from conftest import ROOT

DEPLOY = ROOT / "examples" / "deploy.json"
ELICITATION = ROOT / "examples" / "elicitation.json"


def python_command(*args, answers=""):
    """A run of the package's command; ``answers`` (and ``args``) may be bytes that are not
    UTF-8, and stdout is then left as bytes too."""
    return subprocess.run([sys.executable, "-m", "interview", *args], input=answers,
                          capture_output=True, text=isinstance(answers, str), timeout=60)


def both(rust_command, *args, answers=""):
    """The Python and the Rust command's runs on the same input: they must agree."""
    python = python_command(*args, answers=answers)
    rust = subprocess.run([str(rust_command), *args], input=answers, capture_output=True,
                          text=isinstance(answers, str), timeout=60)
    assert (python.stdout, python.returncode) == (rust.stdout, rust.returncode), python.stderr
    return python


# A batch answered in every way the numbered mode reads: a number, a range and a typed answer,
# a refused number asked again, a default taken with Enter, and an optional question skipped.
BATCH = "2\n1, 3-4\n40\n3\n\nskip\n\n"


def test_a_batch_gives_the_rust_commands_result_and_exit_code(rust_command):
    run = both(rust_command, "ask", str(DEPLOY), answers=BATCH)
    assert run.returncode == 0
    result = json.loads(run.stdout)
    assert result["status"] == "answered"
    values = [a["value"] for a in result["answers"]]
    assert values == ["staging", ["Unit tests", "Migrations dry-run", "Load test"], 3, True,
                      "I don't have information about this."]
    assert "40 is more than 10" in run.stderr


def test_quit_returns_the_answers_so_far_like_the_rust_command(rust_command):
    run = both(rust_command, "ask", str(DEPLOY), answers="1\n\nquit\n")
    assert run.returncode == 1
    result = json.loads(run.stdout)
    assert result["status"] == "cancelled"
    assert [a["id"] for a in result["answers"]] == ["environment", "checks"]


def test_going_back_and_editing_at_the_review(rust_command):
    answers = "1\nback\n3\n\n5\ny\nnone\n1\n2\n\n"
    run = both(rust_command, "ask", str(DEPLOY), answers=answers)
    assert json.loads(run.stdout)["answers"][0]["value"] == "staging"


def test_an_elicitation_declined_and_accepted(rust_command):
    declined = both(rust_command, "elicit", str(ELICITATION), answers="decline\n")
    assert declined.returncode == 5
    answers = "Ada Lovelace\nada@example.com\n2026-12-24\n\n2\n1,2\nn\n\n"
    accepted = both(rust_command, "elicit", str(ELICITATION), answers=answers)
    assert accepted.returncode == 0
    assert json.loads(accepted.stdout)["result"] == {"action": "accept", "content": {
        "name": "Ada Lovelace", "email": "ada@example.com", "date": "2026-12-24", "guests": 8,
        "room": "hall", "extras": ["projector", "catering"], "newsletter": False}}


def test_no_input_at_all_means_nobody_is_there_and_an_empty_line_cancels(rust_command):
    assert both(rust_command, "ask", str(DEPLOY), answers="\n").returncode == 1
    python = python_command("ask", str(DEPLOY), answers="")
    rust = subprocess.run([str(rust_command), "ask", str(DEPLOY)], input="", capture_output=True,
                          text=True, timeout=60, env={**os.environ, "INTERVIEW_INBOX": "/nonexistent"})
    # The same result but for why: the Rust command asks an open `interview inbox` first.
    ours, theirs = json.loads(python.stdout), json.loads(rust.stdout)
    assert (python.returncode, rust.returncode) == (3, 3), python.stderr
    assert (ours.pop("reason"), theirs.pop("reason")) == ("no-input", "no-inbox")
    assert "the input ended before any answer" in ours.pop("text")
    assert "no `interview inbox` is open" in theirs.pop("text")
    assert ours == theirs


def test_an_invalid_request_and_an_unreadable_file(rust_command, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"questions": [{"question": "Pick", "options": []}]}')
    run = both(rust_command, "ask", str(bad))
    assert run.returncode == 2 and json.loads(run.stdout)["error"]["path"].startswith("questions[0]")
    missing = python_command("ask", str(tmp_path / "missing.json"))
    assert missing.returncode == 2
    assert json.loads(missing.stdout)["status"] == "invalid"


def test_check_and_schema(rust_command):
    both(rust_command, "check", str(DEPLOY))
    for format in ("plain", "openai", "anthropic", "mcp", "gemini"):
        python = python_command("schema", "--format", format)
        assert python.returncode == 0
        rust = subprocess.run([str(rust_command), "schema", "--format", format],
                              capture_output=True, text=True)
        assert json.loads(python.stdout) == json.loads(rust.stdout)


TRICKY = json.loads((ROOT / "tests" / "lines" / "tricky.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", TRICKY, ids=[case["name"] for case in TRICKY])
def test_a_tricky_line_means_what_the_shared_table_says(rust_command, tmp_path, case):
    # The plugin reads every line, so this command, the Rust one and the npm one agree.
    path = tmp_path / "request.json"
    path.write_text(json.dumps(case["request"]), encoding="utf-8")
    result = json.loads(both(rust_command, "ask", str(path), answers=case["typed"]).stdout)
    for field, expected in case["expect"].items():
        assert result[field] == expected, (case["name"], field, result)


# Every code point a printed result has escaped (the Rust command's table, generated into the
# package), and some that it has not: those just outside each range, and others the text of a
# result often holds.
ESCAPED_CODE_POINTS = [c for start, end in ESCAPED for c in range(start, end + 1)]
NEIGHBOURS = {c for start, end in ESCAPED for c in (start - 1, end + 1)}
OTHERS = {ord(c) for c in " ~é€中\U0001f600\U00010000"}
KEPT = sorted((NEIGHBOURS | OTHERS) - set(ESCAPED_CODE_POINTS))


def test_every_escaped_code_point_is_printed_as_json_escapes_astral_ones_as_surrogate_pairs():
    everything = "".join(map(chr, ESCAPED_CODE_POINTS))
    # Python's JSON with ensure_ascii writes every such character as \uXXXX (lower-case hex, a
    # surrogate pair beyond the Basic Multilingual Plane), as the Rust command does.
    assert escape_invisible(json.dumps(everything, ensure_ascii=False)) == json.dumps(everything)
    # Among them those the command's hand-written copy once missed: a combining grapheme joiner,
    # a variation selector, a tag.
    assert escape_invisible('"\u034f\ufe0f\U000e0041"') == '"\\u034f\\ufe0f\\udb40\\udc41"'


def test_other_code_points_are_printed_as_they_are():
    kept = '"' + "".join(map(chr, KEPT)) + '"'
    assert escape_invisible(kept) == kept


def test_a_result_with_each_escaped_range_prints_as_the_rust_commands(rust_command, tmp_path):
    # The first, a middle and the last code point of each range, in the question and an option:
    # the plugin escapes its own JSON, and the command's pass must leave the same text.
    sample = "".join(chr(c) for start, end in ESCAPED
                     for c in sorted({start, (start + end) // 2, end}))
    label = f"x\u034f\ufe0f\U000e0041{sample}y"
    path = tmp_path / "invisible.json"
    path.write_text(json.dumps({"question": f"Which{sample}?", "options": [label, "plain"]}))
    run = both(rust_command, "ask", str(path), answers="1\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.isascii(), "no escaped character printed as itself"
    assert "x\\u034f\\ufe0f\\udb40\\udc41" in run.stdout
    assert json.loads(run.stdout)["answer"] == label
