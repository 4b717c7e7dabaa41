/**
 * Whether this module runs inside `dist/bundle/` (the build's esbuild bundle of the host, the
 * sdk and the built-in plugins) rather than as tsc's unbundled output. The bundle step
 * (tools/bundle-host) builds this module as `true`; unit tests import the unbundled tree, where
 * it stays `false`.
 */
export const RUNNING_BUNDLED: boolean = false;
