// What the package keeps when things go wrong, as the Rust command does: bad bytes, endless
// input, a damaged component, a plugin that breaks its sandbox, signals, and calls inside calls.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { LIMITS, PluginError, ScriptedUi, call, check, failed, failedElicitation } from 'interview-plugin';
import { ROOT } from './root.mjs';

const RUST = process.env.INTERVIEW_RUST ?? join(ROOT, 'target', 'debug', 'interview');
const DEPLOY = join(ROOT, 'examples', 'deploy.json');
const ELICITATION = join(ROOT, 'examples', 'elicitation.json');
const LIMIT = LIMITS.requestBytes;
const PACKAGE = dirname(createRequire(import.meta.url).resolve('interview-plugin'));
const CLI = join(PACKAGE, 'cli.js');
// The Rust command's exit codes, as generated into the package.
const { EXIT } = await import(pathToFileURL(join(PACKAGE, 'contract.js')));

function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'interview-js-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const twoQuestions = (dir) => {
  const path = join(dir, 'two.json');
  writeFileSync(path, JSON.stringify({ questions: [{ question: 'Name?' }, { question: 'Why?' }] }));
  return path;
};

/** The package's and the Rust command's runs on the same input (bytes): they must agree. */
function both(args, input = Buffer.alloc(0), cli = CLI) {
  const options = { input, timeout: 60000, maxBuffer: 16 * LIMIT };
  const js = spawnSync(process.execPath, [cli, ...args], options);
  const rust = spawnSync(RUST, args, options);
  assert.equal(rust.error, undefined, `the Rust command at ${RUST} must be built`);
  assert.deepEqual([js.stdout.toString('latin1'), js.status], [rust.stdout.toString('latin1'), rust.status], js.stderr.toString());
  return js;
}

test('answer bytes that are not UTF-8 become replacement characters', (t) => {
  const run = both(['ask', twoQuestions(tempDir(t))], Buffer.from('a\xffb\xf0\x80c\nquit\n', 'latin1'));
  assert.equal(run.status, 1);
  assert.equal(JSON.parse(run.stdout).answers[0].value, 'a\ufffdb\ufffd\ufffdc');
  const select = both(['ask', DEPLOY], Buffer.from('\xff\xfe2\n\n\nquit\n', 'latin1'));
  assert.equal(JSON.parse(select.stdout).answers.length, 3, 'the first answer is kept');
});

/** Runs `command` with `total` bytes of `chunk` offered on stdin, like `yes`: its output, exit
 * code, the most memory it held (KiB, measured by GNU time) and how much it took. */
function endless(command, chunk, total = 20 << 20) {
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/time', ['-f', '%M', ...command], { stdio: ['pipe', 'pipe', 'pipe'] });
    let written = 0;
    const out = [];
    let err = '';
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => { err += d; });
    child.stdin.on('error', () => {});
    const write = () => {
      while (written < total) {
        written += chunk.length;
        if (!child.stdin.write(chunk)) return child.stdin.once('drain', write);
      }
      return child.stdin.end();
    };
    write();
    child.on('close', (code) => {
      resolve({ stdout: Buffer.concat(out), code, kib: Number(err.trim().split('\n').at(-1)), written });
    });
  });
}

test('an endless request is refused at the limit like the Rust command', async () => {
  const yes = Buffer.from('y\n'.repeat(32 << 10));
  const js = await endless([process.execPath, CLI, 'ask', '-'], yes);
  const rust = await endless([RUST, 'ask', '-'], yes);
  assert.deepEqual([js.stdout.toString(), js.code], [rust.stdout.toString(), rust.code]);
  assert.equal(js.code, 2);
  assert.match(js.stdout.toString(), new RegExp(`more than ${LIMIT} bytes`));
  assert.ok(js.kib < 200 << 10, `held ${js.kib} KiB`);
});

test('an endless answer line is dropped and memory stays bounded', async (t) => {
  const path = twoQuestions(tempDir(t));
  const js = await endless([process.execPath, CLI, 'ask', path], Buffer.alloc(1 << 20, 'x'));
  assert.equal(js.code, 1);
  assert.deepEqual(JSON.parse(js.stdout).answers, []);
  assert.ok(js.kib < 300 << 10, `held ${js.kib} KiB for a 20 MB line`);
  const input = `${'y'.repeat(LIMIT + 1)}\nAda\nquit\n`;
  const run = spawnSync(process.execPath, [CLI, 'ask', path], { input, encoding: 'utf8' });
  const rust = spawnSync(RUST, ['ask', path], { input, encoding: 'utf8' });
  const said = `> ! That line is more than ${LIMIT} bytes; type a shorter answer.\n> `;
  assert.ok(run.stderr.includes(said) && rust.stderr.includes(said), 'in the Rust command\'s words');
  assert.deepEqual([run.stdout, run.status], [rust.stdout, rust.status]);
  assert.equal(JSON.parse(run.stdout).answers[0].value, 'Ada');
});

for (const [name, bytes] of [['bidi', Buffer.from('x\u202e\u009bgnp.json')], ['not UTF-8', Buffer.from('bad\xff.json', 'latin1')]]) {
  test(`an unreadable file name (${name}) is escaped like the Rust command`, (t) => {
    // Spawned through the shell so that the name's bytes reach the command as they are.
    const dir = tempDir(t);
    const script = join(dir, 'run.sh');
    writeFileSync(script, Buffer.concat([Buffer.from(`exec "$@" ask '${dir}/`), bytes, Buffer.from("'\n")]));
    const js = spawnSync('sh', [script, process.execPath, CLI]);
    const rust = spawnSync('sh', [script, RUST]);
    assert.deepEqual([js.stdout.toString('latin1'), js.status], [rust.stdout.toString('latin1'), rust.status], js.stderr.toString());
    assert.equal(js.status, 2);
    assert.ok(!js.stdout.includes(Buffer.from('\u202e')) && !js.stdout.includes(Buffer.from([0xff])));
  });
}

/** A copy of the installed package whose plugin (its core module) is `change`d: its directory. */
function packageCopy(t, change) {
  const copy = join(tempDir(t), 'package');
  cpSync(PACKAGE, copy, { recursive: true, dereference: true });
  const core = join(copy, 'generated', 'interview.core.wasm');
  writeFileSync(core, change(readFileSync(core)));
  return copy;
}

// Words of the plugin's own results that a host gave before the plugin wrote them: in capitals in
// a copy of the package's plugin (the same length, so still a valid module), they show whose
// words a result is in.
const WORDS = ['The request is invalid, so nothing was asked', 'The question tool failed before the user answered',
  'The question tool failed after the user answered', 'interview/failure'];

function reworded(bytes) {
  let text = bytes.toString('latin1');
  for (const words of WORDS) {
    assert.equal(text.split(words).length, 2, words);
    text = text.replace(words, words.toUpperCase());
  }
  return Buffer.from(text, 'latin1');
}

test('a request that cannot be read is answered in the plugin\'s words', (t) => {
  const cli = join(packageCopy(t, reworded), 'cli.js');
  const missing = join(tempDir(t), 'missing.json');
  const message = `cannot read the request from ${missing}: No such file or directory (os error 2)`;
  for (const command of ['ask', 'check', 'elicit']) {
    const run = spawnSync(process.execPath, [cli, command, missing], { encoding: 'utf8' });
    assert.equal(run.status, 2, run.stderr);
    const reply = JSON.parse(run.stdout);
    if (command === 'elicit') {
      assert.deepEqual(reply, { jsonrpc: '2.0', id: null, error: { code: -32700, message } });
    } else {
      assert.deepEqual([reply.status, reply.error], ['invalid', { path: '', message }]);
      assert.match(reply.text, /^THE REQUEST IS INVALID, SO NOTHING WAS ASKED/);
    }
  }
});

test('what a failed plugin leaves is worded by the plugin, typed failed', async (t) => {
  const plugin = await import(pathToFileURL(join(packageCopy(t, reworded), 'index.js')));
  const given = [{ position: 1, header: 'Name', question: 'Who are you?', answer: 'Ada', note: 'my first name' }];
  const result = plugin.failed('the plugin failed in `call`: out of memory', given);
  assert.ok(result instanceof plugin.Result);
  assert.equal(result.status, 'failed');
  const json = JSON.parse(result);
  assert.deepEqual(json.answers, given);
  assert.equal(json.text, 'THE QUESTION TOOL FAILED AFTER THE USER ANSWERED, so their answers were not checked: '
    + 'the plugin failed in `call`: out of memory. What the user gave: "Who are you?"="Ada".');
  const request = { jsonrpc: '2.0', id: 9, method: 'elicitation/create', params: {} };
  const elicitation = plugin.failedElicitation(request, 'it broke', given);
  assert.equal(elicitation.ending, 'failed');
  assert.deepEqual(JSON.parse(elicitation.reply), { jsonrpc: '2.0', id: 9, result: { action: 'cancel', _meta: { 'INTERVIEW/FAILURE': { message: 'it broke', given } } } });
  const unreadable = plugin.unreadable('--journal', 'the journal is locked');
  assert.deepEqual([unreadable.status, JSON.parse(unreadable).text], ['invalid', 'Nothing was asked: the journal is locked.']);
  assert.equal(plugin.unreadableElicitation('not JSON').ending, 'invalid');
});

// Damage as the Rust command's tests do it to a component, done to a copy of the installed
// package's plugin (the npm command cannot load another .wasm): cut short, and a module without
// the plugin's exports.
const third = (bytes) => bytes.subarray(0, bytes.length / 3);
const BROKEN = {
  truncated: { core: third, component: third },
  'no exports': { core: () => Buffer.from('\0asm\x01\0\0\0', 'latin1'), component: () => Buffer.from('\0asm\x0d\0\x01\0', 'latin1') },
};

/** A failure with the compiler's own words taken out: V8 and wasmtime word a module that does
 * not compile differently, and everything else must be the same. */
const withoutCompilerWords = (message) => message.replace(/^(cannot compile the component: ).+$/s, '$1(the compiler\'s words)');

/** What a package whose plugin cannot run says: the failure, and that no plugin could word it. */
const LAST_RESORT = /^(cannot (?:compile|instantiate) the component: .+) \(the built-in plugin, which words this result, could not start: \1\)$/s;

for (const [kind, damage] of Object.entries(BROKEN)) {
  test(`a package whose plugin cannot run (${kind}) still answers with one failed result`, (t) => {
    const dir = tempDir(t);
    const copy = packageCopy(t, damage.core);
    const component = join(dir, 'component.wasm');
    writeFileSync(component, damage.component(readFileSync(join(ROOT, 'host', 'plugin', 'interview.wasm'))));
    const elicitation = join(dir, 'elicitation.json');
    writeFileSync(elicitation, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } }));
    const commands = [
      [['ask', DEPLOY], '1\n'],
      [['check', DEPLOY], ''],
      [['schema'], ''],
      [['elicit', elicitation], ''],
      [['elicit', '-'], JSON.stringify({ message: 'm', requestedSchema: {} })],
    ];
    for (const [args, input] of commands) {
      const js = spawnSync(process.execPath, [join(copy, 'cli.js'), ...args], { input, encoding: 'utf8' });
      // The Rust command given the same damage in a component of its choice, which its own
      // plugin words: the failure must be the same.
      const rust = spawnSync(RUST, ['--component', component, ...args], { input, encoding: 'utf8' });
      assert.deepEqual([js.status, rust.status], [4, 4], `${args}: ${js.stderr}`);
      assert.doesNotMatch(js.stderr, /\n\s+at /, 'no stack trace');
      if (args[0] === 'elicit') {
        // Nothing is left to word a reply under the request's id: the Rust command's last resort.
        assert.equal(js.stdout, '{"action":"cancel"}\n');
        continue;
      }
      const result = JSON.parse(js.stdout);
      assert.deepEqual([result.status, result.answers, result.text], ['failed', [], result.error.message], js.stdout);
      const [, failure] = LAST_RESORT.exec(result.error.message) ?? [];
      assert.ok(failure, result.error.message);
      assert.equal(withoutCompilerWords(failure), withoutCompilerWords(JSON.parse(rust.stdout).error.message));
      assert.ok(js.stderr.includes(failure), `stderr says it too: ${js.stderr}`);
    }
  });
}

// How each way a run ends is reached: `failed` by a copy of the package whose plugin is cut short,
// and the Rust command given such a component. `interrupted` is the signal tests' below.
const ENDINGS = {
  answered: [['check', DEPLOY], ''],
  cancelled: [['ask', DEPLOY], '\n'],
  invalid: [['check', '/nonexistent/request.json'], ''],
  unavailable: [['ask', DEPLOY], ''],
  failed: [['check', DEPLOY], ''],
  declined: [['elicit', ELICITATION], 'decline\n'],
  unwritten: [['schema'], ''],
};

for (const ending of Object.keys(EXIT).filter((name) => name !== 'interrupted')) {
  test(`a run that ends ${ending} exits with the Rust command's code for it`, (t) => {
    const [args, input] = ENDINGS[ending];
    let [cli, rustArgs] = [CLI, args];
    if (ending === 'failed') {
      const component = join(tempDir(t), 'component.wasm');
      writeFileSync(component, BROKEN.truncated.component(readFileSync(join(ROOT, 'host', 'plugin', 'interview.wasm'))));
      [cli, rustArgs] = [join(packageCopy(t, BROKEN.truncated.core), 'cli.js'), ['--component', component, ...args]];
    }
    // Stdout a full disk where the result is not to be written; the Rust command asks an open
    // `interview inbox` before it finds nobody there: none here.
    const stdout = openSync(ending === 'unwritten' ? '/dev/full' : '/dev/null', 'w');
    const options = { input, stdio: ['pipe', stdout, 'pipe'], env: { ...process.env, INTERVIEW_INBOX: '/nonexistent' }, timeout: 60000 };
    try {
      const codes = [spawnSync(process.execPath, [cli, ...args], options).status, spawnSync(RUST, rustArgs, options).status];
      assert.deepEqual(codes, [EXIT[ending], EXIT[ending]]);
    } finally {
      closeSync(stdout);
    }
  });
}

test('a pasted answer too large for the sandbox is played back like the Rust command', (t) => {
  const path = join(tempDir(t), 'paste.json');
  writeFileSync(path, JSON.stringify({ question: 'Paste the log' }));
  const run = both(['ask', path], Buffer.from(`${'x'.repeat(LIMIT)}\n`));
  assert.equal(run.status, 0);
  assert.equal(JSON.parse(run.stdout).answer.length, LIMIT);
  assert.match(run.stderr.toString(), /played back into a fresh instance with larger limits/);
});

test('answers the plugin fails on for good come back like the Rust command, in the plugin\'s words', (t) => {
  // Three pasted logs: too much for the plugin even with the replay's larger limits.
  const path = join(tempDir(t), 'three.json');
  writeFileSync(path, JSON.stringify({ questions: ['One?', 'Two?', 'Three?'].map((question) => ({ question })) }));
  const options = { input: `${`${'x'.repeat(LIMIT)}\n`.repeat(3)}\n`, encoding: 'utf8', timeout: 120000, maxBuffer: 16 * LIMIT };
  const js = spawnSync(process.execPath, [join(packageCopy(t, reworded), 'cli.js'), 'ask', path], options);
  const rust = spawnSync(RUST, ['ask', path], options);
  assert.deepEqual([js.status, rust.status], [4, 4], js.stderr.slice(-500));
  const [result, expected] = [JSON.parse(js.stdout), JSON.parse(rust.stdout)];
  assert.deepEqual([result.status, result.answers], [expected.status, expected.answers]);
  assert.deepEqual(result.answers.map((a) => a.question), ['One?', 'Two?', 'Three?']);
  assert.match(result.error.message, /^the plugin failed in `call`: /);
  assert.match(result.text, /^THE QUESTION TOOL FAILED AFTER THE USER ANSWERED/);
});

test('a plugin out of memory fails with the answers given, which it words under larger limits', () => {
  const log = 'x'.repeat(3 << 20);
  const limits = { ...LIMITS, memoryBytes: 4 << 20 };
  let failure;
  assert.throws(
    () => call('interview', { question: 'Paste the log' }, new ScriptedUi([{ tag: 'submitted', val: log }]), { limits }),
    (error) => {
      failure = error;
      return error instanceof PluginError && error.function === 'call'
        && error.given.length === 1 && error.given[0].question === 'Paste the log' && error.given[0].answer === log;
    },
  );
  // Under the same limits: the instance that words the result gets the memory its answers need.
  const result = failed(failure.message, failure.given, { limits });
  assert.equal(result.status, 'failed');
  assert.deepEqual(JSON.parse(result).answers, [{ position: 1, question: 'Paste the log', answer: log }]);
  const elicitation = failedElicitation({ message: 'm', requestedSchema: {} }, failure.message, failure.given, { limits });
  assert.equal(elicitation.ending, 'failed');
  assert.equal(JSON.parse(elicitation.reply)._meta['interview/failure'].given[0].answer, log);
});

test('the compute budget stops the plugin but not the person', () => {
  // Checking two lists of ten thousand options takes the plugin a tenth of a second or more.
  const request = { questions: [0, 1].map((i) => ({ question: `Pick ${i}`, type: 'multi_select', options: Array.from({ length: 10000 }, (_, j) => `option ${j}`) })) };
  assert.throws(() => check('interview', request, { limits: { ...LIMITS, computeMs: 50 } }), /computed for more than 0.05s/);
  class Slow extends ScriptedUi {
    text(frame, request) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
      return super.text(frame, request);
    }
  }
  const result = call('interview', { question: 'Name?' }, new Slow([{ tag: 'submitted', val: 'Ada' }]), { limits: { ...LIMITS, computeMs: 300 } });
  assert.equal(JSON.parse(result).answer, 'Ada');
});

test('a call made while another asks uses its own UI, and the first goes on with its own', () => {
  let inner;
  class Nesting extends ScriptedUi {
    text(frame, request) {
      inner = call('interview', { question: 'Inner?' }, new ScriptedUi([{ tag: 'submitted', val: 'Grace' }]));
      return super.text(frame, request);
    }
  }
  const outer = call('interview', { questions: [{ question: 'Outer?' }, { question: 'Again?' }] },
    new Nesting([{ tag: 'submitted', val: 'Ada' }, { tag: 'submitted', val: 'Lovelace' }, { tag: 'submit' }]));
  assert.equal(JSON.parse(inner).answer, 'Grace');
  assert.deepEqual(JSON.parse(outer).answers.map((a) => a.value), ['Ada', 'Lovelace']);
});

// Python's pty module drives a pseudo-terminal: stdin and stderr on it, stdout a pipe (as an
// agent reads it), in a session of its own whose controlling terminal it is, so that the command
// is the job in its foreground (the Rust command asks nobody from a terminal that is not its
// own). The first question of the deploy example is answered, then `stop` sent.
const IN_TERMINAL = `
import fcntl, json, os, pty, select, signal, subprocess, sys, termios, time
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[2:], stdin=slave, stderr=slave, stdout=subprocess.PIPE, start_new_session=True,
                     preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
os.close(slave)
screen = b""
def wait_for(text):
    global screen
    deadline = time.monotonic() + 30
    while text not in screen:
        if time.monotonic() > deadline: p.kill(); sys.exit("never saw %r: %r" % (text, screen[-300:]))
        if select.select([master], [], [], 1)[0]: screen += os.read(master, 65536)
wait_for(b"Question 1 of"); os.write(master, b"2\\n"); wait_for(b"Question 2 of")
p.send_signal(getattr(signal, sys.argv[1]))
out, _ = p.communicate(timeout=30)
print(json.dumps({"stdout": out.decode(), "code": p.returncode}))
`;

const inTerminal = (stop, command) => {
  const run = spawnSync('python3', ['-c', IN_TERMINAL, stop, ...command], { encoding: 'utf8', timeout: 90000 });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
};

for (const stop of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  test(`${stop} returns the answers so far like the Rust command`, () => {
    const js = inTerminal(stop, [process.execPath, CLI, 'ask', DEPLOY]);
    const rust = inTerminal(stop, [RUST, 'ask', '--numbered', DEPLOY]);
    assert.deepEqual(js, rust);
    assert.equal(js.code, EXIT.interrupted);
    const result = JSON.parse(js.stdout);
    assert.equal(result.status, 'cancelled');
    assert.deepEqual(result.answers.map((a) => a.value), ['staging']);
  });
}

/** Runs the command with stdin a pipe that this side holds open, so that its input never ends,
 * and sends `stop` once the question is drawn: after each of `answers` (a line, and the text on
 * stderr that says it was taken). Resolves to its stdout and exit code. */
function stoppedOnAQuietPipe(args, stop, answers = []) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Drawn before any byte came: nothing tells the command that someone is there. Once each
  // text is on stderr, the next answer goes in, or after the last, the signal.
  const waitFor = ['Question 1 of', ...answers.map(([, taken]) => taken)];
  const lines = answers.map(([line]) => line);
  let screen = '';
  let stdout = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`never saw ${JSON.stringify(waitFor[0])}: ${JSON.stringify(screen.slice(-500))}`));
    }, 60000);
    child.stdout.on('data', (bytes) => { stdout += bytes; });
    child.stderr.on('data', (bytes) => {
      screen += bytes;
      while (waitFor.length && screen.includes(waitFor[0])) {
        waitFor.shift();
        if (lines.length) child.stdin.write(lines.shift());
        else child.kill(stop);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // The input stays open until the command has ended: only the signal ends it.
      child.stdin.destroy();
      if (waitFor.length) reject(new Error(`it ended (${code}) before ${JSON.stringify(waitFor[0])}: ${screen}`));
      else resolve({ stdout, code });
    });
  });
}

for (const stop of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  test(`${stop} before the first line cancels a call with one result`, async () => {
    const { stdout, code } = await stoppedOnAQuietPipe(['ask', DEPLOY], stop);
    assert.equal(code, EXIT.interrupted);
    const result = JSON.parse(stdout); // one JSON text, nothing else
    assert.deepEqual([result.status, result.answers], ['cancelled', []]);
  });

  test(`${stop} between questions keeps the answers so far`, async () => {
    const { stdout, code } = await stoppedOnAQuietPipe(['ask', DEPLOY], stop, [['2\n', 'Question 2 of']]);
    assert.equal(code, EXIT.interrupted);
    const result = JSON.parse(stdout);
    assert.equal(result.status, 'cancelled');
    assert.deepEqual(result.answers.map((a) => a.value), ['staging']);
  });

  for (const [when, answers] of [['before the first line', []], ['between questions', [['Ada Lovelace\n', 'Question 2 of']]]]) {
    test(`${stop} ${when} cancels an elicitation with one reply`, async () => {
      const { stdout, code } = await stoppedOnAQuietPipe(['elicit', ELICITATION], stop, answers);
      assert.equal(code, EXIT.interrupted);
      assert.deepEqual(JSON.parse(stdout), { jsonrpc: '2.0', id: 7, result: { action: 'cancel' } });
    });
  }
}

for (const command of ['ask', 'elicit']) {
  test(`${command}: input that has already ended is nobody there`, () => {
    const nothing = openSync('/dev/null', 'r');
    let run;
    try {
      run = spawnSync(process.execPath, [CLI, command, command === 'ask' ? DEPLOY : ELICITATION],
        { stdio: [nothing, 'pipe', 'pipe'], encoding: 'utf8', timeout: 60000 });
    } finally {
      closeSync(nothing);
    }
    assert.equal(run.status, 3, run.stderr);
    assert.ok(!run.stderr.includes('Question 1 of'), 'nothing is asked');
    const reply = JSON.parse(run.stdout);
    if (command === 'ask') assert.deepEqual([reply.status, reply.reason], ['unavailable', 'no-input']);
    else assert.deepEqual(reply.result, { action: 'cancel' });
  });
}
