/**
 * Checks the shape of the shipped data files and turns them, with the config slice's extensions,
 * into the lookup tables of {@link StackKnowledge}. A malformed file fails with its path.
 */
import type {
  ConditionalRule,
  CoreDependency,
  KnowledgeExtensions,
  KnowledgeFiles,
  MountProvider,
  StackKnowledge,
} from './knowledge.js';
import { buildTruthTable, isSignalName, type SignalName } from './signals.js';

type Json = Record<string, unknown>;

class DataShapeError extends Error {
  constructor(where: string, expected: string) {
    super(`graph data ${where}: expected ${expected}`);
  }
}

function record(value: unknown, where: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new DataShapeError(where, 'an object');
  return value as Json;
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new DataShapeError(where, 'a string');
  return value;
}

function optionalText(value: unknown, where: string): string | undefined {
  return value === undefined ? undefined : text(value, where);
}

function texts(value: unknown, where: string): string[] {
  if (!Array.isArray(value)) throw new DataShapeError(where, 'an array of strings');
  return value.map((item, index) => text(item, `${where}[${index}]`));
}

function signal(value: unknown, where: string): SignalName {
  const name = text(value, where);
  if (!isSignalName(name)) throw new DataShapeError(where, 'one of the 12 signal names');
  return name;
}

function listMap(value: unknown, where: string): Map<string, readonly string[]> {
  return new Map<string, readonly string[]>(
    Object.entries(record(value, where)).map(([key, list]) => [
      key,
      texts(list, `${where}.${key}`),
    ]),
  );
}

function textMap(value: unknown, where: string): Map<string, string> {
  return new Map(
    Object.entries(record(value, where)).map(([key, item]) => [key, text(item, `${where}.${key}`)]),
  );
}

function coreDependency(value: unknown, where: string): CoreDependency {
  if (typeof value === 'string') return { key: value };
  const raw = record(value, where);
  const key = text(raw.key, `${where}.key`);
  if (raw.unless === undefined) return { key };
  const unless = record(raw.unless, `${where}.unless`);
  return {
    key,
    unless: {
      field: text(unless.field, `${where}.unless.field`),
      in: texts(unless.in, `${where}.unless.in`),
    },
  };
}

function conditionalRule(value: unknown, where: string): ConditionalRule {
  const raw = record(value, where);
  const dependents = texts(raw.dependents, `${where}.dependents`);
  const kind = text(raw.kind, `${where}.kind`);
  switch (kind) {
    case 'add_enabled':
    case 'replace_with_enabled': {
      const flag = optionalText(raw.instance_flag, `${where}.instance_flag`);
      const keys = texts(raw.keys, `${where}.keys`);
      return flag === undefined
        ? { kind, dependents, keys }
        : { kind, dependents, keys, instance_flag: flag };
    }
    case 'add_when_own_flag':
      return {
        kind,
        dependents,
        flag: text(raw.flag, `${where}.flag`),
        keys: texts(raw.keys, `${where}.keys`),
      };
    case 'mount_providers':
      return { kind, dependents };
    default:
      throw new DataShapeError(`${where}.kind`, 'a known rule kind');
  }
}

function mountProvider(value: unknown, where: string): MountProvider {
  const raw = record(value, where);
  const provider: {
    -readonly [K in keyof MountProvider]: MountProvider[K];
  } = { signal: signal(raw.signal, `${where}.signal`), key: text(raw.key, `${where}.key`) };
  const flag = optionalText(raw.when_flag, `${where}.when_flag`);
  const keyType = optionalText(raw.when_key_type, `${where}.when_key_type`);
  const coreRef = optionalText(raw.when_core_ref, `${where}.when_core_ref`);
  if (flag !== undefined) provider.when_flag = flag;
  if (keyType !== undefined) provider.when_key_type = keyType;
  if (coreRef !== undefined) provider.when_core_ref = coreRef;
  if (raw.scope_by_core === true) provider.scope_by_core = true;
  return provider;
}

function mergeLists(
  target: Map<string, readonly string[]>,
  extra: Readonly<Record<string, readonly string[]>>,
): void {
  for (const [key, list] of Object.entries(extra))
    target.set(key, [...new Set([...(target.get(key) ?? []), ...list])]);
}

/** Check the shipped files and build the lookup tables, with the config's extensions merged. */
export function buildKnowledge(
  files: KnowledgeFiles,
  extensions?: KnowledgeExtensions,
): StackKnowledge {
  const core = record(files['core-services'], 'core-services');
  const coreServices = new Map<string, readonly CoreDependency[]>(
    Object.entries(record(core.dependencies, 'core-services.dependencies')).map(([key, list]) => {
      if (!Array.isArray(list)) throw new DataShapeError(`core-services.${key}`, 'an array');
      return [key, list.map((item, i) => coreDependency(item, `core-services.${key}[${i}]`))];
    }),
  );
  const conditional = record(files['conditional-startup'], 'conditional-startup');
  const rules = conditional.rules;
  if (!Array.isArray(rules)) throw new DataShapeError('conditional-startup.rules', 'an array');
  const mounts = record(files['mount-providers'], 'mount-providers');
  const providers = mounts.providers;
  if (!Array.isArray(providers)) throw new DataShapeError('mount-providers.providers', 'an array');
  const integrations = record(files.integrations, 'integrations');
  const names = record(files['display-names'], 'display-names');
  const nonCoreDependencies = listMap(files['non-core-dependencies'], 'non-core-dependencies');
  const softLinks = Object.entries(integrations).map(([name, links]) => ({
    signal: signal(name, `integrations.${name}`),
    links: listMap(links, `integrations.${name}`),
  }));
  const displayNames = textMap(names.names, 'display-names.names');
  const aliasTable = textMap(names.aliases, 'display-names.aliases');

  if (extensions !== undefined) {
    for (const [key, list] of Object.entries(extensions.extra_core_services)) {
      const known = coreServices.get(key) ?? [];
      const added = list.filter((dep) => !known.some((have) => have.key === dep));
      coreServices.set(key, [...known, ...added.map((dep) => ({ key: dep }))]);
    }
    mergeLists(nonCoreDependencies, extensions.extra_dependencies);
    const documented = softLinks.find((map) => map.signal === 'documented_integration');
    if (documented !== undefined) mergeLists(documented.links, extensions.extra_integrations);
    else
      softLinks.push({
        signal: 'documented_integration',
        links: new Map(Object.entries(extensions.extra_integrations)),
      });
    for (const [key, name] of Object.entries(extensions.display_names)) displayNames.set(key, name);
    for (const [alias, key] of Object.entries(extensions.aliases)) aliasTable.set(alias, key);
  }

  // Display names are aliases too ("Plex Media Server" finds plex); explicit aliases win.
  const aliases = new Map<string, string>();
  for (const [key, name] of displayNames) aliases.set(name.trim().toLowerCase(), key);
  for (const [alias, key] of aliasTable) aliases.set(alias.trim().toLowerCase(), key);

  return {
    coreServices,
    instanceScopedKeys: new Set(
      texts(core.instance_scoped_keys, 'core-services.instance_scoped_keys'),
    ),
    legacyCoreRefs: textMap(core.legacy_core_refs ?? {}, 'core-services.legacy_core_refs'),
    nonCoreDependencies,
    conditionalBase: listMap(conditional.base, 'conditional-startup.base'),
    conditionalRules: rules.map((rule, i) =>
      conditionalRule(rule, `conditional-startup.rules[${i}]`),
    ),
    mountKeys: new Set(texts(mounts.mount_keys, 'mount-providers.mount_keys')),
    mountProviders: providers.map((item, i) =>
      mountProvider(item, `mount-providers.providers[${i}]`),
    ),
    softLinks,
    displayNames,
    aliases,
    truthTable: buildTruthTable(Object.fromEntries(textMap(files.signals, 'signals'))),
  };
}
