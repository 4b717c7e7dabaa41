import { BootError } from '../errors/boot-error.js';
/**
 * Capability flags behind `GET /process/capabilities`: every flag of the API contract (false by default) plus
 * declared plugin flags, true only when the owning plugin started and its predicate holds.
 */

/** The 18 flags of the API contract, always present in the answer so clients can rely on them. */
export const API_CAPABILITIES = [
  'optional_only_onboarding',
  'optional_service_options',
  'manual_update_check',
  'request_sync',
  'auto_update_start_time',
  'symlink_repair',
  'symlink_repair_async',
  'symlink_manifest_backup',
  'symlink_manifest_backup_async',
  'symlink_job_status',
  'symlink_job_latest',
  'symlink_manifest_restore',
  'symlink_manifest_restore_async',
  'symlink_manifest_compare',
  'symlink_backup_schedule',
  'symlink_backup_manifest_list',
  'symlink_manifest_file_list',
  'ai_provider_profiles',
] as const;

const FLAG_NAME = /^[a-z][a-z0-9_]*$/;

/** Flags, their owners and their sources. */
export class CapabilityRegistry {
  private readonly owners = new Map<string, string>();
  private readonly sources = new Map<string, Array<boolean | (() => boolean)>>();
  private readonly started = new Set<string>();

  /** Claim the flags a plugin declares; a flag claimed twice names both owners. */
  declare(plugin: string, flags: readonly string[]): void {
    for (const flag of flags) {
      if (!FLAG_NAME.test(flag))
        throw new BootError(
          'STACKD_PLUGIN_INVALID',
          `capability '${flag}' of plugin '${plugin}' is not snake_case`,
        );
      const owner = this.owners.get(flag);
      if (owner !== undefined && owner !== plugin) {
        throw new BootError(
          'STACKD_CAPABILITY_DUPLICATE',
          `capability '${flag}' is declared by both plugin '${owner}' and plugin '${plugin}'`,
        );
      }
      this.owners.set(flag, plugin);
    }
  }

  /** Turn a flag on (or bind it to a predicate); the plugin must have declared it. */
  set(plugin: string, flag: string, enabled: boolean | (() => boolean)): void {
    if (this.owners.get(flag) !== plugin) {
      throw new BootError(
        'STACKD_PLUGIN_INVALID',
        `plugin '${plugin}' sets capability '${flag}' without declaring it in its capabilities`,
      );
    }
    const list = this.sources.get(flag) ?? [];
    list.push(enabled);
    this.sources.set(flag, list);
  }

  /** Mark a plugin started: its flags may now be true. */
  markStarted(plugin: string): void {
    this.started.add(plugin);
  }

  /** Mark a plugin stopped. */
  markStopped(plugin: string): void {
    this.started.delete(plugin);
  }

  /** The capabilities object. */
  snapshot(): Record<string, boolean> {
    const result: Record<string, boolean> = {};
    for (const flag of API_CAPABILITIES) result[flag] = false;
    for (const [flag, owner] of this.owners) {
      const sources = this.sources.get(flag) ?? [];
      result[flag] =
        this.started.has(owner) &&
        sources.length > 0 &&
        sources.every((source) => (typeof source === 'function' ? safe(source) : source));
    }
    return result;
  }
}

function safe(predicate: () => boolean): boolean {
  try {
    return predicate();
  } catch {
    return false;
  }
}
