/** The bodies of GET /process/core-services and GET /process/optional-services. Pure. */
import type { JsonRecord } from '../../../sdk/index.js';
import type { CatalogService } from '../../../sdk/index.js';
import type { ServiceCatalogRegistry } from '../catalog/service-catalog.js';

/** The exposed options of a service with their template defaults (null when the template has none). */
function optionDefaults(service: CatalogService): JsonRecord {
  const values: JsonRecord = {};
  for (const field of Object.keys(service.options ?? {}))
    values[field] = structuredClone(service.template[field] ?? null);
  return values;
}

/** GET /process/core-services. */
export function coreServicesView(catalog: ServiceCatalogRegistry) {
  return {
    core_services: catalog
      .services()
      .filter((service) => service.role === 'core')
      .map((service) => {
        const related = [service, ...(service.dependencies ?? []).map((key) => catalog.get(key))];
        const known = related.filter((entry): entry is CatalogService => entry !== undefined);
        return {
          name: service.name,
          key: service.key,
          description: service.description ?? '',
          dependencies: [...(service.dependencies ?? [])],
          debrid_providers: [...(service.debrid_providers ?? [])],
          service_options: Object.fromEntries(
            known.map((entry) => [entry.key, optionDefaults(entry)]),
          ),
          service_option_descriptions: Object.fromEntries(
            known.map((entry) => [entry.key, { ...entry.options }]),
          ),
          supports_instances: service.supports_instances === true,
        };
      }),
  };
}

/** Every key `roots` need, transitively (the roots themselves excluded). */
function neededBy(catalog: ServiceCatalogRegistry, roots: readonly CatalogService[]): Set<string> {
  const needed = new Set<string>();
  const pending = roots.flatMap((root) => root.dependencies ?? []);
  while (pending.length > 0) {
    const key = pending.pop() as string;
    if (needed.has(key)) continue;
    needed.add(key);
    pending.push(...(catalog.get(key)?.dependencies ?? []));
  }
  return needed;
}

/**
 * GET /process/optional-services: the optional services, without those the chosen core service
 * or the already chosen optional services need anyway (they start as dependencies).
 */
export function optionalServicesView(
  catalog: ServiceCatalogRegistry,
  query: { core_service?: string; optional_services?: string | string[] },
) {
  const chosenNames = [query.optional_services ?? []]
    .flat()
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
  const roots = [query.core_service ?? '', ...chosenNames]
    .map((name) => (name === '' ? undefined : catalog.resolve(name)))
    .filter((entry): entry is CatalogService => entry !== undefined);
  const needed = neededBy(catalog, roots);
  return {
    optional_services: catalog
      .services()
      .filter((service) => service.role === 'optional' && !needed.has(service.key))
      .map((service) => ({
        name: service.name,
        key: service.key,
        description: service.description ?? '',
        dependencies: [...(service.dependencies ?? [])],
        start: service.start ?? ('after_core' as const),
        service_options: optionDefaults(service),
        service_option_descriptions: { ...service.options },
      })),
  };
}
