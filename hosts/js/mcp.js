// Answer MCP elicitations in the terminal from any client built on the official MCP TypeScript
// SDK:
//
//   client.setRequestHandler(ElicitRequestSchema, elicitationHandler({ requester: 'github' }));
//
// Each `elicitation/create` request is asked as a form: every field checked as the person
// answers, a review where they submit, change or decline, and content sent only on accept,
// always fitting the requested schema. A form the plugin cannot ask is refused with a JSON-RPC
// error (-32602) that names the field at fault.

import { Worker } from 'node:worker_threads';
import { elicit } from './plugin.js';
import { workerOptions } from './sandbox.js';

/** Runs one elicitation with a LineUi in a worker thread, so that the client's event loop
 * (its transport, its other requests) keeps running while the person answers. */
function inWorker(params, requester, input) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./elicit-worker.js', import.meta.url), {
      workerData: { params, requester, input },
      execArgv: workerOptions(),
    });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the elicitation worker exited with ${code}`)));
  });
}

/** A handler for the SDK's `ElicitRequestSchema`. Options: `requester` names the server to the
 * person; `ui` asks through your own UI object, on this thread; `input` (for tests and scripts)
 * gives the answers, one text per elicitation, instead of reading them from stdin. */
export function elicitationHandler({ ui, requester, input } = {}) {
  const answers = Array.isArray(input) ? [...input] : input;
  return async (request) => {
    const { params } = request;
    const { ending, reply } = ui
      ? elicit(params, ui, { requester })
      : await inWorker(params, requester, Array.isArray(answers) ? answers.shift() ?? '' : answers);
    const parsed = JSON.parse(reply);
    if (ending === 'invalid') {
      // The SDK sends a thrown error's code, message and data as the JSON-RPC error.
      throw Object.assign(new Error(parsed.error.message), parsed.error);
    }
    return parsed;
  };
}
