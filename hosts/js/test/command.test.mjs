// `npx interview-plugin` answers like the Rust command in numbered mode: the same lines on stdin give
// the same result on stdout and the same exit code.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from './root.mjs';

// The package's own modules, which its exports leave out: the Rust command's constants as
// generated into it, and the command's escaping of what it prints.
const PACKAGE = dirname(createRequire(import.meta.url).resolve('interview-plugin'));
const { ESCAPED } = await import(pathToFileURL(join(PACKAGE, 'contract.js')));
const { escapeInvisible } = await import(pathToFileURL(join(PACKAGE, 'escape.js')));

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

// Every code point a printed result has escaped (the Rust command's table, generated into the
// package), and some that it has not: those just outside each range, and others the text of a
// result often holds.
const ESCAPED_CODE_POINTS = ESCAPED.flatMap(([start, end]) => Array.from({ length: end - start + 1 }, (_, i) => start + i));
const isEscaped = (c) => ESCAPED.some(([start, end]) => c >= start && c <= end);
const KEPT = [...ESCAPED.flatMap(([start, end]) => [start - 1, end + 1]), ...[...' ~é€中😀\u{10000}'].map((c) => c.codePointAt(0))]
  .filter((c) => !isEscaped(c));

/** `c` as JSON writes it in \uXXXX: lower-case hex, beyond the Basic Multilingual Plane its
 * UTF-16 surrogate pair (reckoned here, not read off the string). */
function jsonEscape(c) {
  const units = c < 0x10000 ? [c] : [0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 0x3ff)];
  return units.map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`).join('');
}

test('every escaped code point is printed as JSON escapes it, astral ones as surrogate pairs', () => {
  const everything = JSON.stringify(String.fromCodePoint(...ESCAPED_CODE_POINTS));
  const escaped = escapeInvisible(everything);
  assert.equal(escaped, `"${ESCAPED_CODE_POINTS.map(jsonEscape).join('')}"`);
  assert.equal(JSON.parse(escaped), JSON.parse(everything), 'the JSON means the same');
  // Among them those the command's hand-written copy once missed: a combining grapheme joiner,
  // a variation selector, a tag.
  assert.equal(escapeInvisible('"\u034f\ufe0f\u{e0041}"'), '"\\u034f\\ufe0f\\udb40\\udc41"');
});

test('other code points are printed as they are', () => {
  const kept = JSON.stringify(String.fromCodePoint(...KEPT));
  assert.equal(escapeInvisible(kept), kept);
});

test('a result with each escaped range prints as the Rust command\'s', (t) => {
  // The first, a middle and the last code point of each range, in the question and an option:
  // the plugin escapes its own JSON, and the command's pass must leave the same text.
  const sample = String.fromCodePoint(...ESCAPED.flatMap(([start, end]) => [...new Set([start, Math.floor((start + end) / 2), end])]));
  const label = `x\u034f\ufe0f\u{e0041}${sample}y`;
  const dir = mkdtempSync(join(tmpdir(), 'interview-js-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'invisible.json');
  writeFileSync(path, JSON.stringify({ question: `Which${sample}?`, options: [label, 'plain'] }));
  const js = both(['ask', path], '1\n');
  assert.equal(js.status, 0, js.stderr);
  assert.match(js.stdout, /^[\x20-\x7e]*\n$/, 'no escaped character printed as itself');
  assert.ok(js.stdout.includes('x\\u034f\\ufe0f\\udb40\\udc41'), js.stdout);
  assert.equal(JSON.parse(js.stdout).answer, label);
});
