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


GIVEN = [interview.Given(1, "Name", "Who are you?", "Ada", note="my first name")]


def test_a_request_that_cannot_be_read_gets_the_plugins_invalid_result(plugin):
    result = plugin.unreadable("", "the request is not UTF-8 text")
    assert result.status is Status.INVALID and result.answers == []
    assert result.error == {"path": "", "message": "the request is not UTF-8 text"}
    assert result.text.startswith("The request is invalid, so nothing was asked")
    # What the host cannot use is named, and the agent is not told to mend its arguments.
    journal = plugin.unreadable("--journal", "the journal is locked")
    assert journal.status is Status.INVALID and journal.error["path"] == "--journal"
    assert journal.text == "Nothing was asked: the journal is locked."


def test_a_failed_call_keeps_the_answers_given_in_the_plugins_words(plugin):
    result = plugin.failed("the plugin failed in `call`: out of memory", GIVEN)
    assert result.status is Status.FAILED and result.status == "failed"
    assert result.answers == [{"position": 1, "question": "Who are you?", "answer": "Ada",
                               "header": "Name", "note": "my first name"}]
    assert result.error["message"] == "the plugin failed in `call`: out of memory"
    assert '"Who are you?"="Ada"' in result.text
    assert plugin.failed("it broke").text == "The question tool failed before the user answered: it broke."


def test_elicitations_that_cannot_be_read_or_that_failed_end_invalid_and_failed(plugin):
    unreadable = plugin.unreadable_elicitation("not JSON")
    assert unreadable.ending is Ending.INVALID
    assert json.loads(unreadable.reply) == {"jsonrpc": "2.0", "id": None,
                                            "error": {"code": -32700, "message": "not JSON"}}
    request = {"jsonrpc": "2.0", "id": 4, "method": "elicitation/create", "params": {}}
    failed = plugin.failed_elicitation(request, "it broke", GIVEN)
    assert failed.ending is Ending.FAILED and failed.ending == "failed"
    reply = json.loads(failed.reply)
    assert reply["id"] == 4 and reply["result"]["action"] == "cancel"
    assert reply["result"]["_meta"]["interview/failure"] == {"message": "it broke",
                                                            "given": [GIVEN[0].to_json()]}
