/** Diagnose, stack diagnose and follow-up: bundle → prompt → provider → session. */
import { NotFoundError } from '../../sdk/index.js';
import type { Usage } from './adapters/types.js';
import {
  compactForPrompt,
  processBundle,
  type Bundle,
  type BundleSources,
  type BundleOptions,
} from './bundle/bundle.js';
import { IDENTITY_ANSWER, isIdentityQuestion } from './bundle/product-facts.js';
import { compactStack, stackBundle } from './bundle/stack-bundle.js';
import { complete } from './provider/provider-client.js';
import type { SessionStore } from './sessions.js';
import type { SettingsStore } from './settings/settings-store.js';
import { SESSION_NOT_FOUND } from './errors.js';

const SYSTEM_PROMPT =
  'You are a diagnostics assistant for a process supervisor. Use only the redacted bundle given. Explain likely causes and safe next steps.';

export interface DiagnoseResult {
  enabled: boolean;
  provider: string;
  model: string;
  analysis: string;
  bundle: Bundle;
  usage: Usage | null;
  dry_run: boolean;
  session_id: string;
}

export class DiagnosisService {
  constructor(
    private readonly settings: SettingsStore,
    private readonly sessions: SessionStore,
    private readonly sources: BundleSources,
  ) {}

  async diagnose(
    input: BundleOptions & { process_name?: string; question?: string; dry_run?: boolean },
    signal: AbortSignal,
  ): Promise<DiagnoseResult> {
    const bundle =
      input.process_name === undefined
        ? await stackBundle(this.sources, input)
        : await processBundle(this.sources, input.process_name, input);
    const target = this.settings.target();
    const base = {
      enabled: this.settings.enabled,
      provider: target.provider,
      model: target.model,
      bundle,
      dry_run: input.dry_run === true,
    };
    if (input.dry_run === true || !this.settings.enabled)
      return { ...base, analysis: '', usage: null, session_id: '' };
    const question = input.question?.trim() || 'What is wrong and what should I check?';
    const stack = input.process_name === undefined;
    const bundleText = compactForPrompt(stack ? compactStack(bundle) : bundle);
    const answer = await complete(
      target,
      SYSTEM_PROMPT,
      `${question}\n\nBundle:\n${bundleText}`,
      signal,
    );
    // A stack question about what stackd is gets stackd's own answer, so the provider cannot invent one.
    const analysis = stack && isIdentityQuestion(question) ? IDENTITY_ANSWER : answer.text;
    const session = this.sessions.create(bundleText, target, { question, answer: analysis });
    return { ...base, analysis, usage: answer.usage, session_id: session.id };
  }

  async followUp(sessionId: string, question: string, signal: AbortSignal) {
    const session = this.sessions.get(sessionId);
    if (session === undefined)
      throw new NotFoundError(SESSION_NOT_FOUND, 'Session expired or unknown');
    const history = session.turns
      .map((turn) => `Q: ${turn.question}\nA: ${turn.answer}`)
      .join('\n\n');
    const answer = await complete(
      session.target,
      SYSTEM_PROMPT,
      `Bundle:\n${session.bundleText}\n\nEarlier turns:\n${history}\n\nQ: ${question}`,
      signal,
    );
    this.sessions.addTurn(session, { question, answer: answer.text });
    return {
      analysis: answer.text,
      usage: answer.usage,
      provider: session.target.provider,
      model: session.target.model,
      session_id: session.id,
    };
  }
}
