"""What `call` and `check` return: typed results whose fields are the JSON's own, with the JSON
text kept for passing on; the package's version and the component's."""

import json
from importlib import metadata

import interview
from interview import Absence, Ending, Result, ScriptedUi, Status


def test_a_call_returns_its_status_answers_and_text_with_the_json_the_agent_gets(plugin):
    result = plugin.call("interview", {"question": "Ship it?", "type": "confirm"}, ScriptedUi([True]))
    assert isinstance(result, Result)
    assert result.status is Status.ANSWERED and result.status == "answered"
    assert [a["value"] for a in result.answers] == [True]
    assert result.text == "User answered: yes"
    assert result.error is None
    assert json.loads(result.json) == result.data and str(result) == result.json


def test_a_call_the_person_leaves_is_cancelled(plugin):
    result = plugin.call("interview", {"question": "Name?"}, ScriptedUi([]))
    assert result.status is Status.CANCELLED and result.answers == []


def test_a_check_returns_the_questions_or_where_the_request_is_wrong(plugin):
    valid = plugin.check("interview", {"question": "Which?", "options": ["a", "b"]})
    assert valid.status is Status.VALID and valid.error is None
    assert [q["question"] for q in valid.questions] == ["Which?"]
    invalid = plugin.check("interview", {"questions": []})
    assert invalid.status is Status.INVALID and invalid.questions is None
    assert invalid.error["message"] and json.loads(invalid.json)["error"] == invalid.error


def test_an_elicitation_ending_is_an_enum_that_reads_as_its_word(plugin):
    request = {"message": "Who?", "requestedSchema": {"type": "object", "properties": {
        "name": {"type": "string"}}, "required": ["name"]}}
    elicitation = plugin.elicit(request, ScriptedUi([], unavailable=Absence.NO_TERMINAL))
    assert elicitation.ending is Ending.UNAVAILABLE and elicitation.ending == "unavailable"


def test_the_version_is_the_distributions_and_the_package_is_typed():
    assert interview.__version__ == metadata.version("interview-plugin")
    assert (metadata.distribution("interview-plugin").locate_file("interview/py.typed")).is_file()
    licenses = [str(f) for f in metadata.distribution("interview-plugin").files if "LICENSE" in str(f)]
    assert any(f.endswith("LICENSE-MIT") for f in licenses), licenses
    assert any(f.endswith("LICENSE-APACHE") for f in licenses), licenses
