/** The `stackd.metrics` config slice. */
import { isAbsolute, normalize, resolve } from 'node:path';
import { StringEnum, Type, type Static } from '../../sdk/index.js';

export const MetricsConfig = Type.Object({
  interval_ms: Type.Integer({
    minimum: 250,
    maximum: 60_000,
    default: 2000,
    description: 'Collection interval of the system collector (and of /ws/metrics frames)',
  }),
  filesystem_paths: Type.Array(Type.String({ minLength: 1 }), {
    maxItems: 32,
    default: ['/'],
    description:
      'Paths whose filesystem space and inodes are reported (relative ones resolve against the data dir); the data dir is always added',
  }),
  network_interfaces: Type.Array(Type.String({ minLength: 1 }), {
    maxItems: 32,
    default: ['all'],
    description:
      '"all" = every interface but loopback; named interfaces that are missing are listed as unavailable',
  }),
  scope: StringEnum(['auto', 'host', 'cgroup'] as const, {
    default: 'auto',
    description: 'auto: container figures when the cgroup sets a memory or CPU limit',
  }),
  history_enabled: Type.Boolean({ default: true }),
  history_interval_sec: Type.Number({
    minimum: 0.5,
    maximum: 3600,
    default: 15,
    description: 'How often a snapshot is stored',
  }),
  history_retention_days: Type.Number({
    exclusiveMinimum: 0,
    maximum: 3650,
    default: 7,
    description: 'Snapshots older than this are pruned',
  }),
  history_max_mb: Type.Number({
    exclusiveMinimum: 0,
    maximum: 100_000,
    default: 100,
    description: 'Stored (compressed) snapshot bytes above this are pruned oldest first',
  }),
});
export type MetricsConfig = Static<typeof MetricsConfig>;

/**
 * The filesystem paths to report: relative paths resolve against the data dir, duplicates go,
 * at most 32, and the data dir is always included (it is where stackd itself writes).
 */
export function filesystemPaths(configured: readonly string[], dataDir: string): string[] {
  const paths = new Set<string>();
  for (const raw of [...configured, dataDir]) {
    const trimmed = raw.trim();
    if (trimmed.length === 0) continue;
    const absolute = isAbsolute(trimmed) ? normalize(trimmed) : resolve(dataDir, trimmed);
    paths.add(absolute.length > 1 ? absolute.replace(/\/+$/, '') : absolute);
  }
  return [...paths].slice(0, 32);
}

/** Interface names: any "all" (any case) selects all; duplicates go. */
export function networkInterfaces(configured: readonly string[]): string[] {
  const names = configured.map((name) => name.trim()).filter((name) => name.length > 0);
  if (names.length === 0 || names.some((name) => name.toLowerCase() === 'all')) return ['all'];
  return [...new Set(names)];
}
