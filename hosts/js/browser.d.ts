// Types of the package on a web page (the `browser` condition): the exports of index.d.ts that
// make sense there, each returning a promise, with a UI whose widgets may answer later.

import type {
  ConfirmReply, ConfirmRequest, Frame, LineRead, MultiSelectReply, MultiSelectRequest,
  NumberReply, NumberRequest, ReviewReply, ReviewRequest, SelectReply, SelectRequest, Span,
  TextReply, TextRequest, UiMode,
} from './generated/interfaces/interview-plugin-ui.js';
import type { ElicitEnding, Elicitation, ToolDefinition, ToolFormat } from './generated/interfaces/interview-plugin-tool.js';
import type { Given, Limits, PluginError, SandboxOptions } from './index.js';

export type * from './generated/interfaces/interview-plugin-ui.js';
export type { Choice } from './generated/interfaces/interview-plugin-types.js';
export type { ElicitEnding, Elicitation, Given, Limits, SandboxOptions, ToolDefinition, ToolFormat };
export { PluginError } from './index.js';

type Later<T> = T | Promise<T>;

/** A way to reach a person in the page: each widget returns what the person did, or a promise
 * of it; the plugin judges it and asks again with `frame.error` set when it is not acceptable.
 * As in index.d.ts: `{ tag: 'widgets' }` or `{ tag: 'lines' }` (a terminal in the page: the
 * plugin writes its text with `write` and reads each line with `readLine`). */
export interface Ui {
  mode(): Later<UiMode>;
  select(frame: Frame, request: SelectRequest): Later<SelectReply>;
  multiSelect(frame: Frame, request: MultiSelectRequest): Later<MultiSelectReply>;
  text(frame: Frame, request: TextRequest): Later<TextReply>;
  confirm(frame: Frame, request: ConfirmRequest): Later<ConfirmReply>;
  number(frame: Frame, request: NumberRequest): Later<NumberReply>;
  review(request: ReviewRequest): Later<ReviewReply>;
  write?(spans: Span[]): Later<void>;
  readLine?(hidden: boolean): Later<LineRead>;
  finished?(): void;
}

export const WIT_VERSION: string;
export const FORMATS: ToolFormat[];
export const LIMITS: Readonly<Limits>;

/** Fetches and compiles the plugin (otherwise done at the first call). */
export function load(limits?: Limits): Promise<void>;
/** What `call`, `check`, `unreadable` and `failed` give: how it ended, as the plugin said it
 * beside the JSON, and the result JSON the agent reads (also what the result gives as a string). */
export class Result {
  /** A call's `answered`, `cancelled`, `invalid`, `unavailable` or `failed` (the plugin failed or
   * could not run: only `failed` gives it); a check's `valid` or `invalid`. */
  status: 'answered' | 'cancelled' | 'invalid' | 'unavailable' | 'failed' | 'valid';
  json: string;
  toString(): string;
}

/** Runs a tool call (arguments as JSON text or a value): how it ended, and the result JSON. */
export function call(name: string, args: unknown, ui: Ui, options?: { skipResponse?: string } & SandboxOptions): Promise<Result>;
/** Checks a tool call without asking anything: valid or invalid, and the `invalid` result or the questions as JSON. */
export function check(name: string, args: unknown, options?: SandboxOptions): Promise<Result>;
/** Answers an MCP `elicitation/create` request: how it ended, and the JSON text to send back. */
export function elicit(request: unknown, ui: Ui, options?: { requester?: string } & SandboxOptions): Promise<Elicitation>;
/** The tools the plugin answers, `interview` first. */
export function definitions(options?: SandboxOptions): Promise<ToolDefinition[]>;
/** The tool definitions as an ecosystem lists them, as JSON text. */
export function definitionsAs(format: ToolFormat, options?: SandboxOptions): Promise<string>;

// The results a host gives when no call could give one, worded by the plugin (see index.d.ts).
export function unreadable(source: string, message: string, options?: SandboxOptions): Promise<Result>;
export function failed(message: string, given?: Given[], options?: SandboxOptions): Promise<Result>;
export function unreadableElicitation(message: string, options?: SandboxOptions): Promise<Elicitation>;
export function failedElicitation(request: unknown, message: string, given?: Given[], options?: SandboxOptions): Promise<Elicitation>;
