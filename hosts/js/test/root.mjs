// The repository the package is tested from: its conformance suite, examples and Rust command.
import { resolve } from 'node:path';

export const ROOT = resolve(process.env.INTERVIEW_ROOT ?? new URL('../../..', import.meta.url).pathname);
