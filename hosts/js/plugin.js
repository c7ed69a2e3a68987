// The interview plugin for JavaScript in Node.js: the WebAssembly component, transpiled by jco,
// with a UI of your choice, in a sandbox (see sandbox.js). Each export runs synchronously: the
// calling thread asks its UI itself while the plugin waits in a thread of its own.

import { FORMATS, Result, WIT_VERSION, exports } from './api.js';
import { LIMITS, PluginError, load, run } from './sandbox.js';

export { FORMATS, LIMITS, PluginError, Result, WIT_VERSION, load };

export const {
  call, check, elicit, definitions, definitionsAs, unreadable, failed, unreadableElicitation, failedElicitation,
} = exports(run, LIMITS);
