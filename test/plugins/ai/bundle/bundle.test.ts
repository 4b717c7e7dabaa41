import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { logFindings, processBundle, scrubBundle } from '../../../../plugins/ai/bundle/bundle.js';
import type { ProcessSupervisor } from '../../../../sdk/index.js';

test('the deep scan keeps the telling lines of the whole window, not only the tail', (t) => {
  const window = ['starting', 'ERROR: database is locked', ...Array(500).fill('ok'), 'tail'].join(
    '\n',
  );
  t.deepEqual(logFindings(window), ['ERROR: database is locked']);
});

test('a process bundle: tail, findings, graph groups and metrics, scrubbed of secrets', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ai-bundle-'));
  const log = join(dir, 'web.log');
  writeFileSync(
    log,
    `boot\nfatal: cannot bind token=SuperSecretValue123\n${'x\n'.repeat(100)}last line\n`,
  );
  const document = {
    web: { process_name: 'Web', command: ['node'], env: { API_TOKEN: 'SuperSecretValue123' } },
  };
  const supervisor = {
    state: () => undefined,
    logFile: () => log,
  } as unknown as ProcessSupervisor;
  const bundle = await processBundle(
    {
      document: () => document,
      supervisor: () => supervisor,
      history: () => [],
      graph: () => ({
        planStartup: () => ({ order: [], waves: [], dependencies: {}, cycles: [] }) as never,
        parallelGroups: () => [{ id: 'core', type: 'parallel', label: 'Core', members: ['Web'] }],
      }),
      metrics: () => ({ timestamp: 't', collectors: { processes: { Web: { cpu_percent: 3 } } } }),
    },
    'Web',
    { max_log_chars: 20 },
  );
  t.true((bundle.logs as string).endsWith('last line\n'));
  t.is((bundle.log_findings as string[]).length, 1);
  t.deepEqual((bundle.dependency_groups as Array<{ members: string[] }>)[0]?.members, ['Web']);
  t.like(bundle.metrics, { process: { cpu_percent: 3 } });
  t.false(JSON.stringify(bundle).includes('SuperSecretValue123'));
  t.like((bundle.recommendations as unknown[])[0], {
    id: 'review-new-errors',
    automatic_apply_supported: false,
  });
  t.like(bundle.diagnostic_coverage, { config: true, dependency_graph: true, retained_logs: true });
});

test('scrubbing works string by string: a header line inside a string cannot break the bundle', (t) => {
  const document = { web: { enabled: true, env: { TOKEN: 'env-secret-value' } } };
  const scrubbed = scrubBundle(
    {
      logs: 'start\nAuthorization: Bearer abcdefghijklmnop"} trailing\nenv-secret-value seen',
      nested: [{ 'x-api-key': 'k' }],
    },
    document,
  );
  const logs = scrubbed.logs as string;
  t.false(logs.includes('abcdefghijklmnop'));
  t.false(logs.includes('env-secret-value'));
  t.true(logs.startsWith('start\n'));
  t.true(logs.endsWith('seen'));
});
