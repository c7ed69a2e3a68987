"""The line mode's writing side, alone: what reaches the terminal of the spans a component wrote."""

import io
import re

import interview
from interview.ui import Span, Tone

ATTRIBUTES = re.compile("\x1b\\[(?:[12]|1;31|0)m")


def test_no_control_character_of_a_span_reaches_the_terminal_whichever_component_wrote_it():
    spans = [
        Span("Deploy\x1b]0;owned\x07 to\tprod?\x1b[2J\r\n", Tone.STRONG),
        Span("\x9b31m> \x00\x7f", Tone.PLAIN),
    ]
    for colour in (False, True):
        screen = io.StringIO()
        interview.LineUi(stdin=io.StringIO(""), out=screen, colour=colour).write(spans)
        assert ATTRIBUTES.sub("", screen.getvalue()) == "Deploy]0;owned to prod?[2J\n31m> "
