// The thread the plugin runs in, one per call: the calling thread can stop it when it computes
// past its budget, which it could not do to code running on its own thread. Each call of the UI
// (a widget, the line mode's write and read) is sent to the calling thread, which makes it, and
// this thread waits for the reply.

import { receiveMessageOnPort, workerData } from 'node:worker_threads';

const { modules, port, counters, name, args } = workerData;
const [TO_CALLER, TO_GUEST] = [0, 1];

function send(message) {
  port.postMessage(message);
  Atomics.add(counters, TO_CALLER, 1);
  Atomics.notify(counters, TO_CALLER);
}

/** Asks the calling thread's UI, and waits as long as the person takes. */
function ask(widget, params) {
  const seen = Atomics.load(counters, TO_GUEST);
  send({ widget, params });
  for (;;) {
    const received = receiveMessageOnPort(port);
    if (received) return received.message;
    Atomics.wait(counters, TO_GUEST, seen);
  }
}

const widget = (name) => (...params) => ask(name, params);
const UI = ['mode', 'select', 'multiSelect', 'text', 'confirm', 'number', 'review', 'write', 'readLine'];
const ui = Object.fromEntries(UI.map((w) => [w, widget(w)]));

const message = (error) => (error instanceof Error ? error.message : String(error));

// Loaded here rather than imported, so that glue that cannot load is reported as a failure
// instead of a thread that never answers.
let instantiate;
try {
  ({ instantiate } = await import('./generated/interview.js'));
} catch (error) {
  send({ error: `cannot load the component's glue: ${message(error)}` });
}
if (instantiate) {
  // The plugin's budget starts now: loading the glue is not its compute.
  send({ started: true });
  try {
    const { tool } = instantiate((path) => modules[path], { 'interview:plugin/ui': ui });
    send({ result: tool[name](...args) });
  } catch (error) {
    send({ error: message(error) });
  }
}
