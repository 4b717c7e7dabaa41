/**
 * Alternated host boots, spawn → the listening line: wall ms and the host's CPU ms at that line
 * (`/proc/<pid>/stat` utime + stime), medians per variant. CPU is the figure that holds on a
 * shared machine; the boots alternate so the load hits every variant alike.
 *
 *   node dist/tools/time-boot/main.js [--rounds 9] [--plugins supervisor|all] VARIANT...
 *
 * A VARIANT is `label=path/to/dist/host/main.js`, optionally followed by `,NAME=value`
 * environment settings (`cached=dist/host/main.js,XDG_CACHE_HOME=/tmp/c`). A variant whose label
 * starts with `first` gets an empty cache folder (`XDG_CACHE_HOME`, its own) before each boot:
 * the first boot of a build. The others keep theirs, and boot once unmeasured first, kept 4 s
 * past its listening line so the code cache is written.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

interface Variant {
  readonly label: string;
  readonly main: string;
  readonly env: Record<string, string>;
}

const { values, positionals } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    plugins: { type: 'string', default: 'supervisor' },
  },
  allowPositionals: true,
});
const work = mkdtempSync(join(tmpdir(), 'stackd-time-boot-'));
const configPath = join(work, 'config.json');
writeFileSync(configPath, '{}\n');

function parseVariant(text: string, index: number): Variant {
  const [head = '', ...settings] = text.split(',');
  const [label = '', main = ''] = head.split('=');
  const env: Record<string, string> = { XDG_CACHE_HOME: join(work, `cache-${index}`) };
  for (const setting of settings) {
    const [name = '', value = ''] = setting.split('=');
    env[name] = value;
  }
  return { label, main: resolve(main), env };
}

/** One boot: [wall ms, CPU ms] at the listening line; killed `keepMs` after it. */
function boot(variant: Variant, keepMs = 0): Promise<[number, number]> {
  if (variant.label.startsWith('first'))
    rmSync(variant.env.XDG_CACHE_HOME ?? '', { recursive: true, force: true });
  const args = [
    variant.main,
    '--config',
    configPath,
    '--data-dir',
    join(work, 'data'),
    '--port',
    '0',
  ];
  if (values.plugins !== 'all') args.push('--plugins', values.plugins);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: work,
    env: { ...process.env, ...variant.env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((done) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!output.includes('stackd listening')) return;
      output = '';
      const wall = performance.now() - started;
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      const cpu = (Number(stat[11]) + Number(stat[12])) * 10;
      setTimeout(() => child.kill('SIGKILL'), keepMs);
      child.once('exit', () => done([Math.round(wall), cpu]));
    });
  });
}

const median = (list: readonly number[]): number =>
  [...list].sort((a, b) => a - b)[list.length >> 1] ?? NaN;

const variants = positionals.map(parseVariant);
for (const variant of variants) if (!variant.label.startsWith('first')) await boot(variant, 4_000);
const walls = variants.map((): number[] => []);
const cpus = variants.map((): number[] => []);
for (let round = 0; round < Number(values.rounds); round += 1)
  for (const [index, variant] of variants.entries()) {
    const [wall, cpu] = await boot(variant);
    walls[index]?.push(wall);
    cpus[index]?.push(cpu);
  }
for (const [index, variant] of variants.entries()) {
  const wall = walls[index] ?? [];
  const cpu = cpus[index] ?? [];
  process.stdout.write(
    `${values.plugins} ${variant.label}: wall median ${median(wall)} ms (${wall.join(' ')}), ` +
      `CPU median ${median(cpu)} ms (${cpu.join(' ')})\n`,
  );
}
rmSync(work, { recursive: true, force: true });
