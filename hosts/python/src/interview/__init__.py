"""Ask a person what an AI agent needs to know: the interview plugin (a sandboxed WebAssembly
component) with a terminal UI, for Python.

    import interview

    plugin = interview.Plugin()
    result = plugin.call("interview", {"question": "Ship it?", "type": "confirm"}, interview.LineUi())

``result.status`` says how it ended (:class:`interview.Status`), ``result.answers`` holds the
answers, and ``result.json`` is the JSON text the agent gets back. Write your own UI by subclassing
:class:`interview.Ui`; answer MCP elicitations with :func:`interview.mcp.elicitation_callback`.
"""

from .line_ui import LineUi
from .plugin import (
    FORMATS, WIT_VERSION, Elicitation, Ending, Given, Limits, Plugin, PluginError, Result, Status,
    ToolDefinition,
)
from .scripted import ScriptedUi
from .ui import (
    Absence, Choice, ConfirmRequest, Discuss, Edit, Frame, LineEnd, Mode, MultiPicked,
    MultiSelectRequest, Nav, NumberRequest, Other, Picked, Review, ReviewItem, ReviewRequest,
    SelectRequest, Span, TextRequest, Tone, TooLong, Ui, Unavailable,
)

__version__ = "0.4.0"

__all__ = [
    "Absence", "Choice", "ConfirmRequest", "Discuss", "Edit", "Elicitation", "Ending", "FORMATS",
    "Frame", "Given", "LineEnd", "LineUi", "Limits", "Mode", "MultiPicked", "MultiSelectRequest", "Nav",
    "NumberRequest", "Other", "Picked", "Plugin", "PluginError", "Result", "Review", "ReviewItem",
    "ReviewRequest", "ScriptedUi", "SelectRequest", "Span", "Status", "TextRequest", "Tone",
    "TooLong", "ToolDefinition", "Ui",
    "Unavailable", "WIT_VERSION", "__version__",
]
