/**
 * The host as a program: options → host boot → the listening line → stop on SIGTERM/SIGINT, or
 * hand over (exit leaving the supervised processes running) on SIGUSR2.
 */
import '../core/di/reflect-polyfill.js';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkConfigFile,
  prepareDataDir,
  StartupPathError,
} from '../core/lifecycle/startup-paths.js';
import { uwsBuild } from '../core/http/uws-app.js';
import { UwsUnavailableError } from '../core/http/uws-loader.js';
import { guardProcessOutput, writeOutput } from '../core/logging/process-output.js';
import type { HostRuntime } from '../core/lifecycle/host-runtime.js';
import { BUILTIN_PLUGINS } from './builtin-plugins.js';
import { parseCliOptions, USAGE, type CliOptions } from './cli-options.js';
import { findPackageRoot } from './package-root.js';

const here = dirname(fileURLToPath(import.meta.url));
const { version, dir: packageDir } = findPackageRoot(here);

/** Run stackd with the process's arguments and environment. */
export async function run(): Promise<void> {
  guardProcessOutput();
  const options = optionsOrExit();
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (options.version) {
    process.stdout.write(`${version}\n`);
    return;
  }
  // A host that cannot serve HTTP creates nothing, not even its data dir.
  exitUnlessUwsLoads();
  exitUnlessPathsUsable(options);
  const host = await createHost(options);
  const stop = stopOnce(host);
  handleProcessSignals(host, stop);
  try {
    const url = await host.boot();
    writeOutput('stdout', `stackd listening on ${url} — API explorer at ${url}/docs\n`);
  } catch (error) {
    process.stderr.write(
      `stackd: boot failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
}

/** The parsed options; a bad argument is one line and the usage, exit 2. */
function optionsOrExit(): CliOptions {
  try {
    return parseCliOptions(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(
      `stackd: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`,
    );
    process.exit(2);
  }
}

/** Checked before the host exists, so a bad path is one line and not a boot log. */
function exitUnlessPathsUsable(options: CliOptions): void {
  try {
    prepareDataDir(resolve(options.dataDir));
    if (options.configPath !== undefined && options.configPath !== '')
      checkConfigFile(resolve(options.configPath));
  } catch (error) {
    if (!(error instanceof StartupPathError)) throw error;
    process.stderr.write(`stackd: ${error.message}\n`);
    process.exit(1);
  }
}

async function createHost(options: CliOptions): Promise<HostRuntime> {
  // Loaded only now: compiling the host takes most of a second, and a bad path or --help needs
  // none of it.
  const [{ HostRuntime }, { systemRoutes }] = await Promise.all([
    import('../core/lifecycle/host-runtime.js'),
    import('./system-routes.js'),
  ]);
  return new HostRuntime({
    version,
    cwd: process.cwd(),
    dataDir: options.dataDir,
    configPath: options.configPath,
    demoPath: join(here, 'demo', 'stackd.demo.json'),
    demoDir: join(here, 'demo'),
    docsPath: join(packageDir, 'README.md'),
    host: options.host,
    port: options.port,
    plugins: options.plugins,
    builtins: BUILTIN_PLUGINS,
    validateResponses: process.env.STACKD_VALIDATE_RESPONSES === '1',
    bodyLimitBytes: 1024 * 1024,
    timeouts: { registerMs: 10_000, startMs: 60_000, stopMs: 30_000 },
    systemRoutes: (running) => systemRoutes(running, version),
  });
}

type StopHost = (signal: string, exitCode?: number, mode?: 'stop' | 'handover') => void;

/** Stop (or hand over) once, whatever asks first, then exit. */
function stopOnce(host: HostRuntime): StopHost {
  let stopping = false;
  return (signal, exitCode = 0, mode = 'stop') => {
    if (stopping) return;
    stopping = true;
    host.logger.info(
      mode === 'handover'
        ? `${signal} received: handing over (supervised processes keep running for the next host)`
        : `${signal} received: stopping`,
    );
    host.stop(mode).then(
      () => process.exit(exitCode),
      (error: unknown) => {
        host.logger.error('stop failed', { error });
        process.exit(1);
      },
    );
  };
}

function handleProcessSignals(host: HostRuntime, stop: StopHost): void {
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // The planned handover for upgrades: stop serving, flush, exit 0, leave the children running.
  process.on('SIGUSR2', () => stop('SIGUSR2', 0, 'handover'));
  // A supervisor must outlive a bug in one request: log and carry on.
  process.on('unhandledRejection', (reason) =>
    host.logger.error('unhandled promise rejection', { reason }),
  );
  // After an uncaught exception the process state is suspect: stop every supervised process the
  // normal way (no orphans), then exit 1 so a service manager restarts us.
  process.on('uncaughtException', (error) => {
    host.logger.error('uncaught exception: stopping', {
      error: { name: error.name, message: error.message, stack: error.stack },
    });
    stop('uncaught exception', 1);
  });
}

/** Nothing is started when no uWebSockets.js build can serve: one line saying why, exit 1. */
function exitUnlessUwsLoads(): void {
  try {
    uwsBuild();
  } catch (error) {
    if (!(error instanceof UwsUnavailableError)) throw error;
    process.stderr.write(`stackd: ${error.message}\n`);
    process.exit(1);
  }
}
