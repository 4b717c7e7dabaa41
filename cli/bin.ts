#!/usr/bin/env node
/**
 * The command's earlier path, `dist/cli/bin.js`, kept for scripts and service files written
 * against it. The entry is `bin.cjs` (CommonJS, see there why); this only loads it.
 */
import './bin.cjs';
