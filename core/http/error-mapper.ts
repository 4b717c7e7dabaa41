/** Turn anything thrown by a handler into the wire error body of docs/decisions.md §2. */
import { isHttpError } from '../../sdk/errors.js';
import type { Logger } from '../../sdk/logger.js';
import type { ErrorBody } from '../../sdk/schema.js';
import { storageFailureKind } from '../storage/storage-failure.js';
import type { StorageStatus } from '../storage/storage-status.js';

/** A mapped error: status, body and headers. */
export interface MappedError {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Map an error; storage failures become 507/503 naming the data dir (and are recorded for
 * /health); unknown errors become a generic 500 and their cause is logged, not sent.
 */
export function mapError(
  error: unknown,
  logger: Logger,
  context: string,
  storage?: StorageStatus,
): MappedError {
  const storageKind = storage === undefined ? null : storageFailureKind(error);
  if (storage !== undefined && storageKind !== null) {
    const kind = storage.resolve(storageKind);
    storage.recordFailure(kind);
    const answer = storage.describe(kind);
    logger.warn(`${context}: ${answer.detail}`);
    return { status: answer.status, body: errorBody(answer.detail, answer.code), headers: {} };
  }
  if (isHttpError(error)) {
    const body: ErrorBody =
      error.field === undefined
        ? { detail: error.message, code: error.code }
        : { detail: error.message, code: error.code, field: error.field };
    if (error.status >= 500)
      logger.error(`${context}: ${error.message}`, { code: error.code, cause: error.cause });
    return { status: error.status, body, headers: error.headers };
  }
  logger.error(`${context}: unhandled error`, {
    error:
      error instanceof Error
        ? { name: error.name, message: error.message, stack: error.stack }
        : String(error),
  });
  return {
    status: 500,
    body: {
      detail: 'Internal server error; the cause is in the host log.',
      code: 'INTERNAL_ERROR',
    },
    headers: {},
  };
}

/** Build an error body directly (core-level refusals: 404 route, 413, 422). */
export function errorBody(detail: string, code: string, field?: string): ErrorBody {
  return field === undefined ? { detail, code } : { detail, code, field };
}
