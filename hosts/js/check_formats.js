// Ajv's verdict (with ajv-formats, full mode) on candidate values of each string format.
// Reads {"email": ["...", ...], "uri": [...], ...} on stdin and prints the same shape with
// true/false for each value: the validator JavaScript MCP servers check elicitation results with.
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const ajv = new Ajv();
addFormats(ajv);
const candidates = JSON.parse(readFileSync(0, 'utf8'));
const verdicts = {};
for (const [format, values] of Object.entries(candidates)) {
  const validate = ajv.compile({ type: 'string', format });
  verdicts[format] = values.map((value) => validate(value));
}
process.stdout.write(JSON.stringify(verdicts));
