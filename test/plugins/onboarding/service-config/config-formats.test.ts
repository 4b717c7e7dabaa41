import test from 'ava';
import {
  checkFormat,
  loadFormatParsers,
  formatOf,
  parseFormat,
} from '../../../../plugins/onboarding/service-config/config-formats.js';

test.before(() => loadFormatParsers());

test('the format comes from the catalog, else the extension', (t) => {
  t.is(formatOf('/a/config.yml', undefined), 'yaml');
  t.is(formatOf('/a/rclone.config', undefined), 'conf');
  t.is(formatOf('/a/settings', 'json'), 'json');
  t.is(formatOf('/a/settings.toml', undefined), undefined);
});

test('invalid content names its line in every format', (t) => {
  const cases = [
    ['json', '{\n  "a": 1,\n}', 3],
    ['yaml', 'a: 1\nb: [1, 2\nc: 3\n', 3],
    ['xml', '<a>\n<b></a>', 2],
    ['conf', '# comment\n[s]\nkey = v\nbad line\n', 4],
    ['python', 'A = 1\nB = "open\n', 2],
    ['python', 'A = [1,\n 2)\n', 2],
    ['python', 'A = {\n', 1],
    ['json', '{"a": "\u0000"}', 1],
  ] as const;
  for (const [format, text, line] of cases)
    t.is(checkFormat(format, text)?.line, line, `${format}: ${text}`);
});

test('valid content passes, including the tricky bits', (t) => {
  t.is(
    checkFormat('python', 's = """a ( [\n"""  # ) \nt = r\'\\\'\'\nd = {"k": (1, [2])}\n'),
    null,
  );
  t.is(checkFormat('conf', "include 'other.conf'\nshared_buffers: 128MB\n; c\n\n[x] # c\n"), null);
  t.is(checkFormat('yaml', '---\na: 1\n---\nb: 2\n'), null);
  t.deepEqual(parseFormat('yaml', '---\na: 1\n---\nb: 2\n'), [{ a: 1 }, { b: 2 }]);
  t.deepEqual(parseFormat('conf', 'top = 1\n[remote]\ntype = webdav\n'), {
    '': { top: '1' },
    remote: { type: 'webdav' },
  });
  t.deepEqual(parseFormat('xml', '<Config a="1"><Port>2</Port></Config>'), {
    Config: { Port: 2, '@a': '1' },
  });
});

test('content nested deeper than the limit is a format problem, before any parser walks it', (t) => {
  const deepJson = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;
  t.regex(checkFormat('json', deepJson)?.message ?? '', /deeper than 64/);
  t.regex(checkFormat('yaml', `a: ${'['.repeat(3000)}${']'.repeat(3000)}\n`)?.message ?? '', /64/);
  const indented = Array.from({ length: 100 }, (_, level) => `${'  '.repeat(level)}k${level}:`);
  t.regex(checkFormat('yaml', `${indented.join('\n')} 1\n`)?.message ?? '', /64/);
  t.regex(checkFormat('xml', `${'<a>'.repeat(3000)}${'</a>'.repeat(3000)}`)?.message ?? '', /64/);
  t.is(checkFormat('xml', `${'<a>'.repeat(10)}x${'</a>'.repeat(10)}`), null);
  t.is(checkFormat('yaml', 'a:\n  b:\n    c: 1\n'), null);
});
