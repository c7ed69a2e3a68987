// The interview plugin for JavaScript: ask a person what an AI agent needs to know.
//
//   import { call, LineUi } from 'interview-plugin';
//   const result = call('interview', { question: 'Ship it?', type: 'confirm' }, new LineUi());
//
// `result` is the JSON text the agent gets back. Write your own UI as an object with the
// widget methods (see index.d.ts); answer MCP elicitations with `elicitationHandler`.

export {
  WIT_VERSION, FORMATS, LIMITS, PluginError, Result, call, check, elicit, definitions, definitionsAs,
  unreadable, failed, unreadableElicitation, failedElicitation,
} from './plugin.js';
export { LineUi } from './line-ui.js';
export { ScriptedUi } from './scripted-ui.js';
export { elicitationHandler } from './mcp.js';
