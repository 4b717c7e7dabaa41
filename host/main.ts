#!/usr/bin/env node
/**
 * stackd's entry point. The V8 settings go first and the program is loaded only after them:
 * an ES module's imports are all parsed and compiled before the first one runs, and compiling
 * the host's ~560 modules was enough to grow V8's young generation from 1 to 8 MiB before
 * `--semi-space-growth-factor=1` could hold it (see v8-settings.ts). The compile cache is enabled
 * next, for the same reason: it covers only the modules loaded after it.
 *
 * The program is the build's bundle of `run.js` (tools/bundle-host): the host, the sdk, TypeBox
 * and the built-in plugins in a few large modules instead of ~580 files, which Node's module
 * loader pays for one by one.
 */
import './v8-settings.js';
import './compile-cache.js';
import type * as Run from './run.js';

const bundled = new URL('../bundle/host/run.js', import.meta.url).href;
const { run } = (await import(bundled)) as typeof Run;
await run();
