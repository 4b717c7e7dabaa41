/**
 * The graph plugin's config slice (`stackd.graph`): extensions of the shipped maps, for services
 * the shipped data does not know. Read at boot.
 */
import { Type, type Static } from '../../sdk/index.js';

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
