/**
 * Retired/deprecated models of the native kinds (dumb-features §5.4 data). A call with a retired
 * model is rejected with 400 and replacement guidance before any provider contact.
 */
import { BadRequestError } from '../../sdk/index.js';

type Family = 'native_a' | 'native_b' | 'native_c';
const LABEL: Record<Family, string> = {
  native_a: 'Google retired Gemini model',
  native_b: 'OpenAI retired model',
  native_c: 'Anthropic retired model',
};

/** [models, shutdown date, replacement] per family. */
const TABLE: Record<Family, readonly (readonly [string[], string, string])[]> = {
  native_a: [
    [['gemini-3.1-flash-lite'], '2027-05-07', 'gemini-3.5-flash-lite'],
    [['gemini-3-pro-preview'], '2026-03-09', 'gemini-3.1-pro-preview'],
    [['gemini-3.1-flash-lite-preview'], '2026-05-25', 'gemini-3.1-flash-lite'],
    [['gemini-2.5-flash-preview-05-20'], '2025-11-18', 'gemini-3.6-flash'],
    [['gemini-2.0-flash', 'gemini-2.0-flash-001'], '2026-06-01', 'gemini-3.6-flash'],
    [['gemini-2.0-flash-lite', 'gemini-2.0-flash-lite-001'], '2026-06-01', 'gemini-3.1-flash-lite'],
  ],
  native_b: [
    [
      ['gpt-5-chat-latest', 'gpt-5-codex', 'gpt-5.1-codex', 'gpt-5.2-codex'],
      '2026-07-23',
      'gpt-5.6-sol',
    ],
    [['gpt-3.5-turbo', 'gpt-3.5-turbo-0125'], '2026-10-23', 'gpt-5.6-terra'],
    [['gpt-4', 'gpt-4-0613', 'gpt-4-turbo', 'o1', 'o3-mini'], '2026-10-23', 'gpt-5.6-sol'],
    [['gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14'], '2026-10-23', 'gpt-5.6-luna'],
    [['o4-mini', 'o4-mini-2025-04-16'], '2026-10-23', 'gpt-5.6-terra'],
    [['gpt-5-2025-08-07', 'o3-2025-04-16'], '2026-12-11', 'gpt-5.6-sol'],
  ],
  native_c: [
    [['claude-opus-4-1-20250805'], '2026-08-05', 'claude-opus-4-8'],
    [['claude-sonnet-4-20250514'], '2026-06-15', 'claude-sonnet-4-6'],
    [['claude-3-haiku-20240307'], '2026-04-20', 'claude-haiku-4-5-20251001'],
    [
      ['claude-3-5-haiku-20241022', 'claude-3-7-sonnet-20250219'],
      '2026-02-19',
      'claude-sonnet-4-6',
    ],
    [['claude-3-opus-20240229'], '2026-01-05', 'claude-opus-4-8'],
  ],
};

export interface Lifecycle {
  readonly model: string;
  readonly status: 'retired' | 'deprecated';
  readonly shutdown_date: string;
  readonly replacement: string;
}

const normalise = (model: string): string =>
  model
    .trim()
    .replace(/^models\//, '')
    .toLowerCase();

/** The lifecycle entry of a model of a native kind, or null. */
export function lifecycleOf(kind: string, model: string, today = new Date()): Lifecycle | null {
  const rows = TABLE[kind as Family];
  if (rows === undefined) return null;
  const name = normalise(model);
  const row = rows.find(([models]) => models.includes(name));
  if (row === undefined) return null;
  const [, shutdown, replacement] = row;
  const status = today.toISOString().slice(0, 10) >= shutdown ? 'retired' : 'deprecated';
  return { model: name, status, shutdown_date: shutdown, replacement };
}

/** Throw 400 with replacement guidance when the model is retired. */
export function rejectRetired(kind: string, model: string, today = new Date()): void {
  const lifecycle = lifecycleOf(kind, model, today);
  if (lifecycle?.status !== 'retired') return;
  throw new BadRequestError(
    'AI_MODEL_RETIRED',
    `${LABEL[kind as Family]} ${lifecycle.model} on ${lifecycle.shutdown_date}, although it may still appear in the provider's model list. Use ${lifecycle.replacement} instead.`,
    { field: 'model' },
  );
}
