/** The request a route handler receives, over the pipeline's copy of the uWS request. */
import type { HandlerRequest, HttpMethod, Principal } from '../../sdk/http.js';
import type { RequestSnapshot } from './request-snapshot.js';
import type { ResponseState } from './response-state.js';

/**
 * What a handler receives. A class, not an object literal with getters: V8 builds a literal's
 * accessors at run time, in dictionary mode, on every request.
 */
export class PipelineRequest implements HandlerRequest {
  private abortSignal: AbortSignal | undefined;

  constructor(
    private readonly snapshot: RequestSnapshot,
    readonly params: Record<string, string>,
    readonly query: Record<string, string>,
    readonly body: unknown,
    readonly principal: Principal | null,
    private readonly state: ResponseState,
    private readonly shutdownSignal: AbortSignal,
  ) {}

  get method(): HttpMethod {
    return this.snapshot.method as HttpMethod;
  }

  get path(): string {
    return this.snapshot.path;
  }

  get headers(): Readonly<Record<string, string>> {
    return this.snapshot.headers;
  }

  get ip(): string {
    return this.snapshot.ip;
  }

  // Made on first use: few handlers watch for aborts, and a signal per request is costly.
  get signal(): AbortSignal {
    this.abortSignal ??= AbortSignal.any([this.state.signal, this.shutdownSignal]);
    return this.abortSignal;
  }
}
