// Ask a person the questions of a request with the JavaScript host, one answer per line:
//   npm run ask -- ../../examples/deploy.json [TOOL]
//   npm run ask -- ../../examples/elicitation.json      (an MCP elicitation/create request)
// The result JSON (for an elicitation, the reply to send back) goes to stdout; exit 0 answered,
// 1 cancelled, 2 invalid, 3 no person, 5 declined (an elicitation).

import { readFileSync } from 'node:fs';
import { call, elicit, LineUi } from './host.js';

/** An elicitation/create request, or its params, rather than a tool call's arguments. */
function isElicitation(text) {
  try {
    const request = JSON.parse(text);
    return request?.method === 'elicitation/create' || Object.hasOwn(request ?? {}, 'requestedSchema');
  } catch {
    return false;
  }
}

const [file, name = 'interview'] = process.argv.slice(2);
if (!file) {
  console.error('usage: npm run ask -- REQUEST.json [TOOL]');
  process.exit(2);
}
const text = readFileSync(file, 'utf8');
if (isElicitation(text)) {
  const { ending, reply } = elicit(text, new LineUi());
  console.log(reply);
  process.exitCode = { accepted: 0, cancelled: 1, invalid: 2, unavailable: 3, declined: 5 }[ending];
} else {
  const result = call(name, text, new LineUi());
  console.log(result);
  process.exitCode = { answered: 0, cancelled: 1, invalid: 2, unavailable: 3 }[JSON.parse(result).status];
}
