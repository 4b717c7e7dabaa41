/** Shared set-up for the graph unit tests: the shipped knowledge and small config builders. */
import type { JsonRecord } from '../../../sdk/index.js';
import { buildKnowledge } from '../../../plugins/graph/knowledge/knowledge-build.js';
import type {
  KnowledgeExtensions,
  StackKnowledge,
} from '../../../plugins/graph/knowledge/knowledge.js';
import { readShippedKnowledge } from '../../../plugins/graph/knowledge-files.js';
import { GraphService } from '../../../plugins/graph/graph-service.js';
import type { DependencyGraphResponse } from '../../../plugins/graph/schemas.js';
import type { SignalName } from '../../../plugins/graph/knowledge/signals.js';
import {
  buildStackGraph,
  dependenciesWithSiblings,
  type StackGraph,
} from '../../../plugins/graph/stack/stack-graph.js';
import type { GraphScope, Logger } from '../../../sdk/index.js';

/** The shipped data, optionally extended as the config slice would. */
export function knowledge(extensions?: Partial<KnowledgeExtensions>): StackKnowledge {
  return buildKnowledge(
    readShippedKnowledge(),
    extensions === undefined
      ? undefined
      : {
          extra_core_services: {},
          extra_dependencies: {},
          extra_integrations: {},
          display_names: {},
          aliases: {},
          ...extensions,
        },
  );
}

/** A process block. */
export function block(processName: string, fields: JsonRecord = {}): JsonRecord {
  return { enabled: true, process_name: processName, command: ['node', '-e', ''], ...fields };
}

/** A service with instances. */
export function instances(byName: Record<string, JsonRecord>): JsonRecord {
  return { instances: byName };
}

/** The whole-stack graph of a document. */
export function graphOf(
  document: JsonRecord,
  extensions?: Partial<KnowledgeExtensions>,
): StackGraph {
  return buildStackGraph(document, knowledge(extensions));
}

/**
 * Signals of the relation "dependent depends on dependency" (sibling instances included), or
 * undefined when none.
 */
export function relation(
  graph: StackGraph,
  dependency: string,
  dependent: string,
): SignalName[] | undefined {
  const from = graph.entries.find((entry) => entry.process_name === dependency);
  const to = graph.entries.find((entry) => entry.process_name === dependent);
  if (from === undefined || to === undefined)
    throw new Error(`no process ${dependency}/${dependent}`);
  const signals = dependenciesWithSiblings(graph, to).get(from.index);
  return signals === undefined ? undefined : [...signals].sort();
}

/** A logger that keeps what it is told (for asserting warnings). */
export function memoryLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const logger = {
    lines,
    debug: (message: string) => lines.push(`debug ${message}`),
    info: (message: string) => lines.push(`info ${message}`),
    warn: (message: string) => lines.push(`warn ${message}`),
    error: (message: string) => lines.push(`error ${message}`),
    child: () => logger,
  };
  return logger;
}

/** A service over a fixed document, without a supervisor. */
export function serviceOf(document: JsonRecord, logger: Logger = memoryLogger()): GraphService {
  const shipped = knowledge();
  return new GraphService({
    readDocument: () => document,
    knowledge: () => shipped,
    supervisor: () => undefined,
    logger,
    now: () => new Date('2026-05-04T03:02:01.456Z'),
  });
}

/** The graph response of one process. */
export function viewOf(
  document: JsonRecord,
  processName: string,
  scope: GraphScope = 'runtime',
): DependencyGraphResponse {
  const view = serviceOf(document).view(processName, scope);
  if (view === undefined) throw new Error(`no process ${processName}`);
  return view;
}
