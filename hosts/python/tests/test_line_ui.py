"""The line mode's writing side, alone: what of the spans a component wrote reaches the terminal."""

import io
import re

import interview
from interview.ui import Span, Tone

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
