/** Follow-up sessions in memory: 1 h lifetime, 8 recent turns kept, 50 per process. */
import { randomUUID } from 'node:crypto';
import type { ProviderTarget } from './adapters/types.js';

export const SESSION_TTL_MS = 60 * 60 * 1000;
export const SESSION_TURNS = 8;
export const MAX_SESSIONS = 50;

export interface Turn {
  readonly question: string;
  readonly answer: string;
}
export interface Session {
  readonly id: string;
  readonly bundleText: string;
  readonly target: ProviderTarget;
  readonly turns: Turn[];
  expiresAt: number;
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly now: () => number = Date.now) {}

  create(bundleText: string, target: ProviderTarget, first: Turn): Session {
    this.prune();
    while (this.sessions.size >= MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    const session: Session = {
      id: randomUUID(),
      bundleText,
      target,
      turns: [first],
      expiresAt: this.now() + SESSION_TTL_MS,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  get(id: string): Session | undefined {
    this.prune();
    return this.sessions.get(id);
  }

  addTurn(session: Session, turn: Turn): void {
    session.turns.push(turn);
    if (session.turns.length > SESSION_TURNS)
      session.turns.splice(0, session.turns.length - SESSION_TURNS);
    session.expiresAt = this.now() + SESSION_TTL_MS;
  }

  private prune(): void {
    const now = this.now();
    for (const [id, session] of this.sessions)
      if (session.expiresAt <= now) this.sessions.delete(id);
  }
}
