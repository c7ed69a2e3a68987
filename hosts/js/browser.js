// The interview plugin on a web page: the same exports as in Node.js, each returning a promise,
// and a UI whose widgets may return promises (a person clicking in the page). The plugin runs
// in a Web Worker, the compiled component capped at the Rust host's memory and table limits,
// and is stopped when it computes longer than its budget; the time a person takes never counts.
//
//   import { call } from 'interview-plugin';   // the `browser` condition picks this file
//   const result = await call('interview', { question: 'Ship it?', type: 'confirm' }, myUi);
//
// Nothing here needs Node.js: the core modules are fetched next to this file and compiled once.

import { FORMATS, Result, WIT_VERSION, exports } from './api.js';
import { LIMITS, PluginError, capped, noted, replayLimits } from './shared.js';

export { FORMATS, LIMITS, PluginError, Result, WIT_VERSION };

const CORE = ['interview.core.wasm', 'interview.core2.wasm', 'interview.core3.wasm'];
/** How long a new worker may take to load the glue before the call gives up on it. */
const START_MS = 60000;

const compiled = new Map();

/** The plugin's core modules, fetched and compiled once per memory cap. */
function modules(memoryBytes) {
  if (!compiled.has(memoryBytes)) {
    const built = Promise.all(CORE.map(async (path) => {
      const response = await fetch(new URL(`./generated/${path}`, import.meta.url));
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return [path, await WebAssembly.compile(capped(bytes, memoryBytes))];
    })).then(Object.fromEntries, (error) => {
      compiled.delete(memoryBytes);
      throw new PluginError(`cannot compile the component: ${error.message}`);
    });
    compiled.set(memoryBytes, built);
  }
  return compiled.get(memoryBytes);
}

/** Fetches and compiles the plugin now (it is otherwise compiled at its first call). */
export async function load(limits = LIMITS) {
  await modules(limits.memoryBytes);
}

/** One run in `worker`: `{ result }`, `{ asked }` (a widget with no reply yet) or `{ error }`. */
function runOnce(worker, message, computeMs) {
  return new Promise((resolve) => {
    const stop = (error) => {
      clearTimeout(timer);
      resolve({ error });
    };
    let timer = setTimeout(() => stop('the plugin did not start'), START_MS);
    worker.onmessage = ({ data }) => {
      if (data.started) {
        clearTimeout(timer);
        timer = setTimeout(() => stop(`the plugin computed for more than ${computeMs / 1000}s without returning`), computeMs);
        return;
      }
      clearTimeout(timer);
      resolve(data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      stop(event.message || 'the plugin thread failed');
    };
    worker.postMessage(message);
  });
}

/** Runs the export `name` until it returns, asking `ui` at each widget the replies so far do
 * not answer. `replies` are played back first. */
async function attempt(name, args, ui, mode, limits, replayed) {
  const built = await modules(limits.memoryBytes);
  const replies = [...replayed];
  const worker = new Worker(new URL('./browser-worker.js', import.meta.url), { type: 'module' });
  try {
    for (;;) {
      const message = { modules: built, name, args, mode, replies: replies.map(({ widget, reply }) => ({ widget, reply })) };
      const outcome = await runOnce(worker, message, limits.computeMs);
      if (outcome.written?.length) await ui.write(outcome.written);
      if ('result' in outcome) return { result: outcome.result, replies };
      if ('error' in outcome) return { failure: outcome.error, replies };
      const { widget, params, used } = outcome.asked;
      replies.length = used;
      replies.push({ widget, params, reply: await ui[widget](...params) });
    }
  } finally {
    worker.terminate();
  }
}

/** What the person gave in `replies`, in their words. */
const given = (replies) => replies.reduce((answers, { widget, params, reply }) => noted(answers, widget, params, reply), []);

/** Runs the export `name` with `args`, asking `ui`. If the plugin fails after the person
 * answered, their replies are played back with larger limits (`replayLimits`, the Rust host's),
 * without asking again; if that fails too, or it failed before they answered, `PluginError`
 * carries what they gave. `onRecovered(failure)` hears of a saved result. */
async function run(name, args, ui, { limits = LIMITS, onRecovered } = {}) {
  const mode = await ui.mode();
  const first = await attempt(name, args, ui, mode, limits, []);
  if (!('failure' in first)) return first.result;
  const failed = (outcome) => new PluginError(`the plugin failed in \`${name}\`: ${outcome.failure}`, { function: name, given: given(outcome.replies) });
  if (!first.replies.length) throw failed(first);
  const retry = await attempt(name, args, ui, mode, replayLimits(limits), first.replies);
  if ('failure' in retry) throw failed(retry);
  onRecovered?.(first.failure);
  return retry.result;
}

export const {
  call, check, elicit, definitions, definitionsAs, unreadable, failed, unreadableElicitation, failedElicitation,
} = exports(run, LIMITS);
