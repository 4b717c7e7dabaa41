/**
 * Stable codes for everything that stops a host from booting or a plugin from loading. The code
 * leads the message (`STACKD_DEPENDENCY_MISSING: plugin 'x' depends on …`) so a plugin author can
 * search for it; the README lists them all.
 */

import { PluginConfigError } from '../../sdk/errors.js';

/** Every boot and plugin failure code, with what it means. */
export const BOOT_ERROR_CODES = {
  STACKD_PLUGIN_NOT_FOUND: 'a plugin path or package could not be found or imported',
  STACKD_PLUGIN_INVALID: 'the module does not default-export a valid definePlugin() plugin',
  STACKD_PLUGIN_INCOMPATIBLE: "the plugin's apiVersion or sdk range does not match this host",
  STACKD_PLUGIN_DUPLICATE: 'two plugins have the same name',
  STACKD_DEPENDENCY_MISSING: 'a plugin lists a dependency that is not loaded',
  STACKD_DEPENDENCY_CYCLE: 'plugins depend on each other in a cycle (the cycle is named)',
  STACKD_CONFIG_INVALID: "a plugin's config slice or a host setting fails its schema",
  STACKD_HOOK_TIMEOUT: 'a register, start or stop hook overran its time budget',
  STACKD_REGISTER_FAILED: "a plugin's register() threw",
  STACKD_START_FAILED: "a plugin's start hook threw",
  STACKD_ROUTE_DUPLICATE: 'two routes (or their /api aliases) claim the same method and path',
  STACKD_ROUTE_INVALID: 'a route path is malformed',
  STACKD_CAPABILITY_DUPLICATE: 'two plugins declare the same capability flag',
  STACKD_SERVICE_UNDECLARED: 'a plugin uses a service of a plugin it did not declare',
  STACKD_SERVICE_MISSING: 'a used service is not provided by its plugin',
  STACKD_DECLARE_AFTER_REGISTER: 'a ctx declare-call ran after register() returned',
} as const;

/** One boot error code. */
export type BootErrorCode = keyof typeof BOOT_ERROR_CODES;

/** A boot or plugin failure with a stable code at the start of its message. */
export class BootError extends Error {
  readonly code: BootErrorCode;

  constructor(code: BootErrorCode, detail: string, options?: { cause?: unknown }) {
    super(`${code}: ${detail}`, options);
    this.name = 'BootError';
    this.code = code;
  }
}

/** The code of an error (or of the error it wraps), when it carries one. */
export function bootErrorCode(error: unknown): BootErrorCode | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current instanceof BootError) return current.code;
    if (current instanceof PluginConfigError) return 'STACKD_CONFIG_INVALID';
  }
  return undefined;
}
