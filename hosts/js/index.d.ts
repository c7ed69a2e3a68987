// Types of the interview package. The widget types are the plugin's WIT `ui` interface as jco
// maps it: records are objects with camelCase fields, variants `{ tag, val }`, enums strings,
// options the value or `undefined`. Every text a UI is given is already safe to print.

import type {
  ConfirmReply, ConfirmRequest, Frame, MultiSelectReply, MultiSelectRequest, Nav, NumberReply,
  NumberRequest, ReviewReply, ReviewRequest, SelectReply, SelectRequest, TextReply, TextRequest,
  UiMode,
} from './generated/interfaces/interview-plugin-ui.js';
import type { ElicitEnding, ToolDefinition, ToolFormat } from './generated/interfaces/interview-plugin-tool.js';
import type { Absence } from './generated/interfaces/interview-plugin-types.js';

export type * from './generated/interfaces/interview-plugin-ui.js';
export type { Choice } from './generated/interfaces/interview-plugin-types.js';
export type { Absence, ElicitEnding, ToolDefinition, ToolFormat };

/** A way to reach a person: the widgets the plugin asks through. Each returns what the person
 * did; the plugin judges it and asks again with `frame.error` set when it is not acceptable. */
export interface Ui {
  /** How this UI reaches a person (`{ tag: 'numbered' }`); `{ tag: 'unavailable', val: absence }`
   * makes the plugin ask nothing and tell the model why (`'no-terminal'`, `'no-input'`, ...). */
  mode(): UiMode;
  select(frame: Frame, request: SelectRequest): SelectReply;
  multiSelect(frame: Frame, request: MultiSelectRequest): MultiSelectReply;
  text(frame: Frame, request: TextRequest): TextReply;
  confirm(frame: Frame, request: ConfirmRequest): ConfirmReply;
  number(frame: Frame, request: NumberRequest): NumberReply;
  /** After the last question of a batch of two or more, and of every elicitation. */
  review(request: ReviewRequest): ReviewReply;
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

/** Runs a tool call (arguments as JSON text or a value); the result JSON text. */
export function call(name: string, args: unknown, ui: Ui, options?: { skipResponse?: string } & SandboxOptions): string;
/** Checks a tool call without asking anything: the `invalid` result or the questions, JSON text. */
export function check(name: string, args: unknown, options?: SandboxOptions): string;
/** Answers an MCP `elicitation/create` request: how it ended, and the JSON text to send back. */
export function elicit(request: unknown, ui: Ui, options?: { requester?: string } & SandboxOptions): { ending: ElicitEnding; reply: string };
/** The tools the plugin answers, `interview` first. */
export function definitions(options?: SandboxOptions): ToolDefinition[];
/** The tool definitions as an ecosystem lists them, as JSON text. */
export function definitionsAs(format: ToolFormat, options?: SandboxOptions): string;

/** Numbered lists and one answer per line, read as the Rust command's numbered mode reads
 * them (an answer line keeps at most 8 MiB; bytes that are not UTF-8 become U+FFFD).
 * `input`: the answers as one text, or a function giving the next line (null at the end),
 * else stdin; `output`: where questions go (else stderr); `interactive`: a person types the
 * lines (else: when stdin is a terminal). */
export class LineUi {
  constructor(options?: { input?: string | (() => string | null); output?: { write(text: string): unknown }; interactive?: boolean });
  /** Why asking stopped: `quit`, `ended` (the input ended) or `interrupted`. */
  stopped?: 'quit' | 'ended' | 'interrupted';
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
