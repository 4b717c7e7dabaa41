/** Docs excerpts: README sections, a local Markdown tree, scoring and the character budget. */
import test from 'ava';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docsContext, scorePages, sectionsOf } from '../../../../plugins/ai/bundle/docs-context.js';

const README = `# stackd

Intro.

## Install

npm ci

### sync

Request sync copies requests to subordinates. Poll interval and retry delay.

### notifications

Webhook, ntfy and discord destinations. ![logo](x.png)
`;

test('README sections become pages; front matter and images go', (t) => {
  const pages = sectionsOf(README, 'README.md');
  t.deepEqual(
    pages.map((page) => page.title),
    ['Install', 'sync', 'notifications'],
  );
  t.is(pages[2]?.path, 'README.md#notifications');
  t.false(pages[2]?.text.includes('logo'));
});

test('scoring: the page about the process first, keywords next, unrelated pages dropped', (t) => {
  const pages = sectionsOf(README, 'README.md');
  const ranked = scorePages(pages, {
    processName: 'sync',
    question: 'why is the retry delay so long',
  });
  t.is(ranked[0]?.title, 'sync');
  t.true((ranked[0]?.score ?? 0) >= 80);
  t.false(ranked.some((page) => page.title === 'Install'));
});

test('a STACKD_AI_DOCS_DIR tree with index.md wins over the README, within the budget', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'stackd-docs-'));
  mkdirSync(join(root, 'services'));
  writeFileSync(join(root, 'index.md'), '# Home\n\nWelcome.\n');
  writeFileSync(
    join(root, 'services', 'sonarr.md'),
    `# Sonarr\n\n${'Sonarr indexer setup. '.repeat(400)}`,
  );
  const readme = join(root, 'README-not-used.md');
  const context = await docsContext(
    { docsDir: root, readmePath: readme, maxChars: 1000 },
    { processName: 'Sonarr', question: 'indexer errors' },
  );
  t.true(context.available);
  t.is(context.docs_root, root);
  t.is(context.sources[0]?.path, join('services', 'sonarr.md'));
  const total = context.sources.reduce((sum, source) => sum + source.excerpt.length, 0);
  t.true(total <= 1000, `${total}`);
  const none = await docsContext({ docsDir: join(root, 'missing'), readmePath: null }, {});
  t.false(none.available);
  t.regex(none.note, /STACKD_AI_DOCS_DIR/);
});

test('the docs/ folder beside the README adds its sections, a file title included', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'stackd-docs-'));
  mkdirSync(join(root, 'docs', 'plugins'), { recursive: true });
  const readme = join(root, 'README.md');
  writeFileSync(readme, '# stackd\n\nIntro.\n\n## Plugins\n\nSee docs/plugins.\n');
  writeFileSync(
    join(root, 'docs', 'plugins', 'notifications.md'),
    '# notifications\n\n- Retries: a 5xx is retried with backoff.\n\n## Payloads\n\nWebhook JSON.\n',
  );
  const context = await docsContext(
    { docsDir: undefined, readmePath: readme },
    { question: 'is a notification webhook retried?' },
  );
  t.is(context.docs_root, readme);
  t.deepEqual(
    context.sources.map((source) => source.path),
    [
      join('docs', 'plugins', 'notifications.md') + '#notifications',
      join('docs', 'plugins', 'notifications.md') + '#payloads',
    ],
  );
  t.regex(context.sources[0]?.excerpt ?? '', /retried with backoff/);
  const alone = await docsContext(
    { docsDir: undefined, readmePath: join(root, 'docs', 'plugins', 'notifications.md') },
    { question: 'webhook' },
  );
  t.true(alone.available, 'a README without a docs/ folder beside it still answers');
});
