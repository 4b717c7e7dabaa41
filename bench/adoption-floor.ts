/**
 * The floor of the adoption bench: the smallest program doing what an adopting host must do
 * before it can answer — Node starting, loading uWebSockets.js, reading the configuration,
 * reading the supervisor's launch records and verifying each one against /proc (the start time
 * and process group from `/proc/<pid>/stat`, the launch marker from `/proc/<pid>/environ`),
 * listening, and answering `GET /process/processes` with the verified processes running under
 * the pids they had. It adopts nothing and signals nothing (the host that follows it does).
 *
 * `node dist/bench/adoption-floor.js <data dir> <config file>`: prints
 * `floor listening on http://127.0.0.1:<port>` once it listens. Deliberately self-contained (no
 * module of stackd's own): its module count is the point.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface Record {
  readonly process_name: string;
  readonly pid: number;
  readonly start_ticks: string;
  readonly marker: string;
}

interface UwsApp {
  get(path: string, handler: (res: UwsResponse) => void): UwsApp;
  listen(host: string, port: number, done: (socket: unknown) => void): UwsApp;
}

interface Uws {
  App(): UwsApp;
  us_socket_local_port(socket: unknown): number;
}

interface UwsResponse {
  writeHeader(name: string, value: string): UwsResponse;
  end(body: string): void;
}

const MARKER = Buffer.from('STACKD_LAUNCH=');

/** The build of uWebSockets.js this Node loads natively (the 20.30 build covers Node 20). */
function loadUws(): Uws {
  const requireHere = createRequire(import.meta.url);
  const requests =
    process.versions.modules === '115'
      ? ['@trufflesuite/uws-js-unofficial', '@btc-vision/uwebsockets.js']
      : ['@btc-vision/uwebsockets.js', 'uWebSockets.js'];
  for (const request of requests) {
    try {
      return requireHere(request) as Uws;
    } catch {
      // the next build
    }
  }
  throw new Error('no uWebSockets.js build loads');
}

/** The launch record's process is still the one launched (start time, group, marker). */
function verified(record: Record): boolean {
  let stat: string;
  let environ: Buffer;
  try {
    stat = readFileSync(`/proc/${record.pid}/stat`, 'latin1');
    environ = readFileSync(`/proc/${record.pid}/environ`);
  } catch {
    return false;
  }
  // Fields after the command "(…)": state is field 3, pgrp 5, start time 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return false;
  if (fields[19] !== record.start_ticks || Number(fields[2]) !== record.pid) return false;
  const at = environ.indexOf(MARKER);
  if (at < 0) return false;
  const end = environ.indexOf(0, at);
  const marker = environ.toString('latin1', at + MARKER.length, end < 0 ? environ.length : end);
  return marker === record.marker;
}

function listBody(dataDir: string, configPath: string): string {
  const document = JSON.parse(readFileSync(configPath, 'utf8')) as { [key: string]: unknown };
  const groups = join(dataDir, 'supervisor', 'groups');
  const running = new Map<string, number>();
  for (const name of readdirSync(groups)) {
    if (!name.endsWith('.json')) continue;
    const record = JSON.parse(readFileSync(join(groups, name), 'utf8')) as Record;
    if (verified(record)) running.set(record.process_name, record.pid);
  }
  const processes = Object.values(document)
    .map((block) => (block as { process_name?: unknown }).process_name)
    .filter((name): name is string => typeof name === 'string' && name !== 'stackd API')
    .map((name) => {
      const pid = running.get(name) ?? null;
      return { process_name: name, status: pid === null ? 'stopped' : 'running', pid };
    });
  return JSON.stringify({ processes });
}

const [dataDir, configPath] = process.argv.slice(2);
if (dataDir === undefined || configPath === undefined)
  throw new Error('usage: adoption-floor <data dir> <config file>');
const uws = loadUws();
const body = listBody(dataDir, configPath);
uws
  .App()
  .get('/process/processes', (res) => res.writeHeader('content-type', 'application/json').end(body))
  .listen('127.0.0.1', 0, (socket) => {
    if (socket === false) throw new Error('floor: cannot listen');
    process.stdout.write(
      `floor listening on http://127.0.0.1:${uws.us_socket_local_port(socket)}\n`,
    );
  });
