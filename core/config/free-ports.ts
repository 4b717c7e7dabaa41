/**
 * `{free_port:8091}` in the bundled demo (inside a string, or as a whole string for a number): 8091 when it is free on 127.0.0.1, else a port the
 * system picks, so the demo runs next to whatever already listens there (and says so).
 *
 * A host that starts again finds its demo web still running when it adopts its processes
 * (docs/adoption.md), so the port it chose last time is in use — by the process it is about to
 * adopt. Choosing another port would change the demo's configuration and restart it. So the
 * choices are remembered (`demo-ports.json` in the data dir), and a remembered port that is in
 * use is kept when what answers there is this data dir's demo web (its `x-stackd-demo` header
 * carries an id of the data dir), never when it is a stranger or another host's demo.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { writeFileAtomic } from '../../sdk/atomic-file.js';

const PLACEHOLDER = /\{free_port:(\d{1,5})\}/g;
const QUOTED = /"\{free_port:(\d{1,5})\}"/g;

/** The header the demo web answers with, so a later host can tell it from a stranger. */
export const DEMO_WEB_HEADER = 'x-stackd-demo';
const PROBE_TIMEOUT_MS = 500;

function listenable(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : null;
      server.close(() => resolve(bound));
    });
  });
}

/** Whether this data dir's demo web answers on `port` (a process the host is about to adopt). */
function demoWebAnswers(port: number, instance: string): Promise<boolean> {
  // Taken here, not imported: `node:http` (with its client, server and agent modules) is not
  // loaded at every boot, only when a remembered demo port is probed.
  const { request } = process.getBuiltinModule('node:http');
  return new Promise((resolve) => {
    const probe = request(
      { host: '127.0.0.1', port, path: '/health', method: 'GET', timeout: PROBE_TIMEOUT_MS },
      (response) => {
        response.resume();
        resolve(response.headers[DEMO_WEB_HEADER] === instance);
      },
    );
    probe.on('timeout', () => probe.destroy());
    probe.on('error', () => resolve(false));
    probe.end();
  });
}

async function rememberedPorts(path: string | undefined): Promise<Map<number, number>> {
  if (path === undefined) return new Map();
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    const entries = Object.entries(typeof parsed === 'object' && parsed !== null ? parsed : {});
    return new Map(
      entries
        .map(([wanted, used]) => [Number(wanted), Number(used)] as const)
        .filter(([wanted, used]) => Number.isInteger(wanted) && Number.isInteger(used)),
    );
  } catch {
    // Missing or unreadable: choose afresh, as on a first start.
    return new Map();
  }
}

async function choosePort(
  wanted: number,
  remembered: number | undefined,
  instance: string,
): Promise<number> {
  // Adopting the running demo unchanged comes before getting the wanted port back.
  if (remembered !== undefined && (await demoWebAnswers(remembered, instance))) return remembered;
  if ((await listenable(wanted)) !== null) return wanted;
  if (remembered !== undefined && (await listenable(remembered)) !== null) return remembered;
  const free = await listenable(0);
  if (free === null) throw new Error(`no free port for the demo's ${wanted}`);
  return free;
}

/**
 * The text with every placeholder resolved, and the ports that had to move. With `memoryPath`,
 * earlier choices are read from and the new ones written to that file; a remembered port in use
 * is kept when the demo web there answers with `instance` (the data dir's demo, not another
 * host's).
 */
export async function resolveFreePorts(
  text: string,
  memoryPath?: string,
  instance = '',
): Promise<{ text: string; moved: Array<{ wanted: number; used: number }> }> {
  const wanted = [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => Number(match[1])))];
  const remembered = await rememberedPorts(memoryPath);
  const chosen = new Map<number, number>();
  const moved: Array<{ wanted: number; used: number }> = [];
  for (const port of wanted) {
    const used = await choosePort(port, remembered.get(port), instance);
    chosen.set(port, used);
    if (used !== port) moved.push({ wanted: port, used });
  }
  if (memoryPath !== undefined && wanted.length > 0)
    await writeFileAtomic(memoryPath, `${JSON.stringify(Object.fromEntries(chosen))}\n`);
  const portOf = (port: string): string => String(chosen.get(Number(port)));
  return {
    // A placeholder that is a whole JSON string ("{free_port:8091}") becomes a number.
    text: text
      .replace(QUOTED, (_match, port: string) => portOf(port))
      .replace(PLACEHOLDER, (_match, port: string) => portOf(port)),
    moved,
  };
}
