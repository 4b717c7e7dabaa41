#!/usr/bin/env node
/**
 * stackd's entry point. The V8 settings go first and the program is loaded only after them:
 * an ES module's imports are all parsed and compiled before the first one runs, and compiling
 * the host's ~560 modules was enough to grow V8's young generation from 1 to 8 MiB before
 * `--semi-space-growth-factor=1` could hold it (see v8-settings.ts). The compile cache is enabled
 * next, for the same reason: it covers only the modules loaded after it.
 *
 * The program is the build's bundle (tools/bundle-host): the host, the sdk and the built-in
 * plugins in one CommonJS file instead of ~580 modules, which Node's module loader pays for one by
 * one. bundle-loader.cts loads it with the compiled code an earlier boot left where Node has no
 * compile cache (Node 20), and saves that code once this boot has listened.
 */
import './v8-settings.js';
import './compile-cache.js';
import { createRequire } from 'node:module';
import type * as BundleLoader from './bundle-loader.cjs';

const loader = createRequire(import.meta.url)('./bundle-loader.cjs') as typeof BundleLoader;
await loader.loadBundle().run();
loader.saveCodeCacheLater();
