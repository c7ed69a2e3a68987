"""`interview ask --ui web` (and `elicit`, `mcp`) in a real browser: Debian's Chromium, headless, driven by Playwright
(pointed at the system browser, since browsers can't be downloaded here). Each scenario runs
the command on a request, opens the page it serves, answers as a person would, and checks the
page and the result JSON the command prints.

    python tests/web/chromium.py target/debug/interview [SCREENSHOT_DIR]
"""

import asyncio
import http.server
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from playwright.sync_api import expect, sync_playwright

INTERVIEW = sys.argv[1] if len(sys.argv) > 1 else "target/debug/interview"
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None
CHROMIUM = "/usr/bin/chromium"
# Measures the page's WCAG contrast from its computed styles (see the file).
CONTRAST = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "contrast.js")).read()

BATCH = {
    "questions": [
        {"id": "env", "header": "Deploy", "question": "Where should it go?", "options": [
            {"label": "Staging", "description": "Reset nightly"},
            {"label": "Production", "description": "Needs a ticket", "recommended": True}]},
        {"id": "checks", "header": "Checks", "question": "Which checks?", "multi_select": True,
         "options": ["lint", "test", "fuzz"], "max_picks": 2, "allow_other": False},
        {"id": "token", "question": "API token?", "secret": True},
        {"id": "sure", "question": "Ship it?", "type": "confirm"},
        {"id": "replicas", "question": "How many replicas?", "type": "integer", "min": 1, "max": 5},
    ]
}


class Run:
    """One `interview ask --ui web --no-open` process (or another command) and the page it
    serves."""

    def __init__(self, request, command=("ask",)):
        self.process = subprocess.Popen(
            [INTERVIEW, *command, "--ui", "web", "--no-open", "-"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.process.stdin.write(json.dumps(request))
        self.process.stdin.close()
        line = self.process.stderr.readline()
        assert line.startswith("The questions are at http://127.0.0.1:"), line
        self.url = line.split(" at ", 1)[1].strip()

    def result(self, timeout=20):
        code = self.process.wait(timeout=timeout)
        return code, json.loads(self.process.stdout.read())


def values(result):
    return {a["id"]: a["value"] for a in result["answers"]}


def every_widget(browser):
    run = Run(BATCH)
    page = browser.new_page()
    page.goto(run.url)
    expect(page.locator(".place")).to_have_text("Question 1 of 5 · Deploy")
    expect(page.locator("legend")).to_have_text("Where should it go?")
    expect(page.locator(".badge")).to_have_text("Recommended")
    # The recommendation starts picked, with the focus on it (focus moves to each question).
    expect(page.get_by_label("2. Production")).to_be_focused()
    expect(page.get_by_label("2. Production")).to_be_checked()
    page.keyboard.press("1")  # a digit picks
    expect(page.get_by_label("1. Staging")).to_be_checked()
    page.keyboard.press("2")
    expect(page.get_by_label("2. Production")).to_be_checked()
    page.keyboard.press("Enter")

    expect(page.locator("legend")).to_have_text("Which checks?")
    expect(page.locator("#hint")).to_have_text("pick 1 to 2")
    page.keyboard.press("Shift+Tab")  # from the first field: back to the previous question
    expect(page.locator("legend")).to_have_text("Where should it go?")
    expect(page.get_by_label("2. Production")).to_be_checked()  # the answer, preselected
    page.keyboard.press("Enter")
    expect(page.locator("legend")).to_have_text("Which checks?")
    page.keyboard.press("Space")  # Space ticks the box under focus
    expect(page.get_by_label("lint")).to_be_checked()
    expect(page.get_by_role("button", name="Done (1 selected)")).to_be_visible()
    page.get_by_label("lint").uncheck()
    page.get_by_label("lint").check()
    page.get_by_label("test").check()
    page.get_by_label("fuzz").check()
    expect(page.get_by_role("button", name="Done (3 selected)")).to_be_visible()
    page.get_by_role("button", name="Done (3 selected)").click()
    expect(page.locator(".error")).to_contain_text("at most 2")  # the plugin's error, in place
    page.get_by_label("fuzz").uncheck()
    page.get_by_role("button", name="Done (2 selected)").click()

    expect(page.locator("legend")).to_contain_text("API token?")
    assert page.locator("#answer").get_attribute("type") == "password"
    page.locator("#answer").fill("s3cret")
    page.keyboard.press("Enter")

    expect(page.locator("legend")).to_have_text("Ship it?")
    page.keyboard.press("y")

    expect(page.locator("legend")).to_have_text("How many replicas?")
    page.locator("#answer").fill("9")
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("from 1 to 5")
    page.locator("#answer").fill("3")
    page.keyboard.press("Enter")

    # The review: change the first answer, then submit.
    expect(page.get_by_role("heading", name="Review your answers")).to_be_visible()
    if SHOTS:
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=f"{SHOTS}/web-review-{scheme}.png")
    page.get_by_role("button", name="Change: Deploy").click()
    expect(page.locator("legend")).to_have_text("Where should it go?")
    expect(page.get_by_label("2. Production")).to_be_checked()  # the earlier answer, preselected
    page.get_by_role("textbox", name="Something else (I'll explain)").fill("Canary")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Review your answers")).to_be_visible()
    page.reload()  # a reload shows the current step again
    expect(page.get_by_role("heading", name="Review your answers")).to_be_visible()
    page.get_by_role("button", name="Submit").click()
    expect(page.locator(".status")).to_have_text("Answers sent, you can close this tab.")
    code, result = run.result()
    assert code == 0 and result["status"] == "answered", result
    assert values(result) == {"env": "Canary", "checks": ["lint", "test"], "token": "s3cret",
                              "sure": True, "replicas": 3}, result
    page.close()
    print("every widget, Shift-Tab back, Space, an error in place, the review's change, a reload:",
          values(result))


def contrast_in_both_schemes(browser):
    """WCAG AA in light and dark: text 4.5:1 (large text 3:1), and 3:1 for what identifies a
    control (a field's border, a button's edge or fill, a box's outline, a ticked box's fill) and
    for every focus ring, measured on each widget from the computed styles."""
    options = [{"label": f"Region {n}", "description": f"Data centre {n}"} for n in range(1, 11)]
    options[1].update(recommended=True, preview="replicas: 3\nregion: eu-west")
    request = {"questions": [
        {"id": "env", "header": "Deploy", "question": "Where should it go?", "options": options},
        {"id": "checks", "question": "Which checks?", "multi_select": True, "options": ["lint", "test"]},
        {"id": "name", "question": "Your name?", "placeholder": "Ada Lovelace", "required": False},
        {"id": "sure", "question": "Ship it?", "type": "confirm"},
        {"id": "replicas", "question": "How many replicas?", "type": "integer", "min": 1, "max": 5},
    ]}
    run = Run(request)
    page = browser.new_page()
    page.goto(run.url)
    worst, failures = {}, []

    def check(widget):
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            for measured in page.evaluate(CONTRAST):
                measured.update(widget=widget, scheme=scheme)
                key = (scheme, measured["kind"])
                if key not in worst or measured["ratio"] < worst[key]["ratio"]:
                    worst[key] = measured
                if measured["ratio"] < measured["need"]:
                    failures.append(measured)
        page.emulate_media(color_scheme="light")

    # Only the keyboard: a click would hide the focus rings the check measures.
    expect(page.locator("legend")).to_have_text("Where should it go?")
    page.locator("#choice-1").focus()
    page.keyboard.press("Space")
    expect(page.locator(".preview")).to_be_visible()
    check("select")
    page.keyboard.press("Enter")
    expect(page.locator("legend")).to_have_text("Which checks?")
    page.locator("#choice-0").focus()
    page.keyboard.press("Space")
    check("multi-select")
    page.keyboard.press("Enter")
    expect(page.locator("legend")).to_contain_text("Your name?")
    page.locator("#answer").fill("Ada")
    check("text")
    page.keyboard.press("Enter")
    expect(page.locator("legend")).to_have_text("Ship it?")
    check("confirm")
    page.keyboard.press("y")
    expect(page.locator("legend")).to_have_text("How many replicas?")
    page.locator("#answer").fill("9")
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("from 1 to 5")
    check("number, with an error")
    page.locator("#answer").fill("3")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Review your answers")).to_be_visible()
    check("review")
    page.keyboard.press("Escape")
    run.result()
    page.close()
    for (scheme, kind), measured in sorted(worst.items()):
        print(f"  {scheme:5} {kind:8} lowest {measured['ratio']:5.2f}:1 (needs {measured['need']}) "
              f"{measured['what']} {measured['sample']!r} on the {measured['widget']}")
    assert not failures, "below WCAG AA:\n" + "\n".join(
        f"{m['scheme']} {m['widget']}: {m['kind']} {m['what']} {m['sample']!r} {m['ratio']}:1 < {m['need']}:1"
        for m in failures)
    print("WCAG AA contrast in light and dark, on every widget: text, control edges, focus rings")


def recommended_starts_picked(browser):
    """A single choice starts on the agent's recommendation, picked and focused, as the terminal
    starts its cursor there; a default (or an earlier answer) wins. Several choices tick nothing
    by themselves."""
    question = {"question": "Which region?", "allow_other": False, "options": [
        {"label": "eu-west"}, {"label": "us-east", "recommended": True}, {"label": "ap-south"}]}
    for extra, start, answer in (({}, "2. us-east", "us-east"),
                                 ({"default": "ap-south"}, "3. ap-south", "ap-south")):
        run = Run({**question, **extra})
        page = browser.new_page()
        page.goto(run.url)
        expect(page.get_by_label(start)).to_be_checked()
        expect(page.get_by_label(start)).to_be_focused()
        expect(page.locator("input:checked")).to_have_count(1)
        page.keyboard.press("Enter")
        code, result = run.result()
        assert code == 0 and result["answer"] == answer, result
        page.close()
    # Far down a long list, the recommendation is drawn too: nothing picked out of sight.
    options = [{"label": f"option {n}", "recommended": n == 5000} for n in range(1, 10001)]
    run = Run({"question": "Which one?", "options": options, "allow_other": False})
    page = browser.new_page()
    page.goto(run.url)
    expect(page.get_by_label("5000. option 5000")).to_be_checked()
    expect(page.get_by_label("5000. option 5000")).to_be_focused()
    expect(page.locator("#options li")).to_have_count(101)
    expect(page.get_by_role("status")).to_have_text("9899 more match: type to narrow the list.")
    page.keyboard.press("Enter")
    code, result = run.result()
    assert code == 0 and result["answer"] == "option 5000", result
    page.close()
    run = Run({**question, "multi_select": True, "required": False})
    page = browser.new_page()
    page.goto(run.url)
    expect(page.get_by_label("1. eu-west")).to_be_focused()
    expect(page.locator("input:checked")).to_have_count(0)
    page.keyboard.press("Escape")
    run.result()
    page.close()
    print("the recommendation starts picked and focused on a single choice; a default wins")


def hinted(page):
    return page.locator("#keys kbd").all_inner_texts()


def key_hints_fit_each_widget(browser):
    """Each widget hints the keys that work on it and no other, and every key hinted does what
    its hint says: the whole batch is answered with the hinted keys alone."""
    request = {"questions": [
        {"id": "region", "question": "Which region?", "allow_other": False, "options": [
            {"label": "eu-west"}, {"label": "us-east", "recommended": True}, {"label": "ap-south"}]},
        {"id": "checks", "question": "Which checks?", "multi_select": True,
         "options": ["lint", "test", "fuzz"], "allow_other": False},
        {"id": "name", "question": "Your name?"},
        {"id": "story", "question": "What happened?", "multiline": True},
        {"id": "sure", "question": "Ship it?", "type": "confirm"},
        {"id": "replicas", "question": "How many replicas?", "type": "integer"},
    ]}
    run = Run(request)
    page = browser.new_page()
    page.goto(run.url)
    legend = page.locator("legend")
    option = page.get_by_label

    expect(legend).to_have_text("Which region?")
    assert hinted(page) == ["↑↓", "1–3", "Enter", "Esc"], hinted(page)  # no Back on the first
    expect(option("2. us-east")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(option("3. ap-south")).to_be_checked()
    page.keyboard.press("ArrowUp")
    expect(option("2. us-east")).to_be_checked()
    page.keyboard.press("1")
    expect(option("1. eu-west")).to_be_checked()
    page.keyboard.press("Enter")

    expect(legend).to_have_text("Which checks?")
    assert hinted(page) == ["↑↓", "Space", "1–3", "Enter", "Esc", "Shift-Tab"], hinted(page)
    expect(option("1. lint")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(legend).to_have_text("Which region?")
    expect(option("1. eu-west")).to_be_checked()
    expect(option("1. eu-west")).to_be_focused()
    page.keyboard.press("Enter")
    expect(legend).to_have_text("Which checks?")
    page.keyboard.press("Space")
    expect(option("1. lint")).to_be_checked()
    page.keyboard.press("ArrowDown")
    expect(option("2. test")).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(option("1. lint")).to_be_focused()
    page.keyboard.press("3")
    expect(option("3. fuzz")).to_be_checked()
    page.keyboard.press("3")
    expect(option("3. fuzz")).not_to_be_checked()
    page.keyboard.press("2")
    expect(option("2. test")).to_be_checked()
    page.keyboard.press("Enter")

    expect(legend).to_have_text("Your name?")
    assert hinted(page) == ["Enter", "Esc", "Shift-Tab"], hinted(page)
    page.keyboard.press("Shift+Tab")
    expect(legend).to_have_text("Which checks?")
    expect(option("1. lint")).to_be_checked()
    page.keyboard.press("Enter")
    expect(legend).to_have_text("Your name?")
    page.keyboard.type("Ada")
    page.keyboard.press("Enter")

    expect(legend).to_have_text("What happened?")
    assert hinted(page) == ["Ctrl-Enter", "Enter", "Esc", "Shift-Tab"], hinted(page)
    page.keyboard.type("one")
    page.keyboard.press("Enter")
    page.keyboard.type("two")
    expect(page.locator("#answer")).to_have_value("one\ntwo")
    page.keyboard.press("Control+Enter")

    yes = page.get_by_role("button", name="Yes", exact=True)
    no = page.get_by_role("button", name="No", exact=True)
    expect(legend).to_have_text("Ship it?")
    assert hinted(page) == ["Y", "N", "←→", "Enter", "Esc", "Shift-Tab"], hinted(page)
    expect(yes).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(no).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(yes).to_be_focused()
    page.keyboard.press("n")
    expect(legend).to_have_text("How many replicas?")
    page.keyboard.press("Shift+Tab")
    expect(legend).to_have_text("Ship it?")
    expect(no).to_be_focused()  # the earlier answer
    page.keyboard.press("y")
    expect(legend).to_have_text("How many replicas?")
    page.keyboard.press("Shift+Tab")
    expect(yes).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # the button under the focus: No

    expect(legend).to_have_text("How many replicas?")
    assert hinted(page) == ["Enter", "Esc", "Shift-Tab"], hinted(page)
    page.keyboard.type("4")
    page.keyboard.press("Enter")

    expect(page.get_by_role("heading", name="Review your answers")).to_be_visible()
    assert hinted(page) == ["Enter", "1–6", "Esc"], hinted(page)
    page.keyboard.press("1")
    expect(legend).to_have_text("Which region?")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Review your answers")).to_be_visible()
    expect(page.get_by_role("button", name="Submit")).to_be_focused()
    page.keyboard.press("Enter")
    code, result = run.result()
    assert code == 0, result
    assert values(result) == {"region": "ap-south", "checks": ["lint", "test"], "name": "Ada",
                              "story": "one\ntwo", "sure": False, "replicas": 4}, result
    page.close()

    # Esc cancels on every widget, and on the review.
    for question in request["questions"]:
        run = Run(question)
        page = browser.new_page()
        page.goto(run.url)
        expect(page.locator("legend")).to_contain_text(question["question"])
        assert "Esc" in hinted(page) and "Shift-Tab" not in hinted(page), hinted(page)
        page.keyboard.press("Escape")
        code, result = run.result()
        assert code == 1 and result["status"] == "cancelled", (question, result)
        page.close()
    run = Run({"questions": [{"id": "a", "question": "A?", "type": "confirm"},
                             {"id": "b", "question": "B?", "type": "confirm"}]})
    page = browser.new_page()
    page.goto(run.url)
    expect(page.locator("legend")).to_have_text("A?")
    page.keyboard.press("y")
    expect(page.locator("legend")).to_have_text("B?")
    page.keyboard.press("y")
    expect(page.get_by_role("heading", name="Review your answers")).to_be_visible()
    assert hinted(page) == ["Enter", "1–2", "Esc"], hinted(page)
    page.keyboard.press("Escape")
    code, result = run.result()
    assert code == 1 and result["status"] == "cancelled", result
    page.close()
    print("each widget hints its own keys, and every key hinted works, Esc on each")


def review_is_a_table(browser):
    """The review is a table: a column of questions, one of answers, a row header per question
    (th scope), and the agent's text in it still only text."""
    sneaky = '<img src=x onerror="window.pwned=1">'
    run = Run({"questions": [
        {"id": "env", "header": sneaky, "question": "Where?", "options": ["Staging", "Production"],
         "allow_other": True},
        {"id": "sure", "question": "Ship it?\nIt goes out at once.", "type": "confirm"}]})
    page = browser.new_page()
    page.goto(run.url)
    expect(page.locator("legend")).to_have_text("Where?")
    page.get_by_role("textbox", name="Something else").fill("<b>Canary</b>")
    page.keyboard.press("Enter")
    expect(page.locator("legend")).to_have_text("Ship it?\nIt goes out at once.")
    page.keyboard.press("n")
    table = page.get_by_role("table", name="Review your answers")
    expect(table).to_be_visible()
    expect(table.get_by_role("columnheader")).to_have_text(["Question", "Answer", "Change"])
    expect(table.get_by_role("rowheader")).to_have_text([f"1. {sneaky}", "2. Ship it?"])
    scopes = page.locator("table th").evaluate_all("cells => cells.map((c) => c.scope)")
    assert scopes == ["col", "col", "col", "row", "row"], scopes
    rows = table.locator("tbody tr")
    expect(rows.nth(0).get_by_role("cell").first).to_have_text("<b>Canary</b>")
    expect(rows.nth(1).get_by_role("cell").first).to_have_text("no")
    expect(rows.nth(1).get_by_role("button", name="Change: Ship it?")).to_be_visible()
    assert page.locator("main img, main b").count() == 0 and page.evaluate("window.pwned") is None
    page.keyboard.press("Enter")
    code, result = run.result()
    assert code == 0 and values(result) == {"env": "<b>Canary</b>", "sure": False}, result
    page.close()
    print("the review is a table with row and column headers; agent text in it stays text")


def titles_say_what_is_asked(browser):
    """The tab's title says what is asked (the header, else the question's first line) and,
    where the request names it, who asks."""
    run = Run(BATCH)
    page = browser.new_page()
    page.goto(run.url)
    expect(page).to_have_title("Deploy (1 of 5) — interview")
    page.keyboard.press("Enter")
    expect(page).to_have_title("Checks (2 of 5) — interview")
    page.keyboard.press("Escape")
    expect(page).to_have_title("Cancelled — interview")
    run.result()
    page.close()
    long = "Deploy target? " + "Say where the build should go, and mind the ticket. " * 3
    for prompt, title in (("Deploy target?\nStaging resets nightly.", "Deploy target? — interview"),
                          (long, long[:59].rstrip() + "… — interview")):
        run = Run({"question": prompt, "type": "confirm"})
        page = browser.new_page()
        page.goto(run.url)
        expect(page).to_have_title(title)
        page.keyboard.press("y")
        expect(page).to_have_title("Answers sent — interview")
        run.result()
        page.close()
    form = {"message": "Please provide your GitHub username", "requestedSchema": {
        "type": "object", "required": ["username"],
        "properties": {"username": {"type": "string", "title": "GitHub username"}}}}
    run = Run(form, command=("elicit", "--server", "github"))
    page = browser.new_page()
    page.goto(run.url)
    expect(page).to_have_title("GitHub username — github via interview")
    page.locator("#answer").fill("octocat")
    page.keyboard.press("Enter")
    expect(page).to_have_title("Review your answers — github via interview")
    page.keyboard.press("Escape")
    run.result()
    page.close()
    print("the title says the question and, for an MCP server's form, the server")


def screenshots(browser):
    run = Run(BATCH)
    page = browser.new_page(viewport={"width": 800, "height": 560})
    page.goto(run.url)
    expect(page.locator("legend")).to_have_text("Where should it go?")
    page.get_by_label("2. Production").check()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=f"{SHOTS}/web-select-{scheme}.png")
    page.keyboard.press("Escape")
    run.result()
    page.close()


def untrusted_text_is_text(browser):
    label = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'
    run = Run({"question": "Pick <b>one</b>", "options": [label, "<i>safe</i>"]})
    page = browser.new_page()
    dialogs = []
    page.on("dialog", lambda dialog: dialogs.append(dialog) or dialog.dismiss())
    page.goto(run.url)
    expect(page.locator("legend")).to_have_text("Pick <b>one</b>")
    expect(page.locator(".option .label").first).to_have_text(label)
    assert page.locator("main img, main script, main b, main i").count() == 0
    assert page.evaluate("window.pwned") is None and not dialogs
    page.keyboard.press("Escape")
    code, result = run.result()
    assert code == 1 and result["status"] == "cancelled", result
    page.close()
    print("agent text with <script> and <img onerror> shown as text; Esc cancelled")


def long_list_filtered(browser):
    options = [f"option {n}" for n in range(1, 10001)]
    run = Run({"question": "Which one?", "options": options, "allow_other": False})
    page = browser.new_page()
    page.goto(run.url)
    expect(page.locator("legend")).to_have_text("Which one?")
    expect(page.locator("#options li")).to_have_count(100)  # only what can be looked at
    expect(page.get_by_role("status")).to_have_text("9900 more match: type to narrow the list.")
    started = time.monotonic()
    page.locator("#filter").fill("option 9999")
    expect(page.locator("#options li")).to_have_count(1)
    took = time.monotonic() - started
    page.locator("#filter").fill("nothing like it")
    expect(page.get_by_role("status")).to_have_text("No option matches.")
    page.keyboard.press("Escape")  # Esc in a filter clears it, and cancels nothing
    expect(page.locator("#filter")).to_have_value("")
    expect(page.locator("#options li")).to_have_count(100)
    page.locator("#filter").fill("9999")
    page.get_by_label("9999. option 9999").check()
    page.get_by_role("button", name="Continue").click()
    code, result = run.result()
    assert code == 0 and result["answer"] == "option 9999", result
    page.close()
    print(f"10,000 options: 100 drawn, filtered to one in {took * 1000:.0f} ms")


def elicitation_declined(browser):
    form = {"message": "Please provide your GitHub username", "requestedSchema": {
        "type": "object", "required": ["username"],
        "properties": {"username": {"type": "string", "title": "GitHub username"}}}}
    run = Run(form, command=("elicit", "--server", "github"))
    page = browser.new_page()
    page.goto(run.url)
    expect(page.locator(".context")).to_have_text("github asks: Please provide your GitHub username")
    page.locator("#answer").fill("octocat")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Review your answers")).to_be_visible()
    expect(page.locator(".context")).to_have_count(0)  # the context is shown once
    page.get_by_role("button", name="Decline").click()
    code, reply = run.result()
    assert code == 5 and reply == {"action": "decline"}, (code, reply)
    page.close()
    print("an MCP elicitation in the page: declined at the review")


def mcp_calls_share_one_tab(browser):
    """`interview mcp --ui web` with the MCP Python SDK's client: one tab answers one call after
    another, and a call after the tab was closed opens the browser again."""
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    opened = tempfile.NamedTemporaryFile("r", suffix=".urls", delete=False)
    browser_command = tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False)
    # The browser is given a file that forwards to the page, never the address and its token.
    browser_command.write(f'#!/bin/sh\necho "file://$1" >> {opened.name}\n')
    browser_command.close()
    os.chmod(browser_command.name, 0o755)
    server = StdioServerParameters(command=INTERVIEW, args=["mcp", "--ui", "web"],
                                   env={**os.environ, "BROWSER": browser_command.name})
    results = queue.Queue()
    tab_closed = threading.Event()
    calls = [{"question": "First?", "type": "confirm"}, {"question": "Second?", "type": "confirm"},
             {"question": "Third?", "options": ["a", "b"]}]

    async def client():
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for number, call in enumerate(calls):
                    if number == 2:  # the person closes the tab before the third call
                        await asyncio.get_running_loop().run_in_executor(None, tab_closed.wait)
                    results.put(await session.call_tool("interview", call))

    thread = threading.Thread(target=lambda: asyncio.run(client()), daemon=True)
    thread.start()

    def urls(count):
        deadline = time.monotonic() + 20
        while len(lines := open(opened.name).read().split()) < count:
            assert time.monotonic() < deadline, f"the browser was opened {len(lines)} times"
            time.sleep(0.05)
        return lines

    page = browser.new_page()
    forwarder = urls(1)[0]
    assert "127.0.0.1" not in forwarder and oct(os.stat(forwarder[7:]).st_mode & 0o777) == "0o600", forwarder
    page.goto(forwarder)
    expect(page.locator("legend")).to_have_text("First?")
    page.keyboard.press("y")
    assert results.get(timeout=20).structuredContent["answer"] is True
    expect(page.locator("legend")).to_have_text("Second?")  # the same tab, the next call
    page.keyboard.press("n")
    assert results.get(timeout=20).structuredContent["answer"] is False
    assert len(urls(1)) == 1, "the open tab was used"
    page.close()
    tab_closed.set()
    again = urls(2)[1]  # the third call opens the browser again
    page = browser.new_page()
    page.goto(again)
    expect(page.locator("legend")).to_have_text("Third?")
    page.keyboard.press("2")
    expect(page.get_by_label("2. b")).to_be_checked()
    page.keyboard.press("Enter")
    assert results.get(timeout=20).structuredContent["answer"] == "b"
    thread.join(timeout=20)
    page.close()
    os.unlink(opened.name)
    os.unlink(browser_command.name)
    print("interview mcp --ui web: two calls in one tab, the browser opened again for a third")


def tab_close_keeps_answers(browser):
    run = Run(BATCH)
    page = browser.new_page()
    page.goto(run.url)
    expect(page.locator("legend")).to_have_text("Where should it go?")
    page.keyboard.press("1")
    expect(page.get_by_label("1. Staging")).to_be_checked()
    page.keyboard.press("Enter")
    expect(page.locator("legend")).to_have_text("Which checks?")
    page.close()  # no heartbeat: cancelled after a short grace, the first answer kept
    code, result = run.result(timeout=30)
    assert code == 130 and result["status"] == "cancelled", (code, result)
    assert values(result) == {"env": "Staging"}, result
    print("tab closed: cancelled with the answers given:", values(result))


def process_gone(browser):
    """The command is killed while its question is open: the page says the questions are gone,
    by itself and when the person tries to answer."""
    for click in (False, True):
        run = Run({"question": "Still there?", "options": ["yes", "no"]})
        page = browser.new_page()
        page.goto(run.url)
        expect(page.locator("legend")).to_have_text("Still there?")
        run.process.kill()
        run.process.wait(timeout=10)
        if click:
            page.get_by_label("1. yes").check()
            page.get_by_role("button", name="Continue").click()
        expect(page.locator(".status")).to_contain_text("These questions are gone", timeout=10000)
        expect(page.locator("legend")).to_have_count(0)
        page.close()
    print("the command killed: the page says the questions are gone, polling and on Continue")


def impostor_on_the_port(browser):
    """The command dies with its page open, and another program (another user's, say) takes
    its port: the tab cannot make it prove it knows the page's secret, so it stops and says so,
    having sent it nothing but the nonce of its handshake."""
    run = Run({"question": "Deploy to production?", "type": "confirm"})
    port = int(run.url.split(":")[2].split("/")[0])
    page = browser.new_page()
    page.goto(run.url)
    expect(page.locator("legend")).to_have_text("Deploy to production?")
    run.process.kill()
    run.process.wait(timeout=10)
    heard = []

    class Impostor(http.server.BaseHTTPRequestHandler):
        """Answers everything as a page's server would, knowing no secret."""

        def answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            heard.append((self.command, self.path, self.rfile.read(length).decode()))
            said = {"nonce": "ab" * 16, "proof": "cd" * 32, "seq": 9, "kind": "confirm",
                    "frame": {"prompt": "Deploy to production?"}}
            body = json.dumps(said).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = answer

        def log_message(self, *args):
            pass

    impostor = http.server.ThreadingHTTPServer(("127.0.0.1", port), Impostor)
    threading.Thread(target=impostor.serve_forever, daemon=True).start()
    try:
        expect(page.locator(".status")).to_contain_text("Stopped: what answers at this address",
                                                        timeout=15000)
        expect(page.locator("legend")).to_have_count(0)
        page.wait_for_timeout(1500)  # it stays stopped: no more requests
        assert [(method, path) for method, path, _ in heard] == [("POST", "/hello")], heard
        assert json.loads(heard[0][2]).keys() == {"nonce"}, heard
    finally:
        impostor.shutdown()
        impostor.server_close()
        page.close()
    print("another program on the dead page's port: the tab stops, told only a nonce")


def never_opened():
    """Nobody opens the page: unavailable after --open-timeout, and only then said so."""
    process = subprocess.run(
        [INTERVIEW, "ask", "--ui", "web", "--no-open", "--open-timeout", "1", "-"],
        input=json.dumps({"question": "Anyone?", "type": "confirm"}), capture_output=True,
        text=True, timeout=30)
    assert process.returncode == 3, (process.returncode, process.stderr)
    result = json.loads(process.stdout)
    assert (result["status"], result["reason"]) == ("unavailable", "page-not-opened"), result
    assert "nobody opened the page" in result["text"], result
    assert "nobody opened http://127.0.0.1:" in process.stderr, process.stderr
    print("a page nobody opened: unavailable after the open timeout")


def second_tab_and_strangers(browser):
    run = Run({"question": "Ready?", "type": "confirm"})
    first = browser.new_page()
    first.goto(run.url)
    expect(first.locator("legend")).to_have_text("Ready?")
    second = browser.new_page()
    second.goto(run.url)
    expect(second.locator(".status")).to_contain_text("open in another tab")

    origin, secret = run.url.split("/#")

    def status(url, data=None, headers=None):
        request = urllib.request.Request(url, data=data, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, response.headers  # names compare without case
        except urllib.error.HTTPError as error:
            return error.code, error.headers

    assert status(f"{origin}/view?after=0&tab=x")[0] == 401, "a view outside a session"
    assert status(f"{origin}/view?after=0&tab=x",
                  headers={"X-Interview-Session": secret})[0] == 401, "the secret as a session"
    assert status(f"{origin}/{secret}/")[0] == 404, "the secret in the path"
    assert status(run.url, headers={"Host": "attacker.example"})[0] == 403, "a foreign Host"
    body = json.dumps({"seq": 1, "tab": "x", "reply": {"answered": True}}).encode()
    posted = status(origin + "/hello", json.dumps({"nonce": "0" * 32}).encode(),
                    {"Content-Type": "application/json", "Origin": "http://attacker.example"})
    assert posted[0] == 403, "a foreign Origin"
    posted = status(origin + "/reply", body, {"Content-Type": "application/json"})
    assert posted[0] == 401, "a reply outside a session"
    _, headers = status(run.url)
    policy = headers["Content-Security-Policy"]
    assert "script-src 'nonce-" in policy and "unsafe-inline" not in policy, policy

    first.keyboard.press("n")
    code, result = run.result()
    assert code == 0 and result["answer"] is False, result
    first.close()
    second.close()
    print("second tab refused; no session 401, foreign Host and Origin 403; CSP with a nonce")


def main():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        started = time.monotonic()
        only = os.environ.get("WEB_ONLY")  # WEB_ONLY=name,name runs those scenarios alone
        if only:
            for name in only.split(","):
                globals()[name](browser)
            return
        contrast_in_both_schemes(browser)
        every_widget(browser)
        recommended_starts_picked(browser)
        key_hints_fit_each_widget(browser)
        review_is_a_table(browser)
        titles_say_what_is_asked(browser)
        untrusted_text_is_text(browser)
        second_tab_and_strangers(browser)
        impostor_on_the_port(browser)
        long_list_filtered(browser)
        elicitation_declined(browser)
        mcp_calls_share_one_tab(browser)
        tab_close_keeps_answers(browser)
        process_gone(browser)
        never_opened()
        if SHOTS:
            screenshots(browser)
        browser.close()
        print(f"web page in Chromium: {time.monotonic() - started:.1f} s")


main()
