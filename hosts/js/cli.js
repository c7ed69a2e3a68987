#!/usr/bin/env node
// `interview-plugin` (npx interview-plugin): the interview command in line mode, named apart
// from the Rust `interview` so that installing this package never shadows it. Answers come from stdin
// one per line, the questions go to stderr, the result JSON goes to stdout, and the exit code
// says how it ended, as with the Rust command.

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Worker, MessageChannel } from 'node:worker_threads';
import {
  FORMATS, LIMITS, PluginError, Result, check, definitionsAs, failed, failedElicitation, load, unreadable,
  unreadableElicitation,
} from './plugin.js';
import { lineSplitter, pause, writeAll } from './line-ui.js';
import { EXIT } from './contract.js';
import { escapeInvisible } from './escape.js';

// The exit codes are the Rust command's (EXIT, generated from its own); what each means, for
// the usage.
const EXIT_MEANINGS = {
  answered: 'answered (check: valid; schema: printed)', cancelled: 'cancelled', invalid: 'invalid request or bad usage',
  unavailable: 'no person available', failed: 'the plugin failed or could not run', declined: 'elicit: declined',
  unwritten: 'the result could not be written', interrupted: 'interrupted (Ctrl-C, SIGTERM, SIGHUP)',
};

const USAGE = `usage: interview-plugin ask FILE [--tool NAME] [--skip-response TEXT]
       interview-plugin elicit FILE [--server NAME]
       interview-plugin check FILE [--tool NAME]
       interview-plugin schema [--format ${FORMATS.join('|')}]
FILE is a path, or - for stdin. Exit codes:
${Object.entries(EXIT).map(([name, code]) => `  ${String(code).padStart(3)} ${EXIT_MEANINGS[name] ?? name}`).join('\n')}`;

/** A call's (or a check's) status and an elicitation's ending each exit with the code of the
 * same name, but for a valid check and an accepted elicitation, which are answered. */
const exitCode = (name) => EXIT[{ valid: 'answered', accepted: 'answered' }[name] ?? name];

// The C library's words for the errors a request file meets, which the Rust command says.
const STRERROR = {
  ENOENT: 'No such file or directory', EACCES: 'Permission denied', EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory', ELOOP: 'Too many levels of symbolic links', ENAMETOOLONG: 'File name too long',
  EIO: 'Input/output error', ENXIO: 'No such device or address', EPERM: 'Operation not permitted',
};

function warn(message) {
  try {
    writeAll(2, `interview-plugin: ${message}\n`);
  } catch {
    // stderr is gone too: the exit code still says what happened.
  }
}

function usage(problem) {
  warn(`${problem}\n${USAGE}`);
  return EXIT.invalid;
}

/** Writes a text (the plugin's JSON) with every invisible or control character escaped; false
 * when stdout is gone (a closed pipe, a full disk). */
function print(text) {
  try {
    writeAll(1, `${escapeInvisible(text)}\n`);
    return true;
  } catch (error) {
    warn(`cannot write the result to stdout: ${error.message}`);
    return false;
  }
}

/** Prints what the plugin gave, a call's or a check's `Result` or an elicitation's `{ ending,
 * reply }`; the exit code its status or ending says, the interrupted one where the person was
 * interrupted. */
function answer({ status, json, ending, reply }, interrupted = false) {
  let code = exitCode(ending ?? status);
  if (code === EXIT.cancelled && interrupted) code = EXIT.interrupted;
  return print(json ?? reply) ? code : EXIT.unwritten;
}

/** The plugin's answer to a request that cannot be read: to an elicitation a JSON-RPC parse
 * error, else an `invalid` result. */
const unreadableRequest = (command, message) => (command === 'elicit' ? unreadableElicitation(message) : unreadable('', message));

/** Where the first byte that is not UTF-8 is. */
function validUpTo(bytes) {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    if (b < 0x80) {
      i += 1;
      continue;
    }
    const [length, low, high] = b >= 0xc2 && b <= 0xdf ? [2, 0x80, 0xbf]
      : b >= 0xe0 && b <= 0xef ? [3, b === 0xe0 ? 0xa0 : 0x80, b === 0xed ? 0x9f : 0xbf]
        : b >= 0xf0 && b <= 0xf4 ? [4, b === 0xf0 ? 0x90 : 0x80, b === 0xf4 ? 0x8f : 0xbf] : [0];
    if (!length) return i;
    for (let k = 1; k < length; k += 1) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return bytes.length;
}

/** The request text, at most `limit` bytes of UTF-8, or why it cannot be a request. Reading
 * stops at the limit, so an endless input costs no more than the limit. */
function readRequest(source, limit) {
  const what = source === '-' ? 'standard input' : source;
  const osError = (error) => `cannot read the request from ${what}: ${STRERROR[error.code] ?? error.message} (os error ${-error.errno})`;
  let fd = 0;
  const buffer = Buffer.allocUnsafe(limit + 1);
  let length = 0;
  try {
    if (source !== '-') fd = openSync(source, 'r');
    while (length <= limit) {
      let n;
      try {
        n = readSync(fd, buffer, length, limit + 1 - length, null);
      } catch (error) {
        if (error.code !== 'EAGAIN') throw error;
        pause();
        continue;
      }
      if (n === 0) break;
      length += n;
    }
  } catch (error) {
    return { problem: osError(error) };
  } finally {
    if (fd) closeSync(fd);
  }
  if (length > limit) return { problem: `the request from ${what} is more than ${limit} bytes, the limit; ask fewer or shorter questions` };
  const bytes = buffer.subarray(0, length);
  const valid = validUpTo(bytes);
  if (valid < length) return { problem: `the request from ${what} is not UTF-8 text (an invalid byte at offset ${valid})` };
  return { text: bytes.toString('utf8') };
}

/** An argument that is not UTF-8 (node replaced its bytes), as the kernel has it; Linux only. */
function notUtf8Argument() {
  let raw;
  try {
    raw = readFileSync('/proc/self/cmdline');
  } catch {
    return undefined;
  }
  for (let start = 0; start < raw.length;) {
    const end = raw.indexOf(0, start) < 0 ? raw.length : raw.indexOf(0, start);
    const arg = raw.subarray(start, end);
    if (validUpTo(arg) < arg.length) return arg.toString('utf8');
    start = end + 1;
  }
  return undefined;
}

/** The plugin's tones as attributes only on a terminal, and never with `NO_COLOR` or
 * `TERM=dumb`, as in the Rust command. */
const colour = () => Boolean(process.stderr.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';

/** Asks in a worker thread (see ask-worker.js), feeding it stdin's lines; Ctrl-C, SIGTERM and
 * SIGHUP stop the person's UI, which returns the answers so far. Resolves to the exit code. */
function ask(command, args) {
  const { port1: lines, port2 } = new MessageChannel();
  const counters = new Int32Array(new SharedArrayBuffer(4));
  const send = (message) => {
    lines.postMessage(message);
    Atomics.add(counters, 0, 1);
    Atomics.notify(counters, 0);
  };
  const worker = new Worker(new URL('./ask-worker.js', import.meta.url), {
    workerData: { command, args, lines: port2, counters, interactive: Boolean(process.stdin.isTTY), colour: colour() },
    transferList: [port2],
  });
  const splitter = lineSplitter(LIMITS.requestBytes);
  const stdin = process.stdin;
  const onData = (bytes) => {
    for (const line of splitter.push(bytes)) send(typeof line === 'symbol' ? { marker: 'tooLong' } : line);
  };
  const onEnd = () => {
    const last = splitter.end();
    if (last !== null) send(typeof last === 'symbol' ? { marker: 'tooLong' } : last);
    send(null);
  };
  stdin.on('data', onData).on('end', onEnd).on('error', onEnd);
  const interrupt = () => send({ marker: 'interrupted' });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, interrupt);
  const done = () => {
    stdin.off('data', onData).off('end', onEnd).destroy();
    lines.close();
  };
  return new Promise((resolve) => {
    worker.once('message', (outcome) => {
      done();
      resolve(outcome.failed ? pluginFailed(command, undefined, args.text, outcome.failed) : answer(outcome, outcome.interrupted));
    });
    worker.once('error', (error) => {
      done();
      resolve(pluginFailed(command, undefined, args.text, { message: `the asking thread failed: ${error.message}`, given: [] }));
    });
  });
}

/** A plugin that could not run (a component that does not load or start) or that failed
 * (`failure`: its message and what the person gave) still answers the caller on stdout, as the
 * Rust command does: the plugin's `failed` result (`elicit`: `cancel` with the answers under
 * `_meta`), exiting `failed`. `text` is the request, undefined when the plugin failed before it
 * was read: it is read then, to answer an elicitation under its JSON-RPC id. */
function pluginFailed(command, file, text, { message, given }) {
  warn(message);
  let outcome;
  try {
    // Worded in a fresh instance of the plugin: the one that failed is gone with its thread.
    outcome = command === 'elicit'
      ? failedElicitation(text ?? readRequest(file, LIMITS.requestBytes).text ?? '', message, given)
      : failed(message, given);
  } catch (error) {
    if (!(error instanceof PluginError)) throw error;
    outcome = unworded(command, message, error);
  }
  return answer(outcome);
}

/** Only should the package's plugin not run at all (a damaged installation): the failure and
 * why it could not be worded, as the Rust command's last resort has it, so that stdout still
 * holds one JSON text. */
function unworded(command, message, why) {
  if (command === 'elicit') return { ending: 'failed', reply: JSON.stringify({ action: 'cancel' }) };
  const said = `${message} (the built-in plugin, which words this result, could not start: ${why.message})`;
  return new Result('failed', JSON.stringify({ status: 'failed', answers: [], error: { path: '', message: said }, text: said }));
}

async function main(argv) {
  const bad = notUtf8Argument();
  if (bad !== undefined) return usage(`'${bad}' is not UTF-8`);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        tool: { type: 'string', default: 'interview' },
        'skip-response': { type: 'string' },
        server: { type: 'string' },
        format: { type: 'string', default: 'plain' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return usage(error.message);
  }
  const { values, positionals } = parsed;
  const [command, file] = positionals;
  if (values.help) return print(USAGE) ? EXIT.answered : EXIT.unwritten;
  if (command !== 'schema' && (!['ask', 'elicit', 'check'].includes(command) || !file || positionals.length > 2)) {
    return usage(command ? `cannot run ${positionals.join(' ')}` : 'no command');
  }
  let text;
  try {
    load();
    if (command === 'schema') {
      if (!FORMATS.includes(values.format)) return usage(`unknown format ${values.format}`);
      return print(definitionsAs(values.format)) ? EXIT.answered : EXIT.unwritten;
    }
    let problem;
    ({ text, problem } = readRequest(file, LIMITS.requestBytes));
    if (problem !== undefined) {
      warn(problem);
      return answer(unreadableRequest(command, problem));
    }
    if (command === 'check') return answer(check(values.tool, text));
    return await ask(command, { text, tool: values.tool, server: values.server, skipResponse: values['skip-response'] });
  } catch (error) {
    if (!(error instanceof PluginError)) throw error;
    return pluginFailed(command, file, text, error);
  }
}

process.exitCode = await main(process.argv.slice(2));
