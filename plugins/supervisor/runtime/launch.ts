/**
 * Launch one process: its own process group (`detached`, so stop and kill reach grandchildren),
 * the merged env and working dir, stdout/stderr piped to its log writer. Resolves once the OS
 * started it (or rejects with a clear reason: program not found, working dir missing).
 */
import { access, mkdir } from 'node:fs/promises';
import { constants } from 'node:os';
import type { LaunchCgroup } from '../cgroups/launch-cgroup.js';
import { programExists, wrappedArgv } from '../cgroups/cgroup-wrapper.js';
import type { ProcessSpec } from '../process-spec/process-spec.js';
import { OutputTail } from './output-tail.js';
import { childOutput, type FifoPaths } from '../adoption/output-fifo.js';

/** Where output goes (the log writer of part B satisfies it). */
export interface OutputSink {
  write(chunk: Buffer, stream: 'stdout' | 'stderr'): void;
  flush(): void;
}

/** How a process ended. */
export interface ExitInfo {
  /**
   * Exit code; for a signal death 128 + the signal number (the shell's convention). Null when
   * unknown: an adopted process's parent is init, not this host, so its status is never ours.
   */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Epoch ms of the exit. */
  readonly at: number;
}

/** A launched process. */
export interface LaunchedProcess {
  readonly pid: number;
  /** The launch marker in its environment (and its descendants'). */
  readonly marker: string;
  /** Epoch ms of the launch. */
  readonly startedAt: number;
  /** Its cgroup (null where the machine gives none): holds every descendant. */
  readonly cgroup: LaunchCgroup | null;
  /** Settles when it exited and its output drained (bounded: grandchildren may hold the pipes). */
  readonly exited: Promise<ExitInfo>;
  hasExited(): boolean;
  /** The most telling line of its recent output (redacted), or null. */
  outputSummary(): string | null;
  /** Its output FIFOs (null: ordinary pipes), reopened by the next host after a host restart. */
  readonly fifos: FifoPaths | null;
  /** A planned handover: stop reading its output, leaving the rest for the next host. */
  detachOutput(): void;
}

/** Output still arriving after the exit is awaited this long before `exited` settles. */
const DRAIN_MS = 250;

async function prepareCwd(spec: ProcessSpec): Promise<void> {
  if (spec.createCwd) {
    await mkdir(spec.cwd, { recursive: true });
    return;
  }
  try {
    await access(spec.cwd);
  } catch {
    throw new Error(`working directory ${spec.cwd} (config_dir) does not exist`);
  }
}

/** How a process ended, for messages: `exit code 3`, `signal SIGKILL`, or why it is unknown. */
export function exitText(info: ExitInfo): string {
  if (info.signal !== null) return `signal ${info.signal}`;
  return info.exitCode === null
    ? 'exit status unknown: adopted from a previous host, so init reaped it, not stackd'
    : `exit code ${info.exitCode}`;
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return signal === null ? 0 : 128 + (constants.signals[signal] ?? 0);
}

/** An environment entry naming this launch (see launch-marker.ts). */
export interface LaunchMarker {
  readonly name: string;
  readonly value: string;
}

/**
 * Start `spec` with its output going to `sink` (null: discarded), through FIFOs in `fifoDir`
 * when given (output then survives a host restart), else through pipes.
 */
export async function launch(
  spec: ProcessSpec,
  sink: OutputSink | null,
  marker: LaunchMarker,
  fifoDir: string | null = null,
  cgroup: LaunchCgroup | null = null,
): Promise<LaunchedProcess> {
  await prepareCwd(spec);
  const [program] = spec.argv;
  if (program === undefined) throw new Error('command is empty');
  if (cgroup !== null && !(await programExists(program, spec.cwd, spec.env['PATH'])))
    throw new Error(`cannot run ${program}: program not found`);
  // After the checks that can fail: its FIFOs are opened already.
  const output = await childOutput(fifoDir);
  const [file = program, ...args] =
    cgroup === null ? spec.argv : wrappedArgv(cgroup.procsFiles, spec.argv);
  // Taken at the first launch, not at load: a host that only adopts launches nothing.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(file, args, {
    cwd: spec.cwd,
    env: { ...spec.env, [marker.name]: marker.value },
    detached: true,
    stdio: output.stdio,
    windowsHide: true,
  });
  const tail = new OutputTail();
  output.follow(child, (chunk, stream) => {
    tail.push(chunk, stream);
    sink?.write(chunk, stream);
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'ENOENT'
            ? `cannot run ${program}: program not found (or working directory ${spec.cwd} missing)`
            : `cannot run ${program}: ${error.message}`,
        ),
      ),
    );
  }).catch((error: unknown) => {
    output.spawned(undefined);
    throw error;
  });
  const pid = child.pid;
  const fifos = output.spawned(pid);
  if (pid === undefined) throw new Error(`cannot run ${program}: no pid`);
  let exitedAt: ExitInfo | undefined;
  const exited = new Promise<ExitInfo>((resolve) => {
    let closed = false;
    void output.ended().then(() => (closed = true));
    child.once('exit', (code, signal) => {
      exitedAt = { exitCode: exitCodeOf(code, signal), signal, at: Date.now() };
      const info = exitedAt;
      const done = (): void => {
        sink?.flush();
        resolve(info);
      };
      if (closed) return done();
      const timer = setTimeout(done, DRAIN_MS);
      void output.ended().then(() => {
        clearTimeout(timer);
        done();
      });
    });
  });
  return {
    pid,
    marker: marker.value,
    startedAt: Date.now(),
    cgroup,
    exited,
    hasExited: () => exitedAt !== undefined,
    outputSummary: () => tail.summary(),
    fifos,
    detachOutput: () => output.detach(),
  };
}
