"""The official MCP Python SDK's client against `interview mcp`, with an elicitation callback:
a call is asked as one form in the client, and what the callback sends back comes out as the
tool's answers. Checked:

- a batch of every kind is one form, and the reply maps back to the answer values;
- an answer the plugin refuses comes back as a second form, with the error in its message and
  the answers kept as its defaults;
- declining the form ends the call `cancelled`, and the text says it was declined;
- a form dismissed at once (as headless clients do by themselves) is no one's decision: the
  call goes on to the next way to reach the person, here nobody (`unavailable`). Only in the
  handshake-era protocol, where one call spans the form's round trip.

mcp 1.x speaks the handshake-era protocol (the server sends `elicitation/create`); with mcp 2.x
this runs twice, in that protocol and in 2026-07-28, where the form travels in the call's
result (`InputRequiredResult`) and the client calls again with its reply. Run with the SDK
installed:

    python tests/mcp/python_sdk_forms.py target/debug/interview
"""

import os
import sys
import tempfile

import anyio
from mcp import ClientSession, types
from mcp.client.stdio import StdioServerParameters, stdio_client

INTERVIEW = sys.argv[1] if len(sys.argv) > 1 else "target/debug/interview"
# An inbox folder of its own, where none is open: `--ui auto` finds no inbox, then asks in forms.
SERVER = StdioServerParameters(command=INTERVIEW, args=["mcp"],
                               env={**os.environ, "INTERVIEW_INBOX": tempfile.mkdtemp()})

BATCH = {
    "questions": [
        {"id": "env", "header": "Target", "question": "Where should it go?",
         "options": [{"label": "Staging", "value": "staging"},
                     {"label": "Production", "value": "prod", "recommended": True}]},
        {"id": "checks", "question": "Which checks?", "multi_select": True,
         "options": ["lint", "test", "fuzz"], "allow_other": False},
        {"id": "ticket", "question": "Ticket?", "pattern": "^[A-Z]+-[0-9]+$"},
        {"id": "replicas", "question": "Replicas?", "type": "integer", "min": 1, "max": 9},
        {"id": "notify", "question": "Tell the team?", "type": "confirm"},
    ]
}


def schema_of(params):
    """The requested schema: mcp 1.x names it `requestedSchema`, 2.x `requested_schema`."""
    return getattr(params, "requestedSchema", None) or getattr(params, "requested_schema")


def field(value, name):
    """A result's field by its wire name: mcp 1.x keeps it (`isError`), 2.x snake-cases it."""
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in name)
    return getattr(value, name) if hasattr(value, name) else getattr(value, snake)


class Person:
    """Answers forms as scripted, and keeps what each form said."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.forms = []

    async def __call__(self, context, params):
        self.forms.append((params.message, schema_of(params)))
        action, content, *thinking = self.replies.pop(0)
        if thinking:
            await anyio.sleep(thinking[0])
        return types.ElicitResult(action=action, content=content)


async def exercise(call_tool, person, label):
    result = await call_tool("interview", BATCH)
    first_message, schema = person.forms[0]
    properties = schema["properties"]
    assert first_message == "Your agent has 5 questions for you.", first_message
    assert list(properties)[:3] == ["env", "env_other", "env_note"], list(properties)
    titles = [entry["title"] for entry in properties["env"]["oneOf"]]
    assert titles == ["Staging", "Production (Recommended)"], titles
    assert properties["checks"]["items"]["anyOf"][2] == {"const": "fuzz", "title": "fuzz"}
    assert properties["replicas"]["type"] == "integer" and properties["replicas"]["maximum"] == 9
    assert properties["notify"]["type"] == "boolean"

    # The first reply's ticket misses the pattern: the form comes back saying so, answers kept.
    second_message, again = person.forms[1]
    assert second_message.startswith("Not sent: Ticket?: "), second_message
    assert "pattern" in second_message, second_message
    assert again["properties"]["ticket"]["default"] == "ops 12"
    assert again["properties"]["env"]["default"] == "prod"
    assert not field(result, "isError"), result
    answered = field(result, "structuredContent")
    assert answered["status"] == "answered", answered
    values = {a["id"]: a["value"] for a in answered["answers"]}
    assert values == {"env": "prod", "checks": ["lint", "test"], "ticket": "OPS-12",
                      "replicas": 3, "notify": True}, values
    assert result.content[0].text == answered["text"]
    print(f"{label}: a batch in one form, a refused answer asked again: {values}")

    declined = await call_tool("interview", {"question": "Delete the branch?", "type": "confirm"})
    declined = field(declined, "structuredContent")
    assert declined["status"] == "cancelled" and "declined" in declined["text"], declined
    assert person.forms[2][0] == "Delete the branch?", person.forms[2]
    print(f"{label}: declined: {declined['text']}")


async def dismissed_at_once(call_tool, person, label):
    result = await call_tool("interview", {"question": "Force-push?", "type": "confirm"})
    result = field(result, "structuredContent")
    assert person.forms[-1][0] == "Force-push?", person.forms[-1]
    assert result["status"] == "unavailable", result
    # The inbox was asked first: the model can tell the user to open one.
    assert result["reason"] == "no-inbox", result
    assert "declined" not in result["text"], result
    print(f"{label}: a form dismissed at once is nobody's answer: {result['status']}")


def script():
    first = {"env": "prod", "checks": ["test", "lint"], "ticket": "ops 12", "replicas": 3,
             "notify": True}
    # A person takes a moment to decline (longer than a client's own dismissal on a slow
    # start); the last form is dismissed at once.
    return Person([("accept", first), ("accept", dict(first, ticket="OPS-12")),
                   ("decline", None, 2.5), ("decline", None)])


async def with_session():
    """mcp 1.x and 2.x: ClientSession, the initialize handshake, `elicitation/create`."""
    person = script()
    async with stdio_client(SERVER) as (read, write):
        async with ClientSession(read, write, elicitation_callback=person) as session:
            await session.initialize()
            await exercise(session.call_tool, person, "handshake (elicitation/create)")
            await dismissed_at_once(session.call_tool, person, "handshake (elicitation/create)")


async def with_client():
    """mcp 2.x: Client in 2026-07-28, where the form comes in the call's result."""
    from mcp.client import Client

    person = script()
    async with Client(SERVER, elicitation_callback=person, mode="2026-07-28") as client:
        assert client.session.protocol_version == "2026-07-28", client.session.protocol_version
        await exercise(client.call_tool, person, "2026-07-28 (InputRequiredResult)")
        # The first form's time travels in the round's state, and comes back with the reply.
        await dismissed_at_once(client.call_tool, person, "2026-07-28 (InputRequiredResult)")


async def main():
    await with_session()
    try:
        from mcp.client import Client  # noqa: F401  (mcp 2.x only)
    except ImportError:
        return
    await with_client()


if __name__ == "__main__":
    anyio.run(main)
