"""A Python host for the interview plugin (wasmtime-py).

The plugin (``host/plugin/interview.wasm``) holds all the meaning: reading the agent's request,
validation, the batch, checking answers, the result. A host only provides the ``ui`` widgets of
``wit/ui.wit``. This module shows how, with two UIs: ``LineUi`` for a person at a terminal (one
answer per line) and ``ScriptedUi`` for tests.

    plugin = Plugin()
    print(plugin.call("interview", '{"question": "Ship it?", "type": "confirm"}', LineUi()))
    ending, reply = plugin.elicit(mcp_request_json, LineUi(), requester="github")

wasmtime-py's value mapping, which the widgets below follow: records are ``Record`` objects
whose attributes are the WIT field names (``getattr(r, "other-label")``); enums and strings are
``str``; options are the value or ``None``; a variant is a ``Variant(tag, payload)`` when its
cases' Python types overlap (``select-reply``, ``text-reply``, ``number-reply``,
``review-reply``) and the bare payload otherwise (``multi-select-reply``: a ``Record`` or a nav
string; ``confirm-reply``: a ``bool`` or a nav string).
"""

import getpass
import re
import sys
from pathlib import Path

import wasmtime
from wasmtime.component import Component, Linker, Record, Variant

COMPONENT = Path(__file__).resolve().parents[2] / "host" / "plugin" / "interview.wasm"
UI = "interview:plugin/ui@0.1.0"
TOOL = "interview:plugin/tool@0.1.0"


def field(record, name):
    """A record's field by its WIT name (``other-label``)."""
    return getattr(record, name)


class Plugin:
    """The plugin component, loaded once; each ``call`` asks through the UI it is given."""

    def __init__(self, path=COMPONENT):
        self.engine = wasmtime.Engine()
        self.component = Component(self.engine, Path(path).read_bytes())
        self.ui = None
        self.linker = Linker(self.engine)
        with self.linker.root() as root:
            with root.add_instance(UI) as ui:
                ui.add_func("mode", lambda store: self.ui.mode())
                for name in ["select", "multi-select", "text", "confirm", "number"]:
                    ui.add_func(name, self._widget(name.replace("-", "_")))
                ui.add_func("review", lambda store, request: self.ui.review(request))

    def _widget(self, method):
        return lambda store, frame, request: getattr(self.ui, method)(frame, request)

    def _export(self, store, instance, name):
        tool = instance.get_export_index(store, TOOL)
        return instance.get_func(store, instance.get_export_index(store, name, tool))

    def _instance(self, ui):
        self.ui = ui
        store = wasmtime.Store(self.engine)
        return store, self.linker.instantiate(store, self.component)

    def call(self, tool, arguments, ui, skip_response=None):
        """Runs a tool call (the model's JSON arguments as text); returns the result JSON text."""
        store, instance = self._instance(ui)
        settings = Record()
        setattr(settings, "skip-response", skip_response)
        return self._export(store, instance, "call")(store, tool, arguments, settings)

    def elicit(self, request, ui, requester=None):
        """Answers an MCP ``elicitation/create`` request (its JSON text: the params or the whole
        JSON-RPC request). Returns ``(ending, reply)``: how it ended (``accepted``,
        ``declined``, ``cancelled``, ``unavailable``, ``invalid``) and the JSON text to send
        back to the server."""
        store, instance = self._instance(ui)
        elicitation = self._export(store, instance, "elicit")(store, request, requester)
        return elicitation.ending, elicitation.reply

    def check(self, tool, arguments):
        """Checks a tool call without asking anything: the ``invalid`` result, or ``{"status":
        "valid", "questions": [...]}``, as JSON text."""
        store = wasmtime.Store(self.engine)
        instance = self.linker.instantiate(store, self.component)
        return self._export(store, instance, "check")(store, tool, arguments)

    def definitions(self):
        """The tool definitions: (name, description, JSON Schema text)."""
        store = wasmtime.Store(self.engine)
        instance = self.linker.instantiate(store, self.component)
        return [(d.name, d.description, d.parameters) for d in self._export(store, instance, "definitions")(store)]


_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_].*?(?:\x07|\x1b\\|$)|\x1b.?|\x9b[0-?]*[ -/]*[@-~]", re.S)
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean(text, newlines=True):
    """Agent text made safe for a terminal: no escape sequences or control characters."""
    text = _CONTROL.sub("", _ESCAPE.sub("", text.replace("\t", " ")))
    return text if newlines else text.replace("\n", " ")


def pick(index, note=None):
    """A select's ``picked`` payload: the option's index and the person's note."""
    record = Record()
    record.index, record.note = index, note
    return record


def multi_pick(picked, other=None, note=None):
    """A multi-select's picks: option indices, a typed answer, the person's note."""
    record = Record()
    record.picked, record.other, record.note = picked, other, note
    return record


class LineUi:
    """A person at a terminal, one answer per line: numbered lists, ``back``, ``skip``, ``quit``,
    and ``decline`` in a request that can be declined (an MCP elicitation).

    Prompts go to stderr, answers come from stdin; the end of input cancels.
    """

    COMMANDS = {"back": "back", "skip": "skip", "quit": "cancel", "exit": "cancel"}

    def __init__(self):
        self.context = None
        self.declinable = False

    def mode(self):
        return "numbered"

    def _read(self, prompt="> "):
        sys.stderr.write(prompt)
        sys.stderr.flush()
        line = sys.stdin.readline()
        return None if line == "" else line.rstrip("\n")

    def _read_secret(self, prompt="> "):
        """A line typed without echo on a terminal (piped input is not echoed anyway)."""
        if not sys.stdin.isatty():
            return self._read(prompt)
        try:
            return getpass.getpass(prompt, stream=sys.stderr)
        except EOFError:
            return None

    def _command(self, typed):
        """The nav a typed word asks for, if it is a command here."""
        word = typed.strip().lower()
        if word == "decline" and self.declinable:
            return "decline"
        return self.COMMANDS.get(word)

    def _context(self, context, declinable):
        """Says what the whole request is about, once."""
        self.declinable = declinable
        if context and context != self.context:
            print(f"\n{clean(context)}", file=sys.stderr)
            self.context = context

    def _show(self, frame):
        self._context(field(frame, "context"), frame.declinable)
        place = f"Question {frame.position} of {frame.total}" if frame.total > 1 else ""
        header = field(frame, "header")
        if header:
            place = f"{place} · {clean(header, False)}" if place else clean(header, False)
        print(f"\n{place}" if place else "", file=sys.stderr)
        says = any(text.rstrip().lower().endswith("(optional)") for text in (frame.prompt, header or ""))
        print(clean(frame.prompt) + ("" if frame.required or says else " (optional)"), file=sys.stderr)

    def _error(self, frame):
        if frame.error:
            print(f"! {clean(frame.error)}", file=sys.stderr)

    def _options(self, options, extras=()):
        for number, option in enumerate(options, 1):
            # A label that already ends in "(Recommended)" gets no second badge.
            says = option.label.rstrip().lower().endswith("(recommended)")
            badge = " (recommended)" if option.recommended and not says else ""
            print(f"  {number}. {clean(option.label, False)}{badge}", file=sys.stderr)
            if option.description:
                print(f"     {clean(option.description, False)}", file=sys.stderr)
            if option.preview:
                for line in clean(option.preview.expandtabs(4)).splitlines():
                    print(f"     │ {line}", file=sys.stderr)
        for number, extra in enumerate(extras, len(options) + 1):
            print(f"  {number}. {clean(extra, False)}", file=sys.stderr)

    @staticmethod
    def _note(typed, offered):
        """``2: only on weekdays`` where notes are offered: the part before the colon and the note."""
        before, colon, note = typed.partition(":")
        if offered and colon and note.strip():
            return before.strip(), note.strip()
        return typed, None

    def select(self, frame, request):
        self._show(frame)
        extras = [e for e in (field(request, "other-label"), field(request, "discuss-label")) if e]
        self._options(request.options, extras)
        if request.notes:
            print("(To add a note, write it after a colon: 2: only on weekdays.)", file=sys.stderr)
        self._error(frame)
        line = self._read()
        if line is None:
            return Variant("nav", "cancel")
        typed = line.strip()
        count = len(request.options)
        if self._command(typed):
            return Variant("nav", self._command(typed))
        if typed == "" and request.selected is not None:
            return Variant("picked", pick(request.selected, request.note))
        if typed.isdigit() and 1 <= int(typed) <= count:
            return Variant("picked", pick(int(typed) - 1))
        number, note = self._note(typed, request.notes)
        if note and number.isdigit() and 1 <= int(number) <= count:
            return Variant("picked", pick(int(number) - 1, note))
        if typed.isdigit() and field(request, "other-label") and int(typed) == count + 1:
            other = self._read("Your answer: ")
            return Variant("nav", "cancel") if other is None else Variant("other", other)
        if typed.isdigit() and field(request, "discuss-label") and int(typed) == count + len(extras):
            return Variant("discuss")
        # Anything else is typed text: the plugin picks a matching label or takes it as the
        # person's own answer, and says why when it cannot.
        return Variant("other", typed)

    def multi_select(self, frame, request):
        self._show(frame)
        other = field(request, "other-label")
        self._options(request.options, [other] if other else [])
        self._error(frame)
        line = self._read("Numbers (like 1, 3): ")
        if line is None:
            return "cancel"
        typed = line.strip()
        if self._command(typed):
            return self._command(typed)
        if typed == "":
            return multi_pick(list(request.selected), field(request, "other-text"), request.note)
        typed, note = self._note(typed, request.notes)
        numbers = [int(n) for n in re.split(r"[,\s]+", typed) if n.isdigit()]
        picked = [n - 1 for n in numbers if 1 <= n <= len(request.options)]
        typed_answer = None
        if other and len(request.options) + 1 in numbers:
            typed_answer = self._read("Your answer: ")
        return multi_pick(picked, typed_answer, note)

    def _answer_line(self, frame, hints=(), secret=False):
        """Shows the question (and ``hints`` below it) and reads its answer: the line, or the
        nav when the input ended or the person typed a command. A secret is not echoed."""
        self._show(frame)
        for hint in hints:
            print(hint, file=sys.stderr)
        self._error(frame)
        line = self._read_secret() if secret else self._read()
        if line is None:
            return None, Variant("nav", "cancel")
        if self._command(line):
            return None, Variant("nav", self._command(line))
        return line, None

    def text(self, frame, request):
        hints = [f"(for example: {clean(request.placeholder, False)})"] if request.placeholder else []
        low, high = field(request, "min-length"), field(request, "max-length")
        chars = lambda n: "1 character" if n == 1 else f"{n} characters"
        if low is not None and low == high:
            hints.append(f"(exactly {chars(high)})")
        elif low is not None and high is not None:
            hints.append(f"({low} to {chars(high)})")
        elif low is not None or high is not None:
            hints.append(f"(at least {chars(low)})" if low is not None else f"(at most {chars(high)})")
        line, nav = self._answer_line(frame, hints, secret=request.secret)
        if nav:
            return nav
        return Variant("submitted", line if line.strip() else (request.initial or ""))

    def confirm(self, frame, request):
        self._show(frame)
        self._error(frame)
        while True:
            line = self._read("[y/n] > ")
            if line is None:
                return "cancel"
            typed = line.strip().lower()
            if typed in ("y", "yes"):
                return True
            if typed in ("n", "no"):
                return False
            if typed == "" and request.initial is not None:
                return request.initial
            if typed == "" and not frame.required:
                return "skip"
            if self._command(typed):
                return self._command(typed)

    def number(self, frame, request):
        line, nav = self._answer_line(frame)
        if nav:
            return nav
        if line.strip() == "" and request.initial is not None:
            return Variant("entered", str(request.initial))
        return Variant("entered", line)

    def review(self, request):
        self._context(request.context, request.declinable)
        items = request.items
        if items:
            print("\nReview your answers", file=sys.stderr)
        for number, item in enumerate(items, 1):
            title = field(item, "header") or item.prompt.splitlines()[0]
            print(f"  {number}. {clean(title, False)}: {clean(item.answer, False)}", file=sys.stderr)
        decline = ", decline refuses" if request.declinable else ""
        line = self._read(f"Enter sends; a number changes that answer{decline}: ")
        if line is None or line.strip() == "":
            return Variant("submit")
        if self._command(line) == "decline":
            return Variant("decline")
        if line.strip().isdigit() and 1 <= int(line) <= len(items):
            return Variant("edit", int(line) - 1)
        return Variant("cancel")


class ScriptedUi:
    """Plays back the steps of a conformance case (see ``tests/conformance/README.md``) and
    records which widgets were asked."""

    def __init__(self, steps, unavailable=False):
        self.steps = list(steps)
        self.unavailable = unavailable
        self.asked = []

    def mode(self):
        return "unavailable" if self.unavailable else "numbered"

    def _next(self, widget):
        self.asked.append(widget)
        if not self.steps or widget not in self.steps[0]:
            return "cancel"
        return self.steps.pop(0)[widget]

    @staticmethod
    def _nav(reply):
        return reply if reply in ("back", "skip", "cancel", "decline") else None

    def select(self, frame, request):
        reply = self._next("select")
        if self._nav(reply):
            return Variant("nav", reply)
        if reply == "discuss":
            return Variant("discuss")
        if "picked" in reply:
            return Variant("picked", pick(reply["picked"], reply.get("note")))
        return Variant("other", reply["other"])

    def multi_select(self, frame, request):
        reply = self._next("multi_select")
        if self._nav(reply):
            return reply
        return multi_pick(reply["picked"], reply.get("other"), reply.get("note"))

    def text(self, frame, request):
        reply = self._next("text")
        return Variant("nav", reply) if self._nav(reply) else Variant("submitted", reply["submitted"])

    def confirm(self, frame, request):
        reply = self._next("confirm")
        return reply if self._nav(reply) else reply["answered"]

    def number(self, frame, request):
        reply = self._next("number")
        return Variant("nav", reply) if self._nav(reply) else Variant("entered", reply["entered"])

    def review(self, request):
        reply = self._next("review")
        if reply in ("submit", "cancel", "decline"):
            return Variant(reply)
        return Variant("edit", reply["edit"])
