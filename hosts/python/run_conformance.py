"""Runs the conformance suite (tests/conformance/) through the Python host."""

import json
import sys
from pathlib import Path

from interview_host import Plugin, ScriptedUi
from suite import report

SUITE = Path(__file__).resolve().parents[2] / "tests" / "conformance"


def outcomes(plugin):
    for path in sorted(SUITE.glob("*.json")):
        case = json.loads(path.read_text())
        script = case["script"]
        ui = ScriptedUi(script, case.get("unavailable", False))
        arguments = case["arguments"] if isinstance(case["arguments"], str) else json.dumps(case["arguments"])
        result = json.loads(plugin.call(case["tool"], arguments, ui, case.get("skip_response")))
        widgets = [next(iter(step)) for step in script]
        problems = []
        if ui.asked != widgets:
            problems.append(f"asked {ui.asked}, the script answers {widgets}")
        if result != case["result"]:
            problems.append(f"result {json.dumps(result, ensure_ascii=False)}")
        yield path.stem, problems


def main():
    return report("python", outcomes(Plugin()))


if __name__ == "__main__":
    sys.exit(main())
