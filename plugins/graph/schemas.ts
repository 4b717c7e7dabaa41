/** Wire shapes of `GET /process/dependency-graph`. */
import { StringEnum, Type, type Static } from '../../sdk/index.js';
import { SIGNAL_NAMES } from './knowledge/signals.js';

const Strength = StringEnum(['hard_runtime', 'hard_configured', 'soft_linkage'] as const, {
  description:
    'hard_runtime if any signal blocks the start, else hard_configured if any is configured, else soft_linkage',
});
const Classification = StringEnum(['hard', 'linkage'] as const);
const Signals = Type.Array(StringEnum(SIGNAL_NAMES), { description: 'Sorted, each once' });
/** What every row, step and edge says about its link. */
const linkage = { signals: Signals, classification: Classification, strength: Strength };
const State = Type.String({
  description:
    'A live status (running, stopped, starting, stopping, crashed, backoff), `disabled`, `unknown` (enabled, no supervisor loaded) or `missing` (no block in the configuration)',
});

/** Query of the route. */
export const DependencyGraphQuery = Type.Object({
  process_name: Type.String({
    minLength: 1,
    description: 'Process name, any case; a config key or display name also works',
  }),
  scope: Type.Optional(
    StringEnum(['runtime', 'all'] as const, {
      default: 'runtime',
      description: 'runtime: hard dependencies only; all: soft linkage too',
    }),
  ),
});

export const DependencyRow = Type.Object({
  key: Type.String(),
  label: Type.String(),
  state: State,
  process_count: Type.Integer({ minimum: 0 }),
  scoped: Type.Boolean({ description: 'The key is instance-scoped (zurg, rclone)' }),
  starter_process_name: Type.Union([Type.String(), Type.Null()]),
  ...linkage,
});
export type DependencyRow = Static<typeof DependencyRow>;

export const DependentRow = Type.Object({
  key: Type.String(),
  label: Type.String(),
  state: State,
  missing_deps: Type.Array(Type.String(), {
    description: 'Dependency keys of the dependent that are not running',
  }),
  ...linkage,
});
export type DependentRow = Static<typeof DependentRow>;

export const StartupStep = Type.Object({
  key: Type.String(),
  label: Type.String(),
  state: State,
  ...linkage,
});
export type StartupStep = Static<typeof StartupStep>;

export const LinkedRow = Type.Object({
  process_name: Type.String(),
  key: Type.String(),
  label: Type.String(),
  state: State,
  ...linkage,
});
export type LinkedRow = Static<typeof LinkedRow>;

export const GraphNode = Type.Object({
  id: Type.String(),
  process_name: Type.String(),
  key: Type.String(),
  label: Type.String(),
  state: State,
});
export type GraphNode = Static<typeof GraphNode>;

export const GraphEdge = Type.Object({
  source: Type.String({ description: 'The dependency' }),
  target: Type.String({ description: 'The dependent' }),
  ...linkage,
});
export type GraphEdge = Static<typeof GraphEdge>;

export const ParallelGroupSchema = Type.Object({
  id: Type.String(),
  label: Type.String(),
  type: StringEnum(['parallel'] as const),
  members: Type.Array(Type.String()),
});

const TruthRow = Type.Object({
  classification: Classification,
  strength: Strength,
  description: Type.String(),
});

export const TruthTableSchema = Type.Object(
  Object.fromEntries(SIGNAL_NAMES.map((signal) => [signal, TruthRow])) as Record<
    (typeof SIGNAL_NAMES)[number],
    typeof TruthRow
  >,
  { description: 'The 12 signals: hard dependency or linkage, and their strength' },
);

export const GraphContext = Type.Object({
  mode: StringEnum(['core', 'dependency'] as const),
  key: Type.String(),
  core: Type.Object({
    key: Type.String(),
    name: Type.String(),
    dependencies: Type.Array(Type.String()),
  }),
});
export type GraphContext = Static<typeof GraphContext>;

export const DependencyGraphResponse = Type.Object({
  process_name: Type.String(),
  config_key: Type.String(),
  context: GraphContext,
  scope: StringEnum(['runtime', 'all'] as const),
  startup_order: Type.Array(StartupStep, {
    description: 'Dependencies first, then the process, then its dependents',
  }),
  dependency_rows: Type.Array(DependencyRow),
  dependent_rows: Type.Array(DependentRow),
  linked_outgoing_rows: Type.Array(LinkedRow, { description: 'Processes it depends on' }),
  linked_incoming_rows: Type.Array(LinkedRow, { description: 'Processes that depend on it' }),
  nodes: Type.Array(GraphNode),
  edges: Type.Array(GraphEdge, { description: 'From dependency to dependent' }),
  parallel_groups: Type.Array(ParallelGroupSchema),
  cycles: Type.Array(Type.Array(Type.String()), {
    description: 'Startup dependency cycles this process is part of (members start unordered)',
  }),
  dependency_truth_table: TruthTableSchema,
  statuses: Type.Record(Type.String(), Type.String(), {
    description:
      'Live status of every process by name (running, stopped, …); empty without the supervisor',
  }),
  updated_at: Type.String({ description: 'ISO 8601 UTC, seconds' }),
});
export type DependencyGraphResponse = Static<typeof DependencyGraphResponse>;
