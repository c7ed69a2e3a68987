// The plugin in the Rust host's sandbox: its memory and tables capped in the compiled module
// itself, and its compute time per call bounded by running it in a thread of its own that the
// calling thread stops when the plugin computes too long. The time a UI takes (a person
// thinking) never counts. The calling thread waits synchronously and asks its UI itself, so
// that each call has its own UI and its own instance: calls never see each other's UI.

import { readFileSync } from 'node:fs';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { LIMITS, PluginError, capped, noted, replayLimits } from './shared.js';

export { LIMITS, PluginError };

/** How long a new thread may take to start before the call gives up on it. */
const START_MS = 60000;
const [TO_CALLER, TO_GUEST] = [0, 1];
const GENERATED = new URL('./generated/', import.meta.url);
const TOOL = 'interview:plugin/tool@0.4.0';

/** The parent's Node.js options without those about its own program text (`--input-type`,
 * `-e`, `-p`), which a worker refuses to start with: a program run as `node --input-type=module
 * -e ...` still gets its threads. */
export function workerOptions(argv = process.execArgv) {
  const kept = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (['--input-type', '-e', '--eval', '-p', '--print'].includes(argv[i])) i += 1;
    else if (!/^--(input-type|eval|print)=/.test(argv[i])) kept.push(argv[i]);
  }
  return kept;
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
    execArgv: workerOptions(),
    // The glue's own JavaScript values mirror the plugin's memory at most a few times over.
    resourceLimits: { maxOldGenerationSizeMb: Math.max(256, Math.ceil(limits.memoryBytes / 2 ** 20) * 8) },
  });
  worker.unref();
  // Failures come as messages; a thread that dies without one runs out of its budget.
  worker.on('error', () => {});
  const recorded = [];
  // The line mode's text written while lines are played back: the person saw it when they typed
  // them. Only what leads up to the first line read live is written.
  const held = [];
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
      } else if (widget === 'write') {
        const [spans] = params;
        if (replay.length) held.push(...spans);
        else ui.write(spans);
      } else {
        if (replay.length && replay[0].widget === widget) {
          reply = replay.shift().reply;
          held.length = 0;
        } else {
          // The plugin took another path than the one played back: the person is asked from here.
          replay.length = 0;
          if (held.length) ui.write(held.splice(0));
          reply = ui[widget](...params);
        }
        recorded.push({ widget, reply });
        answers = noted(answers, widget, params, reply);
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
 * answered, their replies are played back into a fresh instance with larger limits
 * (`replayLimits`, the Rust host's), without asking again; if that fails too, or it failed before
 * they answered, `PluginError` carries what they gave. `onRecovered(failure)` hears of a saved
 * result. */
export function run(name, args, ui, { limits = LIMITS, onRecovered } = {}) {
  const first = attempt(name, args, ui, limits, []);
  if (!('failure' in first)) return first.result;
  const failed = (outcome) => new PluginError(`the plugin failed in \`${name}\`: ${outcome.failure}`, { function: name, given: outcome.answers });
  if (!first.recorded.length) throw failed(first);
  const retry = attempt(name, args, ui, replayLimits(limits), [...first.recorded]);
  if ('failure' in retry) throw failed(retry);
  onRecovered?.(first.failure);
  return retry.result;
}
