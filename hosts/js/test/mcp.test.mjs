// The official MCP TypeScript SDK's client answers its server's elicitations through
// `elicitationHandler`: the server asks with its own schemas and validates what comes back.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { elicitationHandler } from 'interview-plugin';

const REGISTRATION = {
  type: 'object',
  properties: {
    // The SDK's client reads a form by the specification's field schemas, which have no
    // `pattern`: length limits are what a form can ask for.
    handle: { type: 'string', minLength: 3, description: 'Your handle' },
    email: { type: 'string', format: 'email', description: 'Contact email' },
    seats: { type: 'integer', minimum: 1, maximum: 9, description: 'Seats' },
    plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
  },
  required: ['handle', 'email', 'plan'],
};

/** A server whose `register` tool elicits REGISTRATION and reports what came back, and a
 * client whose person types `input` (one text per elicitation). */
async function connect(input) {
  const server = new McpServer({ name: 'beta', version: '1.0.0' });
  server.registerTool('register', { description: 'Register for the beta' }, async () => {
    const result = await server.server.elicitInput({ message: 'Register for the beta', requestedSchema: REGISTRATION });
    return { content: [{ type: 'text', text: JSON.stringify(result) }] };
  });
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, elicitationHandler({ requester: 'beta', input }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

async function register(input) {
  const client = await connect(input);
  try {
    const reply = await client.callTool({ name: 'register', arguments: {} });
    assert.ok(!reply.isError, JSON.stringify(reply));
    return JSON.parse(reply.content[0].text);
  } finally {
    await client.close();
  }
}

test('an accepted form fits the server schema, after refused answers are asked again', async () => {
  // A handle too short, an email that is not one, seats out of range.
  const result = await register(['al\nada_l\nada@\nada@example.com\n12\n2\n2\n\n']);
  assert.deepEqual(result, { action: 'accept', content: { handle: 'ada_l', email: 'ada@example.com', seats: 2, plan: 'pro' } });
});

test('declining and dismissing reach the server', async () => {
  assert.deepEqual(await register(['decline\n']), { action: 'decline' });
  assert.deepEqual(await register(['quit\n']), { action: 'cancel' });
});

test('a form the plugin cannot ask is refused with an error naming the field', async () => {
  const handler = elicitationHandler({ input: [''] });
  await assert.rejects(
    handler({ method: 'elicitation/create', params: { message: 'x', requestedSchema: { type: 'object', properties: { a: { type: 'array' } } } } }),
    (error) => error.code === -32602 && /a/.test(error.message),
  );
});
