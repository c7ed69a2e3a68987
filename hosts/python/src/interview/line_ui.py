"""A person at a terminal or behind a pipe, one answer per line: numbered lists on stderr,
answers from stdin. It reads what the Rust command's numbered mode reads, so that the same
lines give the same result:

- a select: a number, a label, ``2: a note`` where notes are offered, or typed text where the
  question takes its own answers; Enter takes the default;
- a multi-select: numbers and ranges (``1, 3 5-7``), ``none``, a label, ``1, 3: a note``;
- commands: ``back``, ``skip`` (optional questions), ``quit`` or ``exit``, ``help``, and
  ``decline`` in a request that can be declined (an MCP elicitation);
- the end of input cancels, except at the review, where every question has its answer and it
  sends them; input that ends before its first line means nobody is there (``unavailable``).
"""

import getpass
import re
import sys
from typing import List, Optional, TextIO, Tuple, Union

from .ui import (
    Absence, ConfirmRequest, Discuss, Edit, Frame, Mode, MultiPicked, MultiSelectRequest, Nav,
    NumberRequest, Other, Picked, Review, ReviewRequest, SelectRequest, TextRequest, Ui,
    Unavailable,
)

COMMANDS = {"back": Nav.BACK, "skip": Nav.SKIP, "quit": Nav.CANCEL, "exit": Nav.CANCEL}


class _Stopped(Exception):
    """The person left (``quit``), or the input ended: every later widget cancels."""


class _TooLong:
    """A line longer than the limit, dropped unread."""


# The Rust command's limit on a request, which bounds an answer line too.
LINE_LIMIT = 8 << 20


def _split_note(typed: str, offered: bool) -> Optional[Tuple[str, str]]:
    """``2: only on weekdays``, where notes are offered: the part before the colon and the note."""
    before, colon, note = typed.partition(":")
    if offered and colon and note.strip():
        return before.strip(), note.strip()
    return None


def _number(text: str) -> Optional[int]:
    return int(text) if text.isdigit() else None


def _label_index(options, typed: str) -> Optional[int]:
    """The option a typed line names: its label (any case), or its value."""
    lowered = typed.lower()
    for i, option in enumerate(options):
        if option.label.strip().lower() == lowered:
            return i
    for i, option in enumerate(options):
        if option.value == typed:
            return i
    return None


def _picks(line: str, total: int):
    """Numbers and ranges (``1, 3 5-7``) as 0-based indices below ``total``: None when the line
    is not a list of numbers at all, a message when it names an entry that is not there."""
    picked: List[int] = []
    for token in (t for t in re.split(r"[, \t]", line) if t):
        first, dash, last = token.partition("-")
        if dash:
            a, b = _number(first.strip()), _number(last.strip())
        else:
            a = b = _number(token)
        if a is None or b is None:
            return None
        for n in range(min(a, b), max(a, b) + 1):
            if n == 0 or n > total:
                return f"There is no option {n}; the options are 1 to {total}."
            if n - 1 not in picked:
                picked.append(n - 1)
    return picked


class LineUi(Ui):
    """Numbered lists and one answer per line. ``stdin``/``stderr`` may be replaced (tests)."""

    def __init__(self, stdin: TextIO = None, out: TextIO = None, line_limit: int = LINE_LIMIT):
        self.stdin = stdin or sys.stdin
        self.out = out or sys.stderr
        self.line_limit = line_limit
        """The longest answer line kept, in bytes: the rest of a longer one is read and
        dropped, so that endless input costs no more than this."""
        self._reading = False
        self.context: Optional[str] = None
        self.declinable = False
        self.stopped: Optional[str] = None
        """Why asking stopped: ``quit``, ``ended`` (the input ended) or ``interrupted``."""
        self._peeked: Optional[str] = None
        self._probed = False
        self._hinted = set()

    # -- reading ------------------------------------------------------------------------------

    def _raw_line(self) -> Union[str, _TooLong, None]:
        """The next line as read, None at the end of input. Bytes that are not UTF-8 become
        U+FFFD, as in the Rust command, so that one bad byte costs no answer."""
        source = getattr(self.stdin, "buffer", self.stdin)
        line = source.readline(self.line_limit + 1)
        if len(line) > self.line_limit and line[-1:] not in (b"\n", "\n"):
            while True:
                rest = source.readline(1 << 16)
                if not rest or rest[-1:] in (b"\n", "\n"):
                    return _TooLong()
        if isinstance(line, bytes):
            line = line.decode("utf-8", "replace")
        return None if line == "" else line

    def _line(self) -> Union[str, _TooLong, None]:
        if self._peeked is not None:
            line, self._peeked = self._peeked, None
        else:
            line = self._raw_line()
        return line.rstrip("\n").rstrip("\r") if isinstance(line, str) else line

    def interrupt(self) -> None:
        """Stops asking, as Ctrl-C does: a signal handler may call it. A wait for a line ends
        now; every later widget cancels, so the plugin returns the answers so far."""
        self.stopped = self.stopped or "interrupted"
        if self._reading:
            raise _Stopped

    def _read_once(self, prompt: str, secret: bool):
        if self.stopped == "interrupted":
            raise _Stopped
        self._reading = True
        try:
            if secret and self.stdin.isatty() and self._peeked is None:
                try:
                    return getpass.getpass(prompt, stream=self.out)
                except EOFError:
                    return None
            self.out.write(prompt)
            self.out.flush()
            return self._line()
        except (KeyboardInterrupt, _Stopped):
            # Ctrl-C or a signal while asking: the answers so far are kept, as on any cancel.
            self.stopped = self.stopped or "interrupted"
            self.say("")
            raise _Stopped from None
        finally:
            self._reading = False

    def _read(self, prompt: str = "> ", secret: bool = False) -> str:
        """One line; raises ``_Stopped`` at the end of input, on Ctrl-C and on ``quit``."""
        while True:
            line = self._read_once(prompt, secret)
            if not isinstance(line, _TooLong):
                break
            self.say(f"! That line is more than {self.line_limit} bytes; type a shorter answer.")
        if line is None:
            self.stopped = self.stopped or "ended"
            self.say("")
            raise _Stopped
        if line.strip().lower() in ("quit", "exit"):
            self.stopped = self.stopped or "quit"
            raise _Stopped
        return line

    def _declined(self, line: str) -> bool:
        return self.declinable and line.strip().lower() == "decline"

    def _answer(self, prompt: str = "> ", secret: bool = False) -> Union[str, Nav]:
        """The next answer line, or how the person left instead: ``Nav.CANCEL`` at the end
        of input, on Ctrl-C and on ``quit``; ``Nav.DECLINE`` where the form may be declined."""
        try:
            line = self._read(prompt, secret)
        except _Stopped:
            return Nav.CANCEL
        return Nav.DECLINE if self._declined(line) else line

    # -- showing ------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _hint(self, key: str, text: str) -> None:
        if key not in self._hinted:
            self._hinted.add(key)
            self.say(text)

    def _show_context(self, context: Optional[str], declinable: bool) -> None:
        self.declinable = declinable
        if context and context != self.context:
            self.say("")
            self.say(context)
            self.context = context

    def _show_frame(self, frame: Frame) -> None:
        self._show_context(frame.context, frame.declinable)
        self.say("")
        place = f"Question {frame.position} of {frame.total}" if frame.total > 1 else ""
        if frame.header:
            place = f"{place} · {frame.header}" if place else frame.header
        if place:
            self.say(place)
        says = any(t.rstrip().lower().endswith("(optional)") for t in (frame.prompt, frame.header or ""))
        self.say(frame.prompt + ("" if frame.required or says else " (optional)"))
        if frame.hint:
            self.say(f"({frame.hint})")

    def _show_footer(self, frame: Frame) -> None:
        if frame.error:
            self.say(f"! {frame.error}")
        words = ["back"] + ([] if frame.required else ["skip"]) + (["decline"] if frame.declinable else [])
        self._hint(" ".join(words), f"Commands: {', '.join(words + ['quit', 'help'])}.")

    def _show_list(self, options, ticks=None, extras=()) -> None:
        width = len(str(len(options) + len(extras)))
        for i, option in enumerate(options):
            tick = "" if ticks is None else ("[x] " if i in ticks else "[ ] ")
            badge = " (recommended)" if option.recommended else ""
            self.say(f"  {i + 1:>{width}}. {tick}{option.label}{badge}")
            pad = " " * (width + 4 + len(tick))
            for line in (option.description or "").splitlines():
                self.say(f"{pad}{line}")
            for line in (option.preview or "").splitlines():
                self.say(f"{pad}│ {line}")
        for k, extra in enumerate(extras):
            tick = "" if ticks is None else "[ ] "
            self.say(f"  {len(options) + k + 1:>{width}}. {tick}{extra}")

    def _read_other(self, current: Optional[str]) -> str:
        prompt = f"Your answer (Enter keeps {current!r}): " if current else "Your answer: "
        line = self._read(prompt)
        return (current or "") if not line.strip() else line

    # -- widgets ------------------------------------------------------------------------------

    def mode(self) -> Union[Mode, Unavailable]:
        # From a pipe or file, input that ends before its first line means nobody is there.
        if not self._probed and not self.stdin.isatty():
            self._probed = True
            first = self._raw_line()
            if first is None:
                return Unavailable(Absence.NO_INPUT)
            self._peeked = first
        return Mode.NUMBERED

    def finished(self) -> None:
        self.context = None
        self.declinable = False

    def select(self, frame: Frame, request: SelectRequest):
        if self.stopped:
            return Nav.CANCEL
        extras = [e for e in (request.other_label, request.discuss_label) if e]
        self._show_frame(frame)
        self._show_list(request.options, None, extras)
        if request.selected is not None and request.selected < len(request.options):
            note = f"; note: {request.note}" if request.note else ""
            self.say(f"(default: {request.selected + 1}. {request.options[request.selected].label}{note})")
        elif request.other_text:
            self.say(f"(default: {request.other_text})")
        own = ", or type your own answer." if request.other_label else "."
        note = " To add a note, write it after a colon: 2: only on weekdays." if request.notes else ""
        self._hint("select note" if note else "select", f"Type the number of your choice{own}{note}")
        self._show_footer(frame)
        count, total = len(request.options), len(request.options) + len(extras)
        while True:
            line = self._answer()
            if isinstance(line, Nav):
                return line
            typed = line.strip()
            if not typed:
                if request.selected is not None:
                    return Picked(request.selected, request.note)
                if request.other_text is not None:
                    return Other(request.other_text)
                if not frame.required:
                    return Nav.SKIP
                self.say(f"! Type a number from 1 to {total}.")
                continue
            n = _number(typed)
            if n is not None:
                if 1 <= n <= count:
                    return Picked(n - 1)
                if request.other_label and n == count + 1:
                    try:
                        return Other(self._read_other(request.other_text))
                    except _Stopped:
                        return Nav.CANCEL
                if request.discuss_label and n == count + 1 + bool(request.other_label):
                    return Discuss()
                self.say(f"! There is no option {n}; type a number from 1 to {total}.")
                continue
            index = _label_index(request.options, typed)
            if index is not None:
                return Picked(index)
            noted = _split_note(typed, request.notes)
            if noted and _number(noted[0]) is not None and 1 <= _number(noted[0]) <= count:
                return Picked(_number(noted[0]) - 1, noted[1])
            word = typed.lower()
            if word in COMMANDS:
                return COMMANDS[word]
            if word in ("help", "?"):
                self._show_frame(frame)
                self._show_list(request.options, None, extras)
            elif request.other_label:
                return Other(typed)
            else:
                self.say(f"! Type a number from 1 to {total}.")

    def multi_select(self, frame: Frame, request: MultiSelectRequest):
        if self.stopped:
            return Nav.CANCEL
        # Picks that were just refused are no default: Enter would only send them again.
        selected = [] if frame.error else list(request.selected)
        other_text = None if frame.error else request.other_text
        extras = [request.other_label] if request.other_label else []
        self._show_frame(frame)
        self._show_list(request.options, selected, extras)
        if selected or other_text:
            picked = [str(i + 1) for i in selected] + ([other_text] if other_text else [])
            self.say(f"(default: {', '.join(picked)})")
        # `none` only where no pick is an answer: a question that needs one says so in its hint.
        none = " (none for no pick)" if not request.min_picks else ""
        note = " To add a note, write it after a colon: 1, 3: only on weekdays." if request.notes else ""
        self._hint("multi" + (" none" if none else "") + (" note" if note else ""), f"Type the numbers of your choices, like 1, 3 or 2-4{none}.{note}")
        self._show_footer(frame)
        count = len(request.options)
        total = count + len(extras)
        while True:
            line = self._answer()
            if isinstance(line, Nav):
                return line
            typed = line.strip()
            if not typed:
                return MultiPicked(selected, other_text, request.note)
            if typed.lower() == "none":
                return MultiPicked([])
            picks = _picks(typed, total)
            if isinstance(picks, list):
                if count in picks:
                    try:
                        other = self._read_other(other_text)
                    except _Stopped:
                        return Nav.CANCEL
                    return MultiPicked([i for i in picks if i < count], other)
                return MultiPicked(picks)
            if isinstance(picks, str):
                self.say(f"! {picks}")
                continue
            index = _label_index(request.options, typed)
            if index is not None:
                return MultiPicked([index])
            noted = _split_note(typed, request.notes)
            if noted and isinstance(_picks(noted[0], count), list):
                return MultiPicked(_picks(noted[0], count), None, noted[1])
            word = typed.lower()
            if word in COMMANDS:
                return COMMANDS[word]
            if word in ("help", "?"):
                self._show_frame(frame)
                self._show_list(request.options, selected, extras)
            elif request.other_label:
                return MultiPicked([], typed)
            else:
                self.say("! Type the numbers of your choices, like 1, 3 or 2-4.")

    def text(self, frame: Frame, request: TextRequest):
        if self.stopped:
            return Nav.CANCEL
        # After an error the initial text is the refused answer: a line cannot be edited, so
        # it is no default here.
        initial = None if frame.error else request.initial
        self._show_frame(frame)
        if initial is not None:
            self.say(f"(default: {'(hidden)' if request.secret else initial})")
        elif request.placeholder:
            self.say(f"(for example: {request.placeholder})")
        if request.multiline:
            self._hint("multiline", "Type your answer; an empty line ends it.")
        self._show_footer(frame)
        first = self._answer(secret=request.secret)
        if isinstance(first, Nav):
            return first
        if first.strip().lower() in COMMANDS:
            return COMMANDS[first.strip().lower()]
        if not first.strip():
            return initial or ""
        if not request.multiline:
            return first
        lines = [first]
        while True:
            try:
                line = self._read("  ")
            except _Stopped:
                return Nav.CANCEL
            if not line:
                return "\n".join(lines)
            lines.append(line)

    def confirm(self, frame: Frame, request: ConfirmRequest):
        if self.stopped:
            return Nav.CANCEL
        self._show_frame(frame)
        self._show_footer(frame)
        choices = {True: "[Y/n]", False: "[y/N]", None: "[y/n]"}[request.initial]
        while True:
            line = self._answer(f"{choices} > ")
            if isinstance(line, Nav):
                return line
            word = line.strip().lower()
            if word in ("y", "yes"):
                return True
            if word in ("n", "no"):
                return False
            if not word and request.initial is not None:
                return request.initial
            if not word and not frame.required:
                return Nav.SKIP
            if word in COMMANDS:
                return COMMANDS[word]
            if word in ("help", "?"):
                self._show_frame(frame)
            else:
                self.say("! Type y for yes or n for no.")

    def number(self, frame: Frame, request: NumberRequest):
        if self.stopped:
            return Nav.CANCEL
        initial = None if frame.error else request.initial
        self._show_frame(frame)
        if initial is not None:
            self.say(f"(default: {initial:g})")
        self._show_footer(frame)
        while True:
            line = self._answer()
            if isinstance(line, Nav):
                return line
            word = line.strip().lower()
            if word in COMMANDS:
                return COMMANDS[word]
            if word in ("help", "?"):
                self._show_frame(frame)
            elif not word:
                return "" if initial is None else repr(initial)
            else:
                return line

    def review(self, request: ReviewRequest):
        if self.stopped:
            return Review.CANCEL
        self._show_context(request.context, request.declinable)
        items = request.items
        self._show_review(request)
        while True:
            try:
                line = self._read()
            except _Stopped:
                # Every question has its answer: the end of input sends them; quit does not.
                return Review.SUBMIT if self.stopped == "ended" else Review.CANCEL
            if self._declined(line):
                return Review.DECLINE
            typed = line.strip()
            if not typed:
                return Review.SUBMIT
            n = _number(typed)
            if n is not None and 1 <= n <= len(items):
                return Edit(n - 1)
            word = typed.lower()
            if word == "back" and items:
                return Edit(len(items) - 1)
            if word in ("help", "?"):
                self._show_review(request)
            elif not items:
                self.say("! Press Enter to accept.")
            else:
                self.say(f"! Press Enter to send, or type a number from 1 to {len(items)} to change an answer.")

    def _show_review(self, request: ReviewRequest) -> None:
        items = request.items
        if not items:
            decline = ", type decline to refuse" if request.declinable else ""
            self.say(f"Press Enter to accept{decline}, or quit.")
            return
        self.say("")
        self.say("Review your answers")
        width = len(str(len(items)))
        for i, item in enumerate(items):
            title = item.header or (item.prompt.splitlines() or [""])[0]
            self.say(f"  {i + 1:>{width}}. {title}: {item.answer}")
        decline = ", `decline` to refuse" if request.declinable else ""
        self._hint("review", f"Press Enter to send these answers, type a number to change one{decline}, or quit.")
