"""Answer MCP elicitations in the terminal from any client built on the official MCP Python SDK
(``pip install interview-plugin[mcp]``)::

    from mcp import ClientSession
    import interview.mcp

    session = ClientSession(read, write, elicitation_callback=interview.mcp.elicitation_callback())

Each ``elicitation/create`` request of the server is asked as a form: every field checked as the
person answers, a review where they submit, change or decline, and content sent only on accept,
always fitting the requested schema. A form the plugin cannot ask gets an error (-32602) that
names the field at fault.
"""

import json
from typing import Optional

import anyio.to_thread
from mcp import types

from .line_ui import LineUi
from .plugin import Ending, Plugin
from .ui import Ui


def elicitation_callback(ui: Optional[Ui] = None, *, requester: Optional[str] = None,
                         plugin: Optional[Plugin] = None):
    """An ``elicitation_callback`` for ``mcp.ClientSession`` (or ``mcp.Client``): asks through
    ``ui`` (a :class:`~interview.LineUi` on stdin and stderr by default), naming ``requester``
    (the server) to the person. The person's answers are read in a worker thread, so the
    session keeps serving other messages meanwhile."""
    plugin = plugin or Plugin()
    ui = ui or LineUi()

    async def callback(context, params: types.ElicitRequestParams):
        request = params.model_dump(mode="json", by_alias=True, exclude_none=True)
        elicitation = await anyio.to_thread.run_sync(
            lambda: plugin.elicit(request, ui, requester=requester)
        )
        reply = json.loads(elicitation.reply)
        if elicitation.ending is Ending.INVALID:
            return types.ErrorData.model_validate(reply["error"])
        return types.ElicitResult.model_validate(reply)

    return callback
