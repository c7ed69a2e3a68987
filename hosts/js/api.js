// The plugin's exports as functions, over a sandbox's `run`: synchronous in Node.js (plugin.js),
// returning promises on a web page (browser.js). The plugin does all the reading, validation,
// batching and answer checking, and every text it hands a UI is already safe to print; a UI only
// shows widgets and says what the person did. Nothing here needs Node.js.

/** The version of the plugin's WIT package these functions speak. */
export const WIT_VERSION = '0.3.0';

/** The envelopes `definitionsAs` writes. */
export const FORMATS = ['plain', 'openai', 'anthropic', 'mcp', 'gemini'];

const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));
const encoder = new TextEncoder();

/** A UI for exports that ask nobody. */
const NOBODY = new Proxy({}, { get: () => () => ({ tag: 'nav', val: 'cancel' }) });

/** The arguments as text, within the size the host hands to the plugin. */
function sized(value, limits) {
  const arguments_ = text(value);
  const bytes = encoder.encode(arguments_).length;
  if (bytes > limits.requestBytes) throw new RangeError(`the request is ${bytes} bytes; the host accepts at most ${limits.requestBytes}`);
  return arguments_;
}

/** What `call` and `check` return: the `status` the plugin gave beside the JSON (a call's
 * `answered`, `cancelled`, `invalid` or `unavailable`; a check's `valid` or `invalid`), so that
 * nothing reads the JSON to learn how it ended, and `json`, the result the agent reads, which is
 * also the result as a string (`JSON.parse(result)` reads it). */
export class Result {
  constructor(status, json) {
    this.status = status;
    this.json = json;
  }

  toString() {
    return this.json;
  }
}

/** `f` of a value, or of what a promise of one gives. */
const then = (value, f) => (value instanceof Promise ? value.then(f) : f(value));

/** The exports, each run by `run(name, args, ui, options)` under `options.limits` (default
 * `LIMITS`); a UI hears `finished()` once its call is done, also when `run` returns a promise. */
export function exports(run, LIMITS) {
  function asking(ui, name, args, options = {}) {
    let result;
    try {
      result = run(name, args, ui ?? NOBODY, options);
    } catch (error) {
      ui?.finished?.();
      throw error;
    }
    if (result instanceof Promise) return result.finally(() => ui?.finished?.());
    ui?.finished?.();
    return result;
  }

  return {
    /** Runs a tool call: `name` is the tool the model called (`interview` reads every known
     * dialect), `args` its arguments (JSON text, or a value to serialize). Returns a `Result`:
     * its `status`, and its `json` (`status`, `answers`, `text` for the model, ...). Throws
     * `PluginError` when the plugin fails, with the answers the person gave. */
    call(name, args, ui, { skipResponse, ...options } = {}) {
      const limits = options.limits ?? LIMITS;
      const result = asking(ui, 'call', [name, sized(args, limits), { skipResponse: skipResponse ?? undefined }], options);
      return then(result, ({ status, json }) => new Result(status, json));
    },

    /** Checks a tool call without asking anything: a `Result` whose status is `valid` or
     * `invalid`, and whose JSON is the `invalid` result or `{"status": "valid", "questions":
     * [...]}`. */
    check(name, args, options = {}) {
      const checked = asking(undefined, 'check', [name, sized(args, options.limits ?? LIMITS)], options);
      return then(checked, ({ valid, json }) => new Result(valid ? 'valid' : 'invalid', json));
    },

    /** Answers an MCP `elicitation/create` request (the params or the whole JSON-RPC request;
     * text or a value) with `ui`. Returns `{ ending, reply }`: how it ended (`accepted`,
     * `declined`, `cancelled`, `unavailable`, `invalid`) and the JSON text to send back. */
    elicit(request, ui, { requester, ...options } = {}) {
      return asking(ui, 'elicit', [sized(request, options.limits ?? LIMITS), requester ?? undefined], options);
    },

    /** The tools the plugin answers, `interview` first: `{ name, description, parameters }`,
     * the parameters a JSON Schema as JSON text. */
    definitions(options = {}) {
      return asking(undefined, 'definitions', [], options);
    },

    /** The tool definitions as an ecosystem lists them, JSON text: `plain`, `openai`,
     * `anthropic`, `mcp` (a `tools/list` result) or `gemini`. */
    definitionsAs(format, options = {}) {
      if (!FORMATS.includes(format)) throw new RangeError(`unknown format ${format}: one of ${FORMATS.join(', ')}`);
      return asking(undefined, 'definitionsAs', [format], options);
    },
  };
}
