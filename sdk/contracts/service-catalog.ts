/**
 * `onboarding.service-catalog`: the services onboarding knows (core services, the dependency
 * templates they need, optional services) and the setup hooks run before a service launches.
 * The onboarding plugin ships its own catalog as data; other plugins add entries and hooks here.
 */
import type { JsonRecord } from '../config.js';
import type { Logger } from '../logger.js';
import { createServiceRef } from '../services.js';

/** What a catalog entry is for onboarding. */
export type CatalogRole = 'core' | 'dependency' | 'optional';

/** Formats `POST /config/service-config` can read and write. */
export type ServiceConfigFormat = 'json' | 'yaml' | 'conf' | 'python' | 'xml';

/**
 * One service of the catalog. String values of `template` may use creation-time placeholders,
 * replaced when onboarding creates the block: `{{core_key}}`, `{{core_name}}`, `{{instance}}`,
 * `{{instance_slug}}` (lower case, `_` for anything else) and `{{debrid_service}}`. Runtime
 * placeholders such as `{port}` stay for the supervisor to fill at every start.
 */
export interface CatalogService {
  /** Config key of the service block (`riven_backend`). */
  readonly key: string;
  /** Display name (`Riven`). */
  readonly name: string;
  readonly role: CatalogRole;
  readonly description?: string;
  /** Other names a request may use (matched ignoring case, spaces, `-` and `_`). */
  readonly aliases?: readonly string[];
  /** The process block created when the configuration has none. */
  readonly template: JsonRecord;
  /** Core services: config keys of the services created and started before it. */
  readonly dependencies?: readonly string[];
  /**
   * Dependencies: one instance per calling core service (`zurg.instances.<CoreName>`), carrying
   * `core_service: <core key>`. Otherwise the block is shared and lists the cores in
   * `core_services`.
   */
  readonly per_core_instance?: boolean;
  /** process_name of a per-core instance; default `{{name}} w/ {{core_name}}`. */
  readonly instance_process_name?: string;
  /** Core services: the block lives in `instances.<instance_name>` (default `Default`). */
  readonly supports_instances?: boolean;
  /** Core services: debrid providers the onboarding UI offers. */
  readonly debrid_providers?: readonly string[];
  /** Dotted field of the block the request's `debrid_key` is written to (`api_key`, `env.TOKEN`). */
  readonly debrid_key_field?: string;
  /** Fields onboarding exposes as service options, each with a help text. */
  readonly options?: Readonly<Record<string, string>>;
  /** Optional services: start before the core services (default after them). */
  readonly start?: 'before_core' | 'after_core';
  /** Format of the block's `config_file` when its extension does not tell. */
  readonly config_format?: ServiceConfigFormat;
}

/** What a setup hook receives. */
export interface SetupHookContext {
  readonly config_key: string;
  readonly instance_name: string | null;
  readonly process_name: string;
  /** A copy of the block: changes are validated and saved before the launch. */
  readonly block: JsonRecord;
  readonly dataDir: string;
  readonly logger: Logger;
}

/** Runs before a service launches (start-core-service, start-service, restart-service). */
export type SetupHook = (context: SetupHookContext) => Promise<void> | void;

/** The catalog service. */
export interface ServiceCatalog {
  /** Add (or replace, by key) services; an invalid entry throws naming it. */
  addServices(entries: readonly CatalogService[]): void;
  /** Register a setup hook for a config key; returns a function removing it. */
  addSetupHook(serviceKey: string, hook: SetupHook): () => void;
  /** Every service, shipped entries first. */
  services(): CatalogService[];
}

/** The service ref (owner: the onboarding plugin). */
export const serviceCatalogRef = createServiceRef<ServiceCatalog>({
  id: 'onboarding.service-catalog',
  owner: 'onboarding',
});
