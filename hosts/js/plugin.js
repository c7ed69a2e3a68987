// The interview plugin for JavaScript: the WebAssembly component, transpiled by jco, with a UI
// of your choice. The plugin does all the reading, validation, batching and answer checking,
// and every text it hands a UI is already safe to print; a UI only shows widgets and says what
// the person did.

import { tool } from './generated/interview.js';
import { useUi } from './imports.js';

/** The version of the plugin's WIT package these functions speak. */
export const WIT_VERSION = '0.2.0';

/** The envelopes `definitionsAs` writes. */
export const FORMATS = ['plain', 'openai', 'anthropic', 'mcp', 'gemini'];

const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Calls `fn` with `ui` answering the plugin's widgets, and tells the UI when it is done. */
function asking(ui, fn) {
  useUi(ui);
  try {
    return fn();
  } finally {
    ui.finished?.();
  }
}

/** Runs a tool call: `name` is the tool the model called (`interview` reads every known
 * dialect), `args` its arguments (JSON text, or a value to serialize). Returns the result JSON
 * text: `status`, `answers`, `text` for the model, ... */
export function call(name, args, ui, { skipResponse } = {}) {
  return asking(ui, () => tool.call(name, text(args), { skipResponse: skipResponse ?? undefined }));
}

/** Checks a tool call without asking anything: the `invalid` result, or `{"status": "valid",
 * "questions": [...]}`, as JSON text. */
export function check(name, args) {
  return tool.check(name, text(args));
}

/** Answers an MCP `elicitation/create` request (the params or the whole JSON-RPC request; text
 * or a value) with `ui`. Returns `{ ending, reply }`: how it ended (`accepted`, `declined`,
 * `cancelled`, `unavailable`, `invalid`) and the JSON text to send back to the server. */
export function elicit(request, ui, { requester } = {}) {
  return asking(ui, () => tool.elicit(text(request), requester ?? undefined));
}

/** The tools the plugin answers, `interview` first: `{ name, description, parameters }`, the
 * parameters a JSON Schema as JSON text. */
export function definitions() {
  return tool.definitions();
}

/** The tool definitions as an ecosystem lists them, JSON text: `plain`, `openai`, `anthropic`,
 * `mcp` (a `tools/list` result) or `gemini`. */
export function definitionsAs(format) {
  if (!FORMATS.includes(format)) throw new RangeError(`unknown format ${format}: one of ${FORMATS.join(', ')}`);
  return tool.definitionsAs(format);
}
