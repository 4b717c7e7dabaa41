/**
 * Model lifecycle and compatibility of the native kinds (docs/original-product.md §12). A call with a
 * retired model, or one that cannot return diagnostic text, is rejected with 400 and guidance
 * before any provider contact; model listings carry both so a picker can mark them.
 */
import { BadRequestError, isoTime } from '../../../sdk/index.js';
import { MODEL_RETIRED, MODEL_UNSUPPORTED } from '../errors.js';

type Family = 'native_a' | 'native_b' | 'native_c';
const LABEL: Record<Family, string> = {
  native_a: 'Google retired Gemini model',
  native_b: 'OpenAI retired model',
  native_c: 'Anthropic retired model',
};
const PROVIDER: Record<Family, string> = {
  native_a: 'gemini',
  native_b: 'openai',
  native_c: 'anthropic',
};
const SOURCE_URL: Record<Family, string> = {
  native_a: 'https://ai.google.dev/gemini-api/docs/deprecations',
  native_b: 'https://developers.openai.com/api/docs/deprecations',
  native_c: 'https://platform.claude.com/docs/en/about-claude/model-deprecations',
};

/** [models, shutdown date, replacement] per family. */
const TABLE: Record<Family, readonly (readonly [readonly string[], string, string])[]> = {
  native_a: [
    [['gemini-3.1-flash-lite'], '2027-05-07', 'gemini-3.5-flash-lite'],
    [['gemini-3.1-flash-image-preview'], '2026-06-25', 'gemini-3.1-flash-image'],
    [['gemini-3-pro-image-preview'], '2026-06-25', 'gemini-3-pro-image'],
    [['gemini-3-pro-preview'], '2026-03-09', 'gemini-3.1-pro-preview'],
    [['gemini-3.1-flash-lite-preview'], '2026-05-25', 'gemini-3.1-flash-lite'],
    [
      [
        'gemini-2.5-pro-preview-03-25',
        'gemini-2.5-pro-preview-05-06',
        'gemini-2.5-pro-preview-06-05',
      ],
      '2025-12-02',
      'gemini-3.1-pro-preview',
    ],
    [['gemini-2.5-flash-image'], '2026-10-02', 'gemini-3.1-flash-image-preview'],
    [['gemini-2.5-flash-lite-preview-09-2025'], '2026-03-31', 'gemini-3.1-flash-lite'],
    [['gemini-2.5-flash-preview-05-20'], '2025-11-18', 'gemini-3.6-flash'],
    [['gemini-2.5-flash-image-preview'], '2026-01-15', 'gemini-2.5-flash-image'],
    [['gemini-2.5-flash-preview-09-25'], '2026-02-17', 'gemini-3.6-flash'],
    [['gemini-2.0-flash', 'gemini-2.0-flash-001'], '2026-06-01', 'gemini-3.6-flash'],
    [['gemini-2.0-flash-lite', 'gemini-2.0-flash-lite-001'], '2026-06-01', 'gemini-3.1-flash-lite'],
    [['gemini-2.0-flash-preview-image-generation'], '2025-11-14', 'gemini-2.5-flash-image'],
    [
      ['gemini-2.0-flash-lite-preview', 'gemini-2.0-flash-lite-preview-02-05'],
      '2025-12-09',
      'gemini-2.5-flash-lite',
    ],
    [['gemini-robotics-er-1.5-preview'], '2026-04-30', 'gemini-robotics-er-1.6-preview'],
  ],
  native_b: [
    [
      ['gpt-5-2025-08-07', 'gpt-5-pro-2025-10-06', 'o3-2025-04-16', 'o3-pro-2025-06-10'],
      '2026-12-11',
      'gpt-5.6-sol',
    ],
    [['gpt-5-mini-2025-08-07'], '2026-12-11', 'gpt-5.6-terra'],
    [['gpt-5-nano-2025-08-07'], '2026-12-11', 'gpt-5.6-luna'],
    [['gpt-5.2-chat-latest', 'gpt-5.3-chat-latest'], '2026-08-10', 'gpt-5.6-sol'],
    [
      ['gpt-4o-mini-search-preview-2025-03-11', 'gpt-4o-search-preview-2025-03-11'],
      '2026-07-23',
      'gpt-5.6-terra',
    ],
    [
      [
        'gpt-5-chat-latest',
        'gpt-5-codex',
        'gpt-5.1-chat-latest',
        'gpt-5.1-codex',
        'gpt-5.1-codex-max',
        'gpt-5.2-codex',
      ],
      '2026-07-23',
      'gpt-5.6-sol',
    ],
    [['gpt-5.1-codex-mini'], '2026-07-23', 'gpt-5.6-terra'],
    [
      ['gpt-3.5-turbo-0125', 'gpt-3.5-turbo', 'gpt-3.5-turbo-completions'],
      '2026-10-23',
      'gpt-5.6-terra',
    ],
    [
      [
        'gpt-4-0613',
        'gpt-4',
        'gpt-4-0613-completions',
        'gpt-4-completions',
        'gpt-4-1106-preview',
        'gpt-4-turbo',
        'gpt-4-turbo-2024-04-09',
        'gpt-4-turbo-completions',
        'gpt-4o-2024-05-13',
        'o1-2024-12-17',
        'o1',
        'o1-pro-2025-03-19',
        'o1-pro',
        'o3-mini-2025-01-31',
        'o3-mini',
      ],
      '2026-10-23',
      'gpt-5.6-sol',
    ],
    [['gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14'], '2026-10-23', 'gpt-5.6-luna'],
    [['o4-mini-2025-04-16', 'o4-mini'], '2026-10-23', 'gpt-5.6-terra'],
    [
      [
        'gpt-4-0314',
        'gpt-4-0125-preview',
        'gpt-4-turbo-preview',
        'gpt-4-turbo-preview-completions',
      ],
      '2026-03-26',
      'gpt-5',
    ],
    [
      ['gpt-3.5-turbo-instruct', 'babbage-002', 'davinci-002', 'gpt-3.5-turbo-1106'],
      '2026-09-28',
      'gpt-5.6-terra',
    ],
  ],
  native_c: [
    [['claude-opus-4-1-20250805'], '2026-08-05', 'claude-opus-4-8'],
    [['claude-sonnet-4-20250514'], '2026-06-15', 'claude-sonnet-4-6'],
    [['claude-opus-4-20250514'], '2026-06-15', 'claude-opus-4-8'],
    [['claude-3-haiku-20240307'], '2026-04-20', 'claude-haiku-4-5-20251001'],
    [['claude-3-5-haiku-20241022'], '2026-02-19', 'claude-haiku-4-5-20251001'],
    [['claude-3-7-sonnet-20250219'], '2026-02-19', 'claude-sonnet-4-6'],
    [
      ['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet-20241022'],
      '2025-10-28',
      'claude-sonnet-4-6',
    ],
    [['claude-3-opus-20240229'], '2026-01-05', 'claude-opus-4-8'],
    [['claude-2.0', 'claude-2.1'], '2025-07-21', 'claude-opus-4-8'],
    [['claude-3-sonnet-20240229'], '2025-07-21', 'claude-sonnet-4-6'],
    [
      [
        'claude-1.0',
        'claude-1.1',
        'claude-1.2',
        'claude-1.3',
        'claude-instant-1.0',
        'claude-instant-1.1',
        'claude-instant-1.2',
      ],
      '2024-11-06',
      'claude-haiku-4-5-20251001',
    ],
  ],
};

export interface Lifecycle {
  readonly model: string;
  readonly status: 'retired' | 'deprecated';
  readonly shutdown_date: string;
  readonly replacement: string;
  readonly source_url: string;
  readonly provider: string;
}

export interface Compatibility {
  readonly status: 'supported' | 'unsupported';
  readonly api_surface: string;
  readonly reason: string;
}

const isFamily = (kind: string): kind is Family => Object.hasOwn(TABLE, kind);

const normalise = (model: string): string =>
  model
    .trim()
    .replace(/^models\//, '')
    .toLowerCase();

/** The lifecycle entry of a model of a native kind, or null. */
export function lifecycleOf(kind: string, model: string, today = new Date()): Lifecycle | null {
  if (!isFamily(kind)) return null;
  const name = normalise(model);
  const row = TABLE[kind].find(([models]) => models.includes(name));
  if (row === undefined) return null;
  const [, shutdown, replacement] = row;
  const status = isoTime(today).slice(0, 10) >= shutdown ? 'retired' : 'deprecated';
  return {
    model: name,
    status,
    shutdown_date: shutdown,
    replacement,
    source_url: SOURCE_URL[kind],
    provider: PROVIDER[kind],
  };
}

const NEEDS_TEXT = 'stackd diagnostics need a model that returns diagnostic text.';
// OpenAI model families that answer no text, matched as delimited tokens of the name.
const OPENAI_UNSUPPORTED: readonly [readonly string[], string][] = [
  [['embedding', 'moderation'], 'embedding or moderation'],
  [['audio', 'realtime', 'transcribe', 'tts', 'whisper'], 'audio or realtime'],
  [['image', 'dall-e', 'sora', 'video'], 'image or video generation'],
];
const OPENAI_SPECIALIZED = ['computer-use', 'deep-research', 'search-preview'];
const GEMINI_UNSUPPORTED = [
  'embedding',
  'imagen',
  'veo',
  'lyria',
  'robotics',
  'image',
  'live',
  'audio',
  'tts',
  'computer-use',
];

const hasToken = (name: string, token: string): boolean =>
  new RegExp(`(^|[-_.])${token.replace(/[.-]/g, '\\$&')}($|[-_.])`).test(name);

/** Whether a native kind's model can answer a diagnosis, or null for other kinds. */
export function compatibilityOf(kind: string, model: string): Compatibility | null {
  const name = normalise(model);
  if (name === '' || !isFamily(kind)) return null;
  if (kind === 'native_c')
    return {
      status: 'supported',
      api_surface: 'messages',
      reason: 'Native Anthropic text requests use the Messages API.',
    };
  if (kind === 'native_a') {
    const special = GEMINI_UNSUPPORTED.some((part) => name.includes(part));
    return special
      ? {
          status: 'unsupported',
          api_surface: 'generateContent',
          reason: `This is a specialized or non-text Gemini model. ${NEEDS_TEXT}`,
        }
      : {
          status: 'supported',
          api_surface: 'generateContent',
          reason: 'Gemini text requests use generateContent.',
        };
  }
  const category =
    OPENAI_UNSUPPORTED.find(([tokens]) => tokens.some((token) => hasToken(name, token)))?.[1] ??
    (OPENAI_SPECIALIZED.some((part) => name.includes(part)) ? 'specialized tool' : undefined);
  return category === undefined
    ? {
        status: 'supported',
        api_surface: 'responses',
        reason: 'Native OpenAI text requests use the Responses API.',
      }
    : {
        status: 'unsupported',
        api_surface: 'responses',
        reason: `This is an ${category} model. ${NEEDS_TEXT}`,
      };
}

/** Throw 400 with guidance when the model is retired or cannot return diagnostic text. */
export function rejectRetired(kind: string, model: string, today = new Date()): void {
  const lifecycle = lifecycleOf(kind, model, today);
  if (lifecycle?.status === 'retired' && isFamily(kind))
    throw new BadRequestError(
      MODEL_RETIRED,
      `${LABEL[kind]} ${lifecycle.model} on ${lifecycle.shutdown_date}, although it may still appear in the provider's model list. Use ${lifecycle.replacement} instead.`,
      { field: 'model' },
    );
  const compatibility = compatibilityOf(kind, model);
  if (compatibility?.status === 'unsupported')
    throw new BadRequestError(MODEL_UNSUPPORTED, compatibility.reason, { field: 'model' });
}
