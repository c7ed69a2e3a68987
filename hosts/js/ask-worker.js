// The thread `npx interview-plugin ask|elicit` asks in: the plugin's calls block while the person
// answers, so they run here, and the main thread stays free to read stdin and to hear Ctrl-C,
// SIGTERM and SIGHUP. Lines come from the main thread, one message each.

import { receiveMessageOnPort, workerData, parentPort } from 'node:worker_threads';
import { call, elicit } from './plugin.js';
import { INTERRUPTED, LineUi, TOO_LONG, writeAll } from './line-ui.js';

const { command, args, lines, counters, interactive, colour } = workerData;
const MARKERS = { tooLong: TOO_LONG, interrupted: INTERRUPTED };

/** The next line the main thread sent; undefined when none came within `patience` (ms). An
 * interrupt is a message too, so it ends the wait. */
function nextLine(patience = Infinity) {
  const deadline = Date.now() + patience;
  for (;;) {
    const seen = Atomics.load(counters, 0);
    const received = receiveMessageOnPort(lines);
    if (received) return typeof received.message === 'object' && received.message !== null ? MARKERS[received.message.marker] : received.message;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    Atomics.wait(counters, 0, seen, left);
  }
}

const stderr = { write: (text) => writeAll(2, text) };
const ui = new LineUi({ input: nextLine, output: stderr, interactive, colour });
const onRecovered = (failure) => stderr.write(`interview: the plugin failed after the answers were given (${failure}); they were played back into a fresh instance with larger limits\n`);
try {
  if (command === 'elicit') {
    const { ending, reply } = elicit(args.text, ui, { requester: args.server, onRecovered });
    parentPort.postMessage({ reply, ending, interrupted: ui.stopped === 'interrupted' });
  } else {
    const { status, json } = call(args.tool, args.text, ui, { skipResponse: args.skipResponse, onRecovered });
    parentPort.postMessage({ json, status, interrupted: ui.stopped === 'interrupted' });
  }
} catch (error) {
  parentPort.postMessage({ failed: { message: error.message, function: error.function, given: error.given ?? [] } });
}
