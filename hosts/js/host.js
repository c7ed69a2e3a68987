// A JavaScript host for the interview plugin: the component transpiled by jco (`npm run build`),
// with the UI of your choice. The plugin does all the reading, validation, batching and answer
// checking; a UI only shows widgets and says what the person did.

import { readSync } from 'node:fs';
import { tool } from './generated/interview.js';
import { useUi } from './ui.js';

/** Runs a tool call (the model's JSON arguments as text) with `ui`; the result JSON text. */
export function call(name, argumentsJson, ui, skipResponse) {
  useUi(ui);
  return tool.call(name, argumentsJson, { skipResponse: skipResponse ?? undefined });
}

/** Answers an MCP `elicitation/create` request (its JSON text: the params or the whole JSON-RPC
 * request) with `ui`. Returns `{ ending, reply }`: how it ended (`accepted`, `declined`,
 * `cancelled`, `unavailable`, `invalid`) and the JSON text to send back to the server. */
export function elicit(requestJson, ui, requester) {
  useUi(ui);
  return tool.elicit(requestJson, requester ?? undefined);
}

/** The tool definitions: { name, description, parameters (JSON Schema text) }. */
export function definitions() {
  return tool.definitions();
}

// Agent text is untrusted: no escape sequences or control characters reach the terminal.
const ESCAPE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][\s\S]*?(?:\x07|\x1b\\|$)|\x1b.?|\x9b[0-?]*[ -/]*[@-~]/g;
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

export function clean(text, newlines = true) {
  const safe = text.replace(/\t/g, ' ').replace(ESCAPE, '').replace(CONTROL, '');
  return newlines ? safe : safe.replace(/\n/g, ' ');
}

/** The next byte of stdin, read synchronously; null at its end or when it cannot be read. */
function readByte() {
  const buffer = Buffer.alloc(1);
  for (;;) {
    try {
      return readSync(0, buffer, 0, 1, null) === 0 ? null : buffer[0];
    } catch (error) {
      if (error.code !== 'EAGAIN') return null;
    }
  }
}

/** `line` with each tab widened to the next multiple of 4 columns, as a preview's code is shown. */
function expandTabs(line) {
  let out = '';
  for (const c of line) out += c === '\t' ? ' '.repeat(4 - (out.length % 4)) : c;
  return out;
}

/** `2: only on weekdays`, where notes are offered: [the part before the colon, the note]. */
function splitNote(typed, offered) {
  const at = typed.indexOf(':');
  const note = at >= 0 ? typed.slice(at + 1).trim() : '';
  return offered && note ? [typed.slice(0, at).trim(), note] : [typed, undefined];
}

const NAV = { back: 'back', skip: 'skip', quit: 'cancel', exit: 'cancel' };

/** A person at a terminal, one answer per line: prompts on stderr, answers from stdin. In a
 * request that can be declined (an MCP elicitation), `decline` declines it. */
export class LineUi {
  constructor() {
    this.context = undefined;
    this.declinable = false;
  }

  /** The nav a typed word asks for, if it is a command here. */
  command(typed) {
    const word = typed.trim().toLowerCase();
    if (word === 'decline' && this.declinable) return 'decline';
    return NAV[word];
  }

  /** Says what the whole request is about, once. */
  showContext(context, declinable) {
    this.declinable = declinable;
    if (context && context !== this.context) {
      this.say(`\n${clean(context)}`);
      this.context = context;
    }
  }

  /** A line typed without echo on a terminal (piped input is not echoed anyway): raw mode, so
   * Enter ends it, Backspace edits and Ctrl-C or Ctrl-D gives up. */
  readSecret(prompt = '> ') {
    if (!process.stdin.isTTY) return this.read(prompt);
    process.stderr.write(prompt);
    process.stdin.setRawMode(true);
    let bytes = [];
    try {
      for (;;) {
        const byte = readByte();
        if (byte === null || byte === 3 || (byte === 4 && bytes.length === 0)) return null;
        if (byte === 13 || byte === 10) return Buffer.from(bytes).toString('utf8');
        if (byte === 127 || byte === 8) bytes = bytes.slice(0, -1);
        else bytes.push(byte);
      }
    } finally {
      process.stdin.setRawMode(false);
      process.stderr.write('\n');
    }
  }

  /** The next line of stdin, read synchronously (the widgets are synchronous); null at the end. */
  read(prompt = '> ') {
    process.stderr.write(prompt);
    const bytes = [];
    for (;;) {
      const byte = readByte();
      if (byte === null) return bytes.length === 0 ? null : Buffer.from(bytes).toString('utf8');
      if (byte === 10) return Buffer.from(bytes).toString('utf8');
      bytes.push(byte);
    }
  }

  say(text) {
    process.stderr.write(`${text}\n`);
  }

  show(frame) {
    this.showContext(frame.context, frame.declinable);
    let place = frame.total > 1 ? `Question ${frame.position} of ${frame.total}` : '';
    if (frame.header) place = place ? `${place} · ${clean(frame.header, false)}` : clean(frame.header, false);
    this.say(place ? `\n${place}` : '');
    const says = [frame.prompt, frame.header ?? ''].some((text) => text.trimEnd().toLowerCase().endsWith('(optional)'));
    this.say(clean(frame.prompt) + (frame.required || says ? '' : ' (optional)'));
  }

  error(frame) {
    if (frame.error) this.say(`! ${clean(frame.error)}`);
  }

  options(options, extras = []) {
    options.forEach((option, i) => {
      // A label that already ends in "(Recommended)" gets no second badge.
      const says = option.label.trimEnd().toLowerCase().endsWith('(recommended)');
      const badge = option.recommended && !says ? ' (recommended)' : '';
      this.say(`  ${i + 1}. ${clean(option.label, false)}${badge}`);
      if (option.description) this.say(`     ${clean(option.description, false)}`);
      if (option.preview) {
        const block = option.preview.split('\n').map((line) => expandTabs(line)).join('\n');
        clean(block).split('\n').forEach((line) => this.say(`     │ ${line}`));
      }
    });
    extras.forEach((extra, i) => this.say(`  ${options.length + i + 1}. ${clean(extra, false)}`));
  }

  mode() {
    return 'numbered';
  }

  select(frame, request) {
    this.show(frame);
    const extras = [request.otherLabel, request.discussLabel].filter(Boolean);
    this.options(request.options, extras);
    if (request.notes) this.say('(To add a note, write it after a colon: 2: only on weekdays.)');
    this.error(frame);
    const line = this.read();
    if (line === null) return { tag: 'nav', val: 'cancel' };
    const typed = line.trim();
    const n = /^\d+$/.test(typed) ? Number(typed) : NaN;
    const count = request.options.length;
    if (this.command(typed)) return { tag: 'nav', val: this.command(typed) };
    if (typed === '' && request.selected !== undefined) {
      return { tag: 'picked', val: { index: request.selected, note: request.note } };
    }
    if (n >= 1 && n <= count) return { tag: 'picked', val: { index: n - 1 } };
    const [number, note] = splitNote(typed, request.notes);
    const m = /^\d+$/.test(number) ? Number(number) : NaN;
    if (note !== undefined && m >= 1 && m <= count) return { tag: 'picked', val: { index: m - 1, note } };
    if (request.otherLabel && n === count + 1) {
      const other = this.read('Your answer: ');
      return other === null ? { tag: 'nav', val: 'cancel' } : { tag: 'other', val: other };
    }
    if (request.discussLabel && n === count + extras.length) return { tag: 'discuss' };
    // Any other text: the plugin matches a label or takes it as the person's own answer.
    return { tag: 'other', val: typed };
  }

  multiSelect(frame, request) {
    this.show(frame);
    this.options(request.options, request.otherLabel ? [request.otherLabel] : []);
    this.error(frame);
    const line = this.read('Numbers (like 1, 3): ');
    if (line === null) return { tag: 'nav', val: 'cancel' };
    const typed = line.trim();
    if (this.command(typed)) return { tag: 'nav', val: this.command(typed) };
    if (typed === '') {
      return { tag: 'picked', val: { picked: [...request.selected], other: request.otherText, note: request.note } };
    }
    const [numbersTyped, note] = splitNote(typed, request.notes);
    const numbers = numbersTyped.split(/[,\s]+/).filter((t) => /^\d+$/.test(t)).map(Number);
    const picked = numbers.filter((n) => n >= 1 && n <= request.options.length).map((n) => n - 1);
    let other;
    if (request.otherLabel && numbers.includes(request.options.length + 1)) other = this.read('Your answer: ') ?? undefined;
    return { tag: 'picked', val: { picked, other, note } };
  }

  /** Shows the question (and `hints` below it) and reads its answer: `{ line }`, or `{ nav }`
   * when the input ended or the person typed a command. */
  answerLine(frame, hints = [], secret = false) {
    this.show(frame);
    hints.forEach((hint) => this.say(hint));
    this.error(frame);
    const line = secret ? this.readSecret() : this.read();
    if (line === null) return { nav: { tag: 'nav', val: 'cancel' } };
    const command = this.command(line);
    return command ? { nav: { tag: 'nav', val: command } } : { line };
  }

  text(frame, request) {
    const hints = request.placeholder ? [`(for example: ${clean(request.placeholder, false)})`] : [];
    const { minLength: low, maxLength: high } = request;
    const chars = (n) => (n === 1 ? '1 character' : `${n} characters`);
    if (low !== undefined && low === high) hints.push(`(exactly ${chars(high)})`);
    else if (low !== undefined && high !== undefined) hints.push(`(${low} to ${chars(high)})`);
    else if (low !== undefined) hints.push(`(at least ${chars(low)})`);
    else if (high !== undefined) hints.push(`(at most ${chars(high)})`);
    const { line, nav } = this.answerLine(frame, hints, request.secret);
    if (nav) return nav;
    return { tag: 'submitted', val: line.trim() ? line : (request.initial ?? '') };
  }

  confirm(frame, request) {
    this.show(frame);
    this.error(frame);
    for (;;) {
      const line = this.read('[y/n] > ');
      if (line === null) return { tag: 'nav', val: 'cancel' };
      const typed = line.trim().toLowerCase();
      if (typed === 'y' || typed === 'yes') return { tag: 'answered', val: true };
      if (typed === 'n' || typed === 'no') return { tag: 'answered', val: false };
      if (typed === '' && request.initial !== undefined) return { tag: 'answered', val: request.initial };
      if (typed === '' && !frame.required) return { tag: 'nav', val: 'skip' };
      if (this.command(typed)) return { tag: 'nav', val: this.command(typed) };
    }
  }

  number(frame, request) {
    const { line, nav } = this.answerLine(frame);
    if (nav) return nav;
    if (line.trim() === '' && request.initial !== undefined) return { tag: 'entered', val: String(request.initial) };
    return { tag: 'entered', val: line };
  }

  review(request) {
    this.showContext(request.context, request.declinable);
    const items = request.items;
    if (items.length) this.say('\nReview your answers');
    items.forEach((item, i) => {
      const title = item.header ?? item.prompt.split('\n')[0];
      this.say(`  ${i + 1}. ${clean(title, false)}: ${clean(item.answer, false)}`);
    });
    const decline = request.declinable ? ', decline refuses' : '';
    const line = this.read(`Enter sends; a number changes that answer${decline}: `);
    if (line === null || line.trim() === '') return { tag: 'submit' };
    if (this.command(line) === 'decline') return { tag: 'decline' };
    const n = Number(line.trim());
    if (Number.isInteger(n) && n >= 1 && n <= items.length) return { tag: 'edit', val: n - 1 };
    return { tag: 'cancel' };
  }
}

/** Plays back the steps of a conformance case and records which widgets were asked. */
export class ScriptedUi {
  constructor(steps, unavailable = false) {
    this.steps = [...steps];
    this.unavailable = unavailable;
    this.asked = [];
  }

  next(widget) {
    this.asked.push(widget);
    if (this.steps.length === 0 || !(widget in this.steps[0])) return 'cancel';
    return this.steps.shift()[widget];
  }

  mode() {
    return this.unavailable ? 'unavailable' : 'numbered';
  }

  static nav(reply) {
    return ['back', 'skip', 'cancel', 'decline'].includes(reply) ? { tag: 'nav', val: reply } : null;
  }

  select() {
    const reply = this.next('select');
    if (ScriptedUi.nav(reply)) return ScriptedUi.nav(reply);
    if (reply === 'discuss') return { tag: 'discuss' };
    if ('picked' in reply) return { tag: 'picked', val: { index: reply.picked, note: reply.note } };
    return { tag: 'other', val: reply.other };
  }

  multiSelect() {
    const reply = this.next('multi_select');
    return ScriptedUi.nav(reply) ?? { tag: 'picked', val: { picked: reply.picked, other: reply.other, note: reply.note } };
  }

  text() {
    const reply = this.next('text');
    return ScriptedUi.nav(reply) ?? { tag: 'submitted', val: reply.submitted };
  }

  confirm() {
    const reply = this.next('confirm');
    return ScriptedUi.nav(reply) ?? { tag: 'answered', val: reply.answered };
  }

  number() {
    const reply = this.next('number');
    return ScriptedUi.nav(reply) ?? { tag: 'entered', val: reply.entered };
  }

  review() {
    const reply = this.next('review');
    if (['submit', 'cancel', 'decline'].includes(reply)) return { tag: reply };
    return { tag: 'edit', val: reply.edit };
  }
}
