"""The line mode's two sides, alone: what of the spans a component wrote reaches the terminal,
and when input that gives no line means that nobody is there."""

import io
import os
import re
import threading
import time

import interview
from interview.ui import Absence, Mode, Span, Tone, Unavailable

ATTRIBUTES = re.compile("\x1b\\[(?:[12]|1;31|0)m")


def test_no_control_or_hiding_character_of_a_span_reaches_the_terminal_whatever_wrote_it():
    spans = [
        Span("Deploy\x1b]0;owned\x07 to\tprod?\x1b[2J\r\n", Tone.STRONG),
        Span("\u202eevil\u202c \u200bzero\ufeff \U000e0041tag \U0001f468\u200d\U0001f469\u2028",
             Tone.PLAIN),
        Span("\x9b31m> \x00\x7f", Tone.PLAIN),
    ]
    for colour in (False, True):
        screen = io.StringIO()
        interview.LineUi(stdin=io.StringIO(""), out=screen, colour=colour).write(spans)
        assert ATTRIBUTES.sub("", screen.getvalue()) == (
            "Deploy]0;owned to prod?[2J\nevil zero tag \U0001f468\u200d\U0001f469\n31m> ")


def mode_on_a_pipe(closed_after):
    """What ``mode`` says with stdin a pipe that nobody writes to, whose writer closes after
    ``closed_after`` seconds, and how long it took to say it."""
    reader, writer = os.pipe()
    with open(writer, "wb") as writing, open(reader, "rb") as stdin:
        closing = threading.Timer(closed_after, writing.close)
        closing.start()
        try:
            started = time.monotonic()
            said = interview.LineUi(stdin=stdin, out=io.StringIO()).mode()
            return said, time.monotonic() - started
        finally:
            closing.cancel()


def test_a_pipe_that_sends_nothing_yet_may_still_bring_answers():
    # Not a wait for the first line: the question is drawn at once, and the read waits for it.
    said, took = mode_on_a_pipe(closed_after=5)
    assert (said, took < 2) == (Mode.LINES, True), took


def test_a_pipe_closed_a_moment_after_mode_looks_is_nobody_all_the_same():
    said, took = mode_on_a_pipe(closed_after=0.1)
    assert (said, took < 2) == (Unavailable(Absence.NO_INPUT), True), took
