/**
 * Typed errors a plugin throws from handlers, hooks and services. Core's error mapper turns each
 * into the wire body `{ detail, code, field? }` with the status carried here.
 */

/** Options every {@link HttpError} accepts. */
export interface HttpErrorOptions {
  /** The request field at fault (`username`, `updates.port`), shown to the client. */
  readonly field?: string;
  /** Extra response headers (for example `Retry-After`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The underlying cause, logged but never sent to the client. */
  readonly cause?: unknown;
}

/** Base class: an error that becomes an HTTP response with a stable `AREA_REASON` code. */
export class HttpError extends Error {
  /** HTTP status code of the response. */
  readonly status: number;
  /** Stable machine-readable code, `AREA_REASON`. */
  readonly code: string;
  /** The request field at fault, when there is one. */
  readonly field: string | undefined;
  /** Extra response headers. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: string, detail: string, options: HttpErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.field = options.field;
    this.headers = options.headers ?? {};
  }
}

/** 400: the request conflicts with the current state in a way the API answers with 400 (docs/decisions.md §2). */
export class BadRequestError extends HttpError {
  constructor(code: string, detail: string, options?: HttpErrorOptions) {
    super(400, code, detail, options);
  }
}

/** 401: missing, invalid or expired credentials. */
export class UnauthorizedError extends HttpError {
  constructor(code: string, detail: string, options?: HttpErrorOptions) {
    super(401, code, detail, options);
  }
}

/** 403: the principal is known but not allowed (for example a disabled account). */
export class ForbiddenError extends HttpError {
  constructor(code: string, detail: string, options?: HttpErrorOptions) {
    super(403, code, detail, options);
  }
}

/** 404: an unknown process, user, job or profile. */
export class NotFoundError extends HttpError {
  constructor(code: string, detail: string, options?: HttpErrorOptions) {
    super(404, code, detail, options);
  }
}

/** 409: the request races with another change of the same thing. */
export class ConflictError extends HttpError {
  constructor(code: string, detail: string, options?: HttpErrorOptions) {
    super(409, code, detail, options);
  }
}

/** 422: invalid input; name the field. */
export class InputError extends HttpError {
  constructor(code: string, detail: string, options?: HttpErrorOptions) {
    super(422, code, detail, options);
  }
}

/** 429: rate limited; pass `retryAfterSeconds` so clients know when to come back. */
export class TooManyRequestsError extends HttpError {
  constructor(code: string, detail: string, retryAfterSeconds: number) {
    super(429, code, detail, {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    });
  }
}

/** 503: a dependency (storage, upstream) is temporarily unavailable. */
export class UnavailableError extends HttpError {
  constructor(code: string, detail: string, options?: HttpErrorOptions) {
    super(503, code, detail, options);
  }
}

/** 504: an upstream or a bounded operation timed out. */
export class GatewayTimeoutError extends HttpError {
  constructor(code: string, detail: string, options?: HttpErrorOptions) {
    super(504, code, detail, options);
  }
}

/** True when `value` is an {@link HttpError} (also across duplicated sdk copies). */
export function isHttpError(value: unknown): value is HttpError {
  return (
    value instanceof HttpError ||
    (value instanceof Error &&
      typeof (value as Partial<HttpError>).status === 'number' &&
      typeof (value as Partial<HttpError>).code === 'string')
  );
}

/**
 * A plugin's configuration cannot work (settings that contradict each other): thrown from
 * `register`, it stops the boot with `STACKD_CONFIG_INVALID` naming the field.
 */
export class PluginConfigError extends Error {
  constructor(
    /** The dotted config path at fault (`stackd.supervisor.shutdown_budget_sec`). */
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'PluginConfigError';
  }
}
