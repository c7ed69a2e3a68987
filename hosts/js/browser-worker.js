// The thread the plugin runs in on a web page, one per call: the page can stop it when the
// plugin computes past its budget, which it could not do to code on its own thread. A web page
// cannot block while a person answers, so each run plays back the replies so far and, at the
// first widget it has no reply for, stops and sends that widget to the page; the page asks the
// person and runs the call again with one more reply. The plugin is deterministic (it imports
// nothing but the UI), so each run retraces the last. In the line mode a line read is a reply
// too, and the text the plugin writes goes to the page with the run's outcome: only what it
// wrote after the replies played back, which the person has not seen yet.

const WIDGETS = ['select', 'multiSelect', 'text', 'confirm', 'number', 'review', 'readLine'];
const message = (error) => (error instanceof Error ? error.message : String(error));

/** Thrown out of a widget that has no reply yet: the run stops there. */
class Unanswered extends Error {}

// Loaded here rather than imported, so that glue that cannot load is reported as a failure
// instead of a thread that never answers.
const glue = import('./generated/interview.js');

self.onmessage = async ({ data: { modules, name, args, mode, replies } }) => {
  let instantiate;
  try {
    ({ instantiate } = await glue);
  } catch (error) {
    self.postMessage({ error: `cannot load the component's glue: ${message(error)}` });
    return;
  }
  // The plugin's budget starts now: loading the glue is not its compute.
  self.postMessage({ started: true });
  let used = 0;
  let asked;
  // Text written since the last reply played back, and text for the page.
  let held = [];
  const written = [];
  const widget = (name_) => (...params) => {
    if (used < replies.length && replies[used].widget === name_) {
      held = [];
      return replies[used++].reply;
    }
    // Past the replies, or the plugin took another path than the one played back: the person
    // is asked from here, after the text that leads up to it.
    written.push(...held);
    asked = { widget: name_, params, used };
    throw new Unanswered(name_);
  };
  const write = (spans) => (used < replies.length ? held : written).push(...spans);
  const ui = { mode: () => mode, write, ...Object.fromEntries(WIDGETS.map((w) => [w, widget(w)])) };
  try {
    const { tool } = instantiate((path) => modules[path], { 'interview:plugin/ui': ui });
    self.postMessage({ result: tool[name](...args), written });
  } catch (error) {
    self.postMessage(asked ? { asked, written } : { error: message(error), written });
  }
};
