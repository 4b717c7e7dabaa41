/**
 * What POST /process/start-core-service will do, in order, before anything is touched: for each
 * core service its dependencies (per-core instances or shared blocks) then itself; optional
 * services (and what they depend on) only when listed, before or after the cores as the catalog
 * says. Unknown names become error items; the rest of the plan stands. Pure.
 */
import { isJsonRecord } from '../../../sdk/index.js';
import type { JsonRecord } from '../../../sdk/index.js';
import type { CatalogService } from '../../../sdk/index.js';
import type { ServiceCatalogRegistry } from '../catalog/service-catalog.js';
import { findProcessEntry, listProcessEntries } from '../../../sdk/index.js';
import type { CoreServiceRequest, StartCoreServiceBody, StartError } from '../schemas.js';
import {
  ONBOARDING_NOT_CORE_SERVICE,
  ONBOARDING_NOT_OPTIONAL_SERVICE,
  ONBOARDING_UNKNOWN_DEPENDENCY,
  ONBOARDING_UNKNOWN_SERVICE,
} from '../errors.js';

/** The core service a dependency is started for. */
export interface CoreRef {
  readonly key: string;
  readonly name: string;
}

/** One service to configure and start. */
export interface PlanItem {
  readonly role: 'core' | 'dependency' | 'optional';
  readonly service: CatalogService;
  /** Key path of the block in the document. */
  readonly path: readonly string[];
  /** Core services this block is attached to (dependencies). */
  readonly cores: CoreRef[];
  /** The core whose names fill the template placeholders (per-core blocks and cores). */
  readonly owner: CoreRef | null;
  readonly instance: string | null;
  readonly perCore: boolean;
  /** Field overrides, applied last. */
  options: JsonRecord;
  debridKey: string | null;
  debridService: string;
}

/** The plan and the requests it could not place. */
export interface StartPlan {
  readonly items: PlanItem[];
  readonly errors: StartError[];
}

/** An instance name: letters, digits, spaces, `_` and `-` only. */
export function sanitizeInstanceName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9 _-]+/g, '').trim();
  return cleaned === '' ? 'Default' : cleaned;
}

function optionsFor(source: JsonRecord | undefined, ...keys: (string | null)[]): JsonRecord {
  const merged: JsonRecord = {};
  for (const key of keys) {
    const value = key === null ? undefined : source?.[key];
    if (isJsonRecord(value)) Object.assign(merged, value);
  }
  return merged;
}

/** Build the start plan of a request against the catalog and the current document. */
export function buildStartPlan(
  body: StartCoreServiceBody,
  catalog: ServiceCatalogRegistry,
  document: JsonRecord,
): StartPlan {
  const planner = new StartPlanner(catalog, document);
  const cores: CoreServiceRequest[] =
    body.core_services === undefined
      ? []
      : Array.isArray(body.core_services)
        ? body.core_services
        : [body.core_services];
  const optionals = planner.optionalServices(body.optional_services ?? []);
  const middle = cores.flatMap((request) => planner.coreItems(request));
  // Optional services start before or after the cores, as the catalog says.
  const front: PlanItem[] = [];
  const back: PlanItem[] = [];
  for (const service of optionals) {
    const target = service.start === 'before_core' ? front : back;
    target.push(
      ...planner.dependencyItems(service, null, null, service.name),
      optionalItem(service, cores, body),
    );
  }
  return { items: mergeDuplicates([...front, ...middle, ...back]), errors: planner.errors };
}

/** Places the named services of one request, collecting what it cannot place as errors. */
class StartPlanner {
  readonly errors: StartError[] = [];
  private readonly entries: ReturnType<typeof listProcessEntries>;

  constructor(
    private readonly catalog: ServiceCatalogRegistry,
    private readonly document: JsonRecord,
  ) {
    this.entries = listProcessEntries(document);
  }

  /** The optional services named, in order; other names become error items. */
  optionalServices(names: readonly string[]): CatalogService[] {
    const services: CatalogService[] = [];
    for (const name of names) {
      const service = this.resolveName(name);
      if (service === undefined || service.role === 'core' || service.per_core_instance === true)
        this.errors.push({
          service: name,
          code:
            service === undefined ? ONBOARDING_UNKNOWN_SERVICE : ONBOARDING_NOT_OPTIONAL_SERVICE,
          detail:
            service === undefined
              ? `Service '${name}' is not in the service catalog`
              : `${name} is not an optional service`,
        });
      else services.push(service);
    }
    return services;
  }

  /** A core service's dependencies, then the core itself (nothing but an error when unknown). */
  coreItems(request: CoreServiceRequest): PlanItem[] {
    const service = this.resolveName(request.name);
    if (service === undefined || service.role !== 'core') {
      this.errors.push({
        service: request.name,
        code: service === undefined ? ONBOARDING_UNKNOWN_SERVICE : ONBOARDING_NOT_CORE_SERVICE,
        detail:
          service === undefined
            ? `Service '${request.name}' is not in the service catalog`
            : `${request.name} is not a core service`,
      });
      return [];
    }
    const core: CoreRef = { key: service.key, name: service.name };
    const instance =
      service.supports_instances === true
        ? sanitizeInstanceName(request.instance_name ?? 'Default')
        : null;
    return [
      ...this.dependencyItems(service, core, request, request.name),
      {
        role: 'core',
        service,
        path: instance === null ? [service.key] : [service.key, 'instances', instance],
        cores: [],
        owner: core,
        instance,
        perCore: false,
        options: optionsFor(request.service_options, service.key, instance),
        debridKey: request.debrid_key ?? null,
        debridService: request.debrid_service ?? '',
      },
    ];
  }

  /** The dependencies of `of`: per-core instances for `core`, or shared blocks. */
  dependencyItems(
    of: CatalogService,
    core: CoreRef | null,
    request: CoreServiceRequest | null,
    label: string,
  ): PlanItem[] {
    const planned: PlanItem[] = [];
    for (const key of of.dependencies ?? []) {
      const dependency = this.catalog.get(key);
      if (dependency === undefined) {
        this.errors.push({
          service: label,
          code: ONBOARDING_UNKNOWN_DEPENDENCY,
          detail: `${label} depends on '${key}', which is not in the service catalog`,
        });
        continue;
      }
      const perCore = dependency.per_core_instance === true && core !== null;
      planned.push({
        role: 'dependency',
        service: dependency,
        path: perCore ? this.perCorePath(dependency, core) : [dependency.key],
        cores: core === null ? [] : [core],
        owner: perCore ? core : null,
        instance: perCore ? core.name : null,
        perCore,
        options: optionsFor(request?.service_options, key),
        debridKey: request?.debrid_key ?? null,
        debridService: request?.debrid_service ?? '',
      });
    }
    return planned;
  }

  private perCorePath(service: CatalogService, core: CoreRef): string[] {
    const existing = this.document[service.key];
    // A user's singleton block of the service is used as it is (no instances next to it).
    if (isJsonRecord(existing) && !isJsonRecord(existing.instances) && 'process_name' in existing)
      return [service.key];
    return [service.key, 'instances', core.name];
  }

  private resolveName(name: string): CatalogService | undefined {
    const direct = this.catalog.resolve(name);
    if (direct !== undefined) return direct;
    const entry = findProcessEntry(this.entries, name);
    return entry === undefined ? undefined : this.catalog.get(entry.config_key);
  }
}

/** An optional service's own block: options from every core request, then its own. */
function optionalItem(
  service: CatalogService,
  cores: readonly CoreServiceRequest[],
  body: StartCoreServiceBody,
): PlanItem {
  return {
    role: 'optional',
    service,
    path: [service.key],
    cores: [],
    owner: null,
    instance: null,
    perCore: false,
    options: {
      ...optionsFor(
        cores.reduce<JsonRecord>(
          (merged, request) => ({ ...merged, ...request.service_options }),
          {},
        ),
        service.key,
      ),
      ...optionsFor(body.optional_service_options, service.key),
    },
    debridKey: null,
    debridService: '',
  };
}

/** A block wanted twice starts once, at its first place, attached to every core, options merged. */
function mergeDuplicates(planned: readonly PlanItem[]): PlanItem[] {
  const byPath = new Map<string, PlanItem>();
  const items: PlanItem[] = [];
  for (const item of planned) {
    const id = item.path.join('\u0000');
    const first = byPath.get(id);
    if (first === undefined) {
      byPath.set(id, item);
      items.push(item);
      continue;
    }
    for (const core of item.cores)
      if (!first.cores.some((known) => known.key === core.key)) first.cores.push(core);
    first.options = { ...first.options, ...item.options };
    first.debridKey = item.debridKey ?? first.debridKey;
  }
  return items;
}
