"""Runs the conformance suite (tests/conformance/) through the Python host."""

import json
import sys
from pathlib import Path

from interview_host import Plugin, ScriptedUi

SUITE = Path(__file__).resolve().parents[2] / "tests" / "conformance"


def main():
    plugin = Plugin()
    passed = failed = 0
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
        if problems:
            failed += 1
            print(f"FAIL {path.stem}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"ok   {path.stem}")
    print(f"python: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
