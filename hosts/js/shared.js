// What the plugin's sandboxes share, in Node.js (sandbox.js) and on a web page (browser.js): the
// limits, the error a failed plugin gives, the memory and table caps written into the compiled
// module, and the answers a person gave, kept in their words. Nothing here needs Node.js.

import { COMPUTE_MS, MEMORY_BYTES, REPLAY_COMPUTE, REPLAY_MEMORY, REQUEST_BYTES, TABLE_ELEMENTS } from './contract.js';

/** How much the plugin may use, as the Rust host allows it (its defaults, from contract.js). */
export const LIMITS = Object.freeze({
  /** Linear memory of the plugin. */
  memoryBytes: MEMORY_BYTES,
  /** Milliseconds of the plugin's own work per call; the time a UI takes never counts. */
  computeMs: COMPUTE_MS,
  /** The largest arguments text handed to the plugin, and the longest answer line read. */
  requestBytes: REQUEST_BYTES,
});

/** The limits of a replay after the plugin failed once the person had answered, the Rust
 * host's multiples of memory and compute: a request that was merely large still gets its
 * result. */
export const replayLimits = (limits) => ({ ...limits, memoryBytes: limits.memoryBytes * REPLAY_MEMORY, computeMs: limits.computeMs * REPLAY_COMPUTE });

const PAGE = 65536;

/** The plugin could not run: its component cannot be compiled or is not this plugin
 * (`function` undefined), or it trapped or ran out of its memory or compute in `function`,
 * also when the person's replies were played back with larger limits. `given` holds what the
 * person answered before, in the words they saw, so that it is not lost. */
export class PluginError extends Error {
  constructor(message, { function: fn, given = [] } = {}) {
    super(message);
    this.name = 'PluginError';
    this.function = fn;
    this.given = given;
  }
}

// -- capping memory and tables in the module ---------------------------------------------------

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(byte & 0x80)) return [value, at];
  }
}

function encodeLeb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}

/** `limits` (flag, min, max) with a maximum of at most `cap`: the bytes and where they end. */
function capLimits(bytes, at, cap) {
  const flag = bytes[at];
  if (flag > 1) throw new Error(`limits of kind ${flag} (shared or 64-bit) are not this plugin's`);
  let [min, next] = leb(bytes, at + 1);
  let max = cap;
  if (flag === 1) [max, next] = leb(bytes, next);
  if (min > cap) throw new Error(`the module asks for ${min} units at the start, more than the cap of ${cap}`);
  return [[1, ...encodeLeb(min), ...encodeLeb(Math.min(max, cap))], next];
}

/** The core module `bytes` with every memory it defines capped at `memoryBytes` and every table
 * at TABLE_ELEMENTS (a funcref is host memory too, so tables have a cap of their own):
 * WebAssembly itself then refuses to grow them further, and the plugin fails as it does in the
 * Rust host. */
export function capped(bytes, memoryBytes) {
  const parts = [bytes.subarray(0, 8)];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, start] = leb(bytes, at + 1);
    const end = start + size;
    if (id === 4 || id === 5) {
      let [count, next] = leb(bytes, start);
      const body = [...encodeLeb(count)];
      for (; count > 0; count -= 1) {
        if (id === 4) body.push(bytes[next++]); // the table's element type
        const [limits, after] = capLimits(bytes, next, id === 4 ? TABLE_ELEMENTS : Math.floor(memoryBytes / PAGE));
        body.push(...limits);
        next = after;
      }
      parts.push(Uint8Array.from([id, ...encodeLeb(body.length), ...body]));
    } else {
      parts.push(bytes.subarray(at, end));
    }
    at = end;
  }
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// -- the person's replies -------------------------------------------------------------------

function given(frame, answer, note) {
  if (answer === undefined) return undefined;
  const value = { position: frame.position, question: frame.prompt, answer };
  if (frame.header !== undefined) value.header = frame.header;
  if (note !== undefined) value.note = note;
  return value;
}

/** What a widget's reply answered, in the words the person saw; undefined for a way out. */
const GIVEN = {
  select(frame, request, reply) {
    if (reply.tag === 'picked') return given(frame, request.options[reply.val.index]?.label, reply.val.note);
    return reply.tag === 'other' ? given(frame, reply.val) : undefined;
  },
  multiSelect(frame, request, reply) {
    if (reply.tag !== 'picked') return undefined;
    const labels = reply.val.picked.map((i) => request.options[i]?.label).filter((l) => l !== undefined);
    return given(frame, [...labels, ...(reply.val.other !== undefined ? [reply.val.other] : [])], reply.val.note);
  },
  text: (frame, request, reply) => (reply.tag === 'submitted' ? given(frame, reply.val) : undefined),
  confirm: (frame, request, reply) => (reply.tag === 'answered' ? given(frame, reply.val) : undefined),
  number: (frame, request, reply) => (reply.tag === 'entered' ? given(frame, reply.val) : undefined),
  // A line typed to a question (`answering`; none at the review), as typed: the plugin reads it,
  // but should it fail, the line is what the person gave.
  readLine: (hidden, answering, reply) => (reply.tag === 'line' && answering ? given(answering, reply.val) : undefined),
};

/** `answers` with what `reply` to `widget` answered, in question order: a later answer to a
 * question replaces an earlier one. */
export function noted(answers, widget, params, reply) {
  const answer = GIVEN[widget]?.(...params, reply);
  if (!answer) return answers;
  return [...answers.filter((g) => g.position !== answer.position), answer].sort((a, b) => a.position - b.position);
}
