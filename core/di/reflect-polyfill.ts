/**
 * The `Reflect.metadata` polyfill tsyringe's decorators need, loaded before any decorated class
 * is defined. It is required as a CommonJS module, not imported as an ES module: an ES module
 * import of a CommonJS package makes Node parse it for export names with cjs-module-lexer, whose
 * own loading and the parse of this 63 KB file were, for a supervisor-only host, 14 % of the
 * instructions it ran before listening. The package exports nothing used here; it patches the
 * global `Reflect` once (Node's module cache keeps it one instance for every importer).
 */
import { createRequire } from 'node:module';

createRequire(import.meta.url)('reflect-metadata');
