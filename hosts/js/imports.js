// The `interview:plugin/ui` imports of the plugin, for jco: each widget is handed to the UI in
// use. jco maps WIT values to JavaScript as: records are objects with camelCase fields
// (`otherLabel`), variants are `{ tag, val }` (`{ tag: 'picked', val: { index: 1 } }`,
// `{ tag: 'nav', val: 'back' }`), enums are strings, options are the value or `undefined`.

let current = null;

/** Makes `ui` answer the plugin's widgets until the next call. */
export function useUi(ui) {
  current = ui;
}

export const mode = () => current.mode();
export const select = (frame, request) => current.select(frame, request);
export const multiSelect = (frame, request) => current.multiSelect(frame, request);
export const text = (frame, request) => current.text(frame, request);
export const confirm = (frame, request) => current.confirm(frame, request);
export const number = (frame, request) => current.number(frame, request);
export const review = (request) => current.review(request);
