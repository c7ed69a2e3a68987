// Ask a person the questions of a request with the JavaScript host, one answer per line:
//   npm run ask -- ../../examples/deploy.json [TOOL]
// The result JSON goes to stdout; exit 0 answered, 1 cancelled, 2 invalid, 3 no person.

import { readFileSync } from 'node:fs';
import { call, LineUi } from './host.js';

const [file, name = 'interview'] = process.argv.slice(2);
if (!file) {
  console.error('usage: npm run ask -- REQUEST.json [TOOL]');
  process.exit(2);
}
const result = call(name, readFileSync(file, 'utf8'), new LineUi());
console.log(result);
process.exitCode = { answered: 0, cancelled: 1, invalid: 2, unavailable: 3 }[JSON.parse(result).status];
