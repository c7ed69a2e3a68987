// The plugin in the Rust host's sandbox: its memory and tables capped in the compiled module
// itself, and its compute time per call bounded by running it in a thread of its own that the
// calling thread stops when the plugin computes too long. The time a UI takes (a person
// thinking) never counts. The calling thread waits synchronously and asks its UI itself, so
// that each call has its own UI and its own instance: calls never see each other's UI.

import { readFileSync } from 'node:fs';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';

/** How much the plugin may use, as the Rust host allows it. */
export const LIMITS = Object.freeze({
  /** Linear memory of the plugin. */
  memoryBytes: 64 << 20,
  /** Milliseconds of the plugin's own work per call; the time a UI takes never counts. */
  computeMs: 2000,
  /** The largest arguments text handed to the plugin, and the longest answer line read. */
  requestBytes: 8 << 20,
});

/** Elements of any one table: a funcref is host memory too, so tables have a cap of their own. */
const TABLE_ELEMENTS = 10000;
/** How long a new thread may take to start before the call gives up on it. */
const START_MS = 60000;
const PAGE = 65536;
const [TO_CALLER, TO_GUEST] = [0, 1];
const GENERATED = new URL('./generated/', import.meta.url);
const TOOL = 'interview:plugin/tool@0.3.0';

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
 * at TABLE_ELEMENTS: WebAssembly itself then refuses to grow them further, and the plugin fails
 * as it does in the Rust host. */
function capped(bytes, memoryBytes) {
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
  return Buffer.concat(parts);
}

const compiled = new Map();

/** The plugin's core modules, compiled once per memory cap. */
function modules(memoryBytes) {
  if (!compiled.has(memoryBytes)) {
    let built;
    try {
      built = Object.fromEntries(['interview.core.wasm', 'interview.core2.wasm', 'interview.core3.wasm'].map((path) => {
        const bytes = readFileSync(new URL(path, GENERATED));
        return [path, new WebAssembly.Module(capped(bytes, memoryBytes))];
      }));
    } catch (error) {
      throw new PluginError(`cannot compile the component: ${error.message}`);
    }
    // A module that compiles may still be another one: the glue would fail on it later. With
    // none of the plugin's exports, this says what the Rust host (wasmtime) says of such a
    // component, so that both give the same result.
    const exports = WebAssembly.Module.exports(built['interview.core.wasm']).map((e) => e.name);
    if (!exports.some((name) => name.startsWith(`${TOOL}#`))) {
      throw new PluginError(`cannot instantiate the component: no exported instance named \`${TOOL}\``);
    }
    const missing = ['memory', `${TOOL}#call`, `${TOOL}#elicit`].find((name) => !exports.includes(name));
    if (missing) throw new PluginError(`cannot compile the component: the module has no export \`${missing}\`, so it is not this plugin`);
    compiled.set(memoryBytes, built);
  }
  return compiled.get(memoryBytes);
}

/** Compiles the plugin now (it is otherwise compiled at its first call): a damaged one throws
 * `PluginError`. */
export function load(limits = LIMITS) {
  modules(limits.memoryBytes);
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
};

// -- one call -------------------------------------------------------------------------------

/** One run of the export `name` with `args` in a fresh thread and instance, asking `ui`; the
 * replies in `replay` are played back first. Returns `{ result }` or `{ failure }`, and what
 * the person replied and gave. */
function attempt(name, args, ui, limits, replay) {
  const { port1: port, port2 } = new MessageChannel();
  const counters = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(new URL('./guest-worker.js', import.meta.url), {
    workerData: { modules: modules(limits.memoryBytes), port: port2, counters, name, args },
    transferList: [port2],
    // The glue's own JavaScript values mirror the plugin's memory at most a few times over.
    resourceLimits: { maxOldGenerationSizeMb: Math.max(256, Math.ceil(limits.memoryBytes / 2 ** 20) * 8) },
  });
  worker.unref();
  // Failures come as messages; a thread that dies without one runs out of its budget.
  worker.on('error', () => {});
  const recorded = [];
  let answers = [];
  let remaining = limits.computeMs;
  let since = performance.now();
  let started = false;
  try {
    for (;;) {
      const seen = Atomics.load(counters, TO_CALLER);
      const received = receiveMessageOnPort(port);
      if (!received) {
        const wait = started ? Math.max(1, remaining - (performance.now() - since)) : START_MS;
        if (Atomics.wait(counters, TO_CALLER, seen, wait) === 'timed-out') {
          const ran = performance.now() - since;
          if (!started || ran >= remaining) {
            const what = started
              ? `the plugin computed for more than ${limits.computeMs / 1000}s without returning`
              : 'the plugin did not start';
            return { failure: what, recorded, answers };
          }
        }
        continue;
      }
      const message = received.message;
      if (message.started) {
        started = true;
        since = performance.now();
        continue;
      }
      if ('result' in message) return { result: message.result, recorded, answers };
      if ('error' in message) return { failure: message.error, recorded, answers };
      remaining -= performance.now() - since;
      const { widget, params } = message;
      let reply;
      if (widget === 'mode') {
        reply = ui.mode();
      } else {
        if (replay.length && replay[0].widget === widget) {
          reply = replay.shift().reply;
        } else {
          // The plugin took another path than the one played back: the person is asked from here.
          replay.length = 0;
          reply = ui[widget](...params);
        }
        recorded.push({ widget, reply });
        const answer = GIVEN[widget]?.(...params, reply);
        if (answer) answers = [...answers.filter((g) => g.position !== answer.position), answer].sort((a, b) => a.position - b.position);
      }
      since = performance.now();
      port.postMessage(reply);
      Atomics.add(counters, TO_GUEST, 1);
      Atomics.notify(counters, TO_GUEST);
    }
  } finally {
    port.close();
    worker.terminate();
  }
}

/** Runs the export `name` with `args`, asking `ui`. If the plugin fails after the person
 * answered, their replies are played back into a fresh instance with 4x the memory and 5x the
 * compute, without asking again; if that fails too, or it failed before they answered,
 * `PluginError` carries what they gave. `onRecovered(failure)` hears of a saved result. */
export function run(name, args, ui, { limits = LIMITS, onRecovered } = {}) {
  const first = attempt(name, args, ui, limits, []);
  if (!('failure' in first)) return first.result;
  const failed = (outcome) => new PluginError(`the plugin failed in \`${name}\`: ${outcome.failure}`, { function: name, given: outcome.answers });
  if (!first.recorded.length) throw failed(first);
  const larger = { ...limits, memoryBytes: limits.memoryBytes * 4, computeMs: limits.computeMs * 5 };
  const retry = attempt(name, args, ui, larger, [...first.recorded]);
  if ('failure' in retry) throw failed(retry);
  onRecovered?.(first.failure);
  return retry.result;
}
