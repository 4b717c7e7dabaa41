/**
 * The graph plugin's config slice (`stackd.graph`): extensions of the shipped maps, for services
 * the shipped data does not know. Validated at boot by core and on every configuration update by
 * the validator below; a change applies at once (the derived graph is rebuilt).
 */
import { InputError, Type, checkValue, type JsonRecord, type Static } from '../../sdk/index.js';
import type { KnowledgeExtensions } from './knowledge/knowledge.js';
import { HOST_SECTION } from '../../sdk/index.js';
import { isJsonRecord } from '../../sdk/index.js';
import { GRAPH_CONFIG_INVALID } from './errors.js';

const KeyLists = (description: string) =>
  Type.Record(Type.String(), Type.Array(Type.String()), { default: {}, description });

export const GraphConfig = Type.Object({
  extra_core_services: KeyLists(
    'Core service key → keys it needs (signal core_service_map), added to the shipped map',
  ),
  extra_dependencies: KeyLists(
    'Service key → keys it needs started first (signal non_core_dependency_map)',
  ),
  extra_integrations: KeyLists(
    'Service key → keys it integrates with (signal documented_integration, soft linkage)',
  ),
  display_names: Type.Record(Type.String(), Type.String(), {
    default: {},
    description: 'Config key → display name (also accepted as a lookup alias)',
  }),
  aliases: Type.Record(Type.String(), Type.String(), {
    default: {},
    description: 'Lookup alias (any case) → config key',
  }),
});
export type GraphConfig = Static<typeof GraphConfig>;

/** The slice as written: every field optional (defaults are empty maps). */
const GraphConfigAsWritten = Type.Partial(GraphConfig);

const EMPTY: KnowledgeExtensions = {
  extra_core_services: {},
  extra_dependencies: {},
  extra_integrations: {},
  display_names: {},
  aliases: {},
};

function sliceOf(document: Readonly<JsonRecord>): unknown {
  const host = document[HOST_SECTION];
  return isJsonRecord(host) ? host.graph : undefined;
}

/** Reject a configuration whose `stackd.graph` slice is malformed, naming the field. */
export function validateGraphSlice(candidate: Readonly<JsonRecord>): void {
  const slice = sliceOf(candidate);
  if (slice === undefined) return;
  const [failure] = checkValue(GraphConfigAsWritten, slice);
  if (failure !== undefined)
    throw new InputError(GRAPH_CONFIG_INVALID, `stackd.graph: ${failure.message}`, {
      field: ['stackd', 'graph', failure.field].filter((part) => part !== '').join('.'),
    });
}

/** The extensions a document's `stackd.graph` slice asks for (empty when absent). */
export function extensionsOf(document: Readonly<JsonRecord>): KnowledgeExtensions {
  const slice = sliceOf(document);
  if (slice === undefined || checkValue(GraphConfigAsWritten, slice).length > 0) return EMPTY;
  return { ...EMPTY, ...(slice as Partial<KnowledgeExtensions>) };
}
