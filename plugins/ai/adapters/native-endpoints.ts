/**
 * Fixed official endpoints of the native hosted kinds. They are never settable through the API
 * (that would let a caller send the stored key anywhere); an environment variable read at plugin
 * start may override them for tests and air-gapped mirrors.
 */
const fromEnv = (name: string, fallback: string): string => {
  const value = process.env[name]?.trim();
  return value === undefined || value === '' ? fallback : value.replace(/\/+$/, '');
};

export const NATIVE_A_ENDPOINT = fromEnv(
  'STACKD_AI_NATIVE_A_ENDPOINT',
  'https://generativelanguage.googleapis.com/v1beta',
);
export const NATIVE_B_ENDPOINT = fromEnv(
  'STACKD_AI_NATIVE_B_ENDPOINT',
  'https://api.openai.com/v1',
);
export const NATIVE_C_ENDPOINT = fromEnv(
  'STACKD_AI_NATIVE_C_ENDPOINT',
  'https://api.anthropic.com/v1',
);
