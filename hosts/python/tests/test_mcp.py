"""The official MCP Python SDK's client answers its server's elicitations through
``interview.mcp.elicitation_callback``: the server asks with its own pydantic models and
validates what comes back with them."""

import io
import json
import subprocess
from typing import Optional

import anyio
import pytest
from pydantic import BaseModel, Field

import interview
import interview.mcp

try:  # mcp 1.x
    from mcp.server.fastmcp import Context, FastMCP
    from mcp.shared.memory import create_connected_server_and_client_session as connect
except ImportError:  # mcp 2.x
    from mcp import Client
    from mcp.server.mcpserver import Context, MCPServer as FastMCP

    def connect(server, elicitation_callback):
        # The protocol where a server sends elicitation/create itself.
        return Client(server, mode="legacy", elicitation_callback=elicitation_callback)


class Booking(BaseModel):
    checkAlternative: bool = Field(description="Would you like to check another date?")
    alternativeDate: str = Field(default="2024-12-26", description="Alternative date (YYYY-MM-DD)")


class Registration(BaseModel):
    handle: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="Your handle")
    ratio: float = Field(gt=0, lt=1, description="Share of traffic")
    seats: Optional[int] = Field(default=None, description="Seats (optional)")
    plan: str = Field(json_schema_extra={"enum": ["free", "pro"]}, description="Plan")


server = FastMCP("bookings")


@server.tool()
async def book(ctx: Context) -> str:
    result = await ctx.elicit(message="No tables on 2024-12-25. Try another date?", schema=Booking)
    data = result.data.model_dump() if result.action == "accept" else None
    return json.dumps({"action": result.action, "data": data})


@server.tool()
async def register(ctx: Context) -> str:
    result = await ctx.elicit(message="Register for the beta", schema=Registration)
    data = result.data.model_dump() if result.action == "accept" else None
    return json.dumps({"action": result.action, "data": data})


# One field the person picks a value of: the MCP schemas for a choice, titled and not.
CHOICES = {
    "oneOf": {"type": "string", "title": "Colour", "description": "For the walls",
              "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
    "enum": {"type": "string", "title": "Colour", "enum": ["r", "g"]},
}
CHOICE = {"type": "object", "properties": {}, "required": ["colour"]}


@server.tool()
async def choose(ctx: Context, kind: str) -> str:
    schema = {**CHOICE, "properties": {"colour": CHOICES[kind]}}
    result = await ctx.session.elicit_form("Paint the hall", schema)
    return json.dumps({"action": result.action, "content": result.content})


def call(tool, answers, arguments=None):
    """Calls `tool` with a person who types `answers`; the tool's result, and what they saw."""
    screen = io.StringIO()
    ui = interview.LineUi(stdin=io.StringIO(answers), out=screen)
    callback = interview.mcp.elicitation_callback(ui, requester="bookings")

    async def main():
        async with connect(server, elicitation_callback=callback) as client:
            reply = await client.call_tool(tool, arguments or {})
            assert not getattr(reply, "isError", getattr(reply, "is_error", False)), reply
            return json.loads(reply.content[0].text)

    return anyio.run(main), screen.getvalue()


def test_an_accepted_form_fits_the_servers_model():
    result, screen = call("book", "y\n2024-12-27\n\n")
    assert result == {"action": "accept", "data": {"checkAlternative": True, "alternativeDate": "2024-12-27"}}
    assert "bookings asks: No tables on 2024-12-25. Try another date?" in screen


def test_refused_answers_are_asked_again_and_the_content_validates():
    # The handle misses the pattern and the ratio sits on an exclusive bound: both asked again.
    result, screen = call("register", "Ada Lovelace\nada_l\n1\n0.25\n\n2\n\n")
    assert result == {"action": "accept", "data": {"handle": "ada_l", "ratio": 0.25, "seats": None, "plan": "pro"}}
    assert "! " in screen


def test_declining_and_dismissing_reach_the_server():
    assert call("book", "decline\n")[0] == {"action": "decline", "data": None}
    assert call("book", "quit\n")[0] == {"action": "cancel", "data": None}


@pytest.mark.parametrize("kind", CHOICES)
def test_a_choice_field_is_one_question_in_the_rust_commands_words(rust_command, tmp_path, kind):
    result, screen = call("choose", "2\n\n", {"kind": kind})
    assert result == {"action": "accept", "content": {"colour": "g"}}
    # What `interview elicit` shows for the same form: the SDK's models hand it on whole.
    request = tmp_path / "form.json"
    request.write_text(json.dumps({"message": "Paint the hall", "requestedSchema": {
        **CHOICE, "properties": {"colour": CHOICES[kind]}}}))
    rust = subprocess.run([str(rust_command), "elicit", "--server", "bookings", str(request)],
                          input="2\n\n", capture_output=True, text=True, timeout=60)
    assert json.loads(rust.stdout) == {"action": "accept", "content": {"colour": "g"}}
    assert screen == rust.stderr
    assert "Question 1 of" not in screen, "one question, with no place among others"
    picked = "Green" if kind == "oneOf" else "g"
    assert f"Review your answers\n  1. Colour: {picked}\nPress" in screen
