"""The plugin component, run with wasmtime-py: its ``tool`` exports as Python methods, its ``ui``
imports handed to a :class:`~interview.ui.Ui`.

wasmtime-py passes WIT records as ``Record`` objects whose attributes are the WIT field names
(``other-label``), and a variant as ``Variant(tag, payload)`` only where its cases' Python types
overlap. That mapping stays in this module: a UI sees the dataclasses of :mod:`interview.ui`.
"""

import json
import logging
import math
import re
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass, fields, replace
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable, List, Optional, Union

import wasmtime
from wasmtime.component import Component, Linker, Record, Variant

from . import ui as u
from ._contract import (
    COMPUTE_MS, MEMORY_BYTES, MOST_MEMORY, REPLAY_COMPUTE, REPLAY_MEMORY, REQUEST_BYTES,
    TABLE_ELEMENTS, WORDING_MEMORY_PER_BYTE,
)

WIT_VERSION = "0.4.0"
UI = f"interview:plugin/ui@{WIT_VERSION}"
TOOL = f"interview:plugin/tool@{WIT_VERSION}"
FORMATS = ("plain", "openai", "anthropic", "mcp", "gemini")


@dataclass(frozen=True)
class ToolDefinition:
    """A tool as an agent ecosystem describes it to a model."""

    name: str
    description: str
    parameters: str
    """JSON Schema (draft 2020-12) of the arguments, as a JSON text."""


class Status(str, Enum):
    """How a call ended (``call``, ``unreadable``, ``failed``), or what a check found
    (``check``: ``valid`` or ``invalid``). Each is also its own string: ``Status.ANSWERED ==
    "answered"``."""

    ANSWERED = "answered"
    CANCELLED = "cancelled"
    """The person stopped."""
    UNAVAILABLE = "unavailable"
    """Nobody to ask: nothing was asked."""
    INVALID = "invalid"
    VALID = "valid"
    FAILED = "failed"
    """The plugin failed or could not run: ``answers`` holds what the person gave. Only
    :meth:`Plugin.failed` returns it."""


@dataclass(frozen=True)
class Result:
    """What ``call``, ``check``, ``unreadable`` and ``failed`` return: the status, the fields an
    agent reads, and ``json``, the result as JSON text, byte for byte what the plugin wrote, for
    passing on to an agent."""

    status: Status
    answers: List[dict]
    """In question order, one per answered question: ``id``, ``question``, ``type``, ``value``,
    ``custom``, ``skipped``, ``discuss``, ``note``."""
    text: Optional[str]
    """What the model reads (a call's result; None from a check)."""
    error: Optional[dict]
    """When invalid or failed: ``path`` and ``message``."""
    questions: Optional[List[dict]]
    """A valid check: the questions the call would ask."""
    data: dict
    """Every field of the result, parsed (``answer``, ``native``, ...)."""
    json: str

    @classmethod
    def of(cls, status: "Status", text: str) -> "Result":
        """The result JSON ``text``, whose status the plugin gave beside it."""
        data = json.loads(text)
        return cls(status, data.get("answers", []), data.get("text"), data.get("error"),
                   data.get("questions"), data, text)

    def __str__(self) -> str:
        return self.json


class Ending(str, Enum):
    """How an MCP elicitation ended. Each is also its own string: ``Ending.ACCEPTED ==
    "accepted"``."""

    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    UNAVAILABLE = "unavailable"
    INVALID = "invalid"
    FAILED = "failed"
    """The plugin failed or could not run: the reply cancels, with what the person gave under
    ``_meta``. Only :meth:`Plugin.failed_elicitation` returns it."""


@dataclass(frozen=True)
class Elicitation:
    """How an MCP elicitation ended, and the JSON text to send back to the server."""

    ending: Ending
    reply: str


@dataclass(frozen=True)
class Limits:
    """How much the plugin may use, as the Rust host allows it (its defaults are the Rust
    host's, generated into :mod:`interview._contract`)."""

    memory_bytes: int = MEMORY_BYTES
    """Linear memory of the plugin."""
    compute: float = COMPUTE_MS / 1000
    """Seconds of the plugin's own work per call; the time a UI takes (a person thinking)
    never counts."""
    request_bytes: int = REQUEST_BYTES
    """The largest arguments text handed to the plugin, and the longest answer line read."""

    def enlarged(self) -> "Limits":
        """The limits of a replay after the plugin failed once the person had answered: a
        request that was merely large still gets its result."""
        return replace(self, memory_bytes=self.memory_bytes * REPLAY_MEMORY,
                       compute=self.compute * REPLAY_COMPUTE)


@dataclass(frozen=True)
class Given:
    """An answer the person gave, in the words they saw: what survives a plugin that failed."""

    position: int
    header: Optional[str]
    prompt: str
    answer: Any
    """An option's label, labels, typed text, yes/no, or a number as typed."""
    note: Optional[str] = None

    def to_json(self) -> dict:
        value = {"position": self.position, "question": self.prompt, "answer": self.answer}
        if self.header is not None:
            value["header"] = self.header
        if self.note is not None:
            value["note"] = self.note
        return value


class PluginError(Exception):
    """The plugin could not run: its component cannot be compiled or instantiated
    (``function`` is None), or it trapped or ran out of its memory or compute in ``function``
    (``call``, ``elicit``, ...), also when the person's replies were played back with larger
    limits. ``given`` holds what the person answered before, so that it is not lost."""

    def __init__(self, message: str, function: Optional[str] = None, given=()):
        super().__init__(message)
        self.function = function
        self.given: List[Given] = list(given)


log = logging.getLogger("interview")

# How often the engine's epoch advances, and so how often a running plugin's budget is checked.
TICK = 0.01


def _tick(engine_ref) -> None:
    while True:
        time.sleep(TICK)
        engine = engine_ref()
        if engine is None:
            return
        engine.increment_epoch()
        del engine


def _engine() -> wasmtime.Engine:
    config = wasmtime.Config()
    config.epoch_interruption = True
    engine = wasmtime.Engine(config)
    # A weak reference, so that a plugin that is dropped takes its ticker with it.
    threading.Thread(target=_tick, args=(weakref.ref(engine),), name="interview-epoch",
                     daemon=True).start()
    return engine


def _given(frame: u.Frame, answer, note=None) -> Optional[Given]:
    if answer is None:
        return None
    return Given(frame.position, frame.header, frame.prompt, answer, note)


def _select_given(frame, request, reply):
    if isinstance(reply, u.Picked):
        if not 0 <= reply.index < len(request.options):
            return None
        return _given(frame, request.options[reply.index].label, reply.note)
    return _given(frame, reply.text) if isinstance(reply, u.Other) else None


def _multi_select_given(frame, request, reply):
    if not isinstance(reply, u.MultiPicked):
        return None
    labels = [request.options[i].label for i in reply.picked if 0 <= i < len(request.options)]
    return _given(frame, labels + ([reply.other] if reply.other is not None else []), reply.note)


def _plain_given(frame, request, reply):
    return None if isinstance(reply, u.Nav) else _given(frame, reply)


class _Call:
    """One export call: the UI it asks, the person's replies (recorded, or played back after a
    failure), and the plugin's compute budget, which runs only while the plugin does."""

    def __init__(self, ui: u.Ui, limits: Limits, replay=()):
        self.ui = ui
        self.limits = limits
        self.recorded: List[tuple] = []
        self.given: List[Given] = []
        self.replay = deque(replay)
        self.held: List[u.Span] = []
        """The line mode's text written while lines are played back: the person saw it when
        they typed them; only what leads up to the first line asked again is written."""
        self.store: Optional[wasmtime.Store] = None
        self.remaining = limits.compute
        self.running_since = time.monotonic()

    def start(self, store: wasmtime.Store) -> None:
        self.store = store
        # A funcref is host memory too, so tables have a cap of their own, the Rust host's.
        store.set_limits(memory_size=self.limits.memory_bytes, table_elements=TABLE_ELEMENTS,
                         instances=4, tables=8, memories=2)
        self.resume()

    def resume(self) -> None:
        self.running_since = time.monotonic()
        self.store.set_epoch_deadline(max(1, math.ceil(self.remaining / TICK)))

    def timed(self, ask: Callable[[], Any]):
        """Runs a UI call off the plugin's budget: the budget stops while the person thinks."""
        self.remaining -= time.monotonic() - self.running_since
        try:
            return ask()
        finally:
            self.resume()

    def reply(self, kind: str, ask: Callable[[], Any], given: Callable[[Any], Optional[Given]]):
        """A widget's reply: played back when the call is a replay, else asked and recorded."""
        if self.replay and self.replay[0][0] == kind:
            answer = self.replay.popleft()[1]
            self.held.clear()
        else:
            # The plugin took another path than the one replayed: the person is asked from here.
            self.replay.clear()
            if self.held:
                held, self.held = self.held, []
                self.timed(lambda: self.ui.write(held))
            answer = self.timed(ask)
        self.recorded.append((kind, answer))
        noted = given(answer)
        if noted is not None:
            self.given = sorted([g for g in self.given if g.position != noted.position] + [noted],
                                key=lambda g: g.position)
        return answer


def _wording(limits: Limits, size: int) -> Limits:
    """``limits`` grown for an instance that words a result holding ``size`` bytes of the host's
    texts, memory and compute alike: a call's limits would refuse to word the answers of one
    long paste, and those answers are what the agent must not lose. The plugin holds what it
    words some fifteen times over while it writes it (the lowered records, each answer parsed
    and listed, quoted again in the text, the JSON text as it grows), WORDING_MEMORY_PER_BYTE
    as the Rust host reckons it: three pasted answers of 8 MB need some 350 MB. MOST_MEMORY is
    all a 32-bit WebAssembly instance can address."""
    times = 1 + math.ceil(WORDING_MEMORY_PER_BYTE * size / limits.memory_bytes)
    return replace(limits, memory_bytes=min(limits.memory_bytes * times, MOST_MEMORY),
                   compute=limits.compute * times)


def _bytes(values: Iterable) -> int:
    """The UTF-8 bytes of the texts in ``values``: strings, lists of them, records' fields."""
    total = 0
    for value in values:
        if isinstance(value, str):
            total += len(value.encode("utf-8", "surrogatepass"))
        elif isinstance(value, list):
            total += _bytes(value)
        elif isinstance(value, Record):
            total += _bytes(vars(value).values())
    return total


def _given_record(given: Given) -> Record:
    """A :class:`Given` as the plugin's ``given`` record takes it: the answer as JSON text,
    written as the Rust host writes it, since the plugin quotes it as it is."""
    answer = json.dumps(given.answer, ensure_ascii=False, separators=(",", ":"))
    return _record(position=given.position, header=given.header, prompt=given.prompt,
                   answer=answer, note=given.note)


def _text(arguments: Union[str, Any]) -> str:
    """Arguments as JSON text: a string is sent as it is, anything else is serialized."""
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def _read(cls, record, **nested):
    """The dataclass ``cls`` from a wasmtime ``Record`` (WIT names have hyphens)."""
    values = {f.name: getattr(record, f.name.replace("_", "-")) for f in fields(cls)}
    for name, convert in nested.items():
        values[name] = convert(values[name])
    return cls(**values)


def _options(options):
    return [_read(u.Choice, o) for o in options]


def _record(**values):
    record = Record()
    for name, value in values.items():
        setattr(record, name, value)
    return record


def _mode(mode):
    """The ui-mode variant: its cases without a payload share Python's None, so all are tagged."""
    if isinstance(mode, u.Unavailable):
        return Variant("unavailable", u.Absence(mode.absence).value)
    return Variant(u.Mode(mode).value)


def _nav(reply, tagged):
    """A nav reply, tagged where the variant's cases share a Python type."""
    value = u.Nav(reply).value
    return Variant("nav", value) if tagged else value


def _select_reply(reply):
    if isinstance(reply, u.Picked):
        return Variant("picked", _record(index=reply.index, note=reply.note))
    if isinstance(reply, u.Other):
        return Variant("other", reply.text)
    if isinstance(reply, u.Discuss):
        return Variant("discuss")
    return _nav(reply, True)


def _multi_select_reply(reply):
    if isinstance(reply, u.MultiPicked):
        return _record(picked=list(reply.picked), other=reply.other, note=reply.note)
    return _nav(reply, False)


def _text_reply(reply):
    if isinstance(reply, u.Nav):
        return _nav(reply, True)
    return Variant("submitted", reply)


def _confirm_reply(reply):
    return reply if isinstance(reply, bool) else _nav(reply, False)


def _number_reply(reply):
    if isinstance(reply, u.Nav):
        return _nav(reply, True)
    return Variant("entered", reply)


def _review_reply(reply):
    if isinstance(reply, u.Edit):
        return Variant("edit", reply.index)
    # Nav.CANCEL and Nav.DECLINE end a review as they end a widget.
    return Variant(u.Review(reply).value)


class Plugin:
    """The plugin, compiled once; every call instantiates it afresh, with the UI it is given,
    in a sandbox: ``limits`` (default :class:`Limits`) caps its memory, tables and instances,
    and its compute time per call, not counting the time a UI takes. Calls may run at the same
    time from several threads, each with its own UI.

    ``component``: the path of another build of the component; by default the one in this
    package. One that cannot be read, compiled or linked raises :class:`PluginError`.
    """

    def __init__(self, component: Optional[Union[str, Path]] = None,
                 limits: Optional[Limits] = None):
        try:
            if component is None:
                data = resources.files(__package__).joinpath("interview.wasm").read_bytes()
            else:
                data = Path(component).read_bytes()
        except OSError as error:
            raise PluginError(f"cannot read the component {component}: {error.strerror or error}") from error
        self.limits = limits or Limits()
        self._engine = _engine()
        try:
            self._component = Component(self._engine, data)
        except wasmtime.WasmtimeError as error:
            raise PluginError(f"cannot compile the component: {_chain(error)}") from error

    def _linker(self, call: _Call) -> Linker:
        """Imports that ask the UI of ``call``: each call has its own, so that calls running at
        the same time never answer through each other's UI."""
        linker = Linker(self._engine)
        with linker.root() as root:
            with root.add_instance(UI) as imports:
                imports.add_func("mode", lambda store: _mode(call.timed(call.ui.mode)))
                imports.add_func("select", _widget(call, "select", u.SelectRequest, _select_reply, _select_given))
                imports.add_func("multi-select", _widget(
                    call, "multi_select", u.MultiSelectRequest, _multi_select_reply, _multi_select_given))
                imports.add_func("text", _widget(call, "text", u.TextRequest, _text_reply, _plain_given))
                imports.add_func("confirm", _widget(call, "confirm", u.ConfirmRequest, _confirm_reply, _plain_given))
                imports.add_func("number", _widget(call, "number", u.NumberRequest, _number_reply, _plain_given))
                imports.add_func("review", lambda store, request: _review(call, request))
                imports.add_func("write", lambda store, spans: _write(call, spans))
                imports.add_func("read-line", lambda store, hidden, answering: _read_line(call, hidden, answering))
        return linker

    def _run(self, name: str, ui: Optional[u.Ui], *args, limits: Optional[Limits] = None):
        """Calls the export ``name`` in a fresh instance whose imports ask ``ui``, under
        ``limits`` (by default the plugin's). If the plugin fails after the person answered,
        their replies are played back into a fresh instance with larger limits, without asking
        again; if that fails too, or it failed before they answered, :class:`PluginError`
        carries what they gave."""
        ui = ui if ui is not None else u.Ui()
        limits = limits or self.limits
        call = _Call(ui, limits)
        try:
            return self._attempt(name, call, args)
        except (wasmtime.WasmtimeError, wasmtime.Trap) as error:
            failure = _failure(error, call)
        if not call.recorded:
            raise PluginError(f"the plugin failed in `{name}`: {failure}", name, call.given)
        retry = _Call(ui, limits.enlarged(), call.recorded)
        try:
            result = self._attempt(name, retry, args)
        except (wasmtime.WasmtimeError, wasmtime.Trap) as error:
            raise PluginError(f"the plugin failed in `{name}`: {_failure(error, retry)}", name,
                              retry.given) from None
        log.warning("the plugin failed after the answers were given (%s); they were played back "
                    "into a fresh instance with larger limits", failure)
        return result

    def _attempt(self, name: str, call: _Call, args):
        store = wasmtime.Store(self._engine)
        call.start(store)
        try:
            instance = self._linker(call).instantiate(store, self._component)
        except wasmtime.WasmtimeError as error:
            # The budget counts from here, so a tick may end it while the instance is made.
            raise PluginError(f"cannot instantiate the component: {_failure(error, call)}"
                              if _root_cause(error) == "wasm trap: interrupt"
                              else f"cannot instantiate the component: {_chain(error)}") from error
        interface = instance.get_export_index(store, TOOL)
        if interface is None:
            # In the Rust host's words (wasmtime's), so that both say the same of a component
            # that is not this plugin.
            raise PluginError(f"cannot instantiate the component: no exported instance named `{TOOL}`")
        index = instance.get_export_index(store, name, interface)
        if index is None:
            raise PluginError(f"cannot instantiate the component: it has no export "
                              f"`{TOOL}#{name}`, so it is not this plugin")
        call.resume()
        return instance.get_func(store, index)(store, *args)

    def call(self, tool: str, arguments, ui: u.Ui, *, skip_response: Optional[str] = None) -> Result:
        """Runs a tool call: ``tool`` is the tool the model called (``interview`` reads every
        known dialect), ``arguments`` its arguments (JSON text, or a value to serialize).
        Returns the :class:`Result`: ``status``, ``answers``, ``text`` for the model, and
        ``json``, the JSON text the agent gets back."""
        settings = Record()
        setattr(settings, "skip-response", skip_response)
        try:
            return _result(self._run("call", ui, tool, self._sized(arguments), settings))
        finally:
            ui.finished()

    def check(self, tool: str, arguments) -> Result:
        """Checks a tool call without asking anything: an ``invalid`` :class:`Result` with its
        ``error``, or a ``valid`` one with the ``questions`` the call would ask."""
        checked = self._run("check", None, tool, self._sized(arguments))
        return Result.of(Status.VALID if checked.valid else Status.INVALID, checked.json)

    def elicit(self, request, ui: u.Ui, *, requester: Optional[str] = None) -> Elicitation:
        """Answers an MCP ``elicitation/create`` request (the params, or the whole JSON-RPC
        request; text or a value). ``requester`` names the server that asks."""
        try:
            ended = self._run("elicit", ui, self._sized(request), requester)
        finally:
            ui.finished()
        return _elicitation(ended)

    # The results a host gives when no call could give one, in the plugin's words like every
    # other result, so that no host writes result text of its own. Each runs in a fresh instance
    # under limits grown to hold what it words (see ``_word``).

    def unreadable(self, source: str, message: str) -> Result:
        """The ``invalid`` result of a call whose request could not be read (``source`` empty),
        or that needs something of the host's that cannot be used (``source`` names it, as
        ``--journal``); ``message`` says what is wrong. Nothing was asked."""
        return _result(self._word("unreadable", source, message))

    def failed(self, message: str, given: Iterable[Given] = ()) -> Result:
        """The ``failed`` result of a call that the plugin failed or that could not run
        (``message`` says what failed), with the answers the person had ``given`` (a
        :class:`PluginError`'s), unchecked, so that the agent does not ask again."""
        return _result(self._word("failed", message, [_given_record(g) for g in given]))

    def unreadable_elicitation(self, message: str) -> Elicitation:
        """The reply to an elicitation whose request could not be read (``message`` says why):
        a JSON-RPC parse error (-32700) whose id is null, ending ``invalid``."""
        return _elicitation(self._word("unreadable-elicitation", message))

    def failed_elicitation(self, request, message: str, given: Iterable[Given] = ()) -> Elicitation:
        """The reply to the elicitation ``request`` (text or a value) that the plugin failed or
        that could not run: ``cancel``, since the server must not take unchecked content for
        accepted, with ``message`` and the answers ``given`` under ``_meta``; under the
        request's id when it was a JSON-RPC request. Ending ``failed``."""
        records = [_given_record(g) for g in given]
        return _elicitation(self._word("failed-elicitation", self._sized(request), message, records))

    def _word(self, name: str, *args):
        """Runs the export ``name`` that words a host's result, under the plugin's limits grown
        by what it words (``args``)."""
        return self._run(name, None, *args, limits=_wording(self.limits, _bytes(args)))

    def definitions(self) -> List[ToolDefinition]:
        """The tools the plugin answers, ``interview`` first."""
        return [
            ToolDefinition(d.name, d.description, d.parameters)
            for d in self._run("definitions", None)
        ]

    def definitions_as(self, format: str) -> str:
        """The tool definitions as an ecosystem lists them, JSON text: ``plain``, ``openai``,
        ``anthropic``, ``mcp`` (a ``tools/list`` result) or ``gemini``."""
        if format not in FORMATS:
            raise ValueError(f"unknown format {format!r}: one of {', '.join(FORMATS)}")
        return self._run("definitions-as", None, format)

    def _sized(self, arguments) -> str:
        text = _text(arguments)
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > self.limits.request_bytes:
            raise ValueError(f"the request is {size} bytes; the host accepts at most "
                             f"{self.limits.request_bytes}")
        return text


def _result(result) -> Result:
    """A ``call-result`` of the plugin as a :class:`Result`, with the status it gave."""
    return Result.of(Status(result.status), result.json)


def _elicitation(ended) -> Elicitation:
    return Elicitation(Ending(ended.ending), ended.reply)


def _causes(error: Exception) -> List[str]:
    """An error and its causes, each in a line, without the wasm backtrace wasmtime adds."""
    head, _, rest = str(error).partition("Caused by:")
    causes = [line.strip() for line in head.splitlines()[:1]]
    causes += [re.sub(r"^\d+: ", "", line.strip()) for line in rest.splitlines() if line.strip()]
    return [c for c in causes if c] or [type(error).__name__]


def _chain(error: Exception) -> str:
    """What failed and why, in one line, as the Rust host's errors read."""
    return ": ".join(_causes(error))


def _root_cause(error: Exception) -> str:
    """Why the plugin stopped (a trap, a limit), in a line."""
    return _causes(error)[-1]


def _failure(error: Exception, call: _Call) -> str:
    """Why the plugin stopped: its compute budget, or the trap in a line."""
    cause = _root_cause(error)
    if cause == "wasm trap: interrupt":
        return f"the plugin computed for more than {call.limits.compute:g}s without returning"
    return cause


def _widget(call: _Call, method, request_type, reply, given):
    nested = {"options": _options} if "options" in request_type.__dataclass_fields__ else {}

    def widget(store, frame, request):
        frame = _read(u.Frame, frame)
        shown = _read(request_type, request, **nested)
        answer = call.reply(method, lambda: getattr(call.ui, method)(frame, shown),
                            lambda answer: given(frame, shown, answer))
        return reply(answer)

    return widget


def _write(call: _Call, spans):
    shown = [u.Span(span.text, u.Tone(span.tone)) for span in spans]
    if call.replay:
        call.held.extend(shown)
    else:
        call.timed(lambda: call.ui.write(shown))


def _line_read(read):
    # Before `str`: a LineEnd is one too.
    if isinstance(read, u.LineEnd):
        return Variant(read.value)
    if isinstance(read, u.TooLong):
        return Variant("too-long", read.limit)
    return Variant("line", read)


def _read_line(call: _Call, hidden: bool, answering):
    # What was typed to a question, as typed: should the plugin fail, it is what the person gave.
    frame = None if answering is None else _read(u.Frame, answering)
    given = lambda read: (_given(frame, read) if frame is not None and isinstance(read, str)
                          and not isinstance(read, u.LineEnd) else None)
    return _line_read(call.reply("read_line", lambda: call.ui.read_line(hidden), given))


def _review(call: _Call, request):
    items = lambda items: [_read(u.ReviewItem, item) for item in items]
    shown = _read(u.ReviewRequest, request, items=items)
    return _review_reply(call.reply("review", lambda: call.ui.review(shown), lambda _: None))
