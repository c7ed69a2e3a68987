// Runs the conformance suite (tests/conformance/) through the JavaScript host.

import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { call, elicit, ScriptedUi } from './host.js';

const suite = new URL('../../tests/conformance/', import.meta.url);
let passed = 0;
let failed = 0;
for (const file of readdirSync(suite).filter((f) => f.endsWith('.json')).sort()) {
  const name = file.replace(/\.json$/, '');
  const kase = JSON.parse(readFileSync(new URL(file, suite), 'utf8'));
  const ui = new ScriptedUi(kase.script, kase.unavailable ?? false);
  const raw = (value) => (typeof value === 'string' ? value : JSON.stringify(value));
  const problems = [];
  let result;
  if ('elicit' in kase) {
    const { ending, reply } = elicit(raw(kase.elicit), ui, kase.requester);
    if (ending !== kase.ending) problems.push(`ended ${ending}, not ${kase.ending}`);
    result = JSON.parse(reply);
  } else {
    result = JSON.parse(call(kase.tool, raw(kase.arguments), ui, kase.skip_response));
  }
  const widgets = kase.script.map((step) => Object.keys(step)[0]);
  if (!isDeepStrictEqual(ui.asked, widgets)) problems.push(`asked ${JSON.stringify(ui.asked)}, the script answers ${JSON.stringify(widgets)}`);
  if (!isDeepStrictEqual(result, kase.result)) problems.push(`result ${JSON.stringify(result)}`);
  if (problems.length) {
    failed += 1;
    console.log(`FAIL ${name}: ${problems.join('; ')}`);
  } else {
    passed += 1;
    console.log(`ok   ${name}`);
  }
}
console.log(`javascript: ${passed} passed, ${failed} failed`);
process.exitCode = failed || !passed ? 1 : 0;
