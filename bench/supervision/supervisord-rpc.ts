/**
 * supervisord's XML-RPC interface over its unix socket, as supervisorctl and every supervisord
 * client drive it: the start/restart timings then measure supervisord, not a Python CLI's
 * start-up. Only the three calls the benchmark needs, answers read by pattern.
 */
import { request } from 'node:http';

function call(socketPath: string, method: string, params: readonly boolean[]): Promise<string> {
  const values = params
    .map((value) => `<param><value><boolean>${value ? 1 : 0}</boolean></value></param>`)
    .join('');
  const body = `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>${values}</params></methodCall>`;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath,
        path: '/RPC2',
        method: 'POST',
        headers: { 'content-type': 'text/xml', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          res.statusCode === 200 && !text.includes('<fault>')
            ? resolve(text)
            : reject(new Error(`${method}: ${res.statusCode} ${text.slice(0, 500)}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `startAllProcesses(wait)`: answers once every program has been started. */
export async function startAll(socketPath: string): Promise<void> {
  await call(socketPath, 'supervisor.startAllProcesses', [true]);
}

/** `stopAllProcesses(wait)`: answers once every program has stopped. */
export async function stopAll(socketPath: string): Promise<void> {
  await call(socketPath, 'supervisor.stopAllProcesses', [true]);
}

/** The PIDs of the RUNNING programs (`getAllProcessInfo`). */
export async function runningPids(socketPath: string): Promise<number[]> {
  const text = await call(socketPath, 'supervisor.getAllProcessInfo', []);
  const pids: number[] = [];
  for (const struct of text.split('<struct>').slice(1)) {
    const member = (name: string): string | undefined =>
      new RegExp(
        `<name>${name}</name>\\s*<value>\\s*<(?:string|int)>([^<]*)</(?:string|int)>`,
      ).exec(struct)?.[1];
    if (member('statename') === 'RUNNING') pids.push(Number(member('pid')));
  }
  return pids;
}
