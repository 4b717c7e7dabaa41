/**
 * One plan item written into a draft of the document: the existing block is reused, else it is
 * created from the catalog template (creation-time placeholders filled, a unique process_name);
 * then it is enabled, attached to its core services, given the debrid key where the catalog says
 * it needs one, and the request's service options are applied last. Pure (mutates the draft).
 */
import { isJsonRecord } from '../../../sdk/index.js';
import type { JsonRecord } from '../../../sdk/index.js';
import { listProcessEntries } from '../../../sdk/index.js';
import type { PlanItem } from './start-plan.js';

/** `Riven (TorBox)` → `riven_torbox`. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

const CATALOG_PLACEHOLDER =
  /\{\{(core_key|core_name|instance|instance_slug|debrid_service|name)\}\}/g;

/** Replace creation-time placeholders in every string of a JSON value. */
export function fillTemplate<T>(value: T, vars: Readonly<Record<string, string>>): T {
  if (typeof value === 'string')
    return value.replace(CATALOG_PLACEHOLDER, (match, name: string) => vars[name] ?? match) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => fillTemplate(item, vars)) as T;
  if (isJsonRecord(value))
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, fillTemplate(item, vars)]),
    ) as T;
  return value;
}

function blockAt(document: JsonRecord, path: readonly string[]): JsonRecord | undefined {
  let current: unknown = document;
  for (const key of path) current = isJsonRecord(current) ? current[key] : undefined;
  return isJsonRecord(current) ? current : undefined;
}

function setBlockAt(document: JsonRecord, path: readonly string[], block: JsonRecord): void {
  let current = document;
  for (const key of path.slice(0, -1)) {
    const next = current[key];
    if (isJsonRecord(next)) current = next;
    else {
      const created: JsonRecord = {};
      current[key] = created;
      current = created;
    }
  }
  current[path[path.length - 1] as string] = block;
}

function setDotted(block: JsonRecord, field: string, value: string): void {
  const parts = field.split('.');
  let current = block;
  for (const part of parts.slice(0, -1)) {
    const next = current[part];
    if (isJsonRecord(next)) current = next;
    else {
      const created: JsonRecord = {};
      current[part] = created;
      current = created;
    }
  }
  current[parts[parts.length - 1] as string] = value;
}

function uniqueProcessName(document: JsonRecord, wanted: string): string {
  const taken = new Set(listProcessEntries(document).map((entry) => entry.process_name));
  if (!taken.has(wanted)) return wanted;
  for (let suffix = 2; ; suffix += 1)
    if (!taken.has(`${wanted} ${suffix}`)) return `${wanted} ${suffix}`;
}

function attach(block: JsonRecord, item: PlanItem): void {
  if (item.perCore) {
    const [core] = item.cores;
    if (core !== undefined) block.core_service = core.key;
    return;
  }
  if (item.cores.length === 0) return;
  const listed = Array.isArray(block.core_services)
    ? block.core_services.filter((key): key is string => typeof key === 'string')
    : [];
  for (const core of item.cores) if (!listed.includes(core.key)) listed.push(core.key);
  block.core_services = listed;
}

/**
 * A block the draft does not have yet, from the service's template: placeholders filled, and a
 * process_name no other block has (per-core services and named instances say whose they are).
 */
function newBlock(draft: JsonRecord, item: PlanItem): JsonRecord {
  const { service } = item;
  const instance = item.instance ?? '';
  const vars = {
    core_key: item.owner?.key ?? '',
    core_name: item.owner?.name ?? '',
    instance,
    instance_slug: slug(instance === '' ? service.key : instance),
    debrid_service: item.debridService,
    name: service.name,
  };
  const block = fillTemplate(structuredClone(service.template), vars);
  let processName = typeof block.process_name === 'string' ? block.process_name : service.name;
  if (item.perCore)
    processName = fillTemplate(service.instance_process_name ?? '{{name}} w/ {{core_name}}', vars);
  else if (item.instance !== null && item.instance !== 'Default')
    processName = `${processName} ${item.instance}`;
  block.process_name = uniqueProcessName(draft, processName);
  return block;
}

/** Write the item's block into `draft`; returns its process_name. */
export function applyPlanItem(draft: JsonRecord, item: PlanItem): string {
  let block = blockAt(draft, item.path);
  if (block === undefined) {
    block = newBlock(draft, item);
    setBlockAt(draft, item.path, block);
  }
  block.enabled = true;
  attach(block, item);
  const keyField = item.service.debrid_key_field;
  if (keyField !== undefined && item.debridKey !== null && item.debridKey !== '')
    setDotted(block, keyField, item.debridKey);
  Object.assign(block, structuredClone(item.options));
  return String(block.process_name);
}
