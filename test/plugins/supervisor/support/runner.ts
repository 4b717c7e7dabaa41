/** A ProcessRunner over a real block, for tests: states recorded, output collected. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { Logger, ProcessState } from '../../../../sdk/index.js';
import { listProcessEntries } from '../../../../sdk/index.js';
import { SupervisorConfig } from '../../../../plugins/supervisor/config.js';
import { buildProcessSpec } from '../../../../plugins/supervisor/process-spec/process-spec.js';
import { ProcessRunner } from '../../../../plugins/supervisor/runtime/process-runner.js';
import { LaunchBook } from '../../../../plugins/supervisor/runtime/launch-book.js';
import { FolderStorage } from '../../../../core/storage/plugin-storage.js';

/** A logger that keeps lines in memory. */
export function memoryLogger(lines: string[] = []): Logger {
  const logger: Logger = {
    debug: (message) => lines.push(`debug ${message}`),
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`),
    child: () => logger,
  };
  return logger;
}

/** A runner, its recorded states and its output. */
export interface TestRunner {
  readonly runner: ProcessRunner;
  readonly states: ProcessState[];
  readonly output: () => string;
  readonly dataDir: string;
}

/** Make a runner for `block` (process_name `P`), data dir a fresh temp dir. */
export function makeRunner(
  block: Record<string, unknown>,
  options: { startCheckMs?: number; dataDir?: string } = {},
): TestRunner {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'stackd-runner-'));
  const defaults = Value.Default(SupervisorConfig, {}) as SupervisorConfig;
  const states: ProcessState[] = [];
  let output = '';
  const runner = new ProcessRunner({
    processName: 'P',
    resolveSpec: () => {
      const [entry] = listProcessEntries({ p: { process_name: 'P', ...block } });
      if (entry === undefined) throw new Error('no entry');
      return buildProcessSpec(entry, {
        dataDir,
        hostEnv: process.env,
        defaults,
        nodePath: process.execPath,
      });
    },
    openOutput: () => ({
      write: (chunk) => (output += chunk.toString('utf8')),
      flush: () => undefined,
    }),
    onChange: (state) => states.push(state),
    logger: memoryLogger(),
    startCheckMs: options.startCheckMs ?? 300,
    launches: new LaunchBook(new FolderStorage(dataDir, 'supervisor'), memoryLogger()),
  });
  return { runner, states, output: () => output, dataDir };
}
