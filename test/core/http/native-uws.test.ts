import test from 'ava';
import { uwsBuild } from '../../../core/http/uws-app.js';
import { isNative } from '../../../core/http/uws-loader.js';

test('a native uWebSockets.js build is loaded, never the JavaScript fallback', (t) => {
  const build = uwsBuild();
  t.true(isNative(build.module));
  t.regex(
    build.label,
    /^(uWebSockets\.js|@btc-vision\/uwebsockets\.js|@trufflesuite\/uws-js-unofficial) \d+\.\d+/,
  );
});

test('the JavaScript fallback is not taken for native', (t) => {
  t.false(
    isNative({
      App: function App() {
        return {};
      },
    }),
  );
  t.false(isNative({}));
  t.false(isNative(null));
});
