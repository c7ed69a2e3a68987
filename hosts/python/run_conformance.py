"""Runs the conformance suite (tests/conformance/) through the Python host."""

import json
import sys
from pathlib import Path

import jsonschema

from interview_host import Plugin, ScriptedUi
from suite import report

SUITE = Path(__file__).resolve().parents[2] / "tests" / "conformance"


def outcomes(plugin):
    for path in sorted(SUITE.glob("*.json")):
        case = json.loads(path.read_text())
        script = case["script"]
        ui = ScriptedUi(script, case.get("unavailable", False))
        problems = []
        if "elicit" in case:
            ending, reply = plugin.elicit(raw(case["elicit"]), ui, case.get("requester"))
            result = json.loads(reply)
            if ending != case["ending"]:
                problems.append(f"ended {ending}, not {case['ending']}")
            problems += content_problems(case["elicit"], result)
        else:
            result = json.loads(plugin.call(case["tool"], raw(case["arguments"]), ui, case.get("skip_response")))
        widgets = [next(iter(step)) for step in script]
        if ui.asked != widgets:
            problems.append(f"asked {ui.asked}, the script answers {widgets}")
        if result != case["result"]:
            problems.append(f"result {json.dumps(result, ensure_ascii=False)}")
        yield path.stem, problems


def raw(value):
    """A case's request as the text to send: a string is sent as it is (invalid JSON)."""
    return value if isinstance(value, str) else json.dumps(value)


def content_problems(request, reply):
    """An accepted elicitation's content checked against its requested schema by an
    independent validator (jsonschema, formats included), not by the plugin's own rules."""
    params = request.get("params", request)
    result = reply.get("result", reply)
    if result.get("action") != "accept":
        return [] if "content" not in result else ["content sent without accept"]
    validator = jsonschema.Draft202012Validator(
        params["requestedSchema"], format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    return [f"content: {error.message}" for error in validator.iter_errors(result["content"])]


def main():
    return report("python", outcomes(Plugin()))


if __name__ == "__main__":
    sys.exit(main())
