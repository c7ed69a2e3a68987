// Types of the package from CommonJS: `require('interview-plugin').load()` resolves to the
// exports that index.d.ts describes.

type Exports = typeof import('./index.js', { with: { 'resolution-mode': 'import' } });

/** The package's exports (`call`, `check`, `elicit`, `LineUi`, ...), loaded once. */
export declare function load(): Promise<Exports>;
