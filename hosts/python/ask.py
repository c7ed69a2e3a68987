"""Ask a person the questions of a request with the Python host, one answer per line.

    python3 hosts/python/ask.py examples/deploy.json [TOOL]

The result JSON goes to stdout; the exit code is 0 answered, 1 cancelled, 2 invalid, 3 no person.
"""

import json
import sys
from pathlib import Path

from interview_host import LineUi, Plugin

EXIT = {"answered": 0, "cancelled": 1, "invalid": 2, "unavailable": 3}


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    arguments = Path(sys.argv[1]).read_text()
    tool = sys.argv[2] if len(sys.argv) > 2 else "interview"
    result = Plugin().call(tool, arguments, LineUi())
    print(result)
    return EXIT[json.loads(result)["status"]]


if __name__ == "__main__":
    sys.exit(main())
