#!/usr/bin/env node
/**
 * stackd's entry point. The V8 settings go first and the program is loaded only after them:
 * an ES module's imports are all parsed and compiled before the first one runs, and compiling
 * the host's ~560 modules was enough to grow V8's young generation from 1 to 8 MiB before
 * `--semi-space-growth-factor=1` could hold it (see v8-settings.ts). The compile cache is enabled
 * next, for the same reason: it covers only the modules loaded after it.
 */
import './v8-settings.js';
import './compile-cache.js';

const { run } = await import('./run.js');
await run();
