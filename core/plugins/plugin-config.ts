/** Validate a plugin's config slice (`stackd.<plugin>`) against its schema, defaults applied. */
import type { Plugin } from '../../sdk/plugin.js';
import { isJsonRecord, type ConfigValidator } from '../../sdk/config.js';
import { InputError } from '../../sdk/errors.js';
import { HOST_SECTION } from '../../sdk/process-blocks.js';
import { compileSchema } from '../schema/compiler.js';
import { BootError } from '../errors/boot-error.js';

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

/**
 * A store validator keeping `stackd.<plugin>` valid after every update (a POST /config that
 * breaks a slice would otherwise be saved and stop the next boot): a 422 naming the field.
 */
export function pluginSliceValidator(plugin: Plugin): ConfigValidator {
  const compiled = plugin.config === undefined ? undefined : compileSchema(plugin.config);
  return (candidate) => {
    const host = candidate[HOST_SECTION];
    const raw = isJsonRecord(host) ? host[plugin.name] : undefined;
    if (compiled === undefined || raw === undefined) return;
    const parsed = compiled.parse(raw);
    if (parsed.ok) return;
    const field = [HOST_SECTION, plugin.name, parsed.failure.field]
      .filter((part) => part !== '')
      .join('.');
    throw new InputError(
      'CONFIG_INVALID',
      `Invalid configuration at '${field}': ${parsed.failure.message}`,
      { field },
    );
  };
}
