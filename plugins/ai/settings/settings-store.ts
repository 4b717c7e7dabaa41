/**
 * AI settings and provider profiles, persisted in plugin storage (`<data-dir>/ai-diagnostics/settings.json`, 0600).
 * API keys are write-only: stored AES-256-GCM sealed, never returned.
 */
import { randomUUID } from 'node:crypto';
import { InputError, NotFoundError, type PluginStorage } from '../../../sdk/index.js';
import type { ProviderTarget } from '../adapters/types.js';
import { SecretBox } from './secret-box.js';
import {
  PROFILES_FULL,
  PROFILE_NAME_INVALID,
  PROFILE_NAME_TAKEN,
  PROFILE_NOT_FOUND,
} from '../errors.js';

const FILE = 'settings.json';
export const MAX_PROFILES = 20;
export const MAX_PROFILE_NAME = 80;

interface ProviderFields {
  provider: string;
  base_url: string;
  model: string;
  timeout_sec: number;
  temperature: number;
}
interface StoredProfile extends ProviderFields {
  id: string;
  name: string;
  api_key_sealed: string;
}
interface StoredSettings extends ProviderFields {
  enabled: boolean;
  api_key_sealed: string;
  active_profile_id: string;
  profiles: StoredProfile[];
}

/** A profile as the API shows it. */
export interface PublicProfile extends ProviderFields {
  id: string;
  name: string;
  api_key_configured: boolean;
}
/** Settings as the API shows them. */
export interface PublicSettings extends ProviderFields {
  enabled: boolean;
  api_key_configured: boolean;
  active_profile_id: string;
  profiles: PublicProfile[];
}

/** Accepted on save; an omitted or blank api_key keeps the stored one. */
export type SettingsInput = Partial<ProviderFields> & {
  enabled?: boolean;
  api_key?: string;
  active_profile_id?: string;
};
export type ProfileInput = Partial<ProviderFields> & {
  id?: string;
  name: string;
  api_key?: string;
};

const DEFAULTS: ProviderFields = {
  provider: 'local_runtime',
  base_url: 'http://127.0.0.1:11434',
  model: '',
  timeout_sec: 60,
  temperature: 0.2,
};

const providerFields = (from: ProviderFields): ProviderFields => ({
  provider: from.provider,
  base_url: from.base_url,
  model: from.model,
  timeout_sec: from.timeout_sec,
  temperature: from.temperature,
});

/** Reads and writes the settings file; every write is atomic. */
export class SettingsStore {
  private state: StoredSettings = {
    ...DEFAULTS,
    enabled: true,
    api_key_sealed: '',
    active_profile_id: '',
    profiles: [],
  };

  private secretBox: SecretBox | undefined;

  constructor(private readonly storage: PluginStorage) {}

  private get box(): SecretBox {
    if (this.secretBox === undefined) throw new Error('AI settings are not loaded yet');
    return this.secretBox;
  }

  /** Read the file and the key (at plugin start). */
  async load(): Promise<void> {
    this.secretBox = await SecretBox.open(this.storage);
    const stored = await this.storage.readJson<StoredSettings>(FILE);
    if (stored !== undefined) this.state = { ...this.state, ...stored };
  }

  private async save(): Promise<void> {
    await this.storage.writeJsonAtomic(FILE, this.state, { mode: 0o600 });
  }

  private seal(key: string | undefined, current: string): string {
    return key === undefined || key.trim() === '' ? current : this.box.encrypt(key.trim());
  }

  private active(): StoredProfile | undefined {
    return this.state.profiles.find((profile) => profile.id === this.state.active_profile_id);
  }

  /** The public view: no key anywhere. The active profile is authoritative. */
  view(): PublicSettings {
    const active = this.active();
    const fields = active === undefined ? providerFields(this.state) : providerFields(active);
    return {
      ...fields,
      enabled: this.state.enabled,
      api_key_configured: (active?.api_key_sealed ?? this.state.api_key_sealed) !== '',
      active_profile_id: this.state.active_profile_id,
      profiles: this.state.profiles.map((profile) => ({
        ...providerFields(profile),
        id: profile.id,
        name: profile.name,
        api_key_configured: profile.api_key_sealed !== '',
      })),
    };
  }

  /** The target diagnosis calls use, key decrypted. */
  target(): ProviderTarget {
    const active = this.active();
    const source = active ?? this.state;
    return {
      provider: source.provider,
      baseUrl: source.base_url,
      model: source.model,
      apiKey: source.api_key_sealed === '' ? '' : this.box.decrypt(source.api_key_sealed),
      timeoutSec: source.timeout_sec,
      temperature: source.temperature,
    };
  }

  /** The stored key for an unsaved target that names no key of its own. */
  storedKey(): string {
    return this.target().apiKey;
  }

  get enabled(): boolean {
    return this.state.enabled;
  }

  async update(input: SettingsInput): Promise<PublicSettings> {
    if (input.active_profile_id !== undefined) {
      if (
        input.active_profile_id !== '' &&
        !this.state.profiles.some((p) => p.id === input.active_profile_id)
      )
        throw new InputError(PROFILE_NOT_FOUND, 'active_profile_id names no saved profile', {
          field: 'active_profile_id',
        });
      this.state.active_profile_id = input.active_profile_id;
    }
    if (input.enabled !== undefined) this.state.enabled = input.enabled;
    const active = this.active();
    const target = active ?? this.state;
    Object.assign(target, pick(input));
    target.api_key_sealed = this.seal(input.api_key, target.api_key_sealed);
    if (active !== undefined) Object.assign(this.state, providerFields(active));
    await this.save();
    return this.view();
  }

  async saveProfile(input: ProfileInput): Promise<PublicSettings> {
    const name = input.name.trim();
    if (name === '' || name.length > MAX_PROFILE_NAME)
      throw new InputError(PROFILE_NAME_INVALID, `name must be 1–${MAX_PROFILE_NAME} characters`, {
        field: 'name',
      });
    const existing =
      input.id === undefined ? undefined : this.state.profiles.find((p) => p.id === input.id);
    if (input.id !== undefined && input.id !== '' && existing === undefined)
      throw new NotFoundError(PROFILE_NOT_FOUND, `AI profile not found: ${input.id}`);
    if (
      this.state.profiles.some((p) => p !== existing && p.name.toLowerCase() === name.toLowerCase())
    )
      throw new InputError(PROFILE_NAME_TAKEN, `A profile named ${name} exists`, {
        field: 'name',
      });
    let profile = existing;
    if (profile === undefined) {
      if (this.state.profiles.length >= MAX_PROFILES)
        throw new InputError(PROFILES_FULL, `At most ${MAX_PROFILES} profiles`, {
          field: 'name',
        });
      profile = { ...DEFAULTS, id: randomUUID(), name, api_key_sealed: '' };
      this.state.profiles.push(profile);
    }
    Object.assign(profile, pick(input), { name });
    profile.api_key_sealed = this.seal(input.api_key, profile.api_key_sealed);
    this.state.active_profile_id = profile.id;
    Object.assign(this.state, providerFields(profile));
    await this.save();
    return this.view();
  }

  async activate(id: string): Promise<PublicSettings> {
    const profile = this.state.profiles.find((p) => p.id === id);
    if (profile === undefined)
      throw new NotFoundError(PROFILE_NOT_FOUND, `AI profile not found: ${id}`);
    this.state.active_profile_id = id;
    Object.assign(this.state, providerFields(profile));
    await this.save();
    return this.view();
  }

  async remove(id: string): Promise<PublicSettings> {
    const index = this.state.profiles.findIndex((p) => p.id === id);
    if (index < 0) throw new NotFoundError(PROFILE_NOT_FOUND, `AI profile not found: ${id}`);
    this.state.profiles.splice(index, 1);
    if (this.state.active_profile_id === id) {
      const next = this.state.profiles[0];
      if (next === undefined) {
        this.state.active_profile_id = '';
        Object.assign(this.state, DEFAULTS, { api_key_sealed: '' });
      } else {
        this.state.active_profile_id = next.id;
        Object.assign(this.state, providerFields(next));
      }
    }
    await this.save();
    return this.view();
  }
}

function pick(input: Partial<ProviderFields>): Partial<ProviderFields> {
  const out: Partial<ProviderFields> = {};
  if (input.provider !== undefined) out.provider = input.provider;
  if (input.base_url !== undefined) out.base_url = input.base_url;
  if (input.model !== undefined) out.model = input.model;
  if (input.timeout_sec !== undefined) out.timeout_sec = input.timeout_sec;
  if (input.temperature !== undefined) out.temperature = input.temperature;
  return out;
}
