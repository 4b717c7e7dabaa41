/**
 * The one way a plugin calls out: undici dispatchers whose connector resolves the name itself,
 * checks every address against the outbound policy and connects to the checked address (so a
 * DNS answer that changes between check and connect cannot swap it), and whose redirects go
 * through the same connector (a 302 to a forbidden address is refused before connecting).
 */
import type * as Undici from 'undici';
import { derivedFromStack } from '../config.js';
import type { PluginContext } from '../context.js';
import { InputError } from '../errors.js';
import { checkOutboundUrl } from '../outbound-url.js';
import {
  DEFAULT_OUTBOUND,
  addressRefusal,
  outboundSettingsOf,
  selfAddressOf,
  staticRefusal,
  type ParsedOutboundSettings,
  type SelfAddress,
} from './policy.js';
import { canonicalAddress } from './addresses.js';

/** A call refused by the policy (thrown through undici as the connection's error). */
export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED';
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`outbound call to ${host} refused (${reason})`);
    this.name = 'OutboundRefusedError';
  }
}

/** True when `error` (or its cause) is a policy refusal. */
export function isOutboundRefused(error: unknown): error is OutboundRefusedError {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if (current instanceof OutboundRefusedError) return true;
    current = current.cause;
  }
  return false;
}

/** Options of a dispatcher. */
export interface OutboundDispatcherOptions {
  /** Verify TLS certificates (default true). */
  readonly verifyTls?: boolean;
  /** Redirects followed, each one checked (default 5; 0 follows none). */
  readonly maxRedirections?: number;
  /** Connections per origin (default unlimited, as undici's). */
  readonly connections?: number;
}

type Connector = (
  options: Undici.buildConnector.Options,
  callback: Undici.buildConnector.Callback,
) => void;

export class OutboundClient {
  private undici: Promise<typeof Undici> | undefined;
  private readonly dispatchers = new Map<string, Promise<Undici.Dispatcher>>();
  private readonly agents: Undici.Agent[] = [];

  constructor(
    private readonly settings: () => ParsedOutboundSettings = () => DEFAULT_OUTBOUND,
    private readonly self: () => SelfAddress | null = () => null,
  ) {}

  /** The policy of a plugin's host: `stackd.outbound` (live) and stackd's own listen address. */
  static forPlugin(ctx: Pick<PluginContext, 'stack' | 'host' | 'logger'>): OutboundClient {
    const settings = derivedFromStack(ctx.stack, (document) => {
      try {
        return outboundSettingsOf(document);
      } catch (error) {
        // The core validator refuses such a document; a hand-edited file falls back to defaults.
        ctx.logger.warn('stackd.outbound is invalid; using the defaults', {
          error: (error as Error).message,
        });
        return DEFAULT_OUTBOUND;
      }
    });
    return new OutboundClient(settings, () => selfAddressOf(ctx.host.baseUrl()));
  }

  /**
   * Check a URL written into the configuration (or a request body): {@link checkOutboundUrl}'s
   * shape rules plus what can be judged without DNS (IP literals in any notation, `localhost`).
   * Throws a 422 `InputError` naming `field`.
   */
  checkUrl(value: string, field: string): URL {
    const url = checkOutboundUrl(value, field);
    const refusal = staticRefusal(url, this.settings(), this.self());
    if (refusal !== null)
      throw new InputError(
        'URL_FORBIDDEN',
        `${field}: the host may not call this address (${refusal}); see stackd.outbound`,
        { field },
      );
    return url;
  }

  /** The address to connect to for `hostname`:`port`, checked; throws OutboundRefusedError. */
  async resolve(hostname: string, port: number): Promise<string> {
    const settings = this.settings();
    const self = this.self();
    if (canonicalAddress(hostname) !== null) {
      const refusal = addressRefusal(hostname, port, settings, self);
      if (refusal !== null) throw new OutboundRefusedError(hostname, refusal);
      return hostname;
    }
    // Loaded on the first name to resolve, not with every host that never calls out by name.
    const { lookup } = await import('node:dns/promises');
    const answers = await lookup(hostname, { all: true, verbatim: true });
    let firstRefusal = 'no-address';
    for (const answer of answers) {
      const refusal = addressRefusal(answer.address, port, settings, self);
      if (refusal === null) return answer.address;
      firstRefusal = firstRefusal === 'no-address' ? refusal : firstRefusal;
    }
    throw new OutboundRefusedError(hostname, firstRefusal);
  }

  private guarded(base: Connector): Connector {
    return (options, callback) => {
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      const servername =
        options.servername ??
        (canonicalAddress(options.hostname) === null ? options.hostname : undefined);
      this.resolve(options.hostname, port).then(
        // The name stays the TLS server name (SNI and certificate check); the checked address is
        // what the socket connects to.
        (address) =>
          base(
            { ...options, hostname: address, ...(servername === undefined ? {} : { servername }) },
            callback,
          ),
        (error: unknown) => callback(error as Error, null),
      );
    };
  }

  /** A dispatcher that applies the policy to every connection and every redirect. */
  dispatcher(options: OutboundDispatcherOptions = {}): Promise<Undici.Dispatcher> {
    const verifyTls = options.verifyTls ?? true;
    const maxRedirections = options.maxRedirections ?? 5;
    const key = `${verifyTls}:${maxRedirections}:${options.connections ?? ''}`;
    let found = this.dispatchers.get(key);
    if (found === undefined) {
      found = this.build(verifyTls, maxRedirections, options.connections);
      this.dispatchers.set(key, found);
    }
    return found;
  }

  private async build(
    verifyTls: boolean,
    maxRedirections: number,
    connections: number | undefined,
  ): Promise<Undici.Dispatcher> {
    const library = await (this.undici ??= import('undici'));
    const base = library.buildConnector({ rejectUnauthorized: verifyTls });
    const agent = new library.Agent({
      connect: this.guarded(base),
      keepAliveTimeout: 30_000,
      ...(connections === undefined ? {} : { connections }),
    });
    this.agents.push(agent);
    return maxRedirections > 0
      ? agent.compose(library.interceptors.redirect({ maxRedirections }))
      : agent;
  }

  /** Close every connection (at the plugin's stop). */
  async close(): Promise<void> {
    const open = this.agents.splice(0);
    this.dispatchers.clear();
    await Promise.all(open.map((agent) => agent.close().catch(() => undefined)));
  }
}
