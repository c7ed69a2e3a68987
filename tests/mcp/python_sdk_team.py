"""The official MCP Python SDK's client starting `interview mcp --inbox URL` as the team inbox's
docs configure it: the SDK passes its servers a trimmed environment, so the agent's token goes
in the server's `env`. With it, a call is asked on the team inbox and the client gets exactly
the person's answer; without the token in `env` (only exported in the shell), the server says
why on stderr and the client cannot start it. Works with mcp 1.x and 2.x; run with the SDK installed:

    python tests/mcp/python_sdk_team.py target/debug/interview
"""

import asyncio
import os
import sys
import tempfile

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from team_person import answer, open_question, team_inbox  # noqa: E402

INTERVIEW = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/debug/interview")


async def asked_through_the_team(url, agent, ann):
    # As the docs say: the token in the server's env, beside the SDK's default environment.
    server = StdioServerParameters(
        command=INTERVIEW, args=["mcp", "--inbox", url],
        env={**get_default_environment(), "INTERVIEW_INBOX_TOKEN": agent})
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            call = asyncio.create_task(session.call_tool(
                "interview", {"question": "Deploy to production now?", "type": "confirm"}))
            question = await asyncio.to_thread(open_question, url, ann)
            assert question["frame"]["prompt"] == "Deploy to production now?", question
            assert question["from"]["command"] == "mcp", question
            status, body = await asyncio.to_thread(answer, url, ann, question, {"answered": True})
            assert status == 200, body
            result = await call
            content = getattr(result, "structuredContent", None) or result.structured_content
            assert content["status"] == "answered" and content["answer"] is True, content
            print("through the team inbox, as the docs configure it: answered", content["answer"])



async def without_the_token_in_env(url):
    # Exported in the shell is not enough: the SDK does not pass it on.
    os.environ["INTERVIEW_INBOX_TOKEN"] = "itk_exported_but_not_passed"
    errors = tempfile.TemporaryFile(mode="w+")
    server = StdioServerParameters(command=INTERVIEW, args=["mcp", "--inbox", url])
    try:
        async with stdio_client(server, errlog=errors) as (read, write):
            async with ClientSession(read, write) as session:
                await asyncio.wait_for(session.initialize(), timeout=10)
        raise AssertionError("the server started without its token")
    except AssertionError:
        raise
    except BaseException:  # the SDK's own way of saying the server went away
        pass
    errors.seek(0)
    said = errors.read()
    assert "INTERVIEW_INBOX_TOKEN" in said, said
    print("without the token in env: the server says so:", said.strip().splitlines()[-1])


def main():
    with team_inbox(INTERVIEW) as (url, agent, ann):
        asyncio.run(asked_through_the_team(url, agent, ann))
        asyncio.run(without_the_token_in_env(url))


main()
