// A person at a terminal or behind a pipe, one answer per line: numbered lists on stderr,
// answers from stdin. It reads what the Rust command's numbered mode reads, so that the same
// lines give the same result:
// - a select: a number, a label, `2: a note` where notes are offered, or typed text where the
//   question takes its own answers; Enter takes the default;
// - a multi-select: numbers and ranges (`1, 3 5-7`), `none`, a label, `1, 3: a note`;
// - commands: `back`, `skip` (optional questions), `quit` or `exit`, `help`, and `decline` in a
//   request that can be declined (an MCP elicitation);
// - the end of input cancels, except at the review, where every question has its answer and it
//   sends them; input that ends before its first line means nobody is there (`unavailable`).

import { readSync, writeSync } from 'node:fs';

const COMMANDS = { back: 'back', skip: 'skip', quit: 'cancel', exit: 'cancel' };
const nav = (val) => ({ tag: 'nav', val });

/** Thrown by `read` when the person left or the input ended: every later widget cancels. */
class Stopped extends Error {}

/** The Rust command's limit on a request, which bounds an answer line too. */
const LINE_LIMIT = 8 << 20;

/** What a line source returns for a line longer than the limit (dropped unread), and when the
 * process was asked to stop (Ctrl-C, SIGTERM, SIGHUP). */
export const TOO_LONG = Symbol('too long');
export const INTERRUPTED = Symbol('interrupted');

/** Splits bytes into lines, keeping at most `limit` bytes of each: the rest of a longer line is
 * dropped as it comes, so that endless input costs no more than the limit. Bytes that are not
 * UTF-8 become U+FFFD, as in the Rust command. `push(bytes)` gives the lines completed. */
export function lineSplitter(limit = LINE_LIMIT) {
  let kept = [];
  let length = 0;
  const finish = () => {
    const line = length > limit ? TOO_LONG : Buffer.concat(kept).toString('utf8');
    kept = [];
    length = 0;
    return line;
  };
  return {
    push(bytes) {
      const lines = [];
      let start = 0;
      for (let at = bytes.indexOf(10); ; at = bytes.indexOf(10, start)) {
        const piece = bytes.subarray(start, at < 0 ? bytes.length : at);
        if (length + piece.length <= limit) kept.push(Buffer.from(piece));
        length += piece.length;
        if (at < 0) return lines;
        lines.push(finish());
        start = at + 1;
      }
    },
    /** What is left at the end of input: a last line without its break, or null. */
    end: () => (length ? finish() : null),
  };
}

/** Waits a moment for a descriptor that is not ready (a non-blocking pipe). */
export const pause = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);

/** Writes all of `text` to the descriptor `fd`, synchronously: node makes pipes non-blocking,
 * so a long text may take several writes and a wait for room. */
export function writeAll(fd, text) {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      pause();
    }
  }
}

/** Lines read synchronously from file descriptor 0, never past a line's end. */
function stdinLines() {
  const buffer = Buffer.alloc(1);
  const splitter = lineSplitter();
  const byte = () => {
    for (;;) {
      try {
        return readSync(0, buffer, 0, 1, null) === 0 ? null : buffer;
      } catch (error) {
        if (error.code !== 'EAGAIN') return null;
        pause();
      }
    }
  };
  return () => {
    for (;;) {
      const b = byte();
      if (b === null) return splitter.end();
      const [line] = splitter.push(b);
      if (line !== undefined) return line;
    }
  };
}

/** Lines of `text`, one per call; null after the last. */
function textLines(text) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return () => (lines.length ? lines.shift() : null);
}

const asNumber = (text) => (/^\d+$/.test(text) ? Number(text) : undefined);

/** `2: only on weekdays`, where notes are offered: [the part before the colon, the note]. */
function splitNote(typed, offered) {
  const at = typed.indexOf(':');
  const note = at >= 0 ? typed.slice(at + 1).trim() : '';
  return offered && note ? [typed.slice(0, at).trim(), note] : undefined;
}

/** The option a typed line names: its label (any case), or its value. */
function labelIndex(options, typed) {
  const lowered = typed.toLowerCase();
  const byLabel = options.findIndex((o) => o.label.trim().toLowerCase() === lowered);
  return byLabel >= 0 ? byLabel : options.findIndex((o) => o.value === typed);
}

/** Numbers and ranges (`1, 3 5-7`) as 0-based indices below `total`: undefined when the line
 * is not a list of numbers at all, a message when it names an entry that is not there. */
function picks(line, total) {
  const picked = [];
  for (const token of line.split(/[, \t]/).filter(Boolean)) {
    const [first, last] = token.includes('-') ? token.split('-', 2).map((t) => asNumber(t.trim())) : [asNumber(token), asNumber(token)];
    if (first === undefined || last === undefined) return undefined;
    for (let n = Math.min(first, last); n <= Math.max(first, last); n += 1) {
      if (n === 0 || n > total) return `There is no option ${n}; the options are 1 to ${total}.`;
      if (!picked.includes(n - 1)) picked.push(n - 1);
    }
  }
  return picked;
}

/** Numbered lists and one answer per line. `input`: the answers as one text, or a function
 * that returns the next line (null at the end, TOO_LONG, INTERRUPTED), else stdin, read
 * synchronously; `output`: where questions go (else stderr); `interactive`: a person types the
 * lines (else: when stdin is a terminal). */
export class LineUi {
  constructor({ input, output, interactive } = {}) {
    this.nextLine = input === undefined ? stdinLines() : typeof input === 'function' ? input : textLines(input);
    this.interactive = interactive ?? (input === undefined && Boolean(process.stdin.isTTY));
    this.output = output ?? process.stderr;
    this.context = undefined;
    this.declinable = false;
    /** Why asking stopped: `quit`, `ended` (the input ended) or `interrupted`. */
    this.stopped = undefined;
    this.peeked = undefined;
    this.probed = false;
    this.hinted = new Set();
  }

  say(text) {
    this.output.write(`${text}\n`);
  }

  hint(key, text) {
    if (!this.hinted.has(key)) {
      this.hinted.add(key);
      this.say(text);
    }
  }

  line() {
    if (this.peeked !== undefined) {
      const line = this.peeked;
      this.peeked = undefined;
      return line;
    }
    return this.nextLine();
  }

  read(prompt = '> ') {
    let line = INTERRUPTED;
    while (this.stopped !== 'interrupted') {
      this.output.write(prompt);
      line = this.line();
      if (line !== TOO_LONG) break;
      this.say(`! That line is more than ${LINE_LIMIT} bytes; type a shorter answer.`);
    }
    if (line === INTERRUPTED) {
      // Ctrl-C or a signal while asking: the answers so far are kept, as on any cancel.
      this.stopped = 'interrupted';
      this.say('');
      throw new Stopped();
    }
    if (line === null) {
      this.stopped ??= 'ended';
      this.say('');
      throw new Stopped();
    }
    const typed = line.replace(/\r$/, '');
    if (['quit', 'exit'].includes(typed.trim().toLowerCase())) {
      this.stopped ??= 'quit';
      throw new Stopped();
    }
    return typed;
  }

  declined(line) {
    return this.declinable && line.trim().toLowerCase() === 'decline';
  }

  /** Runs `ask`, turning a stop into `onStop`. */
  guard(ask, onStop = nav('cancel')) {
    if (this.stopped) return onStop;
    try {
      return ask();
    } catch (error) {
      if (error instanceof Stopped) return onStop;
      throw error;
    }
  }

  showContext(context, declinable) {
    this.declinable = declinable;
    if (context && context !== this.context) {
      this.say('');
      this.say(context);
      this.context = context;
    }
  }

  showFrame(frame) {
    this.showContext(frame.context, frame.declinable);
    this.say('');
    let place = frame.total > 1 ? `Question ${frame.position} of ${frame.total}` : '';
    if (frame.header) place = place ? `${place} · ${frame.header}` : frame.header;
    if (place) this.say(place);
    const says = [frame.prompt, frame.header ?? ''].some((t) => t.trimEnd().toLowerCase().endsWith('(optional)'));
    this.say(frame.prompt + (frame.required || says ? '' : ' (optional)'));
    if (frame.hint) this.say(`(${frame.hint})`);
  }

  showFooter(frame) {
    if (frame.error) this.say(`! ${frame.error}`);
    const words = ['back', ...(frame.required ? [] : ['skip']), ...(frame.declinable ? ['decline'] : [])];
    this.hint(words.join(' '), `Commands: ${[...words, 'quit', 'help'].join(', ')}.`);
  }

  showList(options, ticks, extras = []) {
    const width = String(options.length + extras.length).length;
    options.forEach((option, i) => {
      const tick = ticks === undefined ? '' : ticks.includes(i) ? '[x] ' : '[ ] ';
      const badge = option.recommended ? ' (recommended)' : '';
      this.say(`  ${String(i + 1).padStart(width)}. ${tick}${option.label}${badge}`);
      const pad = ' '.repeat(width + 4 + tick.length);
      for (const line of (option.description ?? '').split('\n').filter(Boolean)) this.say(`${pad}${line}`);
      for (const line of (option.preview ?? '').split('\n').filter(Boolean)) this.say(`${pad}│ ${line}`);
    });
    extras.forEach((extra, k) => {
      const tick = ticks === undefined ? '' : '[ ] ';
      this.say(`  ${String(options.length + k + 1).padStart(width)}. ${tick}${extra}`);
    });
  }

  readOther(current) {
    const line = this.read(current ? `Your answer (Enter keeps ${JSON.stringify(current)}): ` : 'Your answer: ');
    return line.trim() ? line : (current ?? '');
  }

  mode() {
    // From a pipe or file, input that ends before its first line means nobody is there.
    if (!this.probed && !this.interactive) {
      this.probed = true;
      const first = this.nextLine();
      if (first === null) return { tag: 'unavailable', val: 'no-input' };
      this.peeked = first;
    }
    return { tag: 'numbered' };
  }

  finished() {
    this.context = undefined;
    this.declinable = false;
  }

  select(frame, request) {
    return this.guard(() => {
      const extras = [request.otherLabel, request.discussLabel].filter(Boolean);
      this.showFrame(frame);
      this.showList(request.options, undefined, extras);
      const selected = request.options[request.selected ?? -1];
      if (selected) {
        this.say(`(default: ${request.selected + 1}. ${selected.label}${request.note ? `; note: ${request.note}` : ''})`);
      } else if (request.otherText) {
        this.say(`(default: ${request.otherText})`);
      }
      const own = request.otherLabel ? ', or type your own answer.' : '.';
      const note = request.notes ? ' To add a note, write it after a colon: 2: only on weekdays.' : '';
      this.hint(note ? 'select note' : 'select', `Type the number of your choice${own}${note}`);
      this.showFooter(frame);
      const count = request.options.length;
      const total = count + extras.length;
      const picked = (index, note) => ({ tag: 'picked', val: { index, note } });
      for (;;) {
        const line = this.read();
        if (this.declined(line)) return nav('decline');
        const typed = line.trim();
        if (!typed) {
          if (request.selected !== undefined) return picked(request.selected, request.note);
          if (request.otherText !== undefined) return { tag: 'other', val: request.otherText };
          if (!frame.required) return nav('skip');
          this.say(`! Type a number from 1 to ${total}.`);
          continue;
        }
        const n = asNumber(typed);
        if (n !== undefined) {
          if (n >= 1 && n <= count) return picked(n - 1);
          if (request.otherLabel && n === count + 1) return { tag: 'other', val: this.readOther(request.otherText) };
          if (request.discussLabel && n === count + 1 + (request.otherLabel ? 1 : 0)) return { tag: 'discuss' };
          this.say(`! There is no option ${n}; type a number from 1 to ${total}.`);
          continue;
        }
        const index = labelIndex(request.options, typed);
        if (index >= 0) return picked(index);
        const noted = splitNote(typed, request.notes);
        const m = noted && asNumber(noted[0]);
        if (m !== undefined && m >= 1 && m <= count) return picked(m - 1, noted[1]);
        const word = typed.toLowerCase();
        if (COMMANDS[word]) return nav(COMMANDS[word]);
        if (word === 'help' || word === '?') {
          this.showFrame(frame);
          this.showList(request.options, undefined, extras);
        } else if (request.otherLabel) {
          return { tag: 'other', val: typed };
        } else {
          this.say(`! Type a number from 1 to ${total}.`);
        }
      }
    });
  }

  multiSelect(frame, request) {
    return this.guard(() => {
      // Picks that were just refused are no default: Enter would only send them again.
      const selected = frame.error ? [] : [...request.selected];
      const otherText = frame.error ? undefined : request.otherText;
      const extras = request.otherLabel ? [request.otherLabel] : [];
      this.showFrame(frame);
      this.showList(request.options, selected, extras);
      if (selected.length || otherText) {
        this.say(`(default: ${[...selected.map((i) => String(i + 1)), ...(otherText ? [otherText] : [])].join(', ')})`);
      }
      // `none` only where no pick is an answer: a question that needs one says so in its hint.
      const none = request.minPicks ? '' : ' (none for no pick)';
      const note = request.notes ? ' To add a note, write it after a colon: 1, 3: only on weekdays.' : '';
      this.hint(`multi${none ? ' none' : ''}${note ? ' note' : ''}`, `Type the numbers of your choices, like 1, 3 or 2-4${none}.${note}`);
      this.showFooter(frame);
      const count = request.options.length;
      const total = count + extras.length;
      const reply = (picked, other, note) => ({ tag: 'picked', val: { picked, other, note } });
      for (;;) {
        const line = this.read();
        if (this.declined(line)) return nav('decline');
        const typed = line.trim();
        if (!typed) return reply(selected, otherText, request.note);
        if (typed.toLowerCase() === 'none') return reply([]);
        const numbers = picks(typed, total);
        if (Array.isArray(numbers)) {
          if (numbers.includes(count)) return reply(numbers.filter((i) => i < count), this.readOther(otherText));
          return reply(numbers);
        }
        if (typeof numbers === 'string') {
          this.say(`! ${numbers}`);
          continue;
        }
        const index = labelIndex(request.options, typed);
        if (index >= 0) return reply([index]);
        const noted = splitNote(typed, request.notes);
        const notedPicks = noted && picks(noted[0], count);
        if (Array.isArray(notedPicks)) return reply(notedPicks, undefined, noted[1]);
        const word = typed.toLowerCase();
        if (COMMANDS[word]) return nav(COMMANDS[word]);
        if (word === 'help' || word === '?') {
          this.showFrame(frame);
          this.showList(request.options, selected, extras);
        } else if (request.otherLabel) {
          return reply([], typed);
        } else {
          this.say('! Type the numbers of your choices, like 1, 3 or 2-4.');
        }
      }
    });
  }

  text(frame, request) {
    return this.guard(() => {
      // After an error the initial text is the refused answer: a line cannot be edited, so it
      // is no default here.
      const initial = frame.error ? undefined : request.initial;
      this.showFrame(frame);
      if (initial !== undefined) this.say(`(default: ${request.secret ? '(hidden)' : initial})`);
      else if (request.placeholder) this.say(`(for example: ${request.placeholder})`);
      if (request.multiline) this.hint('multiline', 'Type your answer; an empty line ends it.');
      this.showFooter(frame);
      const first = this.read();
      if (this.declined(first)) return nav('decline');
      const word = first.trim().toLowerCase();
      if (COMMANDS[word]) return nav(COMMANDS[word]);
      if (!first.trim()) return { tag: 'submitted', val: initial ?? '' };
      if (!request.multiline) return { tag: 'submitted', val: first };
      const lines = [first];
      for (;;) {
        const line = this.read('  ');
        if (!line) return { tag: 'submitted', val: lines.join('\n') };
        lines.push(line);
      }
    });
  }

  confirm(frame, request) {
    return this.guard(() => {
      this.showFrame(frame);
      this.showFooter(frame);
      const choices = request.initial === true ? '[Y/n]' : request.initial === false ? '[y/N]' : '[y/n]';
      for (;;) {
        const line = this.read(`${choices} > `);
        if (this.declined(line)) return nav('decline');
        const word = line.trim().toLowerCase();
        if (word === 'y' || word === 'yes') return { tag: 'answered', val: true };
        if (word === 'n' || word === 'no') return { tag: 'answered', val: false };
        if (!word && request.initial !== undefined) return { tag: 'answered', val: request.initial };
        if (!word && !frame.required) return nav('skip');
        if (COMMANDS[word]) return nav(COMMANDS[word]);
        if (word === 'help' || word === '?') this.showFrame(frame);
        else this.say('! Type y for yes or n for no.');
      }
    });
  }

  number(frame, request) {
    return this.guard(() => {
      const initial = frame.error ? undefined : request.initial;
      this.showFrame(frame);
      if (initial !== undefined) this.say(`(default: ${initial})`);
      this.showFooter(frame);
      for (;;) {
        const line = this.read();
        if (this.declined(line)) return nav('decline');
        const word = line.trim().toLowerCase();
        if (COMMANDS[word]) return nav(COMMANDS[word]);
        if (word === 'help' || word === '?') this.showFrame(frame);
        else if (!word) return { tag: 'entered', val: initial === undefined ? '' : String(initial) };
        else return { tag: 'entered', val: line };
      }
    });
  }

  review(request) {
    if (this.stopped) return { tag: 'cancel' };
    this.showContext(request.context, request.declinable);
    const items = request.items;
    this.showReview(request);
    for (;;) {
      let line;
      try {
        line = this.read();
      } catch (error) {
        if (!(error instanceof Stopped)) throw error;
        // Every question has its answer: the end of input sends them; quit does not.
        return { tag: this.stopped === 'ended' ? 'submit' : 'cancel' };
      }
      if (this.declined(line)) return { tag: 'decline' };
      const typed = line.trim();
      if (!typed) return { tag: 'submit' };
      const n = asNumber(typed);
      if (n !== undefined && n >= 1 && n <= items.length) return { tag: 'edit', val: n - 1 };
      const word = typed.toLowerCase();
      if (word === 'back' && items.length) return { tag: 'edit', val: items.length - 1 };
      if (word === 'help' || word === '?') this.showReview(request);
      else if (!items.length) this.say('! Press Enter to accept.');
      else this.say(`! Press Enter to send, or type a number from 1 to ${items.length} to change an answer.`);
    }
  }

  showReview(request) {
    const items = request.items;
    if (!items.length) {
      this.say(`Press Enter to accept${request.declinable ? ', type decline to refuse' : ''}, or quit.`);
      return;
    }
    this.say('');
    this.say('Review your answers');
    const width = String(items.length).length;
    items.forEach((item, i) => {
      const title = item.header ?? item.prompt.split('\n')[0];
      this.say(`  ${String(i + 1).padStart(width)}. ${title}: ${item.answer}`);
    });
    const decline = request.declinable ? ', `decline` to refuse' : '';
    this.hint('review', `Press Enter to send these answers, type a number to change one${decline}, or quit.`);
  }
}
