// The conformance suite (tests/conformance/), one test per case, through the installed
// package: each case's scripted replies must give exactly its expected result.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ScriptedUi, call, elicit } from 'interview-plugin';
import { ROOT } from './root.mjs';

const SUITE = join(ROOT, 'tests', 'conformance');
const NAVS = ['back', 'skip', 'cancel', 'decline'];
const WIDGETS = { select: 'select', multi_select: 'multiSelect', text: 'text', confirm: 'confirm', number: 'number', review: 'review' };

/** A case's scripted step as the value a UI returns. */
function reply(widget, step) {
  if (widget === 'review') return typeof step === 'string' ? { tag: step } : { tag: 'edit', val: step.edit };
  if (NAVS.includes(step)) return { tag: 'nav', val: step };
  if (widget === 'select') {
    if (step === 'discuss') return { tag: 'discuss' };
    if ('picked' in step) return { tag: 'picked', val: { index: step.picked, note: step.note } };
    return { tag: 'other', val: step.other };
  }
  if (widget === 'multi_select') return { tag: 'picked', val: { picked: step.picked, other: step.other, note: step.note } };
  const [tag, val] = Object.entries(step)[0];
  return { tag, val };
}

/** Plays a case's steps, each for the widget it names; a widget the script does not expect
 * next is cancelled, and shows up in `asked`. */
class CaseUi extends ScriptedUi {
  constructor(script, unavailable) {
    super([], { unavailable });
    this.steps = script.map((step) => Object.entries(step)[0]);
  }

  next(widget, frame, request, outOfReplies = { tag: 'nav', val: 'cancel' }) {
    this.asked.push({ widget, frame, request });
    if (!this.steps.length || WIDGETS[this.steps[0][0]] !== widget) return outOfReplies;
    return reply(...this.steps.shift());
  }
}

const raw = (value) => (typeof value === 'string' ? value : JSON.stringify(value));
const cases = readdirSync(SUITE).filter((f) => f.endsWith('.json')).sort();

test('the suite is there', () => assert.ok(cases.length >= 50));

for (const file of cases) {
  test(file.replace(/\.json$/, ''), () => {
    const kase = JSON.parse(readFileSync(join(SUITE, file), 'utf8'));
    const ui = new CaseUi(kase.script, kase.unavailable);
    let result;
    if ('elicit' in kase) {
      const { ending, reply: text } = elicit(raw(kase.elicit), ui, { requester: kase.requester });
      assert.equal(ending, kase.ending);
      result = JSON.parse(text);
    } else {
      result = JSON.parse(call(kase.tool, raw(kase.arguments), ui, { skipResponse: kase.skip_response }));
    }
    assert.deepEqual(ui.asked.map((a) => a.widget), kase.script.map((s) => WIDGETS[Object.keys(s)[0]]));
    assert.deepEqual(result, kase.result);
  });
}
