import test from 'ava';
import { isNativeUws } from '../../../core/http/uws-app.js';

test('the native uWebSockets.js binary is loaded, not the JavaScript fallback', (t) => {
  t.true(isNativeUws());
});
