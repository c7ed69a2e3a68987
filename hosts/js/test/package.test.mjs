// How the installed package is reached: from CommonJS, from ES modules, by a bundler building
// for browsers (the `browser` condition), and as a command named apart from the Rust `interview`.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as esm from 'interview-plugin';

const require = createRequire(join(process.cwd(), 'package.json'));
const CONFIRM = { question: 'Ship it?', type: 'confirm' };

test('require() gives a loader that resolves to the exports import gives', async () => {
  const { load } = require('interview-plugin');
  const loaded = await load();
  assert.equal(loaded.call, esm.call);
  assert.equal(await load(), loaded, 'loaded once');
  const result = JSON.parse(loaded.call('interview', CONFIRM, new loaded.ScriptedUi([{ tag: 'answered', val: true }])));
  assert.equal(result.status, 'answered');
  assert.equal(result.text, 'User answered: yes');
});

test('a program given on the command line as an ES module runs the plugin in its threads', () => {
  const program = `import { call, ScriptedUi } from 'interview-plugin';
    const result = call('interview', ${JSON.stringify(JSON.stringify(CONFIRM))}, new ScriptedUi([{ tag: 'answered', val: true }]));
    console.log(result.status, result.json);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8', timeout: 30000 });
  assert.equal(run.status, 0, run.stderr);
  const [status, json] = [run.stdout.slice(0, run.stdout.indexOf(' ')), run.stdout.slice(run.stdout.indexOf(' ') + 1)];
  assert.equal(status, 'answered', 'the status the plugin gave beside the JSON');
  assert.equal(JSON.parse(json).status, 'answered');
});

test('the browser condition resolves to a build that reaches no Node.js module', () => {
  const resolve = (conditions) => spawnSync(process.execPath, [...conditions, '--input-type=module', '-e',
    "console.log(import.meta.resolve('interview-plugin'))"], { encoding: 'utf8' }).stdout.trim();
  const browser = resolve(['--conditions=browser']);
  assert.match(browser, /\/interview-plugin\/browser\.js$/);
  assert.match(resolve([]), /\/interview-plugin\/index\.js$/);
  // Every file the browser build loads, by import or as a worker: none names a node: module.
  const seen = new Set();
  const visit = (url) => {
    if (seen.has(url.href)) return;
    seen.add(url.href);
    const source = readFileSync(fileURLToPath(url), 'utf8');
    assert.doesNotMatch(source, /['"]node:|\brequire\(|\bprocess\.|\bBuffer\b/, url.href);
    for (const [, path] of source.matchAll(/['"](\.\.?\/[^'"]+\.js)['"]/g)) visit(new URL(path, url));
  };
  visit(new URL(browser));
  assert.deepEqual([...seen].map((u) => u.split('/interview-plugin/')[1]).sort(),
    ['api.js', 'browser-worker.js', 'browser.js', 'contract.js', 'generated/interview.js', 'shared.js']);
});

test('the command is interview-plugin: installing the package never shadows the Rust interview', () => {
  const bin = join(process.cwd(), 'node_modules', '.bin');
  assert.ok(existsSync(join(bin, 'interview-plugin')));
  assert.ok(!existsSync(join(bin, 'interview')));
});
