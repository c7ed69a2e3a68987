"""A person at a terminal or behind a pipe, one answer a line: the line mode's input and output.

The plugin draws the numbered lists and reads every line itself, so a line means the same here
as in the Rust command and the npm package; this side only writes the plugin's text (to stderr)
and reads lines (from stdin): a line's limit, no echo for a secret, Ctrl-C, and input that ends
before its first line, which means nobody is there (``unavailable``).
"""

import getpass
import os
import re
import select
import stat
import sys
import unicodedata
from typing import List, Optional, TextIO, Union

from ._contract import REQUEST_BYTES
from .ui import Absence, LineEnd, LineRead, Mode, Span, Tone, TooLong, Ui, Unavailable


class _Stopped(Exception):
    """Interrupted while waiting for a line."""


# The Rust command's limit on a request, which bounds an answer line too.
LINE_LIMIT = REQUEST_BYTES

# How long a pipe or file that has sent nothing yet is given to show that it ends before the
# question is drawn, as in the Rust command: a program closing its end at once (an empty pipe)
# means nobody is there, told apart from one still to write, or a person.
NOBODY_PATIENCE = 0.5

# A terminal's attributes for each tone.
_ATTRIBUTES = {Tone.STRONG: "\x1b[1m", Tone.FAINT: "\x1b[2m", Tone.ALERT: "\x1b[1;31m"}

# What a terminal must not be handed from another component than the built-in one (which
# cleans all agent text itself, escape sequences whole): the controls it acts on, and the
# format characters that reorder or hide text (bidirectional controls, zero-width spaces),
# by Unicode category, as the Rust host cleans. Joiners stay: emoji and some scripts need them.
_ASCII_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_NON_ASCII = re.compile("[^\x00-\x7f]")
_UNSEEN = {"Cc", "Cf", "Zl", "Zp"}


def _unseen(match: "re.Match[str]") -> str:
    c = match.group()
    if c in "\u2028\u2029":
        return "\n"
    if c in "\u200c\u200d":
        return c
    return "" if unicodedata.category(c) in _UNSEEN else c


def _printable(text: str) -> str:
    """``text`` with its tabs as spaces, Unicode's line separators as line breaks, and no
    other control or format character."""
    return _NON_ASCII.sub(_unseen, _ASCII_CONTROLS.sub("", text.replace("\t", " ")))


class LineUi(Ui):
    """Lines from ``stdin``, the plugin's text to ``out`` (stderr by default); ``colour`` sets
    the plugin's tones off with a terminal's attributes."""

    def __init__(self, stdin: TextIO = None, out: TextIO = None, line_limit: int = LINE_LIMIT,
                 colour: bool = False):
        self.stdin = stdin or sys.stdin
        self.out = out or sys.stderr
        self.line_limit = line_limit
        """The longest line kept, in bytes: the rest of a longer one is read and dropped, so
        that endless input costs no more than this."""
        self.colour = colour
        self.stopped: Optional[str] = None
        """Why reading stopped: ``ended`` (the input ended) or ``interrupted``."""
        self._waiting = False
        """A wait that a signal cuts short (see :meth:`interrupt`): for a line, or for the
        input to show that it has ended."""
        self._peeked: Optional[str] = None
        self._nobody: Optional[bool] = None
        """Whether :meth:`mode` found nobody there, once it looked: the same for the UI's life."""

    def _raw_line(self) -> Union[str, TooLong, None]:
        """The next line as read, None at the end of input. Bytes that are not UTF-8 become
        U+FFFD, as in the Rust command, so that one bad byte costs no answer."""
        source = getattr(self.stdin, "buffer", self.stdin)
        line = source.readline(self.line_limit + 1)
        if len(line) > self.line_limit and line[-1:] not in (b"\n", "\n"):
            while True:
                rest = source.readline(1 << 16)
                if not rest or rest[-1:] in (b"\n", "\n"):
                    return TooLong(self.line_limit)
        if isinstance(line, bytes):
            line = line.decode("utf-8", "replace")
        return None if line == "" else line

    def _line(self, hidden: bool) -> Union[str, TooLong, None]:
        if self._peeked is not None:
            line, self._peeked = self._peeked, None
        elif hidden and self.stdin.isatty():
            try:
                line = getpass.getpass("", stream=self.out) + "\n"
            except EOFError:
                line = None
        else:
            line = self._raw_line()
        return line.rstrip("\n").rstrip("\r") if isinstance(line, str) else line

    def interrupt(self) -> None:
        """Stops reading, as Ctrl-C does: a signal handler may call it. A wait for a line (or
        for the input to show that it has ended) ends now, and the plugin returns the answers
        so far."""
        self.stopped = self.stopped or "interrupted"
        if self._waiting:
            # Raised once: a second signal while the first unwinds must not escape the wait.
            self._waiting = False
            raise _Stopped

    def _ended_already(self) -> bool:
        """Whether the input ends before its first line within :data:`NOBODY_PATIENCE`: a
        closed pipe, ``/dev/null``, an empty file. A pipe that has sent nothing by then may
        still bring answers: the question is drawn, and a read waits for them. A signal ends
        this wait too (the input has not ended then, and the first read says interrupted)."""
        source = getattr(self.stdin, "buffer", self.stdin)
        try:
            fd = source.fileno()
        except (OSError, ValueError):
            # Text in memory (io.StringIO): a read never waits, so the first line is read now.
            self._peeked = self._raw_line()
            return self._peeked is None
        peek = getattr(source, "peek", None)
        if peek is None:
            return False  # no look at the input that leaves it unread
        try:
            self._waiting = True
            if self.stopped is not None or not _readable_within(fd, NOBODY_PATIENCE):
                return False
        except (KeyboardInterrupt, _Stopped):
            self.stopped = "interrupted"
            return False
        finally:
            self._waiting = False
        # A single read of the descriptor, which returns at once: the end, or the first bytes,
        # kept in the buffer for the first line.
        return peek(1) == b""

    def mode(self) -> Union[Mode, Unavailable]:
        # Asked again (a host may ask before the plugin does), the answer is the same.
        if self._nobody is None:
            self._nobody = not self.stdin.isatty() and self._ended_already()
        return Unavailable(Absence.NO_INPUT) if self._nobody else Mode.LINES

    def write(self, spans: List[Span]) -> None:
        # Written even once stopped: the plugin ends the line its prompt left open, and writes
        # nothing more after that.
        for span in spans:
            text = _printable(span.text)
            on = _ATTRIBUTES.get(span.tone) if self.colour else None
            if on is None:
                self.out.write(text)
            else:
                # Each line set off alone, so that a line break never carries an attribute.
                self.out.write("\n".join(f"{on}{line}\x1b[0m" if line else ""
                                         for line in text.split("\n")))

    def read_line(self, hidden: bool) -> LineRead:
        self.out.flush()
        line = None
        try:
            self._waiting = True
            # Looked at once the wait is on: a signal before this set `stopped`, and one after
            # it interrupts the read itself (see `interrupt`), so none is missed.
            if self.stopped is None:
                line = self._line(hidden)
                if line is None:
                    self.stopped = "ended"
        except (KeyboardInterrupt, _Stopped):
            self.stopped = "interrupted"
        finally:
            self._waiting = False
        if self.stopped is not None:
            return LineEnd.INTERRUPTED if self.stopped == "interrupted" else LineEnd.ENDED
        return line

    def finished(self) -> None:
        self.out.flush()


def _readable_within(fd: int, seconds: float) -> bool:
    """Whether a read of ``fd`` returns at once, with bytes or the end of input, or will within
    ``seconds``."""
    mode = os.fstat(fd).st_mode
    if stat.S_ISREG(mode) or stat.S_ISCHR(mode):
        # A file, or a device such as /dev/null (a terminal is never looked at here).
        return True
    try:
        return bool(select.select([fd], [], [], seconds)[0])
    except (OSError, ValueError):
        # A descriptor select cannot watch (a pipe on Windows): not known without a read.
        return False
