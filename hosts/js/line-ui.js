// A person at a terminal or behind a pipe, one answer a line: the line mode's input and output.
// The plugin draws the numbered lists and reads every line itself, so a line means the same here
// as in the Rust command; this side only writes the plugin's text (to stderr) and reads lines
// (from stdin): a line's limit, no echo for a secret, an interrupt, and input that has already
// ended before its first line, which means nobody is there (`unavailable`).

import { spawnSync } from 'node:child_process';
import { fstatSync, readSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { isMainThread } from 'node:worker_threads';
import { LIMITS } from './shared.js';

/** An answer line is bounded as a request is: the rest of a longer line is dropped. */
const LINE_LIMIT = LIMITS.requestBytes;

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

/** How long (ms) a pipe or file that has sent nothing yet is given to show that it ends before
 * the question is drawn, as in the Rust command: a program closing its end at once (an empty
 * pipe) means nobody is there, told apart from one still to write, or a person. */
const NOBODY_PATIENCE = 500;

/** Reads what stdin holds now into `buffer`, never waiting: the number of bytes read (0: the
 * input has ended), or undefined when nothing has come yet, or when only a read that could wait
 * would tell. */
function readNow(buffer) {
  // A person types at a terminal: never read ahead of them.
  if (isatty(0)) return undefined;
  let stat;
  try {
    stat = fstatSync(0);
  } catch {
    return 0; // no stdin at all
  }
  if (stat.isFIFO() || stat.isSocket()) {
    // A read of a pipe or socket waits unless it is non-blocking, which libuv makes stdin's
    // once `process.stdin` is opened on one; a worker's `process.stdin` is not descriptor 0. A
    // file or a device such as /dev/null never makes a read wait.
    if (!isMainThread) return undefined;
    void process.stdin;
  }
  try {
    return readSync(0, buffer, 0, buffer.length, null);
  } catch (error) {
    return error.code === 'EAGAIN' ? undefined : 0;
  }
}

/** Lines read synchronously from file descriptor 0, never past a line's end. Given a
 * `patience` (ms), it gives undefined when no whole line came within it. */
function stdinLines() {
  const buffer = Buffer.alloc(1);
  const splitter = lineSplitter();
  const byte = () => {
    for (;;) {
      try {
        return readSync(0, buffer, 0, 1, null);
      } catch (error) {
        if (error.code !== 'EAGAIN') return 0;
        pause();
      }
    }
  };
  const byteBefore = (deadline) => {
    for (;;) {
      const read = readNow(buffer);
      if (read !== undefined || Date.now() >= deadline) return read;
      pause();
    }
  };
  return (patience = Infinity) => {
    const deadline = Date.now() + patience;
    for (;;) {
      const read = patience === Infinity ? byte() : byteBefore(deadline);
      if (read === undefined) return undefined;
      if (read === 0) return splitter.end();
      const [line] = splitter.push(buffer);
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

/** A terminal's attributes for each tone. */
const ATTRIBUTES = { strong: '\x1b[1m', faint: '\x1b[2m', alert: '\x1b[1;31m' };

/** Turns the terminal on stdin's echo on or off, keeping its line editing and Ctrl-C: Node.js
 * has no termios but raw mode, which would take both. Where there is no `stty`, it echoes. */
const echo = (on) => spawnSync('stty', [on ? 'echo' : '-echo'], { stdio: [0, 'ignore', 'ignore'] });

// What a terminal must not be handed from another component than the built-in one (which
// cleans all agent text itself, escape sequences whole): the controls it acts on, and the
// format characters that reorder or hide text (bidirectional controls, zero-width spaces),
// by Unicode category, as the Rust host cleans. Joiners stay: emoji and some scripts need them.
const UNSEEN = /(?![\n\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `text` with its tabs as spaces, Unicode's line separators as line breaks, and no other
 * control or format character. */
function printable(text) {
  return text.replaceAll('\t', ' ').replace(/[\u2028\u2029]/g, '\n').replace(UNSEEN, '');
}

/** The plugin's text and one line per answer. `input`: the lines as one text, or a function that
 * returns the next line (null at the end, TOO_LONG, INTERRUPTED; given a `patience` in ms, it
 * waits no longer, and gives undefined when no line came), else stdin, read synchronously;
 * `output`: where the text goes (else stderr); `interactive`: a person types the lines (else:
 * when stdin is a terminal); `colour`: the plugin's tones as a terminal's attributes. */
export class LineUi {
  constructor({ input, output, interactive, colour = false } = {}) {
    this.nextLine = input === undefined ? stdinLines() : typeof input === 'function' ? input : textLines(input);
    this.interactive = interactive ?? (input === undefined && Boolean(process.stdin.isTTY));
    // A secret is typed at a terminal on stdin, whose echo is turned off for it.
    this.echoes = this.interactive && isatty(0);
    this.output = output ?? process.stderr;
    this.colour = colour;
    /** Why reading stopped: `ended` (the input ended) or `interrupted`. */
    this.stopped = undefined;
    /** The first line, or null for input that ended before it, once `mode` looked. */
    this.peeked = undefined;
    this.probed = false;
  }

  mode() {
    // From a pipe or file, input that ends before its first line means nobody is there. It is
    // given a moment to: a pipe that has sent nothing by then may still bring answers, so the
    // question is drawn and the read waits for them, where an interrupt can stop it. Asked
    // again (a retry asks), the answer is the same.
    if (!this.probed && !this.interactive) {
      this.probed = true;
      this.peeked = this.nextLine(NOBODY_PATIENCE);
    }
    return this.peeked === null ? { tag: 'unavailable', val: 'no-input' } : { tag: 'lines' };
  }

  // Written even once stopped: the plugin ends the line its prompt left open, and writes
  // nothing more after that.
  write(spans) {
    const text = spans.map(({ text, tone }) => {
      const shown = printable(text);
      const on = this.colour && ATTRIBUTES[tone];
      // Each line set off alone, so that a line break never carries an attribute.
      return on ? shown.split('\n').map((line) => (line && `${on}${line}\x1b[0m`)).join('\n') : shown;
    });
    this.output.write(text.join(''));
  }

  readLine(hidden) {
    if (this.stopped) return { tag: this.stopped };
    const line = this.line(hidden);
    if (line === TOO_LONG) return { tag: 'too-long', val: BigInt(LINE_LIMIT) };
    if (line === null || line === INTERRUPTED) {
      this.stopped = line === null ? 'ended' : 'interrupted';
      return { tag: this.stopped };
    }
    return { tag: 'line', val: line.replace(/\r+$/, '') };
  }

  line(hidden) {
    if (this.peeked !== undefined) {
      const line = this.peeked;
      this.peeked = undefined;
      return line;
    }
    if (!hidden || !this.echoes) return this.nextLine();
    echo(false);
    try {
      return this.nextLine();
    } finally {
      echo(true);
      // The Enter that ended the line was not echoed either.
      this.output.write('\n');
    }
  }
}
