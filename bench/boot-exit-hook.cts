/**
 * Preloaded (`node --require`) into a host by bench/boot-instructions.ts: the host exits the moment
 * it writes its listening line, or, with `STACKD_BENCH_EXIT_AT=answer`, at the first in-process
 * `GET /process/processes` that lists every supervised process running (the request is the same
 * in every build, so differences between builds stay the host's). The exit is crash-like
 * (`process.reallyExit`): the supervised processes stay for the next adopting boot.
 */
import { Socket } from 'node:net';

/** Node's exit without 'exit' listeners: what the host would run at exit is no part of a boot. */
const exitNow = (): never =>
  (process as unknown as { reallyExit(code: number): never }).reallyExit(0);

const LISTENING = /^stackd listening on (http:\/\/\S+)/;
const atAnswer = process.env.STACKD_BENCH_EXIT_AT === 'answer';
// Loaded before the host sets its V8 flags, so compiled from Node's own code cache, and only when
// asked: a count to the listening line holds nothing of the hook's but the write below.
const get = atAnswer ? process.getBuiltinModule('node:http').get : undefined;
// Called below with `apply` on each socket, never unbound.
// eslint-disable-next-line @typescript-eslint/unbound-method
const write = Socket.prototype.write;
let seen = false;

interface Listed {
  processes: { process_name: string; status: string }[];
}

function allRunning(body: string): boolean {
  const supervised = (JSON.parse(body) as Listed).processes.filter(
    (entry) => entry.process_name !== 'stackd API',
  );
  return supervised.length > 0 && supervised.every((entry) => entry.status === 'running');
}

function askUntilAllRunning(url: string): void {
  get?.(`${url}/process/processes`, (response) => {
    let body = '';
    response.setEncoding('utf8');
    response.on('data', (text: string) => (body += text));
    response.on('end', () => {
      if (allRunning(body)) exitNow();
      else setTimeout(() => askUntilAllRunning(url), 5);
    });
  });
}

// The listening line goes through process.stdout, a net.Socket when the harness pipes it.
Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket['write']>): boolean {
  const [chunk] = args;
  const url = !seen && typeof chunk === 'string' ? LISTENING.exec(chunk)?.[1] : undefined;
  if (url !== undefined) {
    seen = true;
    if (!atAnswer) exitNow();
    setImmediate(() => askUntilAllRunning(url));
  }
  return write.apply(this, args);
} as Socket['write'];
