/** `definePlugin`: the one way to make a plugin, built-in or third-party. */
import type { Static, TObject } from '@sinclair/typebox';
import type { PluginContext } from './context.js';

/** The sdk's API version; a plugin states the one it was written for. */
export const SDK_API_VERSION = 1;

/**
 * The sdk's semver version. A plugin may state the range it was built for (`sdk: '^1.1.0'`):
 * the host refuses to load it when this version is outside that range. Minor versions add to
 * the sdk; a major version breaks it (and bumps {@link SDK_API_VERSION}).
 */
export const SDK_VERSION = '1.2.0';

/**
 * Brand on every plugin object. A registry symbol, so a plugin bundling its own sdk copy is
 * still recognised.
 */
export const PLUGIN_BRAND: unique symbol = Symbol.for('stackd.plugin') as never;

/** The static facts and the register function of a plugin. */
export interface PluginDefinition<C extends TObject | undefined = undefined> {
  /** Unique name: lower-case words with dashes (`auth`, `request-sync`). */
  readonly name: string;
  /** The plugin's own version (semver). */
  readonly version: string;
  /** The sdk API version the plugin targets; must equal {@link SDK_API_VERSION}. */
  readonly apiVersion: number;
  /** The semver range of the sdk this plugin was built for (`^1.1.0`); checked at load. */
  readonly sdk?: string;
  /** Plugins that must be loaded and started first. */
  readonly dependsOn?: readonly string[];
  /** Plugins used when present; they do not affect order and may be absent. */
  readonly optionalDependsOn?: readonly string[];
  /** Capability flags this plugin may turn on (API contract flags or its own). */
  readonly capabilities?: readonly string[];
  /**
   * What the plugin may change through `ctx.stack.update`: its own slice `stackd.<name>`
   * (the default), or the whole document (plugins whose job is editing it: config routes,
   * onboarding). An update outside the allowed part is refused with 403 `CONFIG_OUTSIDE_SLICE`.
   */
  readonly configAccess?: 'own-slice' | 'document';
  /**
   * The folder of `ctx.storage` under the data dir; defaults to the plugin's name. Set it when
   * the documented location differs (`symlink-repair`, `ai-diagnostics`): one segment of
   * lowercase letters, digits and dashes, not used by another loaded plugin.
   */
  readonly storageFolder?: string;
  /** Schema of the plugin's config slice (`stackd.<name>`); defaults are applied. */
  readonly config?: C;
  /** Declare routes, streams, services and hooks. No I/O here: start it in `onStart`. */
  register(ctx: PluginContext<C extends TObject ? Static<C> : undefined>): void | Promise<void>;
}

/** A branded plugin, as `definePlugin` returns it. */
export type Plugin<C extends TObject | undefined = TObject | undefined> = PluginDefinition<C> & {
  readonly [PLUGIN_BRAND]: true;
};

/** Make a plugin. The default export of a plugin module is the value this returns. */
export function definePlugin<C extends TObject | undefined = undefined>(
  definition: PluginDefinition<C>,
): Plugin<C> {
  return Object.freeze({ ...definition, [PLUGIN_BRAND]: true as const });
}

/** True when `value` carries the plugin brand. */
export function isPlugin(value: unknown): value is Plugin {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[PLUGIN_BRAND] === true
  );
}
