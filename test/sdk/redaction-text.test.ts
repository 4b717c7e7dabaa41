import test from 'ava';
import { redactLine, redactText } from '../../sdk/index.js';

const PLANTED = 'sup3r-s3cret-planted-value';

// [input, expected output]
const cases: ReadonlyArray<readonly [string, string]> = [
  ['INFO normal startup message', 'INFO normal startup message'],
  ['10:04:01 - INFO - listening on port 8080', '10:04:01 - INFO - listening on port 8080'],
  ['CLOUDFLARED_TUNNEL_TOKEN=super-secret-token', 'CLOUDFLARED_TUNNEL_TOKEN=[REDACTED]'],
  [
    'GET /callback?token=abc123&api_key=def456&safe=value',
    'GET /callback?token=[REDACTED]&api_key=[REDACTED]&safe=value',
  ],
  [
    'password: hunter2 apiKey=abc123 secret=topsecret token=plain',
    'password: [REDACTED] apiKey=[REDACTED] secret=[REDACTED] token=[REDACTED]',
  ],
  [
    'SECRET_KEY=first secret-key: second "secret key": "third" /config?secret_key=fourth',
    'SECRET_KEY=[REDACTED] secret-key: [REDACTED] "secret key": "[REDACTED]" /config?secret_key=[REDACTED]',
  ],
  ["Overriding 'auth_password' = 'hunter2'", "Overriding 'auth_password' = '[REDACTED]'"],
  ['Homepage API key: generated-api-key', 'Homepage API key: [REDACTED]'],
  ['{"apiKey": "abcdef123456", "port": 8080}', '{"apiKey": "[REDACTED]", "port": 8080}'],
  ['X-Api-Key: 0123456789abcdef', 'X-Api-Key: [REDACTED]'],
  ['request Cookie: session=abc; theme=dark', 'request Cookie: [REDACTED]'],
  ['Set-Cookie: sid=xyz; Path=/', 'Set-Cookie: [REDACTED]'],
  ['{"cookie": "session=example"}', '{"cookie": "[REDACTED]"}'],
  ['Authorization: Bearer eyJhbGciOi.abc.def', 'Authorization: [REDACTED]'],
  ['authorization=Basic dXNlcjpwYXNz', 'authorization=Basic [REDACTED]'],
  [
    '{"headers": {"Authorization": "Bearer abcdefgh12345678"}}',
    '{"headers": {"Authorization": "Bearer [REDACTED]"}}',
  ],
  ['curl -H "x: Bearer abcdefgh12345678"', 'curl -H "x: Bearer [REDACTED]"'],
  ['X-Plex-Token: abcdef', 'X-Plex-Token: [REDACTED]'],
  [
    'connecting to https://admin:hunter2@db.example.com:5432/x',
    'connecting to https://***:***@db.example.com:5432/x',
  ],
  ['clone https://ghtoken123@github.com/org/repo', 'clone https://***@github.com/org/repo'],
  [
    '?auth_token=one&access_token=two&code=three {"client_secret": "four", "refresh_token": "five"}',
    '?auth_token=[REDACTED]&access_token=[REDACTED]&code=[REDACTED] {"client_secret": "[REDACTED]", "refresh_token": "[REDACTED]"}',
  ],
  [
    'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJl issued',
    'token [REDACTED] issued',
  ],
  ['GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'GITHUB_TOKEN=[REDACTED]'],
  ['using key ghp_abcdefghijklmnopqrstuvwxyz0123456789 now', 'using key [REDACTED] now'],
  ['DB_PASSWORD="two words" next', 'DB_PASSWORD="[REDACTED]" next'],
  ['MyPlex user is someone@example.com today', 'MyPlex user is [REDACTED] today'],
  ['max_tokens: 512 tokenizer=fast', 'max_tokens: 512 tokenizer=fast'],
  ['GET /cb?code=xyz789&state=1', 'GET /cb?code=[REDACTED]&state=1'],
  ['blob.example/file?sig=abcdef&se=2026', 'blob.example/file?sig=[REDACTED]&se=2026'],
  ['AKIAABCDEFGHIJKLMNOP used', '[REDACTED] used'],
  [`started with api_key=${PLANTED}`, 'started with api_key=[REDACTED]'],
];

for (const [input, expected] of cases) {
  test(`redacts: ${input}`, (t) => {
    t.is(redactLine(input), expected);
  });
}

test('redaction is idempotent: a redacted line stays as it is', (t) => {
  for (const [input] of cases) {
    const once = redactLine(input);
    t.is(redactLine(once), once, input);
  }
});

test('the planted secret never survives, whatever the wrapping', (t) => {
  const wrappings = [
    `api_key=${PLANTED}`,
    `"apiKey": "${PLANTED}"`,
    `X-Api-Key: ${PLANTED}`,
    `Authorization: Bearer ${PLANTED}`,
    `https://user:${PLANTED}@host/path`,
    `GET /x?apikey=${PLANTED}&a=1`,
    `password=${PLANTED}`,
    `Cookie: session=${PLANTED}`,
    `MY_SERVICE_TOKEN: ${PLANTED}`,
  ];
  for (const line of wrappings) t.false(redactLine(line).includes(PLANTED), line);
});

test('redactText keeps line breaks and redacts each line', (t) => {
  t.is(redactText('safe\r\npassword=hunter2\n\nlast\n'), 'safe\r\npassword=[REDACTED]\n\nlast\n');
  t.is(redactText(''), '');
});

test('redactText equals redactLine line by line, whatever mix of line breaks and secrets', (t) => {
  // Seeded, so a failure names a reproducible text.
  let seed = 20261125;
  const next = (below: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % below;
  };
  const pieces = [
    ...cases.map(([input]) => input),
    'plain line with nothing in it',
    'GET /api/v3/series/12 handled in 4 ms',
    '',
    'ünïcödé line ✓ user@example.org',
    'PASSWORD=Hunter2 and X-Api-Key: ABC in capitals',
    // `İ` lower-cases to two characters: the scan then runs on the text itself.
    'İstanbul TOKEN=abcdef',
    'GHP_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123 and SK-ABCDEFGHIJKLMNOPQRSTUVWX upper-case tokens',
    'Kelvin sign \u212Aey=value',
  ];
  const breaks = ['\n', '\r\n', '\r', '\n\n'];
  for (let round = 0; round < 300; round += 1) {
    let text = '';
    const count = 1 + next(12);
    for (let index = 0; index < count; index += 1)
      text += (pieces[next(pieces.length)] ?? '') + (breaks[next(breaks.length)] ?? '\n');
    if (next(2) === 0) text = text.replace(/[\r\n]+$/, '');
    const expected = text.replace(/[^\r\n]+/g, redactLine);
    t.is(redactText(text), expected, JSON.stringify(text));
  }
  t.is(redactText(''), '');
});
