/** A {@link Subject} served by an agent child process over IPC (the spawn floor, pm2). */
import { fork, type ChildProcess } from 'node:child_process';
import { stopPids, track, untrack } from '../lib/cleanup.js';
import type { AgentCommand, AgentReply } from './agent-protocol.js';
import type { Step, Subject } from './subject.js';

function nextReply(child: ChildProcess): Promise<AgentReply> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`agent exited with ${code}`));
    child.once('exit', onExit);
    child.once('message', (reply: AgentReply) => {
      child.off('exit', onExit);
      if (reply.ok) resolve(reply);
      else reject(new Error(`agent failed: ${reply.error ?? 'unknown error'}`));
    });
  });
}

/** Fork `script COUNT COMMAND_JSON ...extra` and wait for its hello. */
export async function agentSubject(
  label: string,
  script: string,
  count: number,
  command: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  extra: readonly string[] = [],
): Promise<Subject> {
  const child = fork(script, [String(count), JSON.stringify(command), ...extra], {
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  track(child.pid, `${label} agent`);
  const hello = await nextReply(child);
  const supervisorPid = hello.supervisor_pid ?? Number.NaN;
  track(supervisorPid, label);
  let pids: readonly number[] = [];
  const send = async (cmd: AgentCommand['cmd']): Promise<Step> => {
    const reply = nextReply(child);
    child.send({ cmd });
    const { ms = Number.NaN, pids: now = [] } = await reply;
    // Replaced processes have exited: forget them, so a reused PID is never signalled.
    for (const pid of pids) if (!now.includes(pid)) untrack(pid);
    for (const pid of now) track(pid, `${label} process`);
    pids = now;
    return { ms, pids: now };
  };
  return {
    label,
    supervisorPid,
    startAll: () => send('start'),
    restartAll: () => send('restart'),
    close: async () => {
      try {
        await send('stop');
      } finally {
        // Whatever the agent left behind goes by PID: the processes, the daemon, the agent.
        await stopPids([...pids, supervisorPid, child.pid ?? Number.NaN].filter(Number.isFinite));
        for (const pid of [...pids, supervisorPid, child.pid]) untrack(pid);
      }
    },
  };
}
