// The package from CommonJS. The package itself is an ES module (its glue loads the compiled
// plugin at import), so `require` gives a loader: `load()` resolves to the same exports as
// `import('interview-plugin')`.
//
//   const { load } = require('interview-plugin');
//   const { call, LineUi } = await load();

'use strict';

let loaded;

/** The package's exports (`call`, `check`, `elicit`, `LineUi`, ...), loaded once. */
exports.load = function load() {
  loaded ??= import('./index.js');
  return loaded;
};
