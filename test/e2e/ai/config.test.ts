/**
 * The ai plugin's `stackd.ai` slice against a real host: `docs_dir` chooses the documentation a
 * diagnosis reads, a configuration update changes it for the next diagnosis, and a malformed
 * slice is refused naming the field (at boot and on update).
 */
import test from 'ava';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost } from '../../helpers/start-host.js';

const PLUGINS = [builtinPlugin('supervisor'), builtinPlugin('ai')];

function docsTree(topic: string): string {
  const root = mkdtempSync(join(tmpdir(), 'stackd-ai-docs-'));
  mkdirSync(join(root, 'services'));
  writeFileSync(join(root, 'index.md'), '# Home\n\nWelcome.\n');
  writeFileSync(join(root, 'services', `${topic}.md`), `# ${topic}\n\n${topic} setup notes.\n`);
  return root;
}

const block = {
  enabled: false,
  process_name: 'Worker',
  command: ['node', '-e', '0'],
};

test('docs_dir from the config file is read; an update applies to the next diagnosis', async (t) => {
  const first = docsTree('sonarr');
  const host = await startHost({
    plugins: PLUGINS,
    config: { stackd: { ai: { docs_dir: first } }, worker: block },
  });
  t.teardown(() => host.stop());
  const docsRoot = async (): Promise<unknown> => {
    const answer = await request(host.url, '/ai/diagnose', {
      body: { process_name: 'Worker', dry_run: true, question: 'setup' },
    });
    t.is(answer.status, 200, answer.text);
    return answer.body.bundle.docs_context.docs_root;
  };
  t.is(await docsRoot(), first);

  const refused = await request(host.url, '/config', {
    body: { updates: { stackd: { ai: { docs_dir: 5 } } } },
  });
  t.is(refused.status, 422, refused.text);
  t.is(refused.body.field, 'stackd.ai.docs_dir');
  t.is(await docsRoot(), first, 'a refused update changes nothing');

  const second = docsTree('radarr');
  const saved = await request(host.url, '/config', {
    body: { updates: { stackd: { ai: { docs_dir: second } } } },
  });
  t.is(saved.status, 200, saved.text);
  t.is(await docsRoot(), second);
});

test('a malformed stackd.ai slice stops the boot naming the field', async (t) => {
  const error = await t.throwsAsync(
    startHost({ plugins: PLUGINS, config: { stackd: { ai: { docs_dir: 5 } }, worker: block } }),
  );
  t.regex(error?.message ?? '', /stackd\.ai\.docs_dir/);
});
