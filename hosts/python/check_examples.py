"""Checks every example request (README.md's JSON blocks, examples/*.json): tool requests
against the JSON Schema the plugin publishes for the `interview` tool, with a draft 2020-12
validator, and MCP elicitation requests by the plugin itself, which must not refuse them."""

import json
import re
import sys
from pathlib import Path

from jsonschema import Draft202012Validator

from interview_host import Plugin, ScriptedUi
from suite import report

ROOT = Path(__file__).resolve().parents[2]


def examples():
    for path in sorted((ROOT / "examples").glob("*.json")):
        yield str(path.relative_to(ROOT)), json.loads(path.read_text())
    readme = (ROOT / "README.md").read_text()
    for number, block in enumerate(re.findall(r"```json\n(.*?)```", readme, re.S), 1):
        if '"status"' in block or '"result"' in block:
            continue  # a result, not a request
        yield f"README.md, JSON block {number}", json.loads(block)


def is_elicitation(request):
    return "requestedSchema" in request.get("params", request)


def main():
    plugin = Plugin()
    schema = {name: json.loads(parameters) for name, _, parameters in plugin.definitions()}["interview"]
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)

    def problems(request):
        if is_elicitation(request):
            ending, reply = plugin.elicit(json.dumps(request), ScriptedUi([]))
            return [f"refused: {reply}"] if ending == "invalid" else []
        return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in validator.iter_errors(request)]

    return report("examples", ((where, problems(request)) for where, request in examples()))


if __name__ == "__main__":
    sys.exit(main())
