"""A fake model server on 127.0.0.1 for real agents: just enough of Anthropic's Messages API,
OpenAI's Responses API and Gemini's generateContent to make one call of the MCP tool
`interview` and read back what the agent sends as its result.

One server serves one run of one agent. The main request (the one that carries the run's
prompt and offers the interview tool) is answered with a call of that tool, with the case's
arguments; the request that carries the tool's result is recorded and answered with a final
text; every other request (titles, suggestions, classifiers, token counts) gets a short,
well-formed answer and is logged, so that a run can be read afterwards.
"""

import json
import re
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

FINAL_TEXT = "Thanks, noted."


def tool_named(names, hint="interview", own=False):
    """The offered tool that is the MCP server's tool `hint` under the agent's naming
    (`mcp__interview__interview`, `mcp_interview_interview`, `interview`, ...); with `own`,
    the agent's own tool of that name instead."""
    exact = [n for n in names if n == hint]
    if own:
        return (exact or [None])[0]
    ours = [n for n in names if re.search(r"(^|_)interview(__|_)" + re.escape(hint) + "$", n)]
    # Codex offers an MCP tool by its bare name inside the server's namespace.
    return (ours or (exact if hint == "interview" else []) or [None])[0]


class Run:
    """What one agent run is to get, and what it sent."""

    def __init__(self, marker, arguments, log_path, tool="interview", own=False):
        self.marker = marker  # a word in the prompt that marks the main request
        self.arguments = arguments  # the tool call's arguments
        # The tool to call: `interview` or another tool of the MCP server (under the agent's
        # naming of MCP tools), else the agent's own tool of that name.
        self.tool = tool
        self.own = own
        self.log_path = log_path
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.call_id = None  # the id of the tool call sent
        self.search_id = None  # the id of a ToolSearch call that loads the tool (Claude Code)
        self.called_at = None  # when the tool call was sent
        self.tool_name = None  # the name the agent knows the tool by
        self.result = None  # the tool result as the agent sent it (JSON-able)
        self.result_at = None
        self.finished = False  # the final text was sent
        self.requests = []  # one summary per request
        self.offered = []  # the tool names of the main request
        self.errors = []

    def log(self, entry):
        with self.lock:
            self.requests.append(entry)
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")
            self.changed.notify_all()

    def wait(self, predicate, timeout):
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
            return True

    def decide(self, offered, text, results, search=None):
        """What to answer a request: ("call", name), ("search", name), ("final", None) or
        ("side", None). `offered` are the tool names the request offers, `text` all its text
        (system prompt and messages), `results` the tool results it carries, by call id,
        `search` the name of the tool that loads deferred tools, when one is offered."""
        with self.changed:
            if self.call_id in results:
                if self.result is None:
                    self.result = results[self.call_id]
                    self.result_at = time.monotonic()
                    self.finished = True
                    self.changed.notify_all()
                    return ("final", None)
                return ("side", None)
            if self.marker not in text or self.call_id is not None:
                return ("side", None)
            name = tool_named(offered, self.tool, self.own)
            if name:
                self.call_id = "call_" + uuid.uuid4().hex[:20]
                self.called_at = time.monotonic()
                self.tool_name = name
                self.offered = list(offered)
                self.changed.notify_all()
                return ("call", name)
            # Claude Code and Codex defer MCP tools: the model finds one with a search tool
            # before it can call it, as a model would. (Claude Code lists the deferred names
            # in a system text; Codex does not.)
            if search and self.search_id is None:
                self.search_id = "call_" + uuid.uuid4().hex[:20]
                self.changed.notify_all()
                listed = tool_named(re.findall(r"^\s*(\S+)\s*$", text, re.M), self.tool,
                                    self.own)
                return ("search", listed)
            return ("side", None)


def _texts(value):
    """Every string inside a JSON value, joined: where to look for the run's marker."""
    out = []

    def walk(v):
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)

    walk(value)
    return "\n".join(out)


def _example(schema, depth=0):
    """A small value that fits a JSON schema (Gemini's side calls ask for JSON)."""
    if not isinstance(schema, dict) or depth > 6:
        return None
    kind = str(schema.get("type", "")).lower()
    if schema.get("enum"):
        return schema["enum"][0]
    if kind == "object" or "properties" in schema:
        return {k: _example(v, depth + 1) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return []
    if kind in ("number", "integer"):
        return 0
    if kind == "boolean":
        return False
    return "done"


# --- Anthropic Messages ---------------------------------------------------------------------

def anthropic(run, body):
    offered = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
    results = {}
    for m in body.get("messages") or []:
        content = m.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    results[block.get("tool_use_id")] = block
    text = _texts([body.get("system"), body.get("messages")])
    what, name = run.decide(offered, text, results,
                            search="ToolSearch" if "ToolSearch" in offered else None)
    if what == "call":
        blocks = [{"type": "tool_use", "id": run.call_id, "name": name, "input": run.arguments}]
    elif what == "search":
        blocks = [{"type": "tool_use", "id": run.search_id, "name": "ToolSearch",
                   "input": {"query": "select:" + name if name else "interview",
                             "max_results": 5}}]
    else:
        blocks = [{"type": "text", "text": FINAL_TEXT if what == "final" else "OK"}]
    stop = "tool_use" if blocks[0]["type"] == "tool_use" else "end_turn"
    message = {
        "id": "msg_" + uuid.uuid4().hex[:20], "type": "message", "role": "assistant",
        "model": body.get("model", "claude-fake"), "content": blocks, "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 12, "output_tokens": 8,
                  "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
    }
    if not body.get("stream"):
        return what, "application/json", [json.dumps(message)]
    events = []

    def ev(kind, data):
        data = dict(data, type=kind)
        events.append(f"event: {kind}\ndata: {json.dumps(data)}\n\n")

    start = dict(message, content=[], stop_reason=None,
                 usage=dict(message["usage"], output_tokens=1))
    ev("message_start", {"message": start})
    for i, block in enumerate(blocks):
        if block["type"] == "tool_use":
            ev("content_block_start", {"index": i, "content_block": dict(block, input={})})
            ev("content_block_delta", {"index": i, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(block["input"])}})
        else:
            ev("content_block_start", {"index": i, "content_block": {"type": "text", "text": ""}})
            ev("content_block_delta", {"index": i, "delta": {"type": "text_delta",
                                                             "text": block["text"]}})
        ev("content_block_stop", {"index": i})
    ev("message_delta", {"delta": {"stop_reason": stop, "stop_sequence": None},
                         "usage": {"output_tokens": 8}})
    ev("message_stop", {})
    return what, "text/event-stream", events


# --- OpenAI Responses -----------------------------------------------------------------------

def _openai_tools(tools):
    """(namespace, name) of every function tool offered, namespaces opened."""
    out = []
    for t in tools or []:
        if not isinstance(t, dict):
            continue
        if isinstance(t.get("tools"), list):
            for inner in t["tools"]:
                if isinstance(inner, dict) and inner.get("name"):
                    out.append((t.get("name"), inner["name"]))
        elif t.get("name"):
            out.append((None, t["name"]))
        elif isinstance(t.get("function"), dict):
            out.append((None, t["function"].get("name")))
    return out


def openai_responses(run, body):
    items = body.get("input") or []
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    # Tools a tool search loaded come back in its output item, not in `tools`.
    loaded = [t for i in items if isinstance(i, dict) and i.get("type") == "tool_search_output"
              for t in i.get("tools") or []]
    tools = _openai_tools((body.get("tools") or []) + loaded)
    search = next((t.get("type") for t in body.get("tools") or []
                   if isinstance(t, dict) and t.get("type") == "tool_search"), None)
    # A namespaced tool is offered (and called) by its namespace and its name.
    full = {(ns + ("" if ns.endswith("_") else "__") if ns else "") + name: (ns, name)
            for ns, name in tools}
    results = {}
    for item in items:
        if isinstance(item, dict) and item.get("type", "").endswith("call_output"):
            results[item.get("call_id")] = item
    text = _texts([body.get("instructions"), items])
    what, name = run.decide(list(full), text, results, search=search)
    rid = "resp_" + uuid.uuid4().hex[:20]
    if what == "call":
        ns, short = full[name]
        item = {"type": "function_call", "id": "fc_" + uuid.uuid4().hex[:20],
                "call_id": run.call_id, "name": short, "arguments": json.dumps(run.arguments),
                "status": "completed"}
        if ns:
            item["namespace"] = ns
    elif what == "search":
        item = {"type": "tool_search_call", "id": "ts_" + uuid.uuid4().hex[:20],
                "call_id": run.search_id, "execution": "client", "status": "completed",
                "arguments": {"query": "interview", "limit": 8}}
    else:
        item = {"type": "message", "id": "msg_" + uuid.uuid4().hex[:20], "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "annotations": [],
                             "text": FINAL_TEXT if what == "final" else "OK"}]}
    usage = {"input_tokens": 12, "input_tokens_details": {"cached_tokens": 0},
             "output_tokens": 8, "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": 20}
    response = {"id": rid, "object": "response", "created_at": int(time.time()),
                "status": "completed", "model": body.get("model", "fake"), "output": [item],
                "usage": usage}
    if not body.get("stream"):
        return what, "application/json", [json.dumps(response)]
    events = []
    seq = [0]

    def ev(kind, data):
        data = dict(data, type=kind, sequence_number=seq[0])
        seq[0] += 1
        events.append(f"event: {kind}\ndata: {json.dumps(data)}\n\n")

    ev("response.created", {"response": dict(response, status="in_progress", output=[])})
    if item["type"] == "message":
        ev("response.output_item.added",
           {"output_index": 0, "item": dict(item, content=[], status="in_progress")})
        ev("response.output_text.delta", {"output_index": 0, "item_id": item["id"],
                                          "content_index": 0,
                                          "delta": item["content"][0]["text"]})
    elif item["type"] == "function_call":
        ev("response.output_item.added",
           {"output_index": 0, "item": dict(item, arguments="", status="in_progress")})
    else:
        ev("response.output_item.added", {"output_index": 0, "item": item})
    ev("response.output_item.done", {"output_index": 0, "item": item})
    ev("response.completed", {"response": response})
    return what, "text/event-stream", events


# --- Gemini generateContent ------------------------------------------------------------------

def gemini(run, body, stream):
    offered = []
    for t in body.get("tools") or []:
        for d in (t or {}).get("functionDeclarations") or []:
            offered.append(d.get("name"))
    results = {}
    for c in body.get("contents") or []:
        for part in c.get("parts") or []:
            fr = part.get("functionResponse") if isinstance(part, dict) else None
            if fr:
                # Gemini matches a response to its call by id where the call had one.
                results[fr.get("id") or fr.get("name")] = fr
                if fr.get("name") == run.tool_name and run.call_id:
                    results.setdefault(run.call_id, fr)
    text = _texts([body.get("systemInstruction"), body.get("contents")])
    config = body.get("generationConfig") or {}
    what, name = run.decide(offered, text, results)
    if what == "call":
        parts = [{"functionCall": {"name": name, "args": run.arguments, "id": run.call_id}}]
    elif what == "side" and "json" in str(config.get("responseMimeType", "")):
        schema = config.get("responseJsonSchema") or config.get("responseSchema") or {}
        parts = [{"text": json.dumps(_example(schema))}]
    else:
        parts = [{"text": FINAL_TEXT if what == "final" else "OK"}]
    response = {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP",
                        "index": 0}],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 8,
                          "totalTokenCount": 20},
        "modelVersion": "gemini-fake",
        "responseId": uuid.uuid4().hex[:20],
    }
    if stream:
        return what, "text/event-stream", [f"data: {json.dumps(response)}\r\n\r\n"]
    return what, "application/json", [json.dumps(response)]


# --- the server -----------------------------------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-model/1"

    def log_message(self, *args):
        pass

    def _read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            raw = self.rfile.read(length)
        elif "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            raw = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0] or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                raw += self.rfile.read(size)
                self.rfile.readline()
        else:
            raw = b""
        encoding = (self.headers.get("Content-Encoding") or "").lower()
        if encoding == "zstd":
            raise ValueError("zstd request bodies are not supported")
        if encoding == "gzip":
            import gzip
            raw = gzip.decompress(raw)
        elif encoding == "deflate":
            import zlib
            raw = zlib.decompress(raw)
        elif encoding == "br":
            raise ValueError("brotli request bodies are not supported")
        return raw

    def _send(self, status, kind, chunks):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        if kind == "text/event-stream":
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for chunk in chunks:
                data = chunk.encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
        else:
            data = "".join(chunks).encode()
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        self.wfile.flush()

    def do_CONNECT(self):
        self.server.run.log({"method": "CONNECT", "path": self.path, "answer": "refused"})
        self._send(403, "text/plain", ["the fake model server is no proxy"])

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def do_PUT(self):
        self._handle("PUT")

    def do_DELETE(self):
        self._handle("DELETE")

    def _handle(self, method):
        run = self.server.run
        split = urlsplit(self.path)
        path = split.path
        entry = {"t": round(time.monotonic(), 3), "method": method, "path": self.path,
                 "agent": self.headers.get("User-Agent", "")}
        try:
            raw = self._read_body() if method in ("POST", "PUT") else b""
            body = json.loads(raw) if raw.strip() else {}
        except Exception as e:  # noqa: BLE001 - a body we can't read is logged, answered 400
            entry["error"] = f"unreadable body: {e}"
            run.log(entry)
            self._send(400, "application/json", [json.dumps({"error": {"message": str(e)}})])
            return
        entry["body"] = body
        answer = None
        try:
            if method == "POST" and re.search(r"/messages/count_tokens$", path):
                answer = ("side", "application/json", [json.dumps({"input_tokens": 12})])
            elif method == "POST" and re.search(r"/v1/messages$", path):
                answer = anthropic(run, body)
            elif method == "POST" and re.search(r"/responses$", path):
                answer = openai_responses(run, body)
            elif method == "POST" and ":streamGenerateContent" in path:
                answer = gemini(run, body, stream=True)
            elif method == "POST" and ":generateContent" in path:
                answer = gemini(run, body, stream=False)
            elif method == "POST" and ":countTokens" in path:
                answer = ("side", "application/json", [json.dumps({"totalTokens": 12})])
            elif method == "GET" and re.search(r"/models/?$", path):
                answer = ("side", "application/json", [json.dumps({"object": "list", "data": [], "models": []})])
        except Exception as e:  # noqa: BLE001
            entry["error"] = f"fake server failed: {e!r}"
            run.errors.append(entry["error"])
        if answer is None:
            entry["answer"] = "404"
            run.log(entry)
            self._send(404, "application/json", [json.dumps({"error": {"message": "not faked", "type": "not_found_error"}})])
            return
        entry["answer"] = answer[0]
        run.log(entry)
        self._send(200, answer[1], answer[2])


class FakeModel:
    """A server on 127.0.0.1 at a free port for one run."""

    def __init__(self, run):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.run = run
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def serve(self, run):
        """Serves another run of the agent, at the same address: its configuration stays as
        it was (run.py's retry case runs the agent twice)."""
        self.httpd.run = run

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
