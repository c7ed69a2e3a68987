"""Ask a person what an AI agent needs to know: the interview plugin (a sandboxed WebAssembly
component) with a terminal UI, for Python.

    import interview

    plugin = interview.Plugin()
    result = plugin.call("interview", {"question": "Ship it?", "type": "confirm"}, interview.LineUi())

``result`` is the JSON text the agent gets back. Write your own UI by subclassing
:class:`interview.Ui`; answer MCP elicitations with :func:`interview.mcp.elicitation_callback`.
"""

from .line_ui import LineUi
from .plugin import (
    FORMATS, WIT_VERSION, Elicitation, Given, Limits, Plugin, PluginError, ToolDefinition,
)
from .scripted import ScriptedUi
from .ui import (
    Absence, Choice, ConfirmRequest, Discuss, Edit, Frame, Mode, MultiPicked, MultiSelectRequest,
    Nav, NumberRequest, Other, Picked, Review, ReviewItem, ReviewRequest, SelectRequest,
    TextRequest, Ui, Unavailable,
)

__version__ = "0.2.0"

__all__ = [
    "Absence", "Choice", "ConfirmRequest", "Discuss", "Edit", "Elicitation", "FORMATS", "Frame", "Given",
    "LineUi", "Limits", "Mode", "MultiPicked", "MultiSelectRequest", "Nav", "NumberRequest",
    "Other", "Picked", "Plugin", "PluginError", "Review", "ReviewItem", "ReviewRequest", "ScriptedUi", "SelectRequest",
    "TextRequest", "ToolDefinition", "Ui", "Unavailable", "WIT_VERSION",
]
