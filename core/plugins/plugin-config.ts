/** Validate a plugin's config slice (`stackd.<plugin>`) against its schema, defaults applied. */
import type { Plugin } from '../../sdk/plugin.js';
import { compileSchema } from '../schema/compiler.js';
import { BootError } from './boot-error.js';

/** The validated slice, or an error naming the plugin and the field. */
export function pluginConfigSlice(plugin: Plugin, hostSection: Record<string, unknown>): unknown {
  const raw = hostSection[plugin.name];
  if (plugin.config === undefined) return raw;
  const parsed = compileSchema(plugin.config).parse(raw ?? {});
  if (!parsed.ok) {
    const field = ['stackd', plugin.name, parsed.failure.field]
      .filter((part) => part !== '')
      .join('.');
    throw new BootError(
      'STACKD_CONFIG_INVALID',
      `invalid configuration for plugin '${plugin.name}' at '${field}': ${parsed.failure.message}`,
    );
  }
  return parsed.value;
}
