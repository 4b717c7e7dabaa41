/**
 * Resource limits of a process tree: the block fields (`memory_max`, `memory_high`, `cpu_max`,
 * `pids_max`, `on_limit`), their parsing, and sizes in words ("512 MiB").
 */
import { Type, type Static } from '../../../sdk/index.js';

// A positive size: bytes as an integer, or a number with a unit ("512MiB", "1.5 GB", "800k").
// Zero ("0", "0MiB") and negative values do not match.
const SIZE_PATTERN =
  '^\\s*(?:0*[1-9][0-9]*(?:\\.[0-9]+)?|0*\\.[0-9]*[1-9][0-9]*)\\s*(?:[kKmMgGtT](?:i?[bB])?|[bB])?\\s*$';

const Size = (description: string) =>
  Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: SIZE_PATTERN })], {
    description,
  });

/** What happens when a limit is hit. */
export const OnLimit = Type.Union(
  [Type.Literal('restart'), Type.Literal('stop'), Type.Literal('notify')],
  {
    description:
      'When memory_max or cpu_max is exceeded (or the kernel killed a member at memory_max): ' +
      'restart (graceful stop then start, the default), stop, or notify only.',
  },
);
/** Type of {@link OnLimit}. */
export type OnLimit = Static<typeof OnLimit>;

/** The limit fields of a process block (all optional). */
export const LimitFields = {
  memory_max: Type.Optional(
    Size('Memory of the whole process tree (bytes or "512MiB"); the kernel or stackd enforces it.'),
  ),
  memory_high: Type.Optional(
    Size('Soft memory limit of the tree: a warning and a notification when crossed.'),
  ),
  cpu_max: Type.Optional(
    Type.Number({ exclusiveMinimum: 0, description: 'CPU of the whole tree in cores (e.g. 1.5).' }),
  ),
  pids_max: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Processes and threads the tree may have at once.' }),
  ),
  on_limit: Type.Optional(OnLimit),
};

/** The `stackd.supervisor.limits` defaults every block inherits. */
export const LimitDefaults = Type.Object(LimitFields, { default: {} });
/** Type of {@link LimitDefaults}. */
export type LimitDefaults = Static<typeof LimitDefaults>;

/** Parsed limits of one process (null: none). */
export interface LimitSpec {
  readonly memoryMax: number | null;
  readonly memoryHigh: number | null;
  readonly cpuMax: number | null;
  readonly pidsMax: number | null;
  readonly onLimit: OnLimit;
}

const UNIT: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
  t: 1024 ** 4,
};

/** Bytes of a size field; null when absent; throws on what the schema would refuse. */
export function parseSize(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (typeof value === 'string' && new RegExp(SIZE_PATTERN).test(value)) {
    const match = /([0-9.]+)\s*([a-zA-Z]?)/.exec(value.trim());
    const bytes = Math.floor(Number(match?.[1]) * (UNIT[(match?.[2] ?? '').toLowerCase()] ?? 1));
    if (bytes > 0) return bytes;
  }
  throw new Error(`${field} must be a positive size in bytes or like "512MiB"`);
}

function positiveOrNull(value: unknown, field: string, integer: boolean): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && value > 0 && (!integer || Number.isInteger(value))) return value;
  throw new Error(`${field} must be a positive ${integer ? 'integer' : 'number'}`);
}

/** The limits of a block, falling back to the `stackd.supervisor.limits` defaults. */
export function limitSpecOf(
  block: Readonly<Record<string, unknown>>,
  defaults: Readonly<Record<string, unknown>>,
): LimitSpec {
  const pick = (field: string): unknown => block[field] ?? defaults[field];
  const onLimit = pick('on_limit') ?? 'restart';
  if (onLimit !== 'restart' && onLimit !== 'stop' && onLimit !== 'notify')
    throw new Error('on_limit must be restart, stop or notify');
  return {
    memoryMax: parseSize(pick('memory_max'), 'memory_max'),
    memoryHigh: parseSize(pick('memory_high'), 'memory_high'),
    cpuMax: positiveOrNull(pick('cpu_max'), 'cpu_max', false),
    pidsMax: positiveOrNull(pick('pids_max'), 'pids_max', true),
    onLimit,
  };
}

/** True when the spec limits anything. */
export function hasLimits(spec: LimitSpec): boolean {
  return (
    spec.memoryMax !== null ||
    spec.memoryHigh !== null ||
    spec.cpuMax !== null ||
    spec.pidsMax !== null
  );
}

/** A size in words: "512 MiB", "1.2 GiB", "800 KiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} ${units[unit]}`;
}
