"""Every example request (the JSON blocks of README.md and docs/, examples/*.json) is one the
plugin takes: tool requests validate against the JSON Schema the plugin publishes for the
`interview` tool (with a draft 2020-12 validator), and MCP elicitation requests are not refused
by the plugin."""

import json
import re

import pytest
from jsonschema import Draft202012Validator

import interview

from conftest import ROOT


def examples():
    for path in sorted((ROOT / "examples").glob("*.json")):
        yield str(path.relative_to(ROOT)), json.loads(path.read_text())
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text()
        for number, block in enumerate(re.findall(r"```json\n(.*?)```", text, re.S), 1):
            # Not a request: a result, or a team inbox webhook's message.
            if not any(word in block for word in ('"status"', '"result"', '"blocks"')):
                yield f"{page.relative_to(ROOT)}, JSON block {number}", json.loads(block)


EXAMPLES = list(examples())


@pytest.fixture(scope="module")
def validator(plugin):
    """The published schema of the `interview` tool, checked once against the meta-schema."""
    schema = {d.name: json.loads(d.parameters) for d in plugin.definitions()}["interview"]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.mark.parametrize("request_", [r for _, r in EXAMPLES], ids=[w for w, _ in EXAMPLES])
def test_example(plugin, validator, request_):
    if "requestedSchema" in request_.get("params", request_):
        elicitation = plugin.elicit(request_, interview.ScriptedUi())
        assert elicitation.ending != "invalid", elicitation.reply
        return
    errors = validator.iter_errors(request_)
    assert [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors] == []
