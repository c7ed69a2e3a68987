"""The official MCP Python SDK as both server and client: the server's tools elicit the SDK's
own example models (pydantic), the client's elicitation callback hands each request to
`interview elicit` (numbered mode, answers piped in), and the server validates what comes back
with the same models. Works with mcp 1.x and 2.x; run with the SDK installed:

    python tests/mcp/python_sdk_elicitation.py target/debug/interview
"""

import asyncio
import json
import subprocess
import sys
import tempfile
from typing import Optional

from pydantic import BaseModel, Field

from mcp import types

try:  # mcp 1.x
    from mcp.server.fastmcp import Context, FastMCP
    from mcp.shared.memory import create_connected_server_and_client_session as connect
except ImportError:  # mcp 2.x
    from mcp import Client
    from mcp.server.mcpserver import Context, MCPServer as FastMCP

    def connect(server, elicitation_callback):
        # The handshake-era protocol, where a server sends elicitation/create itself.
        return Client(server, mode="legacy", elicitation_callback=elicitation_callback)

INTERVIEW = sys.argv[1] if len(sys.argv) > 1 else "target/debug/interview"


class BookingPreferences(BaseModel):
    """The SDK's README example: an alternative date for a booking."""

    checkAlternative: bool = Field(description="Would you like to check another date?")
    alternativeDate: str = Field(default="2024-12-26", description="Alternative date (YYYY-MM-DD)")


class Registration(BaseModel):
    """Fields as pydantic writes them: a pattern, exclusive bounds, an optional (nullable)
    field, an email, a SecretStr-like password, an enum."""

    handle: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="Your handle")
    ratio: float = Field(gt=0, lt=1, description="Share of traffic")
    seats: Optional[int] = Field(default=None, description="Seats (optional)")
    email: str = Field(json_schema_extra={"format": "email"}, description="Contact email")
    plan: str = Field(json_schema_extra={"enum": ["free", "pro"]}, description="Plan")


server = FastMCP("bookings")


@server.tool()
async def book(ctx: Context) -> str:
    result = await ctx.elicit(message="No tables on 2024-12-25. Try another date?", schema=BookingPreferences)
    return json.dumps({"action": result.action, "data": result.data.model_dump() if result.action == "accept" else None})


@server.tool()
async def register(ctx: Context) -> str:
    result = await ctx.elicit(message="Register for the beta", schema=Registration)
    return json.dumps({"action": result.action, "data": result.data.model_dump() if result.action == "accept" else None})


# What the person types, per tool: every line of numbered mode, the review's Enter included.
ANSWERS = {
    "book": "y\n2024-12-27\n\n",
    # A handle that misses the pattern and a ratio on an exclusive bound are asked again.
    "register": "Ada Lovelace\nada_l\n1\n0.25\n\nada@example.com\n2\n\n",
}
current = {}


async def elicitation_callback(context, params: types.ElicitRequestParams):
    request = params.model_dump(mode="json", by_alias=True, exclude_none=True)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(request, file)
    done = subprocess.run(
        [INTERVIEW, "elicit", "--server", "bookings", file.name],
        input=ANSWERS[current["tool"]], capture_output=True, text=True,
    )
    if done.returncode not in (0, 1, 5):
        raise RuntimeError(f"interview elicit exited {done.returncode}: {done.stderr}")
    return types.ElicitResult.model_validate_json(done.stdout)


async def main():
    async with connect(server, elicitation_callback=elicitation_callback) as client:
        results = {}
        for tool in ANSWERS:
            current["tool"] = tool
            reply = await client.call_tool(tool, {})
            assert not getattr(reply, "isError", getattr(reply, "is_error", False)), reply
            results[tool] = json.loads(reply.content[0].text)
    expected = {
        "book": {"action": "accept", "data": {"checkAlternative": True, "alternativeDate": "2024-12-27"}},
        "register": {"action": "accept", "data": {
            "handle": "ada_l", "ratio": 0.25, "seats": None, "email": "ada@example.com", "plan": "pro"}},
    }
    assert results == expected, json.dumps(results, indent=1)
    print("mcp python sdk: every example model went through interview elicit and was accepted")


if __name__ == "__main__":
    asyncio.run(main())
