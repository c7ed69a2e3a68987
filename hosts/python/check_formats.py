"""Every value the plugin accepts for a string format is accepted by both validators MCP
servers check elicitation results with: pydantic (Python SDK; EmailStr, AnyUrl, date, datetime)
and Ajv with ajv-formats (TypeScript SDK). And the tool definitions in Gemini's envelope are
what Gemini's own SDK (google-genai) takes as function declarations. Run from the repository
root with the `interview` package installed, after `npm install` in hosts/js; exits 1 on the
first value the plugin accepts and a validator refuses.

The plugin may refuse more than the validators do (a typo such as `bob@gmail` is caught while
the person can fix it); the values both accept that the plugin refuses are listed, not failed,
unless they are everyday values the plugin must take.
"""

import datetime
import json
import subprocess
import sys

from google.genai import types as gemini
from pydantic import AnyUrl, EmailStr, TypeAdapter, ValidationError

from interview import Plugin, Status

CANDIDATES = {
    "email": [
        "ada@example.com", "first.last+tag@sub.example.co.uk", "o'brien@example.ie",
        "user@localhost", "ada@[127.0.0.1]", "ada@[IPv6:::1]", "a@b", "a@b.c", "bob@gmail",
        "no-at-sign", "@example.com", "ada@", "ada@@example.com", "ada @example.com",
        "ada@exa mple.com", ".ada@example.com", "ada.@example.com", "a..b@example.com",
        "ada@-example.com", "ada@example-.com", "ada@example..com", '"quoted"@example.com',
        "üñî@example.com", "ada@bücher.de", "ada@example.com.", "x" * 65 + "@example.com",
        "ada@" + "a" * 64 + ".com", "ada@example.c", "ada@123.123.123.123",
    ],
    "uri": [
        "https://example.com", "https://example.com/path?q=1#frag", "http://localhost:8080/",
        "file:///tmp/x", "mailto:ada@example.com", "urn:isbn:0451450523", "ftp://ftp.example.com/a",
        "https://[::1]:443/", "https://user:pw@example.com/", "data:text/plain,hi",
        "example.com", "//example.com/x", "/relative/path", "https://exa mple.com",
        "https://example.com/a b", "http://", "https://", "1http://x", "ht tp://x",
        "https://example.com/%zz", "https://bücher.de/", "https://example.com/ü",
        "javascript:alert(1)", "tel:+1-201-555-0123", "urn:", "https://example.com:99999/",
    ],
    "date": [
        "2026-11-21", "2024-02-29", "2023-02-29", "0000-01-01", "0001-01-01", "9999-12-31",
        "2026-13-01", "2026-00-10", "2026-11-31", "2026-1-21", "26-11-21", "2026/11/21",
        "2026-11-21T00:00:00", "2026-11-21Z", " 2026-11-21", "20261121", "+2026-11-21",
    ],
    "date-time": [
        "2026-11-21T14:30:00Z", "2026-11-21T14:30:00+02:00", "2026-11-21T14:30:00.123Z",
        "2026-11-21t14:30:00z", "2026-11-21 14:30:00Z", "2026-11-21T14:30:00",
        "2026-11-21T14:30Z", "2026-11-21T24:00:00Z", "2026-11-21T23:59:60Z",
        "2016-12-31T23:59:60Z", "0000-01-01T00:00:00Z", "2026-02-30T10:00:00Z",
        "2026-11-21T14:30:00+24:00", "2026-11-21T14:30:00+0200", "2026-11-21T14:30:00.Z",
        "2026-11-21T14:30:00.123456789Z", "2026-11-21",
    ],
}

# Values the plugin must accept: what people type every day.
EVERYDAY = {
    "email": ["ada@example.com", "first.last+tag@sub.example.co.uk"],
    "uri": ["https://example.com", "https://example.com/path?q=1#frag", "file:///tmp/x"],
    "date": ["2026-11-21", "2024-02-29"],
    "date-time": ["2026-11-21T14:30:00Z", "2026-11-21T14:30:00+02:00", "2026-11-21T14:30:00.123Z"],
}
# Values the plugin must refuse (a validator takes them, but not both, or a server could not
# rely on them).
REFUSED = {
    "email": ["ada@[127.0.0.1]"],
    "date": ["0000-01-01"],
    "date-time": ["2016-12-31T23:59:60Z", "0000-01-01T00:00:00Z"],
}

PYDANTIC = {
    "email": TypeAdapter(EmailStr),
    "uri": TypeAdapter(AnyUrl),
    "date": TypeAdapter(datetime.date),
    "date-time": TypeAdapter(datetime.datetime),
}


def pydantic_accepts(format_name, value):
    try:
        PYDANTIC[format_name].validate_python(value)
        return True
    except ValidationError:
        return False


def plugin_accepts(plugin, format_name, value):
    request = {"question": "Value?", "format": format_name, "default": value}
    return plugin.check("interview", json.dumps(request)).status == Status.VALID


def main():
    ajv = subprocess.run(
        ["node", "hosts/js/check_formats.js"], input=json.dumps(CANDIDATES),
        capture_output=True, text=True, check=True,
    )
    ajv_verdicts = json.loads(ajv.stdout)
    plugin = Plugin()
    failures, stricter = [], []
    for format_name, values in CANDIDATES.items():
        for value, by_ajv in zip(values, ajv_verdicts[format_name]):
            by_pydantic = pydantic_accepts(format_name, value)
            ours = plugin_accepts(plugin, format_name, value)
            if ours and not (by_pydantic and by_ajv):
                failures.append(f"{format_name} {value!r}: accepted, but pydantic {by_pydantic}, Ajv {by_ajv}")
            if not ours and by_pydantic and by_ajv:
                stricter.append(f"{format_name} {value!r}")
            if value in EVERYDAY.get(format_name, []) and not ours:
                failures.append(f"{format_name} {value!r}: an everyday value, refused")
            if value in REFUSED.get(format_name, []) and ours:
                failures.append(f"{format_name} {value!r}: must be refused")
    declarations = json.loads(plugin.definitions_as("gemini"))["functionDeclarations"]
    for declaration in declarations:
        try:
            gemini.FunctionDeclaration.model_validate(declaration)
        except ValidationError as error:
            failures.append(f"gemini declaration {declaration['name']}: {error}")
    print(f"gemini: {len(declarations)} function declarations checked with google-genai")
    total = sum(len(v) for v in CANDIDATES.values())
    print(f"formats: {total} values checked against pydantic and Ajv")
    for line in stricter:
        print(f"  stricter than both validators: {line}")
    for line in failures:
        print(f"FAIL {line}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
