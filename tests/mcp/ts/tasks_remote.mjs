// The MCP Tasks extension (`io.modelcontextprotocol/tasks`, protocol 2026-07-28) on the team
// inbox's own MCP endpoint (`/mcp` of `interview inbox serve`), driven by the official requester
// library (@modelcontextprotocol/ext-tasks over @modelcontextprotocol/client), with an agent's
// token, as a hosted agent that cannot hold a request open for a person would reach it:
//
// - a call is answered at once with a task (not with its result), its question is asked on the
//   team inbox, a person answers it there (through the HTTP API, as the page does), and the task
//   completes with exactly that answer;
// - another agent can neither read nor cancel that agent's tasks: to it they are no tasks at all;
// - a task the client cancels (tasks/cancel) withdraws its question from the team's list.
//
//     cd tests/mcp/ts && node tasks_remote.mjs ../../../target/debug/interview
//
// MCP_WIRE=1 prints every HTTP exchange on /mcp to stderr (tokens left out).

import { resolve } from "node:path";
import assert from "node:assert/strict";

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  JsonRpcResponseError,
} from "@modelcontextprotocol/ext-tasks/client";

import { startTeam, person } from "./team.mjs";

const PROTOCOL = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";

const interview = resolve(process.argv[2] ?? "target/debug/interview");
const { url, tokens, stop } = await startTeam(interview, {
  agent: ["--agent", "ci"],
  otherAgent: ["--agent", "other"],
  ann: ["--person", "ann"],
});
const { agent, otherAgent } = tokens;
const { api, openQuestions, openQuestion } = person(url, tokens.ann);

// Whatever way this ends (an uncaught rejection included), the server and its folder go with it.
process.on("exit", stop);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(1));
// A step that hangs (a cancel never acknowledged, a poll never answered) fails the test too.
setTimeout(() => {
  console.error("tasks_remote.mjs: FAILED: not done within 2 minutes");
  process.exit(1);
}, 120_000).unref();
const sleep = (ms) => new Promise((wait) => setTimeout(wait, ms));

/** What `promise` gives within `ms`, or `undefined` if it has not settled by then. */
async function within(ms, promise) {
  let timer;
  const late = new Promise((done) => (timer = setTimeout(done, ms, undefined)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

// MCP_WIRE=1: the exchanges on /mcp as they are on the wire, for reading what the library sends.
const wire = process.env.MCP_WIRE === "1";
const started = Date.now();
const at = () => `${String(Date.now() - started).padStart(6)} ms`;
const cut = (text) => (text.length > 1000 ? `${text.slice(0, 1000)}... (${text.length} characters)` : text);
async function loggedFetch(input, init = {}) {
  const headers = new Headers(init.headers);
  const shown = [...headers].filter(([name]) => name !== "authorization");
  console.error(`${at()} --> ${init.method ?? "GET"} ${new URL(input).pathname} ${JSON.stringify(Object.fromEntries(shown))}`);
  if (init.body) console.error(`    ${cut(init.body)}`);
  const response = await fetch(input, init);
  const kind = response.headers.get("content-type");
  // A clone, read in the background: the transport reads the response (a stream, for SSE) itself.
  response.clone().text().then(
    (text) => console.error(`${at()} <-- ${response.status} ${kind ?? ""} (to ${headers.get("mcp-method") ?? "?"})\n    ${cut(text.trim())}`),
    () => {},
  );
  return response;
}

/**
 * The library's "rawDispatch": the host's own request path, which the Tasks session uses for the
 * requests whose answers the SDK Client would refuse (a `tools/call` answered with
 * `resultType: "task"`, and `tasks/*`). It sends them on the client's own transport, so they
 * carry its token and the headers the transport derives from the body (MCP-Protocol-Version,
 * Mcp-Method, Mcp-Name), and takes their answers (by id) before the Client would see them.
 * The library's abort signal closes the request's stream; its per-request timeout is not kept
 * here (the watchdog above bounds the whole test).
 */
function rawDispatcher(transport) {
  const waiting = new Map();
  let last = 0;
  const clientsOwn = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const answered = "id" in message && !("method" in message) ? waiting.get(message.id) : undefined;
    if (!answered) return clientsOwn?.(message, extra);
    waiting.delete(message.id);
    answered(message.error ? { kind: "error", error: message.error } : { kind: "result", result: message.result });
  };
  return (request, { signal, context } = {}) =>
    new Promise((answer, fail) => {
      const id = `tasks-${++last}`;
      const abort = () => {
        waiting.delete(id);
        fail(signal.reason ?? new Error("aborted"));
      };
      if (signal?.aborted) return abort();
      signal?.addEventListener("abort", abort, { once: true });
      waiting.set(id, (response) => {
        signal?.removeEventListener("abort", abort);
        answer(response);
      });
      transport
        .send({ jsonrpc: "2.0", id, ...request }, { headers: context?.headers, requestSignal: signal })
        .catch((error) => {
          waiting.delete(id);
          fail(error);
        });
    });
}

/** An agent's client on /mcp at protocol 2026-07-28, and its Tasks session. */
async function connect(bearer, name) {
  const clientInfo = { name, version: "1.0.0" };
  const clientCapabilities = {};
  // Pinned, not "auto": a server that did not speak 2026-07-28 would fail here, loudly.
  const client = new Client(clientInfo, {
    capabilities: clientCapabilities,
    versionNegotiation: { mode: { pin: PROTOCOL } },
  });
  // The URL allows calls to run as tasks (they do not by default: see docs/team-inbox.md).
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp?tasks=yes`), {
    requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    ...(wire ? { fetch: loggedFetch } : {}),
  });
  await client.connect(transport);
  assert.equal(client.getNegotiatedProtocolVersion(), PROTOCOL);
  // With rawDispatch, the same framing the Client puts on its own requests (protocol version,
  // client info and capabilities in `_meta`): the library adds the tasks extension to the
  // capabilities of each tools/call and tasks/* it sends.
  const session = createTaskSessionFromClient(client, {
    endpointId: `${url}/mcp?tasks=yes`,
    rawDispatch: rawDispatcher(transport),
    v2RequestFraming: { protocolVersion: PROTOCOL, clientInfo, clientCapabilities },
  });
  return { client, session };
}

/** The JSON-RPC error `promise` is refused with; anything else (an answer included) fails. */
async function refusal(promise, what) {
  let answered;
  try {
    answered = await promise;
  } catch (error) {
    if (error instanceof JsonRpcResponseError) return error;
    throw new Error(`${what}: refused, but not with a JSON-RPC error: ${error?.stack ?? error}`);
  }
  assert.fail(`${what} was allowed: ${JSON.stringify(answered)}`);
}

/** Asks `arguments_` as a task, and gives the task's execution once its question is up. */
async function askAsTask({ client, session }, arguments_) {
  const calling = session.callTool("interview", arguments_);
  calling.catch(() => {}); // a failure is reported where it is awaited
  const asked = await openQuestion(arguments_.question);
  // The point of a task: tools/call comes back while the question still waits for a person.
  // A server that answers the call itself (no task) holds it until the person answers, and so
  // fails here rather than passing as well.
  const execution = await within(10_000, calling);
  const advertised = client.getServerCapabilities()?.extensions?.[TASKS] !== undefined;
  assert.ok(
    execution !== undefined,
    `no task was materialized: tools/call did not come back within 10 s while its question waited ` +
      `for a person (the server holds the call until the answer, as without the Tasks extension); ` +
      `server/discover ${advertised ? "advertises" : "does not advertise"} ${TASKS}`,
  );
  assert.equal(execution.kind, "task", `no task was materialized: the server answered tools/call at once, itself`);
  assert.ok(execution.handle.taskId, "a task without an id");
  return { execution, asked, taskId: execution.handle.taskId };
}

try {
  const ci = await connect(agent, "tasks-test");

  // 1. Answered: the call is a task, its question is on the team inbox, a person answers it,
  // and the task's result is exactly that answer.
  const deploy = {
    question: "Deploy to which environment?",
    options: [
      { label: "Staging", value: "staging" },
      { label: "Production", value: "production" },
    ],
    other: false,
  };
  const first = await askAsTask(ci, deploy);
  assert.equal(first.asked.kind, "select");
  assert.equal(first.asked.from.client, "tasks-test 1.0.0");
  // While the person has not answered, the task's owner sees it working.
  const waiting = await ci.session.task(first.taskId).snapshot();
  assert.equal(waiting.status, "working", JSON.stringify(waiting.raw));
  console.log(`a task for the call: ${first.taskId} (${waiting.status}, poll every ${waiting.suggestedPollIntervalMs ?? "-"} ms)`);

  const picked = first.asked.request.options.findIndex((option) => option.label === "Production");
  const path = `/api/questions/${first.asked.question}/steps/${first.asked.seq}/reply`;
  const [status, body] = await api(path, { picked });
  assert.equal(status, 200, JSON.stringify(body));
  const seen = [];
  const settled = await within(30_000, first.execution.settle({ onEvent: (event) => seen.push(event) }));
  assert.ok(settled, "the answered task did not settle within 30 s");
  const { outcome, lastTask } = settled;
  assert.equal(outcome.status, "completed", JSON.stringify(outcome));
  assert.equal(lastTask?.taskId, first.taskId);
  assert.equal(lastTask.status, "completed");
  const result = resultFromTaskOutcome(outcome);
  assert.equal(result.isError, false, JSON.stringify(result));
  assert.equal(result.structuredContent.status, "answered", JSON.stringify(result));
  assert.equal(result.structuredContent.answer, "production", JSON.stringify(result));
  assert.equal(result.structuredContent.answers[0].value, "production", JSON.stringify(result));
  const statuses = seen.filter((event) => event.type === "task").map((event) => event.task.status);
  console.log(`answered through the task (${statuses.join(" -> ")}): ${result.content[0].text}`);

  // 2. Another agent, with its own token and client, on a task of this agent's that is still
  // waiting. To it another's task must look like no task at all: refused as an id never given
  // is, so that it cannot even learn that the id exists. And its cancel changes nothing.
  const rollback = { question: "Roll back the release?", type: "confirm" };
  const second = await askAsTask(ci, rollback);
  const other = await connect(otherAgent, "other-agent");
  const unknown = await refusal(other.session.task("no-such-task").snapshot(), "tasks/get of an unknown task id");
  for (const [what, attempt] of [
    ["tasks/get of another agent's completed task", () => other.session.task(first.taskId).snapshot()],
    ["tasks/get of another agent's waiting task", () => other.session.task(second.taskId).snapshot()],
    ["tasks/cancel of another agent's waiting task", () => other.session.task(second.taskId).cancel()],
  ]) {
    const error = await refusal(attempt(), what);
    assert.equal(error.code, unknown.code, `${what}: refused (${error.code} ${error.message}), but not as an unknown task is (${unknown.code} ${unknown.message})`);
  }
  // Refused for being another's, not for being gone: the owner still reads both, and the
  // waiting one's question is still up.
  assert.equal((await ci.session.task(first.taskId).snapshot()).status, "completed");
  assert.equal((await ci.session.task(second.taskId).snapshot()).status, "working");
  assert.ok((await openQuestions()).some((question) => question.question === second.asked.question),
    "another agent's tasks/cancel withdrew the question");
  console.log(`another agent's tasks/get and tasks/cancel are refused as for an unknown task (${unknown.code} ${unknown.message})`);

  // 3. Cancelled by its client (tasks/cancel): the question is withdrawn from the team's list,
  // so that the person is not left answering it.
  // The library ends the execution on the server's acknowledgement (cancelling is cooperative:
  // it does not wait for the task to say `cancelled`).
  await second.execution.cancel();
  const cancelled = await second.execution.result();
  assert.equal(cancelled.status, "cancelled", JSON.stringify(cancelled));
  for (let tries = 0; tries < 50; tries++) {
    if (!(await openQuestions()).some((question) => question.question === second.asked.question)) break;
    await sleep(100);
  }
  assert.ok(!(await openQuestions()).some((question) => question.question === second.asked.question),
    "the cancelled task's question is still open 5 s after tasks/cancel");
  const after = await ci.session.task(second.taskId).snapshot();
  console.log(`a cancelled task's question is withdrawn from the team's list (the task is now ${after.status})`);

  await other.session.close();
  await other.client.close();
  await ci.session.close();
  await ci.client.close();
} catch (error) {
  console.error(`tasks_remote.mjs: FAILED: ${error?.stack ?? error}`);
  process.exit(1);
}
console.log("tasks_remote.mjs: passed");
// Not waiting for the library's timers: the exit handler stops the server and removes its folder.
process.exit(0);
