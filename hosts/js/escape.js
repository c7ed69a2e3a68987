// Result JSON made safe to print, as the Rust command prints it (text/src/json.rs): every
// character of ESCAPED, generated from the Rust command's own table (controls, bidirectional
// marks and overrides, invisible format characters, line and paragraph separators,
// default-ignorable code points), written as \uXXXX. Printing a result then cannot reorder or
// hide text. Nothing here needs Node.js.

import { ESCAPED } from './contract.js';

const hex = (n) => n.toString(16).padStart(4, '0');

// A `u` regex, so that a range beyond the Basic Multilingual Plane (the tags) matches whole code
// points, not the halves of their surrogate pairs.
const MUST_ESCAPE = new RegExp(`[${ESCAPED.map(([start, end]) => `\\u{${hex(start)}}-\\u{${hex(end)}}`).join('')}]`, 'gu');

/** `json` with every character of ESCAPED written as `\uXXXX`, one beyond the Basic Multilingual
 * Plane as its UTF-16 surrogate pair, the only way JSON has to write it (Rust's `encode_utf16`).
 * Outside strings JSON is ASCII, so each is inside a string, and the JSON means the same. */
export function escapeInvisible(json) {
  return json.replace(MUST_ESCAPE, (c) => Array.from({ length: c.length }, (_, i) => `\\u${hex(c.charCodeAt(i))}`).join(''));
}
