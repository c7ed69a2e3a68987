// The line mode: the plugin draws the numbered lists and reads every line through `write` and
// `readLine`; LineUi only writes its text and reads lines (tones, the end of input, a line too
// long, no echo for a secret), and a replay after a failure shows nothing twice.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { LIMITS, LineUi, PluginError, call } from 'interview-plugin';
import { ROOT } from './root.mjs';

const RUST = process.env.INTERVIEW_RUST ?? join(ROOT, 'target', 'debug', 'interview');
const DEPLOY = join(ROOT, 'examples', 'deploy.json');
const CLI = join(dirname(createRequire(import.meta.url).resolve('interview-plugin')), 'cli.js');

/** A LineUi on `input`, and what it wrote. */
function lines(input, options = {}) {
  const screen = [];
  const ui = new LineUi({ input, output: { write: (text) => screen.push(text) }, ...options });
  return { ui, shown: () => screen.join('') };
}

test('tones become attributes only with colour, and never span a line break', () => {
  const spans = [
    { text: '\nQuestion 1 of 2\n', tone: 'faint' },
    { text: 'Deploy?', tone: 'strong' },
    { text: '\n> ', tone: 'plain' },
  ];
  const coloured = lines('', { colour: true });
  coloured.ui.write(spans);
  assert.equal(coloured.shown(), '\n\x1b[2mQuestion 1 of 2\x1b[0m\n\x1b[1mDeploy?\x1b[0m\n> ');
  const plain = lines('');
  plain.ui.write(spans);
  assert.equal(plain.shown(), '\nQuestion 1 of 2\nDeploy?\n> ');
});

test('input that ends at once is nobody; once the input ends, nothing more is read', () => {
  const { ui } = lines('');
  assert.deepEqual(ui.mode(), { tag: 'unavailable', val: 'no-input' });
  assert.deepEqual(ui.mode(), { tag: 'unavailable', val: 'no-input' }, 'asked again, the same');

  const ended = lines('1\r\r\n2');
  assert.deepEqual(ended.ui.mode(), { tag: 'lines' });
  assert.deepEqual(ended.ui.readLine(false), { tag: 'line', val: '1' });
  assert.deepEqual(ended.ui.readLine(false), { tag: 'line', val: '2' });
  assert.deepEqual(ended.ui.readLine(false), { tag: 'ended' });
  assert.deepEqual(ended.ui.readLine(false), { tag: 'ended' });
  assert.equal(ended.ui.stopped, 'ended');

  // The plugin ends the line its prompt left open, and writes nothing more after it.
  ended.ui.write([{ text: '\n', tone: 'plain' }]);
  assert.equal(ended.shown(), '\n');

  let reads = 0;
  const typing = lines(() => (reads += 1, null), { interactive: true });
  assert.deepEqual(typing.ui.mode(), { tag: 'lines' });
  assert.equal(reads, 0, 'a person at a terminal is not read ahead of');
});

test('mode waits a moment, not for a line: none come by then is no sign that nobody is there', () => {
  const asked = [];
  const { ui } = lines((patience) => (asked.push(patience), patience === undefined ? '2' : undefined));
  assert.deepEqual(ui.mode(), { tag: 'lines' });
  assert.deepEqual(ui.readLine(false), { tag: 'line', val: '2' });
  assert.equal(asked.length, 2);
  assert.ok(asked[0] > 0 && asked[0] <= 1000, `mode waits at most a second, not ${asked[0]} ms`);
  assert.equal(asked[1], undefined, 'the read waits for its line');
});

/** What a LineUi on stdin says from `mode`, and how long it took (ms), in a program whose stdin
 * is a pipe that nobody writes to, closed `closedAfter` ms after the program starts looking. */
function modeOnAPipe(closedAfter) {
  const program = `import { LineUi } from 'interview-plugin';
process.stdout.write('looking\\n');
const started = Date.now();
const said = new LineUi({ output: { write() {} } }).mode();
process.stdout.write(JSON.stringify({ said, took: Date.now() - started }));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', program], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let closing;
  child.stdout.on('data', (bytes) => {
    out += bytes;
    closing ??= out.startsWith('looking\n') ? setTimeout(() => child.stdin.end(), closedAfter) : undefined;
  });
  return new Promise((resolve) => child.on('close', () => {
    clearTimeout(closing);
    child.stdin.destroy();
    resolve(JSON.parse(out.slice('looking\n'.length)));
  }));
}

test('a pipe that sends nothing yet may still bring answers: mode does not wait for a line', async () => {
  const { said, took } = await modeOnAPipe(5000);
  assert.deepEqual(said, { tag: 'lines' });
  assert.ok(took < 2000, `${took} ms`);
});

test('a pipe closed a moment after mode looks is nobody all the same', async () => {
  const { said, took } = await modeOnAPipe(100);
  assert.deepEqual(said, { tag: 'unavailable', val: 'no-input' });
  assert.ok(took < 2000, `${took} ms`);
});

test('the plugin draws the questions: the place line, tones, errors, and the result', () => {
  const { ui, shown } = lines('2\n1, 3-4\n40\n3\n\nskip\n\n', { colour: true });
  const result = JSON.parse(call('interview', readFileSync(DEPLOY, 'utf8'), ui));
  assert.equal(result.status, 'answered');
  assert.deepEqual(result.answers.map((a) => a.value), ['staging', ['Unit tests', 'Migrations dry-run', 'Load test'], 3, true, "I don't have information about this."]);
  const screen = shown();
  for (const part of [
    '\x1b[2mQuestion 1 of 5 · Deploy\x1b[0m\n\x1b[1mWhich environment should I deploy to?\x1b[0m\n  1. Development\n',
    '  2. Staging\x1b[2m (recommended)\x1b[0m\n',
    '\x1b[1;31m! 40 is more than 10. Enter a whole number from 1 to 10.\x1b[0m\n> ',
    '\x1b[2mQuestion 4 of 5\x1b[0m\n',
    '\x1b[1mAnything else I should know? (optional)\x1b[0m\n',
    '\x1b[1mReview your answers\x1b[0m\n  1. Deploy: Staging\n',
  ]) assert.ok(screen.includes(part), `${JSON.stringify(part)} in ${JSON.stringify(screen)}`);
});

test('a single question shows its header alone, and a prompt that says optional is not marked again', () => {
  const { ui, shown } = lines('\n');
  const request = { question: 'Nickname (optional)', header: 'Name', required: false };
  assert.equal(JSON.parse(call('interview', request, ui)).status, 'answered');
  const screen = shown();
  assert.ok(screen.startsWith('\nName\nNickname (optional)\n'), screen);
  assert.doesNotMatch(screen, /Question 1 of|\(optional\) \(optional\)/);
});

test('lines played back after a failure show nothing twice', () => {
  // Half a MiB pasted is too much for 4 MiB of memory, not for the replay's 16.
  const log = 'x'.repeat(1 << 19);
  const { ui, shown } = lines(`Ada\n${log}\n\n`);
  let recovered;
  const request = { questions: [{ question: 'Name?' }, { question: 'Paste the log' }] };
  const result = JSON.parse(call('interview', request, ui, { limits: { ...LIMITS, memoryBytes: 4 << 20 }, onRecovered: (failure) => { recovered = failure; } }));
  assert.ok(recovered, 'the first run failed');
  assert.deepEqual(result.answers.map((a) => a.value), ['Ada', log]);
  const screen = shown().replaceAll(log, '(the log)');
  for (const once of ['Question 1 of 2', 'Question 2 of 2', 'Review your answers']) {
    assert.equal(screen.split(once).length, 2, `${once} once in ${JSON.stringify(screen)}`);
  }
});

test('the lines typed come back with their questions when the plugin fails for good', () => {
  const log = 'x'.repeat(1 << 20);
  const { ui } = lines(`Ada\n${log}\n\n`);
  const request = { questions: [{ question: 'Name?' }, { question: 'Paste the log' }] };
  assert.throws(
    () => call('interview', request, ui, { limits: { ...LIMITS, memoryBytes: 4 << 20 } }),
    (error) => error instanceof PluginError && error.function === 'call'
      && JSON.stringify(error.given.map((g) => [g.position, g.question, g.answer])) === JSON.stringify([[1, 'Name?', 'Ada'], [2, 'Paste the log', log]]),
  );
});

// A secret typed at a terminal is not echoed: the command runs in a pseudo-terminal (Python's
// pty module) of which it is the foreground job, its result on a pipe.
const SECRET_IN_TERMINAL = `
import fcntl, os, pty, select, subprocess, sys, termios, time
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=slave, stderr=slave, stdout=subprocess.PIPE, start_new_session=True,
                     preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
os.close(slave)
screen = b""
def read_until(done):
    global screen
    deadline = time.monotonic() + 30
    while not done():
        if time.monotonic() > deadline: p.kill(); sys.exit("stuck at %r" % screen[-300:])
        if select.select([master], [], [], 0.2)[0]:
            try: screen += os.read(master, 65536)
            except OSError: break
read_until(lambda: b"> " in screen)
time.sleep(0.5)
os.write(master, b"hunter2\\n")
read_until(lambda: p.poll() is not None)
sys.stdout.write(p.stdout.read().decode() + "\\n" + screen.decode())
`;

test('a secret typed at a terminal is not echoed, as in the Rust command', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'interview-js-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'secret.json');
  writeFileSync(path, JSON.stringify({ question: 'API token?', secret: true }));
  for (const command of [[process.execPath, CLI, 'ask', path], [RUST, 'ask', '--numbered', path]]) {
    const run = spawnSync('python3', ['-c', SECRET_IN_TERMINAL, ...command], { encoding: 'utf8', timeout: 60000 });
    assert.equal(run.status, 0, run.stderr);
    const [result, ...screen] = run.stdout.split('\n');
    assert.equal(JSON.parse(result).answer, 'hunter2', command[0]);
    assert.doesNotMatch(screen.join('\n'), /hunter2/, `${command[0]}: ${screen.join('\n')}`);
  }
});

test('no control or hiding character of a span reaches the terminal, whichever component wrote it', () => {
  const spans = [
    { text: 'Deploy\x1b]0;owned\x07 to\tprod?\x1b[2J\r\n', tone: 'strong' },
    { text: '\u202eevil\u202c \u200bzero\ufeff \u{e0041}tag \u{1f468}\u200d\u{1f469}\u2028', tone: 'plain' },
    { text: '\x9b31m> \x00\x7f', tone: 'plain' },
  ];
  for (const colour of [false, true]) {
    const { ui, shown } = lines('', { colour });
    ui.write(spans);
    const attributes = /\x1b\[(?:[12]|1;31|0)m/g;
    assert.equal(
      shown().replace(attributes, ''),
      'Deploy]0;owned to prod?[2J\nevil zero tag \u{1f468}\u200d\u{1f469}\n31m> ',
    );
  }
});
