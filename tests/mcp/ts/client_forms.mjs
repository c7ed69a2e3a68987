// The official MCP TypeScript SDK's client against `interview mcp` over stdio, with an
// ElicitRequestSchema handler: the call is asked as one form, which the SDK checks against its
// own elicitation request schema (and Ajv here, the content against the form), and the tool's
// answers are what the handler sent.
//
//     node tests/mcp/ts/client_forms.mjs target/debug/interview

import { resolve } from "node:path";
import assert from "node:assert/strict";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import Ajv from "ajv";

const interview = resolve(process.argv[2] ?? "target/debug/interview");

const client = new Client(
  { name: "interview-forms-test", version: "1.0.0" },
  { capabilities: { elicitation: { form: {} } } },
);
const forms = [];
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  forms.push(request.params);
  const { properties } = request.params.requestedSchema;
  const cache = properties.cache.oneOf.find((entry) => entry.title.startsWith("Redis"));
  const content = { cache: cache.const, size: 256, why: "hot keys" };
  const fits = new Ajv({ strict: false }).compile(request.params.requestedSchema);
  assert.ok(fits(content), JSON.stringify(fits.errors));
  return { action: "accept", content };
});

await client.connect(new StdioClientTransport({ command: interview, args: ["mcp"] }));
const result = await client.callTool({
  name: "interview",
  arguments: {
    questions: [
      { id: "cache", header: "Cache", question: "Which cache?", allow_other: false,
        options: [{ label: "Redis", value: "redis", recommended: true }, { label: "Memcached" }] },
      { id: "size", question: "Size in MB?", type: "integer", min: 64, max: 1024 },
      { id: "why", question: "Why?", required: false },
    ],
  },
});
await client.close();

assert.equal(forms.length, 1);
assert.equal(forms[0].mode, "form");
assert.deepEqual(forms[0].requestedSchema.required, ["cache", "size"]);
assert.equal(result.isError, false);
assert.equal(result.structuredContent.status, "answered");
const values = Object.fromEntries(result.structuredContent.answers.map((a) => [a.id, a.value]));
assert.deepEqual(values, { cache: "redis", size: 256, why: "hot keys" });
assert.equal(result.content[0].text, result.structuredContent.text);
console.log(`TypeScript SDK client: one form, answers ${JSON.stringify(values)}`);
