/** The copy of a uWS request: headers as they came, repeated ones joined, and their size. */
import test from 'ava';
import { ClientAddresses } from '../../../core/http/client-address.js';
import { snapshotRequest } from '../../../core/http/request-snapshot.js';
import { ResponseState } from '../../../core/http/response-state.js';
import type { HttpRequest, HttpResponse } from '../../../core/http/uws-app.js';

/** A request as uWS hands it over: only what the copy reads. */
function fakeRequest(headers: ReadonlyArray<readonly [string, string]>): HttpRequest {
  const request = {
    forEach: (visit: (key: string, value: string) => void) => {
      for (const [key, value] of headers) visit(key, value);
    },
    getMethod: () => 'get',
    getUrl: () => '/echo',
    getQuery: () => '',
    getParameter: () => '',
  };
  return request as unknown as HttpRequest;
}

function snapshotOf(headers: ReadonlyArray<readonly [string, string]>) {
  const state = ResponseState.inCallback({} as HttpResponse);
  return snapshotRequest(fakeRequest(headers), state, [], new ClientAddresses([]));
}

test('a repeated header is joined with ", " in arrival order', (t) => {
  const snapshot = snapshotOf([
    ['accept', 'text/plain'],
    ['accept', 'application/json'],
  ]);
  t.is(snapshot.headers.accept, 'text/plain, application/json');
  t.is(snapshot.method, 'GET');
  t.is(snapshot.path, '/echo');
});

test('a header named like an Object.prototype member keeps its own value', (t) => {
  // uWS gives header names in lower case: `constructor` is the one such name that is a member.
  const snapshot = snapshotOf([
    ['constructor', 'a'],
    ['__proto__', 'b'],
  ]);
  const read = (name: string): unknown => snapshot.headers[name];
  t.is(read('constructor'), 'a');
  // `__proto__` cannot be an own key of a plain object: it is dropped, and changes nothing.
  t.is(Object.getPrototypeOf(snapshot.headers), Object.prototype);
});

test('the header section size counts every line as it came', (t) => {
  // "name: value\r\n" is the name, the value and four bytes.
  const snapshot = snapshotOf([
    ['host', 'x'],
    ['accept', 'y'],
    ['accept', 'z'],
  ]);
  t.is(snapshot.headerBytes, 4 + 1 + 4 + 6 + 1 + 4 + 6 + 1 + 4);
});
