import { BootError } from '../errors/boot-error.js';
/** Dependency order of plugins (`dependsOn`); a missing dependency or a cycle is named. */

/** The part of a plugin ordering needs. */
export interface PluginNode {
  readonly name: string;
  readonly dependsOn?: readonly string[] | undefined;
}

/** Order plugins so each comes after its dependencies; stable for independent plugins. */
export function orderPlugins<T>(items: readonly T[], nodeOf: (item: T) => PluginNode): T[] {
  const plugins = items.map((item) => ({ ...nodeOf(item), item }));
  const byName = new Map(plugins.map((plugin) => [plugin.name, plugin]));
  for (const plugin of plugins) {
    for (const dependency of plugin.dependsOn ?? []) {
      if (!byName.has(dependency)) {
        throw new BootError(
          'STACKD_DEPENDENCY_MISSING',
          `plugin '${plugin.name}' depends on '${dependency}', which is not loaded`,
        );
      }
    }
  }
  type Entry = (typeof plugins)[number];
  const ordered: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: Entry, trail: string[]): void => {
    const seen = state.get(plugin.name);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(plugin.name)), plugin.name];
      throw new BootError(
        'STACKD_DEPENDENCY_CYCLE',
        `plugin dependency cycle: ${cycle.join(' → ')}`,
      );
    }
    state.set(plugin.name, 'visiting');
    for (const dependency of plugin.dependsOn ?? [])
      visit(byName.get(dependency) as Entry, [...trail, plugin.name]);
    state.set(plugin.name, 'done');
    ordered.push(plugin.item);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}
