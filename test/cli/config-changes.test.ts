/**
 * `stackd config set --dry-run`, `config history`, `config rollback` and the If-Match of
 * `config set`/`config edit` against a real host; and bash completion of a process name with a
 * space, asked of that host.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually.js';
import { request } from '../helpers/http.js';
import { startHost, tempDir, type RunningHostProcess } from '../helpers/start-host.js';
import { BIN_JS, clientEnv, runClient } from './run-client.js';

let host: RunningHostProcess;
let env: Record<string, string>;

const IDLE = [process.execPath, '-e', 'setInterval(()=>{},1000)'];

test.before(async () => {
  host = await startHost({
    config: {
      web: { enabled: true, process_name: 'Demo Web', command: IDLE, port: 8081 },
      worker: { enabled: false, process_name: 'Worker', command: IDLE },
    },
  });
  env = clientEnv(host.url);
  const url = host.url;
  await eventually(
    async () =>
      (await request(url, '/process/service-status?process_name=Demo%20Web')).body.status ===
      'running',
    { timeoutMs: 30_000, what: 'Demo Web running' },
  );
});

test.after.always(async () => {
  await host?.stop();
});

async function webPort(): Promise<unknown> {
  return ((await request(host.url, '/config')).body as { web: { port: unknown } }).web.port;
}

test.serial('config set --dry-run prints the diff and the plan, and changes nothing', async (t) => {
  const result = await runClient(['config', 'set', 'web.port', '8090', '--dry-run'], { env });
  t.is(result.code, 0, result.stderr);
  t.regex(result.stdout, /dry run: web\.port = 8090 would do this \(nothing changed\)/);
  t.regex(result.stdout, /Changes:\n\s+web\.port\s+8081 → 8090\n/);
  t.regex(result.stdout, /Processes \(in order\):\n\s+1\.\s+restart\s+Demo Web\s+port changed\n/);
  t.regex(result.stdout, /\(1 other process: nothing\)/);
  t.is(await webPort(), 8081);
});

test.serial('config set --dry-run of a bad value is the host 422, exit 1', async (t) => {
  const result = await runClient(['config', 'set', 'web.port', '"not a port"', '--dry-run'], {
    env,
  });
  t.is(result.code, 1);
  t.regex(result.stderr, /^stackd: config set web\.port: .*port.*\(HTTP 422\)\n$/);
});

test.serial(
  'config history lists a persisted change; history VERSION shows its diff; rollback restores',
  async (t) => {
    const set = await runClient(['config', 'set', 'web.port', '8091', '--persist'], { env });
    t.is(set.code, 0, set.stderr);
    t.is(await webPort(), 8091);
    const history = await runClient(['config', 'history'], { env });
    t.is(history.code, 0, history.stderr);
    const lines = history.stdout.trimEnd().split('\n');
    t.regex(lines[0] ?? '', /^VERSION\s+WHEN\s+WHO\s+CHANGED$/);
    const newest = /^(\d+)\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+api\s+web\.port/.exec(lines[1] ?? '');
    t.truthy(newest, history.stdout);
    const version = Number(newest?.[1]);
    const detail = await runClient(['config', 'history', String(version)], { env });
    t.is(detail.code, 0, detail.stderr);
    t.regex(detail.stdout, new RegExp(`^version ${version}  .* by api`));
    t.regex(detail.stdout, /web\.port\s+8081 → 8091/);

    const before = String(version - 1);
    const dry = await runClient(['config', 'rollback', before, '--dry-run'], { env });
    t.is(dry.code, 0, dry.stderr);
    t.regex(dry.stdout, new RegExp(`dry run: rolling back to version ${before} would do this`));
    t.regex(dry.stdout, /web\.port\s+8091 → 8081/);
    t.regex(dry.stdout, /1\.\s+restart\s+Demo Web/);
    t.is(await webPort(), 8091, 'the dry run changed nothing');

    const rollback = await runClient(['config', 'rollback', before], { env });
    t.is(rollback.code, 0, rollback.stderr);
    t.regex(rollback.stdout, new RegExp(`rolled back to version ${before}`));
    t.is(await webPort(), 8081);
    const after = await runClient(['config', 'history', '--json'], { env });
    const versions = (JSON.parse(after.stdout) as { versions: { version: number }[] }).versions;
    t.is(versions[0]?.version, version + 1, 'the rollback is a new version');
  },
);

test.serial(
  'history and rollback of a version not kept: exit 1; a malformed one: exit 2',
  async (t) => {
    const missing = await runClient(['config', 'history', '9999'], { env });
    t.is(missing.code, 1);
    t.is(
      missing.stderr,
      'stackd: version 9999 is not kept — see `stackd config history` for the versions\n',
    );
    const rollback = await runClient(['config', 'rollback', '9999', '--dry-run'], { env });
    t.is(rollback.code, 1);
    const malformed = await runClient(['config', 'rollback', 'latest'], { env });
    t.is(malformed.code, 2);
    t.regex(malformed.stderr, /invalid version 'latest'/);
  },
);

test.serial(
  'config edit sends If-Match: a change made meanwhile is refused (412), the edit kept',
  async (t) => {
    const dir = tempDir('stackd-cli-editor-');
    // An editor that, while "the user edits", lets someone else change the configuration.
    const editor = join(dir, 'editor.mjs');
    writeFileSync(
      editor,
      `import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
await fetch(${JSON.stringify(`${host.url}/config`)}, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ updates: { worker: { port: 7001 } } }),
});
const doc = JSON.parse(readFileSync(file, 'utf8'));
doc.web.port = 8095;
writeFileSync(file, JSON.stringify(doc, null, 2));
`,
    );
    chmodSync(editor, 0o755);
    const result = await runClient(['config', 'edit'], {
      env: { ...env, EDITOR: `${process.execPath} ${editor}` },
    });
    t.is(result.code, 1);
    const message =
      /^stackd: the configuration changed on the host since it was read \(now generation \d+\); your edit is kept in (\S+); run `stackd config edit` again and redo it there\n$/.exec(
        result.stderr,
      );
    t.truthy(message, result.stderr);
    const kept = JSON.parse(readFileSync(message?.[1] ?? '', 'utf8')) as { web: { port: number } };
    t.is(kept.web.port, 8095);
    t.is(await webPort(), 8081, 'the stale edit was not applied');
    // Without a change meanwhile the same path works.
    const set = await runClient(['config', 'set', 'worker.port', '7002'], { env });
    t.is(set.code, 0, set.stderr);
  },
);

test.serial('bash completion inserts a process name with a space as one word', (t) => {
  const bin = tempDir('stackd-cli-path-');
  writeFileSync(
    join(bin, 'stackd'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN_JS)} "$@"\n`,
  );
  chmodSync(join(bin, 'stackd'), 0o755);
  const complete = (...words: string[]): string[] => {
    const script =
      'source <(stackd completion bash); complete -p stackd; ' +
      `COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; ` +
      '_stackd; printf "%s\\n" "${COMPREPLY[@]}"';
    const result = spawnSync('bash', ['-c', script], {
      env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH ?? ''}` },
      encoding: 'utf8',
    });
    t.is(result.status, 0, result.stderr);
    return result.stdout.trimEnd().split('\n');
  };
  const [registration, ...names] = complete('stackd', 'restart', 'Dem');
  t.is(registration, 'complete -F _stackd stackd');
  t.deepEqual(names, ['Demo\\ Web']);
  t.deepEqual(complete('stackd', 'logs', 'Demo\\ W').slice(1), ['Demo\\ Web']);
  t.deepEqual(complete('stackd', 'stop', '"Demo').slice(1), ['Demo\\ Web']);
  t.deepEqual(complete('stackd', 'config', 'ro').slice(1), ['rollback']);
  // What the shell would run after the completion: one argument.
  const argv = spawnSync('bash', ['-c', `printf '[%s]' ${names[0] ?? ''}`], { encoding: 'utf8' });
  t.is(argv.stdout, '[Demo Web]');
});
