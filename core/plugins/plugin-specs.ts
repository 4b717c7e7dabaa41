/** The plugin list a host loads, from `--plugins`, `STACKD_PLUGINS` or the config. */
import { BootError } from '../errors/boot-error.js';

/**
 * The specs to load. No list means every built-in; a list whose first item starts with `+`
 * adds its items to the built-ins (`+./mine.js,+other`), any other list names the whole set.
 */
export function expandPluginSpecs(
  requested: readonly string[] | undefined,
  builtinNames: readonly string[],
): string[] {
  if (requested === undefined) return [...builtinNames];
  const additive = requested[0]?.startsWith('+') === true;
  const specs: string[] = additive ? [...builtinNames] : [];
  for (const item of requested) {
    const spec = item.startsWith('+') ? item.slice(1).trim() : item;
    if (item.startsWith('+') && !additive)
      throw new BootError(
        'STACKD_PLUGIN_INVALID',
        `plugin list '${requested.join(',')}' mixes names with '+' additions: put the '+' on the first item to add to the built-ins, or list the whole set without '+'`,
      );
    if (spec === '') throw new BootError('STACKD_PLUGIN_INVALID', "empty plugin name after '+'");
    // `+auth` names a built-in already in the list; any other repeat is left for the loader to
    // refuse as a duplicate.
    if (!(additive && builtinNames.includes(spec))) specs.push(spec);
  }
  return specs;
}
