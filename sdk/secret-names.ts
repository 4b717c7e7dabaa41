/**
 * The one rule for names whose value is a secret (config keys, command-line flags): the name,
 * lower-cased with everything but letters and digits removed, contains one of these words.
 */
const SECRET_KEY =
  /(?:apikey|apitoken|token|password|passwd|passphrase|secret|webhook|authorization|cookie|credential|privatekey|sessionid)/;

/** `API-Key`, `api_key`, `--api-key` → `apikey`. */
export function normalizeName(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** True when a value named `name` is a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_KEY.test(normalizeName(name));
}
