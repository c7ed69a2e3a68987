"""The differential cases: the same tool call made to an agent's own ask-the-user tool and to
interview's tool of that agent's dialect, answered with the same keys, must give the model the
same thing.

For each agent and case there are two runs of the agent's TUI, each against a fake model that
makes the one call: first to the agent's own tool (`own_tool`), answered by pressing
`own_keys` in the agent's own dialog on its screen; then to `interview mcp --tools <dialect>`
under the agent's naming of MCP tools, answered by pressing `inbox_keys` in `interview inbox`.
`compare` takes the two tool results the fake model received and returns what the model reads
of each, with only what legitimately differs taken away (said beside each agent); the case
passes when the two are equal.
"""

import json


def text_of(result):
    """The text of a recorded tool result, whatever the dialect (Anthropic's `content`, a string
    or text blocks; OpenAI's `output`; Gemini's `response`)."""
    if result is None:
        return None
    if "tool_use_id" in result:
        content = result.get("content")
        if isinstance(content, list):
            content = "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
        return content
    if "call_id" in result:
        return result.get("output")
    return result.get("response")


SPECS = {}

CLAUDE_QUESTIONS = {"questions": [
    {"question": "Which database?", "header": "Database", "multiSelect": False,
     "options": [{"label": "Postgres", "description": "A server"},
                 {"label": "SQLite", "description": "A file"}]},
    {"question": "Which checks should run first?", "header": "Checks", "multiSelect": True,
     "options": [{"label": "Unit tests", "description": "Fast"},
                 {"label": "Lint", "description": "Style"},
                 {"label": "Migrations dry-run", "description": "Slow"}]},
    {"question": "Which branch name?", "header": "Branch", "multiSelect": False,
     "options": [{"label": "main", "description": "The default"},
                 {"label": "develop", "description": "The next release"}]},
    {"question": "Which region?", "header": "Region", "multiSelect": False,
     "options": [{"label": "eu-west", "description": "Ireland"},
                 {"label": "us-east", "description": "Virginia"}]},
]}
CLAUDE_PICKED = {"questions": CLAUDE_QUESTIONS["questions"][:3]}
CLAUDE_PASSED = {"questions": [CLAUDE_QUESTIONS["questions"][0], CLAUDE_QUESTIONS["questions"][3]]}


def claude_compare(own, ours):
    """Claude Code gives the model an MCP tool's `structuredContent` as JSON text when the
    result has one (the text content is then left out), so the model reads interview's whole
    result JSON, whose `text` is the dialect's words; its own tool's result is those words
    alone. What the model reads: the own tool's text, and the `text` of interview's JSON.

    Left out: `is_error`. Claude Code marks its own tool's cancel (Esc) as an error; interview
    returns a cancel as a result (status `cancelled`, the same words), since an MCP tool error
    says the call failed and may be made again."""
    return text_of(own), json.loads(text_of(ours))["text"]


SPECS["claude"] = {
    # Picked, ticked and typed, in one call: a select, a multi-select, and "Type something."
    # on a select.
    "answers": {
        "own_tool": "AskUserQuestion", "dialect": "AskUserQuestion",
        "prompt": "Ask me about the database, the checks and the branch.",
        "arguments": CLAUDE_PICKED,
        "own_keys": [
            (r"Which database\?", ["down", "enter"]),
            (r"Which checks should", ["enter", "down", "enter", "tab"]),
            (r"Which branch name", ["down", "down", "text:feature/x", "enter"]),
            (r"Review your answers", ["enter"]),
        ],
        "inbox_keys": [
            (r"Which database\?", ["down", "enter"]),
            (r"Which checks should", ["space", "down", "space", "enter"]),
            (r"Which branch name", ["down", "down", "enter"]),
            (r"Esc back to the list", ["text:feature/x", "enter"]),
            (r"Review your answers", ["enter"]),
        ],
        "compare": claude_compare,
    },
    # A question passed over: its dialog moves on with Tab and sends the answers without it.
    "skip": {
        "own_tool": "AskUserQuestion", "dialect": "AskUserQuestion",
        "prompt": "Ask me about the database and the region.",
        "arguments": CLAUDE_PASSED,
        "own_keys": [
            (r"Which database\?", ["enter"]),
            (r"Which region", ["tab"]),
            (r"Review your answers", ["enter"]),
        ],
        "inbox_keys": [
            (r"Which database\?", ["enter"]),
            (r"Which region", ["ctrl-s"]),
            (r"Review your answers", ["enter"]),
        ],
        "compare": claude_compare,
    },
    # Esc in the dialog. Claude Code then ends the turn (the call is "Declined"), so the model
    # reads the result with the person's next message: the person types one.
    "cancel": {
        "own_tool": "AskUserQuestion", "dialect": "AskUserQuestion",
        "prompt": "Ask me about the database, the checks, the branch and the region.",
        "arguments": CLAUDE_QUESTIONS,
        "own_keys": [(r"Which database\?", ["esc"]),
                     (r"Declined to answer", ["text:go on", "enter"])],
        "inbox_keys": [(r"Which database\?", ["esc"])],
        "compare": claude_compare,
    },
}

GEMINI_QUESTIONS = {"questions": [
    {"question": "Which database?", "header": "Database", "type": "choice",
     "options": [{"label": "Postgres", "description": "A server"},
                 {"label": "SQLite", "description": "A file"}]},
    {"question": "Which checks should run first?", "header": "Checks", "type": "choice",
     "multiSelect": True,
     "options": [{"label": "Unit tests", "description": "Fast"},
                 {"label": "Lint", "description": "Style"},
                 {"label": "Migrations dry-run", "description": "Slow"}]},
    {"question": "Which branch name?", "header": "Branch", "type": "choice",
     "options": [{"label": "main", "description": "The default"},
                 {"label": "develop", "description": "The next release"}]},
    {"question": "Force-push to main?", "header": "Push", "type": "yesno"},
]}


UNTRUSTED = ("<untrusted_context>\n", "\n</untrusted_context>")


def gemini_compare(own, ours):
    """Gemini CLI sends the model a functionResponse: its own tool's is `{output: <the
    tool's JSON as text>}`; an MCP tool's is the same, with each text block of the result
    wrapped in `<untrusted_context>` lines (`transformTextBlock` in
    packages/core/src/tools/mcp-tool.ts, `wrapUntrusted` in packages/core/src/utils/textUtils.ts),
    and named `mcp_<server>_<tool>`. Taken away: that wrapper (it must be there), the name and
    the call id; the rest of the response is compared whole."""
    mine = dict(ours["response"])
    output = mine.get("output")
    if isinstance(output, str) and output.startswith(UNTRUSTED[0]) and output.endswith(UNTRUSTED[1]):
        mine["output"] = output[len(UNTRUSTED[0]):-len(UNTRUSTED[1])]
    return own["response"], mine


GEMINI_DISMISSED = "User dismissed ask_user dialog without answering."


def gemini_cancel_compare(own, ours):
    """Esc in Gemini CLI's dialog cancels the whole request: the call and its response are
    left out of the history, and the model's next request (the person's next message) has no
    trace of them. An MCP tool cannot take its call back, so interview's `ask_user` answers
    with the words Gemini's tool has for a dismissal (`ask-user.ts`). Stated, not hidden: own
    must have given nothing and interview exactly those words."""
    _, mine = gemini_compare({"response": None}, ours)
    return ("nothing" if own is None else own,
            "nothing" if mine == {"output": GEMINI_DISMISSED} else mine)


SPECS["gemini"] = {
    # A select, a multi-select, "Enter a custom value" on a select, and a yes/no question
    # (which its dialog offers as the options Yes and No), in one call.
    "answers": {
        "own_tool": "ask_user", "dialect": "ask_user",
        "prompt": "Ask me about the database, the checks, the branch and the push.",
        "arguments": GEMINI_QUESTIONS,
        "own_keys": [
            (r"Which database\?", ["down", "enter"]),
            (r"Which checks should", ["enter", "down", "enter", "right"]),
            (r"Which branch name", ["down", "down", "text:feature/x", "enter"]),
            (r"Force-push", ["enter"]),
            (r"Review your answers", ["enter"]),
        ],
        "inbox_keys": [
            (r"Which database\?", ["down", "enter"]),
            (r"Which checks should", ["space", "down", "space", "enter"]),
            (r"Which branch name", ["down", "down", "enter"]),
            (r"Esc back to the list", ["text:feature/x", "enter"]),
            (r"Force-push", ["enter"]),
            (r"Review your answers", ["enter"]),
        ],
        "compare": gemini_compare,
    },
    # Esc in the dialog.
    "cancel": {
        "own_tool": "ask_user", "dialect": "ask_user",
        "prompt": "Ask me about the database, the checks, the branch and the push.",
        "arguments": GEMINI_QUESTIONS,
        "own_keys": [(r"Which database\?", ["esc"]),
                     (r"Request cancelled", ["text:go on", "enter"])],
        "inbox_keys": [(r"Which database\?", ["esc"])],
        "own_gives_nothing": True, "next_message": "go on",
        "compare": gemini_cancel_compare,
    },
}
