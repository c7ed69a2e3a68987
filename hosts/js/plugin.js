// The interview plugin for JavaScript: the WebAssembly component, transpiled by jco, with a UI
// of your choice, in a sandbox (see sandbox.js). The plugin does all the reading, validation, batching and answer checking,
// and every text it hands a UI is already safe to print; a UI only shows widgets and says what
// the person did.

import { LIMITS, PluginError, load, run } from './sandbox.js';

export { LIMITS, PluginError, load };

/** The version of the plugin's WIT package these functions speak. */
export const WIT_VERSION = '0.3.0';

/** The envelopes `definitionsAs` writes. */
export const FORMATS = ['plain', 'openai', 'anthropic', 'mcp', 'gemini'];

const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A UI for exports that ask nobody. */
const NOBODY = new Proxy({}, { get: () => () => ({ tag: 'nav', val: 'cancel' }) });

/** The arguments as text, within the size the host hands to the plugin. */
function sized(value, limits) {
  const arguments_ = text(value);
  const bytes = Buffer.byteLength(arguments_);
  if (bytes > limits.requestBytes) throw new RangeError(`the request is ${bytes} bytes; the host accepts at most ${limits.requestBytes}`);
  return arguments_;
}

/** Runs the export `name` asking `ui` in the sandbox (`options.limits`, default LIMITS), and
 * tells the UI when it is done. */
function asking(ui, name, args, options = {}) {
  try {
    return run(name, args, ui ?? NOBODY, options);
  } finally {
    ui?.finished?.();
  }
}

/** Runs a tool call: `name` is the tool the model called (`interview` reads every known
 * dialect), `args` its arguments (JSON text, or a value to serialize). Returns the result JSON
 * text: `status`, `answers`, `text` for the model, ... Throws `PluginError` when the plugin
 * fails, with the answers the person gave. */
export function call(name, args, ui, { skipResponse, ...options } = {}) {
  const limits = options.limits ?? LIMITS;
  return asking(ui, 'call', [name, sized(args, limits), { skipResponse: skipResponse ?? undefined }], options);
}

/** Checks a tool call without asking anything: the `invalid` result, or `{"status": "valid",
 * "questions": [...]}`, as JSON text. */
export function check(name, args, options = {}) {
  return asking(undefined, 'check', [name, sized(args, options.limits ?? LIMITS)], options);
}

/** Answers an MCP `elicitation/create` request (the params or the whole JSON-RPC request; text
 * or a value) with `ui`. Returns `{ ending, reply }`: how it ended (`accepted`, `declined`,
 * `cancelled`, `unavailable`, `invalid`) and the JSON text to send back to the server. */
export function elicit(request, ui, { requester, ...options } = {}) {
  return asking(ui, 'elicit', [sized(request, options.limits ?? LIMITS), requester ?? undefined], options);
}

/** The tools the plugin answers, `interview` first: `{ name, description, parameters }`, the
 * parameters a JSON Schema as JSON text. */
export function definitions(options = {}) {
  return asking(undefined, 'definitions', [], options);
}

/** The tool definitions as an ecosystem lists them, JSON text: `plain`, `openai`, `anthropic`,
 * `mcp` (a `tools/list` result) or `gemini`. */
export function definitionsAs(format, options = {}) {
  if (!FORMATS.includes(format)) throw new RangeError(`unknown format ${format}: one of ${FORMATS.join(', ')}`);
  return asking(undefined, 'definitionsAs', [format], options);
}
