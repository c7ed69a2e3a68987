"""Ask a person the questions of a request with the Python host, one answer per line.

    python3 hosts/python/ask.py examples/deploy.json [TOOL]
    python3 hosts/python/ask.py examples/elicitation.json      (an MCP elicitation/create request)

The result JSON (for an elicitation, the reply to send back) goes to stdout; the exit code is
0 answered, 1 cancelled, 2 invalid, 3 no person, 5 declined (an elicitation).
"""

import json
import sys
from pathlib import Path

from interview_host import LineUi, Plugin

EXIT = {"answered": 0, "cancelled": 1, "invalid": 2, "unavailable": 3}
ELICIT_EXIT = {"accepted": 0, "cancelled": 1, "invalid": 2, "unavailable": 3, "declined": 5}


def is_elicitation(text):
    """An elicitation/create request, or its params, rather than a tool call's arguments."""
    try:
        request = json.loads(text)
    except ValueError:
        return False
    return isinstance(request, dict) and (
        request.get("method") == "elicitation/create" or "requestedSchema" in request
    )


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    text = Path(sys.argv[1]).read_text()
    if is_elicitation(text):
        ending, reply = Plugin().elicit(text, LineUi())
        print(reply)
        return ELICIT_EXIT[ending]
    tool = sys.argv[2] if len(sys.argv) > 2 else "interview"
    result = Plugin().call(tool, text, LineUi())
    print(result)
    return EXIT[json.loads(result)["status"]]


if __name__ == "__main__":
    sys.exit(main())
