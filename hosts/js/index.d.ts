// Types of the interview package. The widget types are the plugin's WIT `ui` interface as jco
// maps it: records are objects with camelCase fields, variants `{ tag, val }`, enums strings,
// options the value or `undefined`. Every text a UI is given is already safe to print.

import type {
  ConfirmReply, ConfirmRequest, Frame, LineRead, MultiSelectReply, MultiSelectRequest, Nav,
  NumberReply, NumberRequest, ReviewReply, ReviewRequest, SelectReply, SelectRequest, Span,
  TextReply, TextRequest, UiMode,
} from './generated/interfaces/interview-plugin-ui.js';
import type { ElicitEnding, Elicitation, ToolDefinition, ToolFormat } from './generated/interfaces/interview-plugin-tool.js';
import type { Absence } from './generated/interfaces/interview-plugin-types.js';

export type * from './generated/interfaces/interview-plugin-ui.js';
export type { Choice } from './generated/interfaces/interview-plugin-types.js';
export type { Absence, ElicitEnding, Elicitation, ToolDefinition, ToolFormat };

/** A way to reach a person: the widgets the plugin asks through. Each returns what the person
 * did; the plugin judges it and asks again with `frame.error` set when it is not acceptable.
 * Draw `frame.place` above the question and " (optional)" after it where `frame.markOptional`. */
export interface Ui {
  /** How this UI reaches a person: `{ tag: 'widgets' }` (the widget methods are called),
   * `{ tag: 'lines' }` (the plugin writes its numbered lists with `write` and reads every line
   * with `readLine`; the widget methods are not called), or `{ tag: 'unavailable', val: absence }`,
   * which makes the plugin ask nothing and tell the model why (`'no-terminal'`, `'no-input'`, ...). */
  mode(): UiMode;
  select(frame: Frame, request: SelectRequest): SelectReply;
  multiSelect(frame: Frame, request: MultiSelectRequest): MultiSelectReply;
  text(frame: Frame, request: TextRequest): TextReply;
  confirm(frame: Frame, request: ConfirmRequest): ConfirmReply;
  number(frame: Frame, request: NumberRequest): NumberReply;
  /** After the last question of a batch of two or more, and of every elicitation. */
  review(request: ReviewRequest): ReviewReply;
  /** In `lines` mode: writes the plugin's text as it is, each span in its tone where the medium
   * can set it off (`strong`, `faint`, `alert`). */
  write?(spans: Span[]): void;
  /** In `lines` mode: the next line typed, without its line break; `hidden`: a secret, not to be
   * echoed. `{ tag: 'ended' }` and `{ tag: 'interrupted' }` say that no line will come again. */
  readLine?(hidden: boolean): LineRead;
  /** Called after each request, so that a UI can forget what it said once per request. */
  finished?(): void;
}

/** The version of the plugin's WIT package these functions speak. */
export const WIT_VERSION: string;
/** The envelopes `definitionsAs` writes. */
export const FORMATS: ToolFormat[];

/** How much the plugin may use, as the Rust host allows it. */
export interface Limits {
  /** Linear memory of the plugin (64 MiB). */
  memoryBytes: number;
  /** Milliseconds of the plugin's own work per call (2000); the time a UI takes never counts. */
  computeMs: number;
  /** The largest arguments text handed to the plugin, and the longest answer line read (8 MiB). */
  requestBytes: number;
}
/** The limits every call runs under unless it is given others. */
export const LIMITS: Readonly<Limits>;

/** Where the plugin runs: its limits, and who hears that a result was saved by playing the
 * person's replies back into a fresh instance with larger limits. */
export interface SandboxOptions {
  limits?: Limits;
  onRecovered?: (failure: string) => void;
}

/** An answer the person gave, in the words they saw. */
export interface Given {
  position: number;
  question: string;
  answer: unknown;
  header?: string;
  note?: string;
}

/** The plugin could not run: its component cannot be compiled or is not this plugin
 * (`function` undefined), or it trapped or ran out of its memory or compute in `function`;
 * `given` keeps what the person answered before. */
export class PluginError extends Error {
  function?: string;
  given: Given[];
}

/** What `call`, `check`, `unreadable` and `failed` return: how it ended, as the plugin said it
 * beside the JSON, and the result JSON the agent reads (also what the result gives as a string). */
export class Result {
  /** A call's `answered`, `cancelled`, `invalid`, `unavailable` or `failed` (the plugin failed or
   * could not run: only `failed` gives it); a check's `valid` or `invalid`. */
  status: 'answered' | 'cancelled' | 'invalid' | 'unavailable' | 'failed' | 'valid';
  json: string;
  toString(): string;
}

/** Runs a tool call (arguments as JSON text or a value): how it ended, and the result JSON. */
export function call(name: string, args: unknown, ui: Ui, options?: { skipResponse?: string } & SandboxOptions): Result;
/** Checks a tool call without asking anything: valid or invalid, and the `invalid` result or the questions as JSON. */
export function check(name: string, args: unknown, options?: SandboxOptions): Result;
/** Answers an MCP `elicitation/create` request: how it ended, and the JSON text to send back. */
export function elicit(request: unknown, ui: Ui, options?: { requester?: string } & SandboxOptions): Elicitation;
/** The tools the plugin answers, `interview` first. */
export function definitions(options?: SandboxOptions): ToolDefinition[];
/** The tool definitions as an ecosystem lists them, as JSON text. */
export function definitionsAs(format: ToolFormat, options?: SandboxOptions): string;

// The results a host gives when no call could give one, worded by the plugin like every other
// result, each in a fresh instance whose limits grow with what it words.

/** The `invalid` result of a call whose request could not be read (`source` ''), or that needs
 * something of the host's that cannot be used (`source` names it, as `--journal`). */
export function unreadable(source: string, message: string, options?: SandboxOptions): Result;
/** The `failed` result of a call that the plugin failed or that could not run, with the answers
 * the person had given (a `PluginError`'s), so that the agent does not ask again. */
export function failed(message: string, given?: Given[], options?: SandboxOptions): Result;
/** The reply to an elicitation whose request could not be read: a JSON-RPC parse error (-32700),
 * ending `invalid`. */
export function unreadableElicitation(message: string, options?: SandboxOptions): Elicitation;
/** The reply to an elicitation `request` that the plugin failed or that could not run: `cancel`,
 * with the failure and the answers given under `_meta`, ending `failed`. */
export function failedElicitation(request: unknown, message: string, given?: Given[], options?: SandboxOptions): Elicitation;

/** The `lines` mode's input and output: the plugin's text to `output` (else stderr), one line
 * per answer from `input` (an answer line keeps at most 8 MiB; bytes that are not UTF-8 become
 * U+FFFD). `input`: the lines as one text, or a function giving the next line (null at the
 * end; given a `patience` in ms, to learn whether the input ends before its first line, it
 * waits no longer, and gives undefined when no line came), else stdin; `interactive`: a person
 * types the lines (else: when stdin is a terminal), so input that ends at once is no sign that
 * nobody is there; `colour`: the plugin's tones as a terminal's attributes (bold, dim, red). */
export class LineUi {
  constructor(options?: {
    input?: string | ((patience?: number) => string | null | undefined);
    output?: { write(text: string): unknown };
    interactive?: boolean;
    colour?: boolean;
  });
  /** Why reading stopped: `ended` (the input ended) or `interrupted`. */
  stopped?: 'ended' | 'interrupted';
}
export interface LineUi extends Ui {}

/** Plays back `replies`, one per widget; once they run out every widget cancels. */
export class ScriptedUi {
  constructor(replies?: unknown[], options?: { unavailable?: Absence });
  asked: { widget: string; frame?: Frame; request: unknown }[];
}
export interface ScriptedUi extends Ui {}

/** A handler for the MCP TypeScript SDK's `ElicitRequestSchema`: asks each form in the
 * terminal (in a worker thread, so the client keeps running), or through `ui`. */
export function elicitationHandler(options?: {
  ui?: Ui;
  requester?: string;
  input?: string | string[];
}): (request: { params: unknown }) => Promise<Record<string, unknown>>;

export type { Nav };
