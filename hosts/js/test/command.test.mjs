// `npx interview-plugin` answers like the Rust command in numbered mode: the same lines on stdin give
// the same result on stdout and the same exit code.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './root.mjs';

const RUST = process.env.INTERVIEW_RUST ?? join(ROOT, 'target', 'debug', 'interview');
const DEPLOY = join(ROOT, 'examples', 'deploy.json');
const ELICITATION = join(ROOT, 'examples', 'elicitation.json');

const run = (command, args, input, env = process.env) => spawnSync(command[0], [...command.slice(1), ...args], { input, env, encoding: 'utf8', timeout: 60000 });
const npx = (args, input = '') => run(['npx', '--no-install', 'interview-plugin'], args, input);

/** The package's and the Rust command's runs on the same input: they must agree. */
function both(args, input = '') {
  const js = npx(args, input);
  const rust = run([RUST], args, input);
  assert.equal(rust.error, undefined, `the Rust command at ${RUST} must be built`);
  assert.deepEqual([js.stdout, js.status], [rust.stdout, rust.status], js.stderr);
  return js;
}

test('a batch gives the Rust command result and exit code', () => {
  // A number, a range with a typed answer, a refused number asked again, a default taken with
  // Enter, and an optional question skipped.
  const js = both(['ask', DEPLOY], '2\n1, 3-4\n40\n3\n\nskip\n\n');
  assert.equal(js.status, 0);
  const result = JSON.parse(js.stdout);
  assert.deepEqual(result.answers.map((a) => a.value), ['staging', ['Unit tests', 'Migrations dry-run', 'Load test'], 3, true, "I don't have information about this."]);
  assert.match(js.stderr, /40 is more than 10/);
});

test('quit returns the answers so far like the Rust command', () => {
  const js = both(['ask', DEPLOY], '1\n\nquit\n');
  assert.equal(js.status, 1);
  assert.deepEqual(JSON.parse(js.stdout).answers.map((a) => a.id), ['environment', 'checks']);
});

test('going back, and editing at the review', () => {
  const js = both(['ask', DEPLOY], '1\nback\n3\n\n5\ny\nnone\n1\n2\n\n');
  assert.equal(JSON.parse(js.stdout).answers[0].value, 'staging');
});

test('an elicitation declined and accepted', () => {
  assert.equal(both(['elicit', ELICITATION], 'decline\n').status, 5);
  const accepted = both(['elicit', ELICITATION], 'Ada Lovelace\nada@example.com\n2026-12-24\n\n2\n1,2\nn\n\n');
  assert.equal(accepted.status, 0);
  assert.deepEqual(JSON.parse(accepted.stdout).result, {
    action: 'accept',
    content: { name: 'Ada Lovelace', email: 'ada@example.com', date: '2026-12-24', guests: 8, room: 'hall', extras: ['projector', 'catering'], newsletter: false },
  });
});

test('no input at all means nobody is there; an empty line cancels', () => {
  assert.equal(both(['ask', DEPLOY], '\n').status, 1);
  const js = npx(['ask', DEPLOY], '');
  const rust = run([RUST], ['ask', DEPLOY], '', { ...process.env, INTERVIEW_INBOX: '/nonexistent' });
  // The same result but for why: the Rust command asks an open `interview inbox` first.
  const [ours, theirs] = [JSON.parse(js.stdout), JSON.parse(rust.stdout)];
  assert.deepEqual([js.status, rust.status], [3, 3], js.stderr);
  assert.deepEqual([ours.reason, theirs.reason], ['no-input', 'no-inbox']);
  assert.match(ours.text, /the input ended before any answer/);
  assert.match(theirs.text, /no `interview inbox` is open/);
  for (const result of [ours, theirs]) { delete result.reason; delete result.text; }
  assert.deepEqual(ours, theirs);
});

test('an invalid request and an unreadable file', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'interview-js-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"questions": [{"question": "Pick", "options": []}]}');
  const js = both(['ask', bad]);
  assert.equal(js.status, 2);
  assert.match(JSON.parse(js.stdout).error.path, /^questions\[0\]/);
  const missing = npx(['ask', join(dir, 'missing.json')]);
  assert.equal(missing.status, 2);
  assert.equal(JSON.parse(missing.stdout).status, 'invalid');
});

test('check and schema', () => {
  both(['check', DEPLOY]);
  for (const format of ['plain', 'openai', 'anthropic', 'mcp', 'gemini']) {
    const js = npx(['schema', '--format', format]);
    assert.equal(js.status, 0);
    assert.deepEqual(JSON.parse(js.stdout), JSON.parse(run([RUST], ['schema', '--format', format]).stdout));
  }
});

test('a tricky line means what the shared table says, as in the Rust command', () => {
  // The plugin reads every line, so this command, the Rust one and the Python one agree.
  const { cases } = JSON.parse(readFileSync(join(ROOT, 'tests', 'lines', 'tricky.json'), 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'interview-tricky-'));
  try {
    for (const { name, request, typed, expect } of cases) {
      const path = join(dir, 'request.json');
      writeFileSync(path, JSON.stringify(request));
      const result = JSON.parse(both(['ask', path], typed).stdout);
      for (const [field, expected] of Object.entries(expect)) {
        assert.deepEqual(result[field], expected, `${name}: ${field} of ${JSON.stringify(result)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
