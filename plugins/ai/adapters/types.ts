/** The one interface every provider adapter implements: a new provider is one file. */

/** Where and how to reach a provider. */
export interface ProviderTarget {
  readonly provider: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string;
  readonly timeoutSec: number;
  readonly temperature: number;
}

/** A prepared HTTP request (built without sending, so it is unit-testable). */
export interface BuiltRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** Token counts normalised from every documented shape. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A parsed completion. */
export interface Completion {
  readonly text: string;
  readonly usage: Usage | null;
}

/** One provider kind. */
export interface ProviderAdapter {
  readonly kind: string;
  buildChat(target: ProviderTarget, system: string, user: string): BuiltRequest;
  parseChat(body: unknown): Completion;
  buildModels(target: ProviderTarget): { url: string; headers: Record<string, string> };
  parseModels(body: unknown): string[];
}

/** Thrown when a provider answer does not have the documented shape. */
export class MalformedAnswer extends Error {}

const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** Normalise prompt/completion/total from the OpenAI, Gemini, Anthropic and Ollama shapes. */
export function normaliseUsage(raw: unknown): Usage | null {
  if (raw === null || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const prompt = num(
    r.prompt_tokens ?? r.input_tokens ?? r.promptTokenCount ?? r.prompt_eval_count,
  );
  const completion = num(
    r.completion_tokens ?? r.output_tokens ?? r.candidatesTokenCount ?? r.eval_count,
  );
  const total = num(r.total_tokens ?? r.totalTokenCount) || prompt + completion;
  if (prompt === 0 && completion === 0 && total === 0) return null;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
}

export const trimSlash = (url: string): string => url.replace(/\/+$/, '');
