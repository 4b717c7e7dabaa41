/**
 * The floor of the Prometheus bench: the families and samples a host just exposed, loaded into a
 * bare prom-client registry in the bench process and rendered there, so its CPU per render is what
 * the de-facto library needs for the same series, measured in the same run on the same machine.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import { rounds, type Rounds } from './lib/stable.js';

type Samples = Array<[Record<string, string>, number]>;

/** Families of a text exposition (histograms left out: prom-client cannot take their samples). */
function parseFamilies(body: string): Map<string, { type: string; samples: Samples }> {
  const families = new Map<string, { type: string; samples: Samples }>();
  let type = 'gauge';
  for (const line of body.split('\n')) {
    if (line.startsWith('# TYPE ')) type = line.split(' ')[3] ?? 'gauge';
    if (line === '' || line.startsWith('#') || type === 'histogram') continue;
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    ) as Record<string, string>;
    const family = families.get(match[1] ?? '') ?? { type, samples: [] };
    family.samples.push([labels, Number(match[3])]);
    families.set(match[1] ?? '', family);
  }
  return families;
}

/** CPU of this process per render of `body`'s series by prom-client (ms), per round. */
export async function floorPerRender(
  body: string,
  options: { rounds: number; renders: number },
): Promise<Rounds> {
  const registry = new Registry();
  for (const [name, family] of parseFamilies(body)) {
    const labelNames = Object.keys(family.samples[0]?.[0] ?? {});
    const metric =
      family.type === 'counter'
        ? new Counter({ name, help: name, labelNames, registers: [registry] })
        : new Gauge({ name, help: name, labelNames, registers: [registry] });
    for (const [labels, value] of family.samples) metric.inc(labels, value);
  }
  for (let i = 0; i < 10; i += 1) await registry.metrics();
  const perRender: number[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    const before = process.cpuUsage();
    for (let i = 0; i < options.renders; i += 1) await registry.metrics();
    const used = process.cpuUsage(before);
    perRender.push((used.user + used.system) / 1000 / options.renders);
  }
  return rounds(perRender);
}
