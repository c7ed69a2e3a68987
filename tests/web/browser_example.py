"""The npm package's browser build in Debian's Chromium, headless, driven by Playwright: the page
in examples/browser/ with its own HTML widgets, the packed tarball installed next to it, served
from 127.0.0.1. A person answers a batch through the page (going back once, and giving two
answers the plugin refuses and asks again), and the result the page shows is the plugin's.

    python tests/web/browser_example.py hosts/js/interview-plugin-0.4.0.tgz
"""

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

from playwright.sync_api import expect, sync_playwright

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARBALL = os.path.abspath(sys.argv[1])
CHROMIUM = "/usr/bin/chromium"


class Files(http.server.SimpleHTTPRequestHandler):
    extensions_map = {".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm",
                      ".json": "application/json", "": "application/octet-stream"}

    def log_message(self, *args):
        pass


def serve(folder):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Files, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def page_with_the_package(folder):
    for name in ("index.html", "app.js"):
        shutil.copy(os.path.join(ROOT, "examples", "browser", name), folder)
    subprocess.run(["npm", "install", "--no-save", "--no-audit", "--no-fund", "--silent", "--prefix", folder, TARBALL],
                   check=True)


def typed(page, prompt, text):
    """Types `text` at the question `prompt` and goes on."""
    expect(page.locator("#prompt")).to_have_text(prompt)
    page.fill("#answer", text)
    page.click("button[value=next]")


def answer_a_batch(page):
    page.click("#ask")
    expect(page.locator("#prompt")).to_have_text("Where should it go?")
    expect(page.locator("h2")).to_have_text("Deploy · Question 1 of 5")
    page.select_option("#answer", label="staging")
    page.click("button[value=next]")

    expect(page.locator("#prompt")).to_have_text("Which checks?")
    page.click("button[value=back]")
    expect(page.locator("#prompt")).to_have_text("Where should it go?")
    expect(page.locator("#answer")).to_have_value("1")  # the plugin gives the earlier pick back
    page.click("button[value=next]")

    for check in ("lint", "test", "fuzz"):
        page.get_by_label(check).check()
    page.click("button[value=next]")
    expect(page.locator("#prompt")).to_have_text("Which checks?")
    expect(page.locator("#error")).to_be_visible()  # three picks where two at most are allowed
    for check in ("lint", "test", "fuzz"):  # the picks come back, to change
        expect(page.get_by_label(check)).to_be_checked()
    page.get_by_label("fuzz").uncheck()
    page.click("button[value=next]")

    typed(page, "Your name?", "Ada")
    expect(page.locator("#prompt")).to_have_text("Ship it?")
    page.check("#answer")
    page.click("button[value=next]")
    typed(page, "How many replicas?", "40")
    expect(page.locator("#error")).to_contain_text("40")  # more than 5: asked again
    typed(page, "How many replicas?", "3")

    expect(page.locator("#prompt")).to_have_text("Send these answers?")
    page.click("button[value=next]")
    expect(page.locator("#result")).not_to_be_empty()
    result = json.loads(page.locator("#result").text_content())
    assert result["status"] == "answered", result
    assert [a["value"] for a in result["answers"]] == ["staging", ["lint", "test"], "Ada", True, 3], result
    assert result["text"].startswith("User answered all 5 questions:"), result["text"]


def cancel_at_the_first_question(page):
    page.click("#ask")
    expect(page.locator("#prompt")).to_have_text("Where should it go?")
    page.click("button[value=cancel]")
    expect(page.locator("#result")).not_to_be_empty()
    result = json.loads(page.locator("#result").text_content())
    assert (result["status"], result["answers"]) == ("cancelled", []), result


def the_sandbox_bounds_the_plugin(page):
    # Checking two lists of ten thousand options takes the plugin tens of milliseconds: a budget
    # of 10 ms stops it. A 3 MiB answer does not fit 4 MiB of memory, nor 16 MiB in the replay:
    # the answer comes back with the error.
    failures = page.evaluate("""async () => {
        const { LIMITS, check, call } = await import('interview-plugin');
        const options = Array.from({ length: 10000 }, (_, i) => `option ${i}`);
        const request = { questions: [0, 1].map((i) => ({ question: `Pick ${i}`, type: 'multi_select', options })) };
        const failures = [];
        try { await check('interview', request, { limits: { ...LIMITS, computeMs: 10 } }); } catch (e) { failures.push([e.name, e.message]); }
        const ui = { mode: () => ({ tag: 'widgets' }), text: async () => ({ tag: 'submitted', val: 'x'.repeat(3 << 20) }) };
        try { await call('interview', { question: 'Paste the log' }, ui, { limits: { ...LIMITS, memoryBytes: 4 << 20 } }); }
        catch (e) { failures.push([e.name, e.function, e.given.map((g) => [g.question, g.answer.length])]); }
        const valid = JSON.parse(await check('interview', request)).status;
        return { failures, valid };
    }""")
    assert failures["valid"] == "valid", failures
    [budget, memory] = failures["failures"]
    assert budget == ["PluginError", "the plugin failed in `check`: the plugin computed for more than 0.01s without returning"], budget
    assert memory == ["PluginError", "call", [["Paste the log", 3 << 20]]], memory


def main():
    with tempfile.TemporaryDirectory() as folder:
        page_with_the_package(folder)
        server = serve(folder)
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        problems = []
        fetched = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page()
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.on("console", lambda message: message.type == "error" and problems.append(message.text))
            page.on("request", lambda request: fetched.append(request.url))
            page.on("response", lambda response: response.status >= 400 and problems.append(f"{response.status} {response.url}"))
            page.goto(url)
            expect(page.locator("#ask")).to_be_enabled()  # the plugin is fetched and compiled
            for scenario in (answer_a_batch, cancel_at_the_first_question, the_sandbox_bounds_the_plugin):
                scenario(page)
                print(f"ok: {scenario.__name__.replace('_', ' ')}")
            browser.close()
        server.shutdown()
        assert problems == [], problems
        package = f"{url}node_modules/interview-plugin/"
        assert f"{package}browser.js" in fetched and f"{package}generated/interview.core.wasm" in fetched, fetched
        assert not any("sandbox.js" in u or "plugin.js" in u for u in fetched), "the Node.js sandbox stays out of the page"


if __name__ == "__main__":
    main()
