"""The official MCP Python SDK's client against `interview mcp` over stdio: the tools it lists,
a call nobody can answer (no elicitation, no terminal) coming back `unavailable` at once, an
invalid request as a tool error naming the field at fault, and an unknown tool refused. Every
result is checked against the tool's `outputSchema` (mcp 1.x checks too, by itself). Works
with mcp 1.x and 2.x; run with the SDK installed:

    python tests/mcp/python_sdk_server.py target/debug/interview
"""

import asyncio
import json
import pathlib
import sys
import time

from jsonschema import Draft202012Validator

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

INTERVIEW = sys.argv[1] if len(sys.argv) > 1 else "target/debug/interview"
# The command's version, as its Cargo.toml says.
VERSION = next(
    line.split('"')[1]
    for line in (pathlib.Path(__file__).parents[2] / "Cargo.toml").read_text().splitlines()
    if line.startswith("version = ")
)
# The agents' own tools, by the names their models know.
AGENTS = ["AskUserQuestion", "request_user_input", "ask_user", "question"]


def field(value, name):
    """A result's field by its wire name: mcp 1.x keeps it (`isError`), 2.x snake-cases it."""
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in name)
    return getattr(value, name) if hasattr(value, name) else getattr(value, snake)


async def main():
    server = StdioServerParameters(
        command=INTERVIEW,
        args=["mcp", "--tools", ",".join(["ask_question", "ask_multi_select", *AGENTS])],
    )
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            info = getattr(initialized, "serverInfo", None) or initialized.server_info
            assert (info.name, info.version) == ("interview", VERSION), info

            listed = await session.list_tools()
            names = [tool.name for tool in listed.tools]
            assert names == ["interview", "ask_question", "ask_multi_select", *AGENTS], names
            interview = listed.tools[0]
            assert "questions" in field(interview, "inputSchema")["properties"], interview
            output_schema = field(interview, "outputSchema")
            Draft202012Validator.check_schema(output_schema)
            conforms = Draft202012Validator(output_schema).validate
            print("tools/list:", names)

            # Every result the conformance suite expects, in every dialect, fits the schema.
            suite = pathlib.Path(__file__).parent.parent / "conformance"
            cases = [json.loads(path.read_text()) for path in sorted(suite.glob("*.json"))]
            results = [case["result"] for case in cases if "elicit" not in case]
            for result in results:
                conforms(result)
            assert len(results) >= 40, len(results)
            print(f"outputSchema: the {len(results)} results of the conformance suite fit it")

            # The agents' tools take what those agents' models send: every call of theirs in
            # the conformance suite (taken from the agents' own tests) fits the tool's schema.
            schemas = {tool.name: field(tool, "inputSchema") for tool in listed.tools}
            calls = [case for case in cases if case.get("tool") in AGENTS]
            beyond = [case for case in calls if "beyond_schema" in case]
            calls = [case for case in calls if case not in beyond]
            for case in calls:
                Draft202012Validator.check_schema(schemas[case["tool"]])
                Draft202012Validator(schemas[case["tool"]]).validate(case["arguments"])
            assert {case["tool"] for case in calls} == set(AGENTS), calls
            for case in beyond:
                refused = Draft202012Validator(schemas[case["tool"]]).iter_errors(case["arguments"])
                assert list(refused), f"{case['description']} fits the agent's schema after all"
            print(f"inputSchema: the {len(calls)} agents' calls of the conformance suite fit theirs;"
                  f" {len(beyond)} use the plugin's extensions, which the schemas leave out")

            started = time.monotonic()
            result = await session.call_tool(
                "interview", {"question": "Deploy now?", "type": "confirm"}
            )
            took = time.monotonic() - started
            assert not field(result, "isError"), result
            assert field(result, "structuredContent")["status"] == "unavailable", field(result, "structuredContent")
            conforms(field(result, "structuredContent"))
            text = result.content[0].text
            assert text == field(result, "structuredContent")["text"], (text, field(result, "structuredContent"))
            assert "nothing was asked" in text, text
            assert took < 1.0, f"unavailable took {took:.2f} s"
            print(f"nobody to ask: unavailable in {took * 1000:.0f} ms: {text}")

            result = await session.call_tool(
                "interview",
                {"questions": [{"question": "Which?", "options": [{"label": ""}]}]},
            )
            assert field(result, "isError"), result
            conforms(field(result, "structuredContent"))
            error = field(result, "structuredContent")["error"]
            assert error["path"] == "questions[0].options[0].label", error
            assert error["path"] in result.content[0].text, result.content[0].text
            print("invalid:", result.content[0].text)

            try:
                result = await session.call_tool("no_such_tool", {})
            except Exception as refused:  # the SDK raises the JSON-RPC error
                print("unknown tool refused:", refused)
            else:
                assert field(result, "isError"), result
                print("unknown tool refused:", result.content[0].text)


asyncio.run(main())
