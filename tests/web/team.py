"""The team inbox's page in Debian's Chromium (headless, driven by Playwright): agents with no
terminal ask through `interview ask --inbox URL` (as another user, `nobody`, when this runs as
root: an agent elsewhere in spirit, sharing nothing with the server but its address), a person signs in on the list with their token,
filters it, answers on the question's page (the local page's widgets), an answer the plugin
refuses is asked again with its error, and each agent gets exactly the answer given. The list
fits a phone's width. An agent with nothing of interview's beside it (the MCP Python SDK's
client at the server's own /mcp, as a hosted agent reaches it) is answered on the page too.

    python tests/web/team.py target/debug/interview
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

from playwright.sync_api import expect, sync_playwright

INTERVIEW = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/debug/interview")
CHROMIUM = "/usr/bin/chromium"
# Measures a page's WCAG contrast from its computed styles (see the file).
CONTRAST = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "contrast.js")).read()


def contrast(page, where):
    """WCAG AA in light and dark on what `page` shows now: text, control edges, focus rings.
    The list shares the question page's look, and so its palette's promise."""
    failures, lowest = [], None
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for measured in page.evaluate(CONTRAST):
            measured.update(scheme=scheme)
            if lowest is None or measured["ratio"] < lowest["ratio"]:
                lowest = measured
            if measured["ratio"] < measured["need"]:
                failures.append(measured)
    page.emulate_media(color_scheme="light")
    assert lowest, f"nothing measured on {where}"
    assert not failures, f"below WCAG AA on {where}: " + "; ".join(
        f"{m['scheme']} {m['kind']} {m['what']} {m['sample']!r} {m['ratio']}:1 < {m['need']}:1"
        for m in failures)
    print(f"{where}: WCAG AA in light and dark, lowest {lowest['ratio']:.2f}:1 ({lowest['kind']})")


def token(db, *who):
    return subprocess.run([INTERVIEW, "inbox", "token", "add", "--db", db, *who], check=True,
                          capture_output=True, text=True).stdout.strip()


def server(db):
    """`interview inbox serve` on a free port, and its address."""
    process = subprocess.Popen([INTERVIEW, "inbox", "serve", "--db", db, "--listen", "127.0.0.1:0"],
                               stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()
    assert "listens on http://127.0.0.1:" in line, line
    return process, line.split(" on ", 1)[1].strip()


# Run as root (CI), the agents are another user.
AS_AGENT = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []


def asker(folder, url, agent_token, request, *options):
    """`interview ask --inbox` with no terminal, in its project folder, in a session of its own."""
    os.makedirs(folder, exist_ok=True)
    os.chmod(folder, 0o755)
    path = os.path.join(folder, "request.json")
    with open(path, "w") as file:
        json.dump(request, file)
    return subprocess.Popen(
        [*AS_AGENT, INTERVIEW, "ask", path, "--inbox", url, *options], stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder,
        env={**os.environ, "INTERVIEW_INBOX_TOKEN": agent_token}, start_new_session=True)


def remote_call(url, agent_token, arguments):
    """A call from an agent that reaches the team inbox only by URL: the MCP Python SDK's
    Streamable HTTP client at the server's /mcp, on a thread of its own. Its result, once the
    call ends, is the list's one item."""
    import httpx
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.types import Implementation

    async def call():
        headers = {"Authorization": f"Bearer {agent_token}"}
        async with httpx.AsyncClient(headers=headers, timeout=httpx.Timeout(30, read=300)) as http:
            async with streamable_http_client(f"{url}/mcp", http_client=http) as (read, write, _):
                hosted = Implementation(name="hosted-agent", version="2.0")
                async with ClientSession(read, write, client_info=hosted) as session:
                    await session.initialize()
                    result = await session.call_tool("interview", arguments)
                    results.append(result.structuredContent)

    results = []
    threading.Thread(target=lambda: asyncio.run(call()), daemon=True).start()
    return results


def finished(process):
    out, err = process.communicate(timeout=30)
    return process.returncode, json.loads(out), err


def main():
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as place, sync_playwright() as playwright:
        os.chmod(place, 0o755)  # the agents' folders are in it
        db = os.path.join(place, "team.sqlite3")
        ci, ann = token(db, "--agent", "ci"), token(db, "--person", "ann", "--group", "ops")
        process, url = server(db)
        try:
            replicas = asker(os.path.join(place, "api"), url, ci, {
                "question": "How many replicas?", "type": "number", "min": 1, "max": 9,
                "integer": True}, "--to", "ops")
            name = asker(os.path.join(place, "web"), url, ci, {"question": "Release name?"})

            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(url)
            page.get_by_label("Your token").fill("itk_wrong")
            # By the keyboard: a click would hide the focus rings the contrast check measures.
            page.get_by_label("Your token").press("Enter")
            expect(page.locator("#login-error")).to_contain_text("not known here")
            page.get_by_label("Your token").focus()
            contrast(page, "the sign-in form, with its error")
            page.get_by_label("Your token").fill(ann)
            page.get_by_role("button", name="Sign in").click()
            expect(page.locator("#signed-in")).to_have_text("Signed in as ann (ops)")
            expect(page.locator("#login")).to_be_hidden()
            links = page.get_by_role("link")
            expect(links).to_have_count(2, timeout=20000)
            # A phone's width: nothing wider than the screen.
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the list is {width} px wide on a 390 px screen"
            # The sign-in was a click: a key makes focus rings show again, as for a person
            # who goes on with the keyboard.
            links.first.focus()
            page.keyboard.press("Shift")
            contrast(page, "the list")
            if os.environ.get("TEAM_SCREENSHOT"):
                page.screenshot(path=os.environ["TEAM_SCREENSHOT"], full_page=True)

            # Filtered by project folder: only the question asked in it.
            page.get_by_label("Project").select_option(os.path.join(place, "api"))
            expect(links).to_have_count(1)
            expect(links.first).to_contain_text("How many replicas?")
            links.first.click()

            expect(page.locator("legend")).to_have_text("How many replicas?", timeout=20000)
            expect(page.locator(".asker")).to_have_text(f"ci asks · in {os.path.join(place, 'api')}")
            page.wait_for_timeout(450)
            page.locator("#answer").fill("42")
            page.keyboard.press("Enter")
            # Refused by the plugin on the asking side, and asked again with its error.
            expect(page.locator(".error")).to_contain_text("9", timeout=20000)
            page.wait_for_timeout(450)
            page.locator("#answer").fill("3")
            page.keyboard.press("Enter")
            code, result, err = finished(replicas)
            assert code == 0, err
            assert [a["value"] for a in result["answers"]] == [3], result
            expect(page.get_by_role("status")).to_contain_text("Answers sent", timeout=20000)

            # Back to the list, from the question's page.
            page.get_by_role("link", name="← All your questions").click()
            expect(links).to_have_count(1, timeout=20000)
            expect(links.first).to_contain_text("Release name?")
            links.first.click()
            expect(page.locator("legend")).to_have_text("Release name?", timeout=20000)
            page.wait_for_timeout(450)
            page.locator("#answer").fill("Ada \x1b[31mLovelace")
            page.keyboard.press("Enter")
            code, result, err = finished(name)
            assert code == 0, err
            assert result["answers"][0]["value"].startswith("Ada"), result

            # An asker that stops waiting (Ctrl-C) withdraws the question the person has open:
            # the page says so, rather than take an answer for nobody.
            deploy = asker(os.path.join(place, "ops"), url, ci,
                           {"question": "Deploy now?", "type": "confirm"})
            page.goto(url)
            expect(links).to_have_count(1, timeout=20000)
            links.first.click()
            expect(page.locator("legend")).to_have_text("Deploy now?", timeout=20000)
            # (As Ctrl-C in its terminal would: to its whole process group.)
            os.killpg(deploy.pid, 2)
            code, result, err = finished(deploy)
            assert code == 130 and result["status"] == "cancelled", (code, result, err)
            expect(page.get_by_role("status")).to_contain_text("The question was withdrawn",
                                                               timeout=20000)

            # A hosted agent's call, through /mcp: on the list under its client's name and
            # version, answered on the page, and the agent gets exactly that.
            hosted = remote_call(url.rstrip("/"), ci, {"question": "Keep the release?",
                                                       "type": "confirm"})
            page.goto(url)
            expect(links).to_have_count(1, timeout=20000)
            expect(links.first).to_contain_text("ci (hosted-agent 2.0)")
            links.first.click()
            expect(page.locator("legend")).to_have_text("Keep the release?", timeout=20000)
            page.wait_for_timeout(450)
            page.keyboard.press("n")
            deadline = time.monotonic() + 20
            while not hosted and time.monotonic() < deadline:
                time.sleep(0.1)
            assert hosted and hosted[0]["status"] == "answered", hosted
            assert hosted[0]["answer"] is False, hosted

            # Signing out forgets the token: the list asks for one again.
            page.goto(url)
            page.get_by_role("button", name="Sign out").click()
            expect(page.get_by_label("Your token")).to_be_visible()
            page.reload()
            expect(page.get_by_label("Your token")).to_be_visible(timeout=10000)
            browser.close()
        finally:
            process.send_signal(2)
            process.wait(timeout=20)
        audit = subprocess.run([INTERVIEW, "inbox", "audit", "--db", db], check=True,
                               capture_output=True, text=True).stdout.splitlines()
        answered = [json.loads(line) for line in audit if '"answered"' in line]
        assert [a["actor"] for a in answered] == ["ann"] * 4, answered
        assert any('"withdrawn"' in line for line in audit), audit
    print(f"team inbox in Chromium: {time.monotonic() - started:.1f} s")


main()
