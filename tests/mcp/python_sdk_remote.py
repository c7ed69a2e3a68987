"""The official MCP Python SDK's client asking a team through the team inbox's own MCP endpoint
(`interview inbox serve` serves it at /mcp, over Streamable HTTP), as a hosted agent or one in a
container would: nothing of interview's runs beside the client, only a URL and an agent's token.

A person answers on the team inbox (its HTTP API, as the page does), and the client gets exactly
that answer: in the session-based protocol (mcp 1.x; mcp 2.x's `legacy` mode) and in the
stateless 2026-07-28 (mcp 2.x). While the person has not answered, a call that asked for
progress hears that it waits; a call the client gives up on is withdrawn from the team's list.
Run with the SDK installed:

    python tests/mcp/python_sdk_remote.py target/debug/interview
"""

import asyncio
import contextlib
import datetime
import os
import sys
import time

import mcp
from mcp import ClientSession

INTERVIEW = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/debug/interview")
MAJOR = int(mcp.__version__.split(".")[0]) if hasattr(mcp, "__version__") else None
if MAJOR is None:
    from importlib.metadata import version

    MAJOR = int(version("mcp").split(".")[0])

if MAJOR >= 2:
    import httpx2 as httpx
else:
    import httpx
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from team_person import answer, open_question, open_questions, team_inbox  # noqa: E402

QUESTION = {"question": "Deploy to production now?", "type": "confirm"}


def content_of(result):
    return getattr(result, "structuredContent", None) or getattr(result, "structured_content")


def http_client(agent):
    return httpx.AsyncClient(headers={"Authorization": f"Bearer {agent}"},
                             timeout=httpx.Timeout(30, read=300))


class Asked:
    """One connection to the endpoint: `call(name, arguments, **options)` and the protocol
    version it speaks, whichever SDK this is."""

    def __init__(self, url, agent, mode):
        self.url, self.agent, self.mode = url, agent, mode

    async def __aenter__(self):
        self.stack = contextlib.AsyncExitStack()
        client = await self.stack.enter_async_context(http_client(self.agent))
        transport = streamable_http_client(f"{self.url}/mcp", http_client=client)
        if MAJOR >= 2:
            from mcp import Client

            self.client = await self.stack.enter_async_context(Client(transport, mode=self.mode))
            self.session = self.client.session
            self.version = self.client.protocol_version
        else:
            read, write, _ = await self.stack.enter_async_context(transport)
            self.session = await self.stack.enter_async_context(ClientSession(read, write))
            self.version = (await self.session.initialize()).protocolVersion
        return self

    async def __aexit__(self, *exc):
        await self.stack.__aexit__(*exc)

    async def call(self, name, arguments, **options):
        return await self.session.call_tool(name, arguments, **options)




async def answered(url, agent, ann, mode):
    async with Asked(url, agent, mode) as asked:
        heard = []

        async def progress(done, total, message):
            heard.append(message)

        call = asyncio.create_task(asked.call("interview", QUESTION, progress_callback=progress))
        question = await asyncio.to_thread(open_question, url, ann)
        assert question["frame"]["prompt"] == "Deploy to production now?", question
        assert question["agent"] == "ci", question
        assert question["from"]["command"] == "mcp", question
        # A progress notification every 5 s while nobody has answered.
        await asyncio.sleep(6)
        status, body = await asyncio.to_thread(answer, url, ann, question, {"answered": True})
        assert status == 200, body
        content = content_of(await call)
        assert content["status"] == "answered" and content["answer"] is True, content
        assert any("team inbox" in (m or "") for m in heard), heard
        assert open_questions(url, ann) == [], "the question stayed open"
        print(f"{asked.version}: answered {content['answer']}, {len(heard)} progress notices")


async def given_up(url, agent, ann, mode):
    """A call the client stops waiting for, and whose session it then closes, leaves the team's
    list: nothing is sent to it."""
    async with Asked(url, agent, mode) as asked:
        version = asked.version
        timeout = datetime.timedelta(seconds=3)
        call = asyncio.create_task(asked.call("interview", QUESTION, read_timeout_seconds=timeout))
        question = await asyncio.to_thread(open_question, url, ann)
        assert question["frame"]["prompt"] == QUESTION["question"], question
        failed = None
        try:
            await call
        except Exception as error:  # the SDK's timeout
            failed = error
        assert failed is not None, "the call returned with nobody answering"
    deadline = time.monotonic() + 10
    while open_questions(url, ann) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert open_questions(url, ann) == [], "the question given up on is still open"
    print(f"{version}: given up after 3 s and the session closed: withdrawn from the team's list")


def main():
    with team_inbox(INTERVIEW) as (url, agent, ann):
        modes = ["legacy", "2026-07-28"] if MAJOR >= 2 else [None]
        for mode in modes:
            asyncio.run(answered(url, agent, ann, mode))
            asyncio.run(given_up(url, agent, ann, mode))


main()
