// The official MCP TypeScript SDK's client against the team inbox's own MCP endpoint (`/mcp` of
// `interview inbox serve`), over Streamable HTTP with an agent's token, as a hosted agent would
// reach it: the call is asked on the team inbox, a person answers it there (through the HTTP API,
// as the page does), and the client gets exactly that answer. A call the client aborts is
// withdrawn from the team's list (notifications/cancelled).
//
//     node tests/mcp/ts/client_remote.mjs target/debug/interview

import { resolve, join } from "node:path";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const interview = resolve(process.argv[2] ?? "target/debug/interview");
const place = mkdtempSync(join(tmpdir(), "interview-remote-"));
const db = join(place, "team.sqlite3");
const token = (...who) =>
  execFileSync(interview, ["inbox", "token", "add", "--db", db, ...who], { encoding: "utf8" }).trim();
const agent = token("--agent", "ci");
const ann = token("--person", "ann");

const server = spawn(interview, ["inbox", "serve", "--db", db, "--listen", "127.0.0.1:0"], {
  stdio: ["ignore", "ignore", "pipe"],
});
const said = await new Promise((done) => createInterface({ input: server.stderr }).once("line", done));
const url = said.split(" on ")[1].trim().replace(/\/$/, "");

async function api(path, body) {
  const response = await fetch(`${url}${path}`, {
    method: body ? "POST" : "GET",
    headers: { authorization: `Bearer ${ann}`, "content-type": "application/json" },
    body: body && JSON.stringify(body),
  });
  return [response.status, await response.json()];
}

async function openQuestions() {
  const [status, listed] = await api("/api/questions");
  assert.equal(status, 200, JSON.stringify(listed));
  return listed.questions;
}

async function openQuestion() {
  for (let tries = 0; tries < 300; tries++) {
    const questions = await openQuestions();
    if (questions.length) return questions[0];
    await new Promise((wait) => setTimeout(wait, 100));
  }
  throw new Error("no question came to the team inbox");
}

try {
  const client = new Client({ name: "remote-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${agent}` } },
  });
  await client.connect(transport);

  const question = { question: "Ship the hotfix?", type: "confirm" };
  const call = client.callTool({ name: "interview", arguments: question });
  const asked = await openQuestion();
  assert.equal(asked.frame.prompt, "Ship the hotfix?");
  assert.equal(asked.from.client, "remote-test 1.0.0");
  const path = `/api/questions/${asked.question}/steps/${asked.seq}/reply`;
  const [status, body] = await api(path, { answered: false });
  assert.equal(status, 200, JSON.stringify(body));
  const result = await call;
  assert.equal(result.structuredContent.status, "answered", JSON.stringify(result));
  assert.equal(result.structuredContent.answer, false, JSON.stringify(result));
  console.log("answered through /mcp:", result.content[0].text);

  // Aborted by the client: withdrawn, and the person is not left answering it.
  const abort = new AbortController();
  const aborted = client.callTool({ name: "interview", arguments: question }, undefined, {
    signal: abort.signal,
  });
  await openQuestion();
  abort.abort();
  await assert.rejects(aborted);
  for (let tries = 0; tries < 100 && (await openQuestions()).length; tries++) {
    await new Promise((wait) => setTimeout(wait, 100));
  }
  assert.deepEqual(await openQuestions(), [], "the aborted call's question is still open");
  console.log("an aborted call is withdrawn from the team's list");
  await client.close();
} finally {
  server.kill();
  rmSync(place, { recursive: true, force: true });
}
