/**
 * `stackd/sdk/testing`: a real host for plugin tests. `createTestHost` boots the host in this
 * process on a free port with a temp data dir, loads the plugins you give (built-in names or
 * plugin objects), and lets a test replace any service by its ref — the DI container's pay-off:
 * a plugin under test talks to a fake supervisor or graph without knowing it.
 * @packageDocumentation
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HostRuntime } from '../core/lifecycle/host-runtime.js';
import { BUILTIN_PLUGINS } from '../host/builtin-plugins.js';
import { findPackageRoot } from '../host/package-root.js';
import { systemRoutes } from '../host/system-routes.js';
import type { JsonRecord } from '../sdk/config.js';
import type { Plugin } from '../sdk/plugin.js';
import type { ServiceRef } from '../sdk/services.js';

/** A service replacement: the ref and what users of it get instead. */
export interface ServiceOverride<T = unknown> {
  readonly ref: ServiceRef<T>;
  readonly implementation: T;
}

/** Replace a service (typed pairing of a ref with its implementation). */
export function override<T>(ref: ServiceRef<T>, implementation: T): ServiceOverride<T> {
  return { ref, implementation };
}

/** Options of {@link createTestHost}. */
export interface TestHostOptions {
  /** Built-in plugin names and/or plugin objects. Default: none (system routes only). */
  readonly plugins?: ReadonlyArray<string | Plugin>;
  /** The configuration document (written to a temp file). Default `{}`. */
  readonly config?: JsonRecord;
  /** Services to replace, whoever provides them. */
  readonly overrides?: readonly ServiceOverride[];
  /** Validate every response against its schema (default true: drift fails the test). */
  readonly validateResponses?: boolean;
  /** Keep the temp data dir after stop (default false). */
  readonly keepDataDir?: boolean;
}

/** A running test host. */
export interface TestHost {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly dataDir: string;
  readonly configPath: string;
  /** Log lines the host wrote so far. */
  output(): string;
  /** Stop the host (idempotent) and remove its temp folders. */
  stop(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));

/** Boot a real host in this process on a free port. */
export async function createTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const root = mkdtempSync(join(tmpdir(), 'stackd-testhost-'));
  const dataDir = join(root, 'data');
  const configPath = join(root, 'stackd.json');
  writeFileSync(configPath, `${JSON.stringify(options.config ?? {}, null, 2)}\n`);
  const builtins: Record<string, () => Promise<unknown>> = { ...BUILTIN_PLUGINS };
  const specs = (options.plugins ?? []).map((plugin) => {
    if (typeof plugin === 'string') return plugin;
    builtins[plugin.name] = () => Promise.resolve(plugin);
    return plugin.name;
  });
  const lines: string[] = [];
  const { version, dir: packageDir } = findPackageRoot(here);
  const host = new HostRuntime({
    version,
    cwd: root,
    dataDir,
    configPath,
    demoPath: join(here, '..', 'host', 'demo', 'stackd.demo.json'),
    demoDir: join(here, '..', 'host', 'demo'),
    docsPath: join(packageDir, 'README.md'),
    host: '127.0.0.1',
    port: 0,
    plugins: specs,
    builtins,
    validateResponses: options.validateResponses ?? true,
    bodyLimitBytes: 1024 * 1024,
    // The host's own defaults: the supervisor's shutdown budget must fit the stop budget.
    timeouts: { registerMs: 10_000, startMs: 30_000, stopMs: 30_000 },
    systemRoutes: (running) => systemRoutes(running, version),
    serviceOverrides: new Map(
      (options.overrides ?? []).map((entry) => [entry.ref.id, entry.implementation]),
    ),
    logWrite: (line) => lines.push(line),
  });
  let url: string;
  try {
    url = await host.boot();
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`test host failed to boot: ${String(error)}\n${lines.join('')}`, {
      cause: error,
    });
  }
  let stopped: Promise<void> | undefined;
  return {
    url,
    dataDir,
    configPath,
    output: () => lines.join(''),
    stop: () =>
      (stopped ??= host.stop().finally(() => {
        if (options.keepDataDir !== true) rmSync(root, { recursive: true, force: true });
      })),
  };
}
