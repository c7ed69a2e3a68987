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
import re


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


SPECS = {}  # agent -> case name -> spec


def pair(tool, prompt, arguments, compare, own_keys, inbox_keys, **more):
    """One differential case: the call of `tool` with `arguments`, made to the agent's own tool
    and to interview's tool of that name; `own_keys` answer it in the agent's dialog and
    `inbox_keys` in the inbox; `compare` reads the two results. `more`: `own_gives_nothing`
    (the agent drops its own call) with `next_message` (what the person says next)."""
    return dict(own_tool=tool, dialect=tool, prompt=prompt, arguments=arguments,
                compare=compare, own_keys=own_keys, inbox_keys=inbox_keys, **more)


# What the person presses in the inbox, where interview's widgets are the same for every
# dialect: the steps the cases share.
INBOX_SECOND_OPTION = (r"Which database\?", ["down", "enter"])
INBOX_TWO_TICKED = (r"Which checks should", ["space", "down", "space", "enter"])
INBOX_TYPED = [(r"Which branch name", ["down", "down", "enter"]),
               (r"Esc back to the list", ["text:feature/x", "enter"])]
INBOX_SEND = (r"Review your answers", ["enter"])
INBOX_ESC = [(r"Which database\?", ["esc"])]

CLAUDE_PROMPT = "Ask me about the database, the checks, the branch and the region."
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
    # Picked, ticked, typed and passed over, in one call: a select, a multi-select,
    # "Type something." on a select, and a question left unanswered by moving on with Tab.
    "answers": pair(
        "AskUserQuestion", CLAUDE_PROMPT, CLAUDE_QUESTIONS, claude_compare,
        own_keys=[
            (r"Which database\?", ["down", "enter"]),
            (r"Which checks should", ["enter", "down", "enter", "tab"]),
            (r"Which branch name", ["down", "down", "text:feature/x", "enter"]),
            (r"Which region", ["tab"]),
            (r"Review your answers", ["enter"]),
        ],
        inbox_keys=[INBOX_SECOND_OPTION, INBOX_TWO_TICKED, *INBOX_TYPED,
                    (r"Which region", ["ctrl-s"]), INBOX_SEND]),
    # Esc in the dialog. Claude Code then ends the turn (the call is "Declined"), so the model
    # reads the result with the person's next message: the person types one.
    "cancel": pair(
        "AskUserQuestion", CLAUDE_PROMPT, CLAUDE_QUESTIONS, claude_compare,
        own_keys=[(r"Which database\?", ["esc"]),
                  (r"Declined to answer", ["text:go on", "enter"])],
        inbox_keys=INBOX_ESC),
}

GEMINI_PROMPT = "Ask me about the database, the checks, the branch and the push."
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
    if not (isinstance(output, str) and output.startswith(UNTRUSTED[0])
            and output.endswith(UNTRUSTED[1])):
        raise ValueError("interview's output is not wrapped in <untrusted_context>: %r" % output)
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
    "answers": pair(
        "ask_user", GEMINI_PROMPT, GEMINI_QUESTIONS, gemini_compare,
        own_keys=[
            (r"Which database\?", ["down", "enter"]),
            (r"Which checks should", ["enter", "down", "enter", "right"]),
            (r"Which branch name", ["down", "down", "text:feature/x", "enter"]),
            (r"Force-push", ["enter"]),
            (r"Review your answers", ["enter"]),
        ],
        inbox_keys=[INBOX_SECOND_OPTION, INBOX_TWO_TICKED, *INBOX_TYPED,
                    (r"Force-push", ["enter"]), INBOX_SEND]),
    # Esc in the dialog.
    "cancel": pair(
        "ask_user", GEMINI_PROMPT, GEMINI_QUESTIONS, gemini_cancel_compare,
        own_keys=[(r"Which database\?", ["esc"]),
                  (r"Request cancelled", ["text:go on", "enter"])],
        inbox_keys=INBOX_ESC,
        own_gives_nothing=True, next_message="go on"),
}

CODEX_PROMPT = "Ask me about the database, the branch and the region."
CODEX_QUESTIONS = {"questions": [
    {"id": "database", "header": "Database", "question": "Which database?", "isOther": True,
     "options": [{"label": "Postgres", "description": "A server"},
                 {"label": "SQLite", "description": "A file"}]},
    {"id": "branch", "header": "Branch", "question": "Which branch name?", "isOther": True,
     "options": [{"label": "main", "description": "The default"},
                 {"label": "develop", "description": "The next release"}]},
    {"id": "region", "header": "Region", "question": "Which region?", "isOther": True,
     "options": [{"label": "eu-west", "description": "Ireland"},
                 {"label": "us-east", "description": "Virginia"}]},
]}


WALL_TIME = re.compile(r"Wall time: [0-9.]+ seconds\nOutput:\n")


def codex_compare(own, ours):
    """Codex sends the model a function_call_output: its own tool's `output` is the
    serialized `RequestUserInputResponse` (whose `answers` is a map: keys come in any order,
    so both sides are compared as JSON values); an MCP tool's is its result's
    `structuredContent` as JSON after a line `Wall time: <s> seconds` and a line `Output:`
    (the strings in Codex's binary), so the model reads interview's whole result JSON, whose
    `text` is the dialect's reply. Taken away: that header (it must be there) and the general
    fields beside `text`; `native`, the same reply as a value where there is one, must agree
    with `text`."""
    output = ours["output"]
    header = WALL_TIME.match(output)
    if not header:
        raise ValueError("interview's output has no Wall time header: %r" % output[:200])
    mine = json.loads(output[header.end():])
    try:
        said = json.loads(mine["text"])
    except ValueError:
        said = mine["text"]  # words, not JSON (a dismissal)
    if mine.get("native") is not None and mine["native"] != said:
        said = {"text": said, "native": mine["native"]}
    return json.loads(own["output"]), said


CODEX_CANCELLED = "request_user_input was cancelled before receiving a response"


def codex_cancel_compare(own, ours):
    """Esc in Codex's dialog interrupts the whole turn: every call in flight, whatever its tool,
    gets the output `aborted by user after <s>s`, which the model reads with the person's next
    message. An MCP tool cannot interrupt the turn, so interview's `request_user_input` answers
    with the words Codex's tool handler gives a request dismissed without a response. Stated,
    not hidden: own must be the abort and interview exactly those words."""
    aborted = re.fullmatch(r"aborted by user after [0-9.]+m?s", own["output"])
    _, said = codex_compare({"output": "null"}, ours)
    return ("aborted" if aborted else own["output"],
            "aborted" if said == CODEX_CANCELLED else said)


SPECS["codex"] = {
    # A pick, "None of the above" with the person's own words in its notes, and a pick with a
    # note, in one call.
    "answers": pair(
        "request_user_input", CODEX_PROMPT, CODEX_QUESTIONS, codex_compare,
        own_keys=[
            (r"Which database\?", ["down", "enter"]),
            (r"Which branch name", ["down", "down", "tab", "text:feature/x", "enter"]),
            (r"Which region", ["tab", "text:only EU data", "enter"]),
        ],
        inbox_keys=[INBOX_SECOND_OPTION, *INBOX_TYPED,
                    (r"Which region", ["tab", "text:only EU data", "enter"]), INBOX_SEND]),
    # Questions passed over with the right arrow, the last one answered: Codex sends the
    # answers with the others empty.
    "skip": pair(
        "request_user_input", CODEX_PROMPT, CODEX_QUESTIONS, codex_compare,
        own_keys=[
            (r"Which database\?", ["right"]),
            (r"Which branch name", ["right"]),
            (r"Which region", ["enter"]),
            (r"Submit with unanswered questions", ["enter"]),
        ],
        inbox_keys=[(r"Which database\?", ["ctrl-s"]), (r"Which branch name", ["ctrl-s"]),
                    (r"Which region", ["enter"]), INBOX_SEND]),
    # Esc in the dialog. Codex then interrupts the turn, and the model reads the call's
    # output with the person's next message: the person types one.
    "cancel": pair(
        "request_user_input", CODEX_PROMPT, CODEX_QUESTIONS, codex_cancel_compare,
        own_keys=[(r"Which database\?", ["esc"]),
                  (r"Conversation interrupted", ["text:go on", "enter"])],
        inbox_keys=INBOX_ESC),
}

OPENCODE_PROMPT = "Ask me about the database, the checks and the branch."
OPENCODE_QUESTIONS = {"questions": [
    {"question": "Which database?", "header": "Database",
     "options": [{"label": "Postgres", "description": "A server"},
                 {"label": "SQLite", "description": "A file"}]},
    {"question": "Which checks should run first?", "header": "Checks", "multiple": True,
     "options": [{"label": "Unit tests", "description": "Fast"},
                 {"label": "Lint", "description": "Style"},
                 {"label": "Migrations dry-run", "description": "Slow"}]},
    {"question": "Which branch name?", "header": "Branch",
     "options": [{"label": "main", "description": "The default"},
                 {"label": "develop", "description": "The next release"}]},
]}


OPENCODE_DISMISSED = "The user dismissed this question"


def opencode_compare(own, ours):
    """opencode gives the model an MCP tool's text content as the tool_result's content, as
    it is; its own tool's is its words. Taken away: the call id and the cache mark. The
    content is compared, and whether it is an error: opencode rejects its own call when the
    person dismisses the dialog (an error with its dismissal words), while interview returns
    a dismissal as a result (status `cancelled`, the same words), since an MCP tool error says
    the call failed; for those words the pairing is checked as it is."""
    mine = {"content": text_of(ours), "is_error": bool(ours.get("is_error"))}
    if mine == {"content": OPENCODE_DISMISSED, "is_error": False}:
        mine["is_error"] = True
    return {"content": text_of(own), "is_error": bool(own.get("is_error"))}, mine


SPECS["opencode"] = {
    # A select, a multi-select and "Type your own answer", in one call.
    "answers": pair(
        "question", OPENCODE_PROMPT, OPENCODE_QUESTIONS, opencode_compare,
        own_keys=[(r"Which database\?", ["down", "enter"]),
                  (r"Which checks should", ["enter", "down", "enter", "tab"]),
                  (r"Which branch name", ["down", "down", "enter"]),
                  (r"Which branch name", ["text:feature/x", "enter"]),
                  (r"enter submit", ["enter"])],
        inbox_keys=[INBOX_SECOND_OPTION, INBOX_TWO_TICKED, *INBOX_TYPED, INBOX_SEND]),
    # Esc ("dismiss") in the dialog is not a case: opencode 1.18.33 gives the model the
    # rejection only with the person's next message, and that message, typed while the TUI
    # still winds the rejected call down, was at times never sent on (a run under load waited
    # 80 s for it), which would make this case fail for opencode's timing, not for interview.
}
