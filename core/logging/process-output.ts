/**
 * The host's own stdout and stderr, written so that a closed pipe (the launcher died, a log
 * collector restarted) never breaks serving or shutdown: EPIPE and friends mark the stream gone,
 * later writes are dropped, and nothing is thrown or re-logged.
 */

type Stream = 'stdout' | 'stderr';

const closed: Record<Stream, boolean> = { stdout: false, stderr: false };
let guarded = false;

/** Listen for write errors on both streams (once per process). */
export function guardProcessOutput(): void {
  if (guarded) return;
  guarded = true;
  for (const name of ['stdout', 'stderr'] as const) {
    process[name].on('error', () => {
      closed[name] = true;
    });
  }
}

/** Write to the host's stdout or stderr unless that stream has failed. */
export function writeOutput(name: Stream, text: string): void {
  if (closed[name]) return;
  try {
    process[name].write(text);
  } catch {
    closed[name] = true;
  }
}
