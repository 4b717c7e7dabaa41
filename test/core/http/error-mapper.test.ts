import test from 'ava';
import { errorBody, mapError } from '../../../core/http/error-mapper.js';
import { ConflictError, InputError, TooManyRequestsError } from '../../../sdk/errors.js';
import type { Logger } from '../../../sdk/logger.js';

function recordingLogger(): { logger: Logger; errors: string[] } {
  const errors: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (message: string) => void errors.push(message),
    child: () => logger,
  };
  return { logger, errors };
}

test('a typed error keeps its status, code, field and headers and is not logged', (t) => {
  const { logger, errors } = recordingLogger();
  const mapped = mapError(
    new InputError('THING_BAD', 'thing is bad', { field: 'thing' }),
    logger,
    'POST /x',
  );
  t.deepEqual(mapped, {
    status: 422,
    body: { detail: 'thing is bad', code: 'THING_BAD', field: 'thing' },
    headers: {},
  });
  t.is(mapError(new ConflictError('C', 'c'), logger, 'x').status, 409);
  t.is(mapError(new TooManyRequestsError('T', 'slow', 7), logger, 'x').headers['Retry-After'], '7');
  t.deepEqual(errors, []);
});

test('an unknown error is a generic 500: the cause goes to the log, never to the client', (t) => {
  const { logger, errors } = recordingLogger();
  const mapped = mapError(new Error('secret internal detail'), logger, 'GET /y');
  t.is(mapped.status, 500);
  t.is(mapped.body.code, 'INTERNAL_ERROR');
  t.false(JSON.stringify(mapped.body).includes('secret'));
  t.is(errors.length, 1);
  t.deepEqual(errorBody('d', 'C'), { detail: 'd', code: 'C' });
});
