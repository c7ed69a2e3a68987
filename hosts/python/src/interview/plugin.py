"""The plugin component, run with wasmtime-py: its ``tool`` exports as Python methods, its ``ui``
imports handed to a :class:`~interview.ui.Ui`.

wasmtime-py passes WIT records as ``Record`` objects whose attributes are the WIT field names
(``other-label``), and a variant as ``Variant(tag, payload)`` only where its cases' Python types
overlap. That mapping stays in this module: a UI sees the dataclasses of :mod:`interview.ui`.
"""

import json
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any, List, Optional, Union

import wasmtime
from wasmtime.component import Component, Linker, Record, Variant

from . import ui as u

WIT_VERSION = "0.2.0"
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


@dataclass(frozen=True)
class Elicitation:
    """How an MCP elicitation ended, and the JSON text to send back to the server."""

    ending: str
    """``accepted``, ``declined``, ``cancelled``, ``unavailable`` or ``invalid``."""
    reply: str


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
    """The plugin, compiled once; every call instantiates it afresh, with the UI it is given.

    ``component``: the path of another build of the component; by default the one in this
    package.
    """

    def __init__(self, component: Optional[Union[str, Path]] = None):
        if component is None:
            data = resources.files(__package__).joinpath("interview.wasm").read_bytes()
        else:
            data = Path(component).read_bytes()
        self._engine = wasmtime.Engine()
        self._component = Component(self._engine, data)
        self._ui: u.Ui = u.Ui()
        self._linker = Linker(self._engine)
        with self._linker.root() as root:
            with root.add_instance(UI) as imports:
                imports.add_func("mode", lambda store: u.Mode(self._ui.mode()).value)
                imports.add_func("select", self._widget("select", u.SelectRequest, _select_reply))
                imports.add_func(
                    "multi-select",
                    self._widget("multi_select", u.MultiSelectRequest, _multi_select_reply),
                )
                imports.add_func("text", self._widget("text", u.TextRequest, _text_reply))
                imports.add_func("confirm", self._widget("confirm", u.ConfirmRequest, _confirm_reply))
                imports.add_func("number", self._widget("number", u.NumberRequest, _number_reply))
                imports.add_func("review", self._review)

    def _widget(self, method, request_type, reply):
        nested = {"options": _options} if "options" in request_type.__dataclass_fields__ else {}

        def widget(store, frame, request):
            shown = _read(request_type, request, **nested)
            return reply(getattr(self._ui, method)(_read(u.Frame, frame), shown))

        return widget

    def _review(self, store, request):
        items = lambda items: [_read(u.ReviewItem, item) for item in items]
        return _review_reply(self._ui.review(_read(u.ReviewRequest, request, items=items)))

    def _export(self, name: str, ui: Optional[u.Ui] = None):
        """The export ``name`` of a fresh instance whose imports ask ``ui``, and its store."""
        self._ui = ui if ui is not None else u.Ui()
        store = wasmtime.Store(self._engine)
        instance = self._linker.instantiate(store, self._component)
        interface = instance.get_export_index(store, TOOL)
        func = instance.get_func(store, instance.get_export_index(store, name, interface))
        return lambda *args: func(store, *args)

    def call(self, tool: str, arguments, ui: u.Ui, *, skip_response: Optional[str] = None) -> str:
        """Runs a tool call: ``tool`` is the tool the model called (``interview`` reads every
        known dialect), ``arguments`` its arguments (JSON text, or a value to serialize).
        Returns the result JSON text: ``status``, ``answers``, ``text`` for the model, ..."""
        settings = Record()
        setattr(settings, "skip-response", skip_response)
        try:
            return self._export("call", ui)(tool, _text(arguments), settings)
        finally:
            ui.finished()

    def check(self, tool: str, arguments) -> str:
        """Checks a tool call without asking anything: the ``invalid`` result, or ``{"status":
        "valid", "questions": [...]}``, as JSON text."""
        return self._export("check")(tool, _text(arguments))

    def elicit(self, request, ui: u.Ui, *, requester: Optional[str] = None) -> Elicitation:
        """Answers an MCP ``elicitation/create`` request (the params, or the whole JSON-RPC
        request; text or a value). ``requester`` names the server that asks."""
        try:
            ended = self._export("elicit", ui)(_text(request), requester)
        finally:
            ui.finished()
        return Elicitation(ended.ending, ended.reply)

    def definitions(self) -> List[ToolDefinition]:
        """The tools the plugin answers, ``interview`` first."""
        return [
            ToolDefinition(d.name, d.description, d.parameters)
            for d in self._export("definitions")()
        ]

    def definitions_as(self, format: str) -> str:
        """The tool definitions as an ecosystem lists them, JSON text: ``plain``, ``openai``,
        ``anthropic``, ``mcp`` (a ``tools/list`` result) or ``gemini``."""
        if format not in FORMATS:
            raise ValueError(f"unknown format {format!r}: one of {', '.join(FORMATS)}")
        return self._export("definitions-as")(format)
