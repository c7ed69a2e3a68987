// A UI that plays back replies, for tests.

const CANCEL = { tag: 'nav', val: 'cancel' };

/** Answers each widget with the next of `replies` (the values a UI returns, such as
 * `{ tag: 'picked', val: { index: 1 } }`); once they run out, every widget cancels, as at the
 * end of input. `asked` records each widget's name, frame and request. With `unavailable` (an
 * absence: `'no-terminal'`, `'no-input'`, ...), nobody is there for that reason. */
export class ScriptedUi {
  constructor(replies = [], { unavailable } = {}) {
    this.replies = [...replies];
    this.unavailable = unavailable;
    this.asked = [];
  }

  mode() {
    return this.unavailable ? { tag: 'unavailable', val: this.unavailable } : { tag: 'widgets' };
  }

  next(widget, frame, request, outOfReplies = CANCEL) {
    this.asked.push({ widget, frame, request });
    return this.replies.length ? this.replies.shift() : outOfReplies;
  }

  select(frame, request) { return this.next('select', frame, request); }
  multiSelect(frame, request) { return this.next('multiSelect', frame, request); }
  text(frame, request) { return this.next('text', frame, request); }
  confirm(frame, request) { return this.next('confirm', frame, request); }
  number(frame, request) { return this.next('number', frame, request); }
  review(request) { return this.next('review', undefined, request, { tag: 'cancel' }); }
}
