/**
 * Every folder under dist/plugins/ is in host/builtin-plugins.ts's list: the bundle reaches a
 * built-in plugin only through that list, by its name or by its entry's path (the plugin loader),
 * so a folder left out of it would load unbundled, with a second copy of the sdk.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Throws naming every plugin folder the list lacks. */
export async function checkBuiltinList(distDir: string): Promise<void> {
  const plugins = readdirSync(join(distDir, 'plugins'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const builtins = (await import(
    pathToFileURL(join(distDir, 'host', 'builtin-plugins.js')).href
  )) as { BUILTIN_PLUGINS: Record<string, unknown> };
  const unknown = plugins.filter((name) => !(name in builtins.BUILTIN_PLUGINS));
  if (unknown.length > 0)
    throw new Error(`plugins/${unknown.join(', ')}: not in host/builtin-plugins.ts's list`);
}
