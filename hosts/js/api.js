// The plugin's exports as functions, over a sandbox's `run`: synchronous in Node.js (plugin.js),
// returning promises on a web page (browser.js). The plugin does all the reading, validation,
// batching and answer checking, and every text it hands a UI is already safe to print; a UI only
// shows widgets and says what the person did. Nothing here needs Node.js.

import { MOST_MEMORY, WORDING_MEMORY_PER_BYTE } from './contract.js';

/** The version of the plugin's WIT package these functions speak. */
export const WIT_VERSION = '0.4.0';

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

/** The UTF-8 bytes of the texts in `value`: a string, or those in an array's or object's values. */
function bytes(value) {
  if (typeof value === 'string') return encoder.encode(value).length;
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((sum, v) => sum + bytes(v), 0);
  return 0;
}

/** `limits` grown for an instance that words a result holding `size` bytes of the host's texts,
 * memory and compute alike: a call's limits would refuse to word the answers of one long paste,
 * and those answers are what the agent must not lose. The plugin holds what it words some fifteen
 * times over while it writes it (the lowered records, each answer parsed and listed, quoted again
 * in the text, the JSON text as it grows), WORDING_MEMORY_PER_BYTE as the Rust host reckons it:
 * three pasted answers of 8 MB need some 350 MB. MOST_MEMORY is all a 32-bit WebAssembly
 * instance can address. Grown by powers of two, since the sandbox compiles the plugin once for
 * each memory cap. */
function wording(limits, size) {
  const times = 2 ** Math.ceil(Math.log2(1 + (WORDING_MEMORY_PER_BYTE * size) / limits.memoryBytes));
  return { ...limits, memoryBytes: Math.min(limits.memoryBytes * times, MOST_MEMORY), computeMs: limits.computeMs * times };
}

/** A given answer (a `PluginError`'s) as the plugin's `given` record takes it: the answer as JSON
 * text, written as the Rust host writes it, since the plugin quotes it as it is. */
const givenRecord = ({ position, header, question, answer, note }) => ({ position, header, prompt: question, answer: JSON.stringify(answer), note });

/** What `call`, `check`, `unreadable` and `failed` return: the `status` the plugin gave beside
 * the JSON (a call's `answered`, `cancelled`, `invalid`, `unavailable` or `failed`; a check's
 * `valid` or `invalid`), so that nothing reads the JSON to learn how it ended, and `json`, the
 * result the agent reads, which is also the result as a string (`JSON.parse(result)` reads it). */
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

/** A `call-result` of the plugin (or a promise of one) as a `Result`. */
const resultOf = (callResult) => then(callResult, ({ status, json }) => new Result(status, json));

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

  /** Runs the export `name` that words a host's result, under limits grown by what it words. */
  function word(name, args, options) {
    return asking(undefined, name, args, { ...options, limits: wording(options.limits ?? LIMITS, bytes(args)) });
  }

  return {
    /** Runs a tool call: `name` is the tool the model called (`interview` reads every known
     * dialect), `args` its arguments (JSON text, or a value to serialize). Returns a `Result`:
     * its `status`, and its `json` (`status`, `answers`, `text` for the model, ...). Throws
     * `PluginError` when the plugin fails, with the answers the person gave. */
    call(name, args, ui, { skipResponse, ...options } = {}) {
      const limits = options.limits ?? LIMITS;
      return resultOf(asking(ui, 'call', [name, sized(args, limits), { skipResponse: skipResponse ?? undefined }], options));
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

    // The results a host gives when no call could give one, in the plugin's words like every
    // other result, so that no host writes result text of its own. Each runs in a fresh
    // instance, under limits grown to hold what it words.

    /** The `invalid` `Result` of a call whose request could not be read (`source` empty), or
     * that needs something of the host's that cannot be used (`source` names it, as
     * `--journal`); `message` says what is wrong. Nothing was asked. */
    unreadable(source, message, options = {}) {
      return resultOf(word('unreadable', [source, message], options));
    },

    /** The `failed` `Result` of a call that the plugin failed or that could not run (`message`
     * says what failed), with the answers the person had `given` (a `PluginError`'s),
     * unchecked, so that the agent does not ask again. */
    failed(message, given = [], options = {}) {
      return resultOf(word('failed', [message, given.map(givenRecord)], options));
    },

    /** The reply to an elicitation whose request could not be read (`message` says why): a
     * JSON-RPC parse error (-32700) whose id is null, `{ ending: 'invalid', reply }`. */
    unreadableElicitation(message, options = {}) {
      return word('unreadableElicitation', [message], options);
    },

    /** The reply to the elicitation `request` (text or a value) that the plugin failed or that
     * could not run: `cancel`, since the server must not take unchecked content for accepted,
     * with `message` and the answers `given` under `_meta`; under the request's id when it was
     * a JSON-RPC request. `{ ending: 'failed', reply }`. */
    failedElicitation(request, message, given = [], options = {}) {
      const args = [sized(request, options.limits ?? LIMITS), message, given.map(givenRecord)];
      return word('failedElicitation', args, options);
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
