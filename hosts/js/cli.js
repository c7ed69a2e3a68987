#!/usr/bin/env node
// `interview` (npx interview): the interview command in numbered mode. Answers come from stdin
// one per line, the questions go to stderr, the result JSON goes to stdout, and the exit code
// says how it ended, as with the Rust command.

import { readFileSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FORMATS, call, check, definitionsAs, elicit } from './plugin.js';
import { LineUi } from './line-ui.js';

const USAGE = `usage: interview ask FILE [--tool NAME] [--skip-response TEXT]
       interview elicit FILE [--server NAME]
       interview check FILE [--tool NAME]
       interview schema [--format ${FORMATS.join('|')}]
FILE is a path, or - for stdin. Exit codes: 0 answered (check: valid; schema: printed),
1 cancelled, 2 invalid request or bad usage, 3 no person available, 5 elicit: declined,
6 the result could not be written.`;

const EXIT = { answered: 0, valid: 0, cancelled: 1, invalid: 2, unavailable: 3 };
const ENDING = { accepted: 0, cancelled: 1, invalid: 2, unavailable: 3, declined: 5 };

function usage(problem) {
  process.stderr.write(`interview: ${problem}\n${USAGE}\n`);
  return 2;
}

/** Writes the result line; false when stdout is gone (a closed pipe, a full disk). */
function print(text) {
  try {
    writeSync(1, `${text}\n`);
    return true;
  } catch (error) {
    process.stderr.write(`interview: cannot write the result to stdout: ${error.message}\n`);
    return false;
  }
}

/** The reply to a request that cannot be read: what the plugin answers an invalid one. */
function unreadable(command, message) {
  if (command === 'elicit') return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message } });
  return JSON.stringify({
    status: 'invalid',
    answers: [],
    error: { path: '', message },
    text: `The request is invalid, so nothing was asked: the arguments: ${message}. Fix the arguments and call the tool again.`,
  });
}

function main(argv) {
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
  if (values.help) return print(USAGE) ? 0 : 6;
  if (command === 'schema') {
    if (!FORMATS.includes(values.format)) return usage(`unknown format ${values.format}`);
    return print(definitionsAs(values.format)) ? 0 : 6;
  }
  if (!['ask', 'elicit', 'check'].includes(command) || !file || positionals.length > 2) {
    return usage(command ? `cannot run ${positionals.join(' ')}` : 'no command');
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file === '-' ? 0 : file));
  } catch (error) {
    const message = `cannot read ${file}: ${error.code === 'ENOENT' ? 'No such file or directory' : error.message}`;
    process.stderr.write(`interview: ${message}\n`);
    return print(unreadable(command, message)) ? 2 : 6;
  }
  if (command === 'check') {
    const result = check(values.tool, text);
    return print(result) ? EXIT[JSON.parse(result).status] ?? 2 : 6;
  }
  const ui = new LineUi();
  if (command === 'elicit') {
    const { ending, reply } = elicit(text, ui, { requester: values.server });
    return print(reply) ? ENDING[ending] : 6;
  }
  const result = call(values.tool, text, ui, { skipResponse: values['skip-response'] });
  return print(result) ? EXIT[JSON.parse(result).status] ?? 2 : 6;
}

process.exitCode = main(process.argv.slice(2));
