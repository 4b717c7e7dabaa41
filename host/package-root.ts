/** Find stackd's own package folder from a compiled file (works from dist/ or any build dir). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The nearest folder above `from` whose package.json is stackd's. */
export function findPackageRoot(from: string): { dir: string; version: string } {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (parsed.name === 'stackd') return { dir, version: parsed.version ?? '0.0.0' };
    }
    if (dirname(dir) === dir) throw new Error(`stackd's package.json not found above ${from}`);
  }
}
