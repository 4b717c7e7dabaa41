/**
 * A process launched by a previous host, seen through the {@link LaunchedProcess} interface so
 * the runner treats it like its own launch. It is not our child: its exit is looked for
 * (exit-watch.ts: its pid gone, or its start time changed), and its exit status is not known:
 * init reaps it, and /proc shows a status only while the zombie waits for its parent. It is
 * reported as unknown (exit code null) rather than a made-up 0 that would read as a clean exit.
 * Its output is followed through the FIFOs it was launched with, from where the previous host
 * stopped reading.
 */
import type { LaunchCgroup } from '../cgroups/launch-cgroup.js';
import type { ExitInfo, LaunchedProcess, OutputSink } from '../runtime/launch.js';
import { OutputTail } from '../runtime/output-tail.js';
import type { RecordedGroup } from '../runtime/launch-records.js';
import { adoptedExits, type ExitWatch } from './exit-watch.js';
import { fifoPathsOf, OutputFollower } from './output-fifo.js';
import { procReader, type ProcReader } from './verify.js';

/** Output still arriving after the exit is awaited this long (as for a launch of our own). */
const DRAIN_MS = 250;

/**
 * The adopted process of a verified record; `fifoDir` is where its output FIFOs live (null where
 * the launch book has none: then nothing is followed, whatever the record says).
 */
export function adoptedProcess(
  group: RecordedGroup,
  fifoDir: string | null,
  sink: OutputSink | null,
  cgroup: LaunchCgroup | null = null,
  reader: ProcReader = procReader,
  watch: ExitWatch = adoptedExits,
): LaunchedProcess {
  const tail = new OutputTail();
  const fifos =
    group.adoption?.fifos === true && fifoDir !== null ? fifoPathsOf(fifoDir, group.pid) : null;
  const follower =
    fifos === null
      ? null
      : new OutputFollower(fifos, (chunk, stream) => {
          tail.push(chunk, stream);
          sink?.write(chunk, stream);
        });
  let exitedAt: ExitInfo | undefined;
  let checkNow = (): void => undefined;
  const exited = new Promise<ExitInfo>((resolve) => {
    checkNow = watch.watch(group.pid, group.start_ticks, reader, () => {
      const info: ExitInfo = { exitCode: null, signal: null, at: Date.now() };
      exitedAt = info;
      const done = (): void => {
        sink?.flush();
        resolve(info);
      };
      const drain = setTimeout(done, DRAIN_MS);
      void follower?.ended().then(() => {
        clearTimeout(drain);
        done();
      });
    });
    // Its FIFOs at their end: every writer closed them, most often because it exited.
    void follower?.ended().then(checkNow);
  });
  return {
    pid: group.pid,
    marker: group.marker,
    cgroup,
    startedAt: group.adoption?.started_at ?? Date.now(),
    exited,
    // Asked while it is being stopped: a whole check (start time too), not the last round's.
    hasExited: () => {
      if (exitedAt === undefined) checkNow();
      return exitedAt !== undefined;
    },
    outputSummary: () => tail.summary(),
    fifos,
    detachOutput: () => follower?.detach(),
  };
}
