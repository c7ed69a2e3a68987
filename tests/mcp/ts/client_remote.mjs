// The official MCP TypeScript SDK's client against the team inbox's own MCP endpoint (`/mcp` of
// `interview inbox serve`), over Streamable HTTP with an agent's token, as a hosted agent would
// reach it: the call is asked on the team inbox, a person answers it there (through the HTTP API,
// as the page does), and the client gets exactly that answer. A call the client aborts is
// withdrawn from the team's list (notifications/cancelled).
//
//     node tests/mcp/ts/client_remote.mjs target/debug/interview

import { resolve } from "node:path";
import assert from "node:assert/strict";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

import { startTeam, person } from "./team.mjs";

const interview = resolve(process.argv[2] ?? "target/debug/interview");
const { url, tokens, stop } = await startTeam(interview, {
  agent: ["--agent", "ci"],
  ann: ["--person", "ann"],
});
const agent = tokens.agent;
const { api, openQuestions, openQuestion } = person(url, tokens.ann);

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
  stop();
}
