import test from 'ava';
import {
  commandArgv,
  fillPlaceholders,
  ProcessSpecError,
  splitCommand,
} from '../../../../plugins/supervisor/process-spec/command-line.js';

test('a command string splits into words like a shell, without expansion', (t) => {
  t.deepEqual(splitCommand('postgres -D /data/pg  -c config_file=/x.conf'), [
    'postgres',
    '-D',
    '/data/pg',
    '-c',
    'config_file=/x.conf',
  ]);
  t.deepEqual(splitCommand(`say 'hello world' "a \\"quoted\\" $HOME" plain\\ space`), [
    'say',
    'hello world',
    'a "quoted" $HOME',
    'plain space',
  ]);
  t.deepEqual(splitCommand(`empty '' ""`), ['empty', '', '']);
  t.deepEqual(splitCommand(`a'b'"c"d`), ['abcd']);
});

test('an unterminated quote is an error naming the quote', (t) => {
  const error = t.throws(() => splitCommand('echo "oops'), { instanceOf: ProcessSpecError });
  t.regex(error.message, /unterminated " quote/);
});

test('placeholders are filled from scalar fields; {{ and }} are literal braces', (t) => {
  const values = { port: 8080, host: 'localhost', debug: true };
  t.is(fillPlaceholders('--port={port}', values, 'command[1]'), '--port=8080');
  t.is(fillPlaceholders('{host}:{port}/{debug}', values, 'x'), 'localhost:8080/true');
  t.is(fillPlaceholders('{{port}} {print $1}', values, 'x'), '{port} {print $1}');
});

test('only a field the block has is a placeholder: every other brace is kept as written', (t) => {
  const values = { port: 8080 };
  // A node -e script ending in `}})` used to lose a brace to the `}}` escape.
  const script = 'setInterval(() => { if (x) { y(); }}, 1000)';
  t.deepEqual(commandArgv(['node', '-e', script], values), ['node', '-e', script]);
  t.is(fillPlaceholders('{{}} }} {{ {}', values, 'x'), '{{}} }} {{ {}');
  t.is(fillPlaceholders('--port {prot} {{prot}}', values, 'x'), '--port {prot} {{prot}}');
  t.is(fillPlaceholders('{{port}} is {port}', values, 'x'), '{port} is 8080', 'the escape');
});

test('a placeholder naming a field that is not a scalar fails naming it and where it is', (t) => {
  const objectField = t.throws(() => fillPlaceholders('{env}', { env: { A: '1' } }, 'command[0]'), {
    instanceOf: ProcessSpecError,
  });
  t.is(
    objectField.message,
    "placeholder {env} in command[0]: field 'env' is not a string, number or boolean",
  );
});

test('commandArgv accepts arrays and strings and refuses empty or malformed commands', (t) => {
  t.deepEqual(commandArgv('node w.js --port {port}', { port: 9 }), ['node', 'w.js', '--port', '9']);
  t.deepEqual(commandArgv(['a', 'b c'], {}), ['a', 'b c']);
  t.throws(() => commandArgv(undefined, {}), { message: 'the block has no command' });
  t.throws(() => commandArgv([], {}), { message: 'command is empty' });
  t.throws(() => commandArgv('   ', {}), { message: 'command is empty' });
  t.throws(() => commandArgv(['a', 1], {}), { message: /array of strings/ });
});
