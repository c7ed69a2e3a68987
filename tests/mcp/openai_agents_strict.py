"""The OpenAI Agents SDK calls `interview mcp` with strict schemas on: the SDK's own strict
conversion of the tool's input schema succeeds, a model held to that schema (every property
sent, `null` for those it does not use) can ask a text, a confirm, a number and a select
question, and a one-question call, and the answers a person types in a pseudo-terminal
(`interview mcp --tty`) come back to the model. The SDK's strict conversion of the MCP schema
is also what `interview schema --format openai` gives as it is.

The same agent, given the team inbox's own MCP endpoint instead (`MCPServerStreamableHttp`, the
URL of `interview inbox serve`'s /mcp and an agent's token), asks a team: a person answers on the
team inbox, and the model reads that answer.

The model is a fake Chat Completions server of this script's on 127.0.0.1 that makes the
calls; everything between it and `interview mcp` is the SDK's. Run with `openai-agents` and
`jsonschema` installed:

    python tests/mcp/openai_agents_strict.py target/debug/interview
"""

import asyncio
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from agents.mcp import MCPServerStdio, MCPServerStreamableHttp
from agents.strict_schema import ensure_strict_json_schema
from jsonschema import Draft202012Validator
from openai import AsyncOpenAI

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_sdk_terminal import DOWN, ENTER, Terminal  # noqa: E402
import team_person  # noqa: E402

INTERVIEW = sys.argv[1] if len(sys.argv) > 1 else "target/debug/interview"


def takes_null(schema):
    types = schema.get("type")
    return (
        types == "null"
        or (isinstance(types, list) and "null" in types)
        or any(takes_null(case) for case in schema.get("anyOf", []))
    )


def strictly(schema, value, path="arguments"):
    """`value` as a model held to `schema` must send it: every required property present,
    `null` for the ones it has no value for; fails where the schema does not allow that."""
    if isinstance(value, dict):
        if "anyOf" in schema:
            schema = next(case for case in schema["anyOf"] if "properties" in case)
        assert schema.get("additionalProperties") is False, f"{path} is not closed"
        filled = {}
        for name in schema["required"]:
            property_schema = schema["properties"][name]
            if name in value:
                filled[name] = strictly(property_schema, value[name], f"{path}.{name}")
            else:
                assert takes_null(property_schema), f"a strict model cannot leave {path}.{name} out"
                filled[name] = None
        assert set(value) <= set(filled), f"{path}: {set(value) - set(filled)} not in the schema"
        return filled
    if isinstance(value, list):
        return [strictly(schema["items"], item, f"{path}[{i}]") for i, item in enumerate(value)]
    return value


class FakeModel:
    """A Chat Completions server that answers each run's first request with the next planned
    tool call, and a run's request carrying the tool's output with a final text."""

    def __init__(self, calls):
        self.calls = list(calls)
        self.tools = []
        self.sent = []
        self.outputs = []
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                reply = model.reply(request)
                body = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def reply(self, request):
        last = request["messages"][-1]
        if last["role"] == "tool":
            self.outputs.append(last["content"])
            message = {"role": "assistant", "content": "Thanks."}
            return self.completion(message, "stop")
        self.tools = request.get("tools", [])
        interview = next(t["function"] for t in self.tools if t["function"]["name"] == "interview")
        schema = interview["parameters"]
        arguments = strictly(schema, self.calls.pop(0))
        Draft202012Validator(schema).validate(arguments)
        self.sent.append(arguments)
        call = {"id": f"call_{len(self.sent)}", "type": "function",
                "function": {"name": "interview", "arguments": json.dumps(arguments)}}
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        return self.completion(message, "tool_calls")

    def completion(self, message, finish):
        return {
            "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }


BATCH = {"questions": [
    {"question": "Your name?", "type": "text", "max_length": 40},
    {"question": "Ship it?", "type": "confirm"},
    {"question": "How many replicas?", "type": "number", "integer": True, "min": 1},
    {"question": "Which database?",
     "options": [{"label": "Postgres", "recommended": True}, {"label": "SQLite"}]},
]}
ONE = {"questions": [{"question": "Deploy to?", "options": ["staging", "production"]}]}


async def answer(term, steps):
    """Waits for each text on the person's screen, then types its keys."""
    for shown, keys in steps:
        await term.wait_for(shown, timeout=30)
        term.type(keys)


def asker(model, server):
    """The agent: `model` plays it, `server`'s tools converted to strict schemas."""
    client = AsyncOpenAI(base_url=model.url, api_key="not-used", max_retries=0)
    return Agent(
        name="asker",
        instructions="Ask the user.",
        model=OpenAIChatCompletionsModel(model="fake", openai_client=client),
        mcp_servers=[server],
        mcp_config={"convert_schemas_to_strict": True},
    )


async def main():
    set_tracing_disabled(True)
    term = Terminal()
    model = FakeModel([BATCH, ONE])
    env = {**os.environ, "TERM": "xterm-256color", "NO_COLOR": "1"}
    server = MCPServerStdio(
        name="interview",
        params={"command": INTERVIEW, "args": ["mcp", "--tty", os.ttyname(term.slave)], "env": env},
        client_session_timeout_seconds=60,
    )
    async with server:
        agent = asker(model, server)
        run = asyncio.create_task(Runner.run(agent, "Set up the deployment.", max_turns=3))
        await answer(term, [
            ("Your name?", "Ada" + ENTER),
            ("Ship it?", "y"),
            ("How many replicas?", "3" + ENTER),
            ("Which database?", ENTER),
            ("Submit", ENTER),
        ])
        await asyncio.wait_for(run, 30)
        tool = next(t for t in model.tools if t["function"]["name"] == "interview")
        assert tool["function"].get("strict") is True, "the SDK could not make the schema strict"
        print("the SDK made the schema strict; the model sent:", json.dumps(model.sent[0])[:160], "...")

        mark = len(term.text())
        run = asyncio.create_task(Runner.run(agent, "Deploy.", max_turns=3))
        await term.wait_for("Deploy to?", after=mark, timeout=30)
        term.type(DOWN + ENTER)
        await asyncio.wait_for(run, 30)

    # What the model reads: the result's text (the SDK passes on the content, not the JSON).
    batch, one = ([part["text"] for part in output] for output in model.outputs)
    assert batch == [
        "User answered all 4 questions:\n1. Your name?: User wrote: Ada\n2. Ship it?: User "
        "answered: yes\n3. How many replicas?: User entered: 3\n4. Which database?: User "
        "selected: 1. Postgres"
    ], batch
    assert one == ["User selected: 2. production"], one
    print("the model read:", batch, one)

    # The SDK's strict conversion of the MCP schema is the plugin's own OpenAI format.
    listed = subprocess.run([INTERVIEW, "schema", "--format", "mcp"], capture_output=True,
                            check=True, text=True)
    mcp_schema = json.loads(listed.stdout)["tools"][0]["inputSchema"]
    converted = ensure_strict_json_schema(mcp_schema)
    converted.pop("$schema", None)
    given = subprocess.run([INTERVIEW, "schema", "--format", "openai"], capture_output=True,
                           check=True, text=True)
    openai = json.loads(given.stdout)[0]["function"]
    assert openai["strict"] is True
    assert openai["parameters"] == converted, "the OpenAI format differs from the SDK's conversion"
    print("interview schema --format openai is the SDK's strict conversion of the MCP schema")


async def remote():
    with team_person.team_inbox(INTERVIEW, agent="agents-sdk") as (url, agent_token, ann):
        model = FakeModel([ONE])
        server = MCPServerStreamableHttp(
            name="team",
            params={"url": f"{url}/mcp", "headers": {"Authorization": f"Bearer {agent_token}"},
                    "timeout": 30, "sse_read_timeout": 300},
            client_session_timeout_seconds=60,
        )
        async with server:
            run = asyncio.create_task(Runner.run(asker(model, server), "Deploy.", max_turns=3))
            question = await asyncio.to_thread(team_person.open_question, url, ann)
            status, body = team_person.answer(url, ann, question, {"picked": 1})
            assert status == 200, body
            await asyncio.wait_for(run, 30)
        assert question["agent"] == "agents-sdk", question
        assert question["frame"]["prompt"] == "Deploy to?", question
        read = [part["text"] for part in model.outputs[0]]
        assert read == ["User selected: 2. production"], read
        print("through the team inbox's /mcp, the model read:", read)


asyncio.run(main())
asyncio.run(remote())
