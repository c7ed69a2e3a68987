"""``python -m interview``: the interview command in numbered mode. Answers come from stdin one
per line, the questions go to stderr, the result JSON goes to stdout, and the exit code says how
it ended, as with the Rust command (``--help`` lists them).
"""

import argparse
import json
import logging
import os
import re
import signal
import sys

from ._contract import ESCAPED, EXIT
from .line_ui import LineUi
from .plugin import FORMATS, Elicitation, Ending, Limits, Plugin, PluginError, Result, Status

# The exit codes are the Rust command's (EXIT, generated from its own); what each means, for
# --help.
EXIT_MEANINGS = {
    "answered": "answered (check: valid; schema: printed)",
    "cancelled": "cancelled",
    "invalid": "invalid request or bad usage",
    "unavailable": "no person available",
    "failed": "the plugin failed or could not run",
    "declined": "elicit: declined",
    "unwritten": "the result could not be written",
    "interrupted": "interrupted (Ctrl-C, SIGTERM, SIGHUP)",
}
# A call's status and an elicitation's ending each exit with the code of the same name, but for
# a valid check and an accepted elicitation, which are answered.
STATUS_EXIT = {status: EXIT["answered" if status is Status.VALID else status.value]
               for status in Status}
ENDING_EXIT = {ending: EXIT["answered" if ending is Ending.ACCEPTED else ending.value]
               for ending in Ending}

# What the Rust command escapes in every JSON text it prints (ESCAPED, generated from its own
# table): DEL and C1 controls, bidirectional marks and overrides, invisible format characters,
# line and paragraph separators, default-ignorable code points. Printing a result then cannot
# reorder or hide text.
MUST_ESCAPE = re.compile("[" + "".join(f"\\U{start:08x}-\\U{end:08x}" for start, end in ESCAPED)
                         + "]")


def escape_invisible(json_text: str) -> str:
    """``json_text`` with every character of ESCAPED written as ``\\uXXXX``, one beyond the Basic
    Multilingual Plane as its UTF-16 surrogate pair, the only way JSON has to write it (as the
    Rust command does). Outside strings JSON is ASCII, so each is inside a string, and the JSON
    means the same."""
    def units(match) -> str:
        utf16 = match.group().encode("utf-16-be")
        return "".join(f"\\u{int.from_bytes(utf16[i:i + 2], 'big'):04x}"
                       for i in range(0, len(utf16), 2))

    return MUST_ESCAPE.sub(units, json_text)


def _exit_codes() -> str:
    """The exit codes for --help: every one the Rust command has, with what it means."""
    return "exit codes:\n" + "\n".join(f"  {code:>3} {EXIT_MEANINGS.get(name, name)}"
                                        for name, code in EXIT.items())


class _Parser(argparse.ArgumentParser):
    """argparse, exiting on bad usage with the Rust command's code for it rather than its own 2
    (the subcommands' parsers are of this class too)."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(EXIT["invalid"], f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m interview",
        description="Ask a person the questions of an agent's request, one answer per line.",
        epilog=_exit_codes(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--component", metavar="FILE", help="another build of the plugin component")
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


def _read(source: str, limit: int):
    """The request text, at most ``limit`` bytes of UTF-8, or why it cannot be a request.
    Reading stops at the limit, so an endless input costs no more than the limit."""
    what = "standard input" if source == "-" else source
    try:
        if source == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(source, "rb") as file:
                data = file.read(limit + 1)
    except OSError as error:
        return None, f"cannot read the request from {what}: {_os_error(error)}"
    if len(data) > limit:
        return None, (f"the request from {what} is more than {limit} bytes, the limit; ask "
                      "fewer or shorter questions")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        return None, f"the request from {what} is not UTF-8 text (an invalid byte at offset {error.start})"


def _os_error(error: OSError) -> str:
    """An OS error as the Rust command words it."""
    if error.errno is None:
        return str(error)
    return f"{os.strerror(error.errno)} (os error {error.errno})"


def _unreadable(plugin: Plugin, command: str, message: str):
    """The plugin's answer to a request that cannot be read: to an elicitation a JSON-RPC parse
    error, else an ``invalid`` result."""
    if command == "elicit":
        return plugin.unreadable_elicitation(message)
    return plugin.unreadable("", message)


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _not_utf8(argv):
    """The first argument that is not UTF-8 (Python keeps its bytes as surrogates), lossily."""
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return os.fsencode(arg).decode("utf-8", "replace")
    return None


class _Interrupt:
    """Ctrl-C, SIGTERM and SIGHUP stop the person's UI, which returns the answers so far, in
    place of the process dying with them."""

    SIGNALS = [s for s in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, s)]

    def __init__(self, ui: LineUi):
        self.ui = ui
        self.previous = {}

    def __enter__(self):
        for name in self.SIGNALS:
            number = getattr(signal, name)
            self.previous[number] = signal.signal(number, lambda *_: self.ui.interrupt())
        return self

    def __exit__(self, *exc):
        for number, handler in self.previous.items():
            signal.signal(number, handler)


def _print(text: str) -> bool:
    """Writes a JSON text, with every invisible or control character escaped; false when stdout
    is gone (a closed pipe, a full disk)."""
    try:
        sys.stdout.write(escape_invisible(text) + "\n")
        sys.stdout.flush()
        return True
    except (OSError, ValueError) as error:
        _warn(f"cannot write the result to stdout: {error}")
        return False


def _warn(message: str) -> None:
    try:
        print(f"interview: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    bad = _not_utf8(argv)
    if bad is not None:
        _warn(f"{bad!r} is not UTF-8")
        return EXIT["invalid"]
    args = _parser().parse_args(argv)
    # The plugin's warnings (a result saved by a replay) go to stderr, as the Rust command's.
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("interview: %(message)s"))
    logging.getLogger("interview").addHandler(handler)
    args.text = None
    try:
        return _run(Plugin(args.component), args)
    except PluginError as error:
        return _plugin_failed(args, error)


def _answer(outcome, interrupted: bool = False) -> int:
    """Prints the plugin's result or reply; the exit code its status or ending says, the
    interrupted one for a person who was interrupted."""
    if isinstance(outcome, Elicitation):
        text, code = outcome.reply, ENDING_EXIT[outcome.ending]
    else:
        text, code = outcome.json, STATUS_EXIT[outcome.status]
    if code == EXIT["cancelled"] and interrupted:
        code = EXIT["interrupted"]
    return code if _print(text) else EXIT["unwritten"]


def _plugin_failed(args, error: PluginError) -> int:
    """A plugin that could not run (a component that does not load or start) or that failed
    while asking still answers the caller on stdout, as the Rust command does: the plugin's
    ``failed`` result with every answer the person gave (``elicit``: ``cancel`` with them under
    ``_meta``), exiting ``failed``. A caller that reads stdout is never left with nothing."""
    _warn(str(error))
    try:
        outcome = _failure(args, error)
    except PluginError as unworded:
        outcome = _unworded(args.command, str(error), unworded)
    return _answer(outcome)


def _failure(args, error: PluginError):
    """The failed result or reply, worded by the package's own plugin: the one at hand is the
    one that failed, or another component that does not load. Each of its calls is a fresh
    instance."""
    author = Plugin()
    if args.command != "elicit":
        return author.failed(str(error), error.given)
    # A component that did not compile failed before the request was read: it is read now, to
    # answer under the request's JSON-RPC id.
    request = args.text
    if request is None:
        request = _read(args.request, Limits().request_bytes)[0] or ""
    return author.failed_elicitation(request, str(error), error.given)


def _unworded(command: str, message: str, why: PluginError):
    """Only should the package's own plugin not run either (a damaged installation): the
    failure and why it could not be worded, as the Rust host's last resort has it, so that
    stdout still holds one JSON text."""
    if command == "elicit":
        return Elicitation(Ending.FAILED, _json({"action": "cancel"}))
    message = f"{message} (the built-in plugin, which words this result, could not start: {why})"
    return Result.of(Status.FAILED, _json({"status": "failed", "answers": [],
                                           "error": {"path": "", "message": message}, "text": message}))


def _run(plugin: Plugin, args) -> int:
    if args.command == "schema":
        printed = _print(plugin.definitions_as(args.format))
        return EXIT["answered"] if printed else EXIT["unwritten"]
    args.text, problem = _read(args.request, plugin.limits.request_bytes)
    if problem is not None:
        _warn(problem)
        return _answer(_unreadable(plugin, args.command, problem))
    if args.command == "check":
        return _answer(plugin.check(args.tool, args.text))
    # Attributes only on a terminal that shows them, as the Rust command.
    colour = (sys.stderr.isatty() and "NO_COLOR" not in os.environ
              and os.environ.get("TERM") != "dumb")
    ui = LineUi(line_limit=plugin.limits.request_bytes, colour=colour)
    # Held until the result is written: a signal that comes once the plugin has returned
    # changes nothing, where the default handlers would kill the process before it prints.
    with _Interrupt(ui):
        if args.command == "elicit":
            outcome = plugin.elicit(args.text, ui, requester=args.server)
        else:
            outcome = plugin.call(args.tool, args.text, ui, skip_response=args.skip_response)
        return _answer(outcome, interrupted=ui.stopped == "interrupted")


if __name__ == "__main__":
    sys.exit(main())
