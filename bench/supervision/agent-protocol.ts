/**
 * The IPC protocol between the supervision benchmark and an agent child process (the bare
 * spawn loop, or the pm2 client). The agent times each command itself, so the figures do not
 * include the IPC round trip.
 */

/** A command sent to an agent. */
export interface AgentCommand {
  readonly cmd: 'start' | 'restart' | 'stop';
}

/** An agent's answer. */
export interface AgentReply {
  readonly ok: boolean;
  readonly error?: string;
  /** Wall time of the command (ms). */
  readonly ms?: number;
  /** PIDs of the supervised processes afterwards. */
  readonly pids?: readonly number[];
  /** The process to measure (the bare loop itself; pm2's daemon). */
  readonly supervisor_pid?: number;
}

/** Announce `supervisorPid`, then serve commands with `handle`; errors become `{ok: false}`. */
export function serveAgent(
  supervisorPid: number,
  handle: (command: AgentCommand) => Promise<AgentReply>,
): void {
  process.on('message', (message: AgentCommand) => {
    handle(message).then(
      (reply) => process.send?.(reply),
      (error: unknown) =>
        process.send?.({ ok: false, error: error instanceof Error ? error.stack : String(error) }),
    );
  });
  process.send?.({ ok: true, supervisor_pid: supervisorPid });
}
