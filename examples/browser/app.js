// A UI for the interview plugin made of plain HTML widgets. The plugin decides everything (what
// is asked, what an answer means, whether it is acceptable, what goes back to the agent); this
// page only draws each widget it is given and says what the person did. Each widget returns a
// promise that settles when the person presses a button.

import { call, load } from 'interview-plugin';

const form = document.getElementById('question');
const result = document.getElementById('result');
const ask = document.getElementById('ask');

/** An element with text (never HTML: the plugin's texts are safe to print, not markup). */
function element(tag, text, attributes = {}) {
  const node = Object.assign(document.createElement(tag), attributes);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A labelled input. */
function field(label, attributes) {
  const wrapper = element('label', `${label} `);
  const input = element('input', undefined, attributes);
  wrapper.append(input);
  return [wrapper, input];
}

/** Shows a question: the frame's texts, `fields`, and buttons; resolves with what `read` makes
 * of the fields when the person presses Next, or with the button's way out. */
function show(frame, fields, read) {
  form.replaceChildren();
  if (frame.context) form.append(element('p', frame.context));
  const header = frame.header ? `${frame.header} · ` : '';
  form.append(element('h2', `${header}Question ${frame.position} of ${frame.total}`));
  form.append(element('p', frame.prompt + (frame.required ? '' : ' (optional)'), { id: 'prompt' }));
  if (frame.hint) form.append(element('p', frame.hint, { className: 'hint' }));
  if (frame.error) form.append(element('p', frame.error, { className: 'error', id: 'error' }));
  form.append(...fields);
  const ways = ['next', 'back', ...(frame.required ? [] : ['skip']), 'cancel', ...(frame.declinable ? ['decline'] : [])];
  for (const way of ways) form.append(element('button', way[0].toUpperCase() + way.slice(1), { type: 'submit', value: way }), ' ');
  form.hidden = false;
  return new Promise((resolve) => {
    form.onsubmit = (event) => {
      event.preventDefault();
      const way = event.submitter?.value ?? 'next';
      form.hidden = true;
      resolve(way === 'next' ? read() : { tag: 'nav', val: way });
    };
  });
}

const ui = {
  mode: () => ({ tag: 'widgets' }),

  select(frame, request) {
    const list = element('select', undefined, { id: 'answer' });
    request.options.forEach((option, index) => list.append(element('option', option.label, { value: index })));
    if (request.selected !== undefined) list.value = String(request.selected);
    const [other, otherInput] = field(request.otherLabel ?? 'Something else:', { id: 'other' });
    const fields = request.otherLabel !== undefined ? [list, other] : [list];
    return show(frame, fields, () => (otherInput.value
      ? { tag: 'other', val: otherInput.value }
      : { tag: 'picked', val: { index: Number(list.value) } }));
  },

  multiSelect(frame, request) {
    const boxes = request.options.map((option, index) => field(option.label, { type: 'checkbox', value: index, checked: request.selected.includes(index) }));
    return show(frame, boxes.map(([label]) => label), () => ({
      tag: 'picked',
      val: { picked: boxes.filter(([, box]) => box.checked).map(([, box]) => Number(box.value)) },
    }));
  },

  text(frame, request) {
    const [label, input] = field('', { id: 'answer', type: request.secret ? 'password' : 'text', value: request.initial ?? '', placeholder: request.placeholder ?? '' });
    return show(frame, [label], () => ({ tag: 'submitted', val: input.value }));
  },

  confirm(frame, request) {
    const [label, box] = field('Yes', { id: 'answer', type: 'checkbox', checked: request.initial ?? false });
    return show(frame, [label], () => ({ tag: 'answered', val: box.checked }));
  },

  number(frame, request) {
    // A text input: what the person types goes to the plugin as typed, and the plugin judges it.
    const [label, input] = field('', { id: 'answer', type: 'text', inputMode: 'decimal', value: request.initial ?? '' });
    return show(frame, [label], () => ({ tag: 'entered', val: input.value }));
  },

  review(request) {
    const frame = { position: request.items.length, total: request.items.length, prompt: 'Send these answers?', required: true, declinable: request.declinable, context: request.context };
    const items = element('ul');
    for (const item of request.items) items.append(element('li', `${item.header ?? item.prompt}: ${item.answer}`));
    // Back changes the last answer; cancel and decline end the request as they do a question.
    const ways = { back: { tag: 'edit', val: request.items.length - 1 }, cancel: { tag: 'cancel' }, decline: { tag: 'decline' } };
    return show(frame, [items], () => ({ tag: 'submit' })).then((reply) => (reply.tag === 'nav' ? ways[reply.val] : reply));
  },
};

ask.onclick = async () => {
  ask.disabled = true;
  result.textContent = '';
  try {
    result.textContent = (await call('interview', document.getElementById('request').value, ui)).json;
  } catch (error) {
    result.textContent = `${error.name}: ${error.message}`;
  } finally {
    ask.disabled = false;
  }
};

// Fetched and compiled before the first question, so that asking starts at once.
load().then(() => { ask.disabled = false; }, (error) => { result.textContent = `${error.name}: ${error.message}`; });
