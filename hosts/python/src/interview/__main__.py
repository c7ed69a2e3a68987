"""``python -m interview``: the interview command in numbered mode. Answers come from stdin one
per line, the questions go to stderr, the result JSON goes to stdout, and the exit code says how
it ended, as with the Rust command:

  0 answered (check: valid; schema: printed)   1 cancelled   2 invalid request or bad usage
  3 no person available   5 elicit: declined   6 the result could not be written
  130 interrupted (Ctrl-C)
"""

import argparse
import json
import sys

from .line_ui import LineUi
from .plugin import FORMATS, Plugin

ANSWERED, CANCELLED, INVALID, UNAVAILABLE, DECLINED, UNWRITTEN, INTERRUPTED = 0, 1, 2, 3, 5, 6, 130
STATUS_EXIT = {"answered": ANSWERED, "cancelled": CANCELLED, "unavailable": UNAVAILABLE, "valid": ANSWERED}
ENDING_EXIT = {"accepted": ANSWERED, "declined": DECLINED, "cancelled": CANCELLED,
               "unavailable": UNAVAILABLE, "invalid": INVALID}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m interview",
        description="Ask a person the questions of an agent's request, one answer per line.",
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    ask = commands.add_parser("ask", help="ask a tool call's questions (FILE, or - for stdin)")
    ask.add_argument("request", metavar="FILE")
    ask.add_argument("--tool", default="interview", help="the tool the model called")
    ask.add_argument("--skip-response", help="what a skipped text question records")
    elicit = commands.add_parser("elicit", help="answer an MCP elicitation/create request")
    elicit.add_argument("request", metavar="FILE")
    elicit.add_argument("--server", help="the MCP server that asks, named to the person")
    check = commands.add_parser("check", help="check a request without asking anything")
    check.add_argument("request", metavar="FILE")
    check.add_argument("--tool", default="interview")
    schema = commands.add_parser("schema", help="print the tool definitions")
    schema.add_argument("--format", default="plain", choices=FORMATS)
    return parser


def _read(source: str):
    """The request text, or why it cannot be read."""
    try:
        if source == "-":
            return sys.stdin.buffer.read().decode("utf-8"), None
        with open(source, "rb") as file:
            return file.read().decode("utf-8"), None
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return None, f"cannot read {source}: {reason}"


def _unreadable(command: str, message: str) -> str:
    """The reply to a request that cannot be read: what the plugin answers an invalid one."""
    if command == "elicit":
        reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": message}}
    else:
        reply = {
            "status": "invalid",
            "answers": [],
            "error": {"path": "", "message": message},
            "text": f"The request is invalid, so nothing was asked: the arguments: {message}. "
                    "Fix the arguments and call the tool again.",
        }
    return json.dumps(reply, ensure_ascii=False, separators=(",", ":"))


def _print(text: str) -> bool:
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        return True
    except OSError as error:
        print(f"interview: cannot write the result to stdout: {error}", file=sys.stderr)
        return False


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    plugin = Plugin()
    if args.command == "schema":
        return ANSWERED if _print(plugin.definitions_as(args.format)) else UNWRITTEN
    text, problem = _read(args.request)
    if problem is not None:
        print(f"interview: {problem}", file=sys.stderr)
        return INVALID if _print(_unreadable(args.command, problem)) else UNWRITTEN
    if args.command == "check":
        result = plugin.check(args.tool, text)
        code = STATUS_EXIT.get(json.loads(result)["status"], INVALID)
        return code if _print(result) else UNWRITTEN
    ui = LineUi()
    if args.command == "elicit":
        elicitation = plugin.elicit(text, ui, requester=args.server)
        reply, code = elicitation.reply, ENDING_EXIT[elicitation.ending]
    else:
        reply = plugin.call(args.tool, text, ui, skip_response=args.skip_response)
        code = STATUS_EXIT.get(json.loads(reply)["status"], INVALID)
    if code == CANCELLED and ui.stopped == "interrupted":
        code = INTERRUPTED
    return code if _print(reply) else UNWRITTEN


if __name__ == "__main__":
    sys.exit(main())
