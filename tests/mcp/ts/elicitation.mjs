// The official MCP TypeScript SDK on both ends. The server is the SDK's own form-elicitation
// example (dist/esm/examples/server/elicitationFormExample.js, run unchanged over streamable
// HTTP); it validates every reply against its schema with Ajv and ajv-formats. The client's
// ElicitRequestSchema handler hands each request to `interview elicit` in numbered mode, with
// the person's lines piped in.
//
//     node tests/mcp/ts/elicitation.mjs target/debug/interview

import { spawn } from "node:child_process";
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";

const interview = resolve(process.argv[2] ?? "target/debug/interview");
const require = createRequire(import.meta.url);
const example = join(
  require.resolve("@modelcontextprotocol/sdk/server/mcp.js"), "..", "..", "examples", "server",
  "elicitationFormExample.js",
);

// What the person types for each elicitation, in order: every line of numbered mode, the
// review's Enter included.
const people = [
  {
    tool: "register_user",
    // A username too short, an email that isn't one and a password too short are each asked
    // again; "n" for the newsletter, Enter keeps the default role, two interests.
    lines: "al\nada\nada@\nada@example.com\nshort\nhunter2hunter2\nn\n\n2, 5\n\n",
    text: "Registration successful!\n\nUsername: ada\nEmail: ada@example.com\nNewsletter: No",
  },
  {
    tool: "create_event",
    // Step 1: a title, the optional description skipped. Step 2: a date that isn't one, then a
    // real one; a duration under the minimum, then 90.
    lines: ["Launch review\n\n\n", "2026-13-01\n2026-12-01\n14:30\n5\n90\n\n"],
    text: `Event created successfully!\n\n${JSON.stringify(
      { title: "Launch review", date: "2026-12-01", startTime: "14:30", duration: 90 }, null, 2)}`,
  },
  {
    tool: "update_shipping_address",
    // A one-letter state is refused (minLength 2); the optional phone is left out.
    lines: "Ada Lovelace\n12 St James's Square\nLondon\nL\nLN\nSW1Y 4JH\n\n\n",
    text: `Address updated successfully!\n\n${JSON.stringify(
      { name: "Ada Lovelace", street: "12 St James's Square", city: "London", state: "LN", zipCode: "SW1Y 4JH" },
      null, 2)}`,
  },
  {
    tool: "register_user",
    // Declined at the first field: the server hears "decline".
    lines: "decline\n",
    text: "Registration cancelled by user.",
  },
];

const scratch = mkdtempSync(join(tmpdir(), "interview-ts-sdk-"));
let pending = [];
let asked = 0;

// Runs `interview elicit` without blocking the event loop, as a real client must: the SDK
// keeps its HTTP streams alive meanwhile.
async function elicit(params) {
  const file = join(scratch, `request-${asked++}.json`);
  writeFileSync(file, JSON.stringify(params));
  const child = spawn(interview, ["elicit", "--server", "form-elicitation-example-server", file]);
  child.stdin.end(pending.shift());
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const status = await new Promise((done) => child.on("close", done));
  if (![0, 1, 5].includes(status)) {
    throw new Error(`interview elicit exited ${status}: ${stderr}`);
  }
  return ElicitResultSchema.parse(JSON.parse(stdout));
}

// A port nobody listens on: the kernel's pick, released for the example to take.
async function freePort() {
  const probe = createServer();
  await new Promise((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address();
  await new Promise((done) => probe.close(done));
  return port;
}

async function startExample() {
  const server = spawn(process.execPath, [example], {
    env: { ...process.env, PORT: String(await freePort()) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The example logs its address once it listens.
  const url = await new Promise((resolveUrl, reject) => {
    let log = "";
    server.stdout.on("data", (chunk) => {
      log += chunk;
      const found = log.match(/running on (http:\/\/\S+\/mcp)/);
      if (found) resolveUrl(found[1]);
    });
    server.on("exit", (code) => reject(new Error(`the example server exited ${code}: ${log}`)));
  });
  return { server, url };
}

const { server, url } = await startExample();
try {
  const client = new Client(
    { name: "interview-test-client", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  for (const person of people) {
    pending = [person.lines].flat();
    const reply = await client.callTool({ name: person.tool, arguments: {} });
    assert.ok(!reply.isError, `${person.tool}: ${JSON.stringify(reply)}`);
    assert.equal(reply.content[0].text, person.text, person.tool);
    assert.equal(pending.length, 0, `${person.tool} asked fewer times than expected`);
  }
  await client.close();
} finally {
  server.kill();
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`mcp typescript sdk: ${people.length} tool calls of its form example went through interview elicit and were accepted`);
