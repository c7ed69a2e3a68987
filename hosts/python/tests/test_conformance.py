"""The conformance suite (tests/conformance/), one test per case, through the Python host:
each case's scripted replies must give exactly its expected result. An accepted elicitation's
content is also checked against its requested schema by jsonschema, a validator independent of
the plugin."""

import json

import jsonschema
import pytest

import interview
from interview import Discuss, Edit, MultiPicked, Nav, Other, Picked, Review, Status

from conftest import ROOT

CASES = sorted((ROOT / "tests" / "conformance").glob("*.json"))
NAVS = {nav.value: nav for nav in Nav}


def reply(widget, step):
    """A case's scripted step as the value a UI returns."""
    if widget == "review":
        return Edit(step["edit"]) if isinstance(step, dict) else Review(step)
    if isinstance(step, str) and step in NAVS:
        return NAVS[step]
    if widget == "select":
        if step == "discuss":
            return Discuss()
        if "picked" in step:
            return Picked(step["picked"], step.get("note"))
        return Other(step["other"])
    if widget == "multi_select":
        return MultiPicked(step["picked"], step.get("other"), step.get("note"))
    return next(iter(step.values()))  # submitted, answered, entered


class CaseUi(interview.ScriptedUi):
    """Plays a case's steps, each for the widget it names; a widget the script does not expect
    next is cancelled, and shows up in ``asked``."""

    def __init__(self, script, unavailable):  # unavailable: an absence's name, or None
        super().__init__(unavailable=unavailable)
        self.steps = [next(iter(step.items())) for step in script]

    def _next(self, widget, frame, request, out_of_replies):
        self.asked.append((widget, frame, request))
        if not self.steps or self.steps[0][0] != widget:
            return out_of_replies
        return reply(*self.steps.pop(0))


def raw(value):
    """A case's request as the text to send: a string is sent as it is (invalid JSON)."""
    return value if isinstance(value, str) else json.dumps(value)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(plugin, path):
    case = json.loads(path.read_text())
    ui = CaseUi(case["script"], case.get("unavailable"))
    if "elicit" in case:
        elicitation = plugin.elicit(raw(case["elicit"]), ui, requester=case.get("requester"))
        assert elicitation.ending == case["ending"]
        result = json.loads(elicitation.reply)
        check_content(case["elicit"], result)
    else:
        returned = plugin.call(case["tool"], raw(case["arguments"]), ui,
                               skip_response=case.get("skip_response"))
        result = json.loads(returned.json)
        # The typed fields are the JSON's own.
        assert returned.status == Status(result["status"]) and returned.status.value == result["status"]
        assert (returned.answers, returned.text, returned.error, returned.data) == (
            result.get("answers", []), result.get("text"), result.get("error"), result)
    assert [widget for widget, _, _ in ui.asked] == [next(iter(s)) for s in case["script"]]
    assert result == case["result"]


def check_content(request, reply):
    params = request.get("params", request)
    result = reply.get("result", reply)
    if result.get("action") != "accept":
        assert "content" not in result, "content sent without accept"
        return
    validator = jsonschema.Draft202012Validator(
        params["requestedSchema"], format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    assert [e.message for e in validator.iter_errors(result["content"])] == []


def test_the_suite_is_there():
    assert len(CASES) >= 50
