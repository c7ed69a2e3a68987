// The worker thread of `elicitationHandler`: one elicitation, asked with a LineUi.

import { parentPort, workerData } from 'node:worker_threads';
import { elicit } from './plugin.js';
import { LineUi } from './line-ui.js';

const { params, requester, input } = workerData;
parentPort.postMessage(elicit(params, new LineUi({ input }), { requester }));
