"""`interview inbox --web` in Debian's Chromium (headless, driven by Playwright): the page answers
the questions of commands that run with no terminal, as agents start them, one after the other,
and each asker gets exactly the answers given on the page.

    python tests/web/inbox.py target/debug/interview
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import expect, sync_playwright

INTERVIEW = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/debug/interview")
CHROMIUM = "/usr/bin/chromium"


def asker(place, request, *options):
    """`interview ask` with no terminal and nothing on stdin, in a session of its own."""
    path = os.path.join(place, f"request-{time.monotonic_ns()}.json")
    with open(path, "w") as file:
        json.dump(request, file)
    return subprocess.Popen(
        [INTERVIEW, "ask", *options, path], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env={**os.environ, "INTERVIEW_INBOX": place},
        cwd=place, start_new_session=True)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# The inbox's own port, so that a web inbox the machine's user has open does not take it.
PORT = str(free_port())


def web_inbox(place):
    """`interview inbox --web --no-open` and the address it says its page is at."""
    inbox = subprocess.Popen(
        [INTERVIEW, "inbox", "--web", "--no-open"], stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "INTERVIEW_INBOX": place, "INTERVIEW_INBOX_PORT": PORT})
    line = inbox.stderr.readline()
    assert line.startswith("interview inbox: the questions are at http://127.0.0.1:"), line
    return inbox, line.split(" at ", 1)[1].strip()


def new_request(page, question):
    """Waits for the first question of a request, then as long as it takes no keys: a press
    meant for the request before must not answer it."""
    expect(page.locator("legend")).to_have_text(question, timeout=20000)
    page.wait_for_timeout(450)


def finished(process):
    out, err = process.communicate(timeout=30)
    return process.returncode, json.loads(out), err


def main():
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as place, sync_playwright() as playwright:
        inbox, url = web_inbox(place)
        try:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(url)
            # At once, not "Loading": nothing is asked yet.
            expect(page.get_by_role("status")).to_have_text("Waiting for the questions…",
                                                            timeout=2000)

            # A second agent asks while the first is being answered: both are answered, in
            # turn, in the one tab.
            first = asker(place, {"question": "Which database?", "options": ["Postgres", "SQLite"]})
            expect(page.locator("legend")).to_have_text("Which database?", timeout=20000)
            # Enter at once, as from a double press meant for the request before: not taken.
            page.keyboard.press("Enter")
            page.wait_for_timeout(600)
            assert first.poll() is None, "a press as the question appeared answered it"
            expect(page).to_have_title("Which database? — interview ask via interview")
            # Who asks, and from which project, above the question.
            expect(page.locator(".asker")).to_have_text(f"interview ask asks · in {place}")
            second = asker(place, {"questions": [
                {"id": "checks", "question": "Which checks?", "multi_select": True,
                 "options": ["lint", "test", "fuzz"]},
                {"id": "sure", "question": "Ship it?", "type": "confirm"}]})
            time.sleep(0.5)
            page.get_by_label("2. SQLite").check()
            page.keyboard.press("Enter")
            code, result, err = finished(first)
            assert code == 0, err
            assert result["answers"][0]["value"] == "SQLite", result
            # (The tab is not to be closed: it is the inbox's.)

            new_request(page, "Which checks?")
            page.get_by_label("1. lint").check()
            page.get_by_label("3. fuzz").check()
            page.keyboard.press("Enter")
            expect(page.locator("legend")).to_have_text("Ship it?")
            page.keyboard.press("y")
            page.get_by_role("button", name="Submit").click()
            code, result, err = finished(second)
            assert code == 0, err
            assert [a["value"] for a in result["answers"]] == [["lint", "fuzz"], True], result

            # An asker that gives up (Ctrl-C) takes its question back from the page.
            third = asker(place, {"question": "Deploy now?", "type": "confirm"})
            new_request(page, "Deploy now?")
            third.send_signal(2)
            code, result, err = finished(third)
            assert code == 130 and result["status"] == "cancelled", (code, result, err)
            expect(page.get_by_role("status")).to_have_text(
                "The question was withdrawn: whoever asked it stopped waiting, so nothing more was "
                "sent to them. The next question will appear here.", timeout=10000)

            # The same tab takes the next question.
            fourth = asker(place, {"question": "Your name?"})
            new_request(page, "Your name?")
            page.keyboard.type("Ada")
            page.keyboard.press("Enter")
            code, result, err = finished(fourth)
            assert code == 0 and result["answers"][0]["value"] == "Ada", (code, result, err)
            expect(page.get_by_role("status")).to_contain_text("Answers sent")
            # A tab opened once that one is closed answered nothing: it is told nothing was sent.
            page.close()
            time.sleep(6)
            fresh = browser.new_page()
            fresh.goto(url)
            expect(fresh.get_by_role("status")).to_have_text("Waiting for the questions…",
                                                             timeout=10000)
            # An inbox that dies uncleanly (kill -9) leaves its tab open. The next one, on the
            # same port, has a new secret: the old tab finds it cannot prove itself to it, says
            # so and sends it nothing, and the new address serves the questions.
            old = fresh
            inbox.kill()
            inbox.wait(timeout=20)
            inbox, url_again = web_inbox(place)
            assert url_again.split("#")[0] == url.split("#")[0], (url_again, url)
            assert url_again != url, "a new inbox must not reuse the secret of the last"
            expect(old.get_by_role("status")).to_contain_text(
                "Stopped: what answers at this address now is not the interview that opened "
                "this page", timeout=20000)
            new = browser.new_page()
            new.goto(url_again)
            fifth = asker(place, {"question": "Ship it?", "type": "confirm"})
            new_request(new, "Ship it?")
            new.keyboard.press("y")
            code, result, err = finished(fifth)
            assert code == 0 and result["answers"][0]["value"] is True, (code, result, err)
            expect(old.get_by_role("status")).to_contain_text("Stopped")

            # A tab closed on a question leaves it open, and the inbox too: the next tab asks it.
            sixth = asker(place, {"question": "Your name?"})
            new_request(new, "Your name?")
            new.close()
            time.sleep(8)
            assert inbox.poll() is None, "closing the tab closed the inbox"
            assert sixth.poll() is None, "closing the tab answered the question"
            again = browser.new_page()
            again.goto(url_again)
            new_request(again, "Your name?")
            again.keyboard.type("Ada")
            again.keyboard.press("Enter")
            code, result, err = finished(sixth)
            assert code == 0 and result["answers"][0]["value"] == "Ada", (code, result, err)
            browser.close()
        finally:
            inbox.send_signal(2)
            inbox.wait(timeout=20)
    print(f"web inbox in Chromium: {time.monotonic() - started:.1f} s")


main()
