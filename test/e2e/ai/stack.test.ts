/**
 * The stack bundle against a real host (supervisor, metrics, ai) and a fake chat provider: the
 * summary names the crashed service, its log tail and telling lines are in, every service's
 * runtime metrics and the coverage are there; the provider gets the compacted bundle (configs
 * replaced by a note) and a question about what stackd is gets stackd's own answer.
 */
import test from 'ava';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { eventually } from '../../helpers/eventually.js';
import { startHost } from '../../helpers/start-host.js';
import { program } from '../../plugins/supervisor/support/processes.js';
import { json, startFakeProvider } from './fake-provider.js';

test('stack diagnose: attention, logs, metrics, coverage; compacted prompt; identity answer', async (t) => {
  const provider = await startFakeProvider((_received, response) =>
    json(response, 200, { choices: [{ message: { content: 'provider text' } }] }),
  );
  t.teardown(() => provider.close());
  const host = await startHost({
    plugins: ['supervisor', 'metrics', 'ai'].map(builtinPlugin),
    config: {
      stackd: { supervisor: { start_check_ms: 200 }, metrics: { history_interval_sec: 0.5 } },
      web: { enabled: true, process_name: 'Web', command: ['node', program('long-running')] },
      broken: {
        enabled: true,
        process_name: 'Broken',
        command: [
          'node',
          program('crashes'),
          '--after',
          '400',
          '--message',
          'fatal: disk quota exceeded',
        ],
        auto_restart: false,
      },
    },
  });
  t.teardown(() => host.stop());
  await eventually(async () => {
    const status = await request(host.url, '/process/service-status?process_name=Broken');
    return status.body.status === 'crashed';
  });

  const dry = await request(host.url, '/ai/diagnose-stack', {
    body: { dry_run: true, question: 'what is failing?' },
  });
  t.is(dry.status, 200, dry.text);
  const bundle = dry.body.bundle;
  t.is(bundle.scope, 'stack');
  t.is(bundle.product.name, 'stackd');
  t.like(bundle.stack_summary.counts, { total: 2, enabled: 2, running: 1, unhealthy: 1 });
  t.deepEqual(bundle.stack_summary.attention.unhealthy, ['Broken']);
  t.regex(bundle.logs.Broken, /disk quota exceeded/);
  t.true(bundle.log_analysis.Broken.some((line: string) => /fatal: disk quota/.test(line)));
  t.deepEqual(Object.keys(bundle.runtime_metrics.services).sort(), ['Broken', 'Web']);
  t.true(['low', 'medium', 'high'].includes(bundle.diagnostic_coverage.confidence_hint));
  t.false('service_configs' in bundle, 'off by default for stack requests');

  await request(host.url, '/ai/settings', {
    method: 'PUT',
    body: { enabled: true, provider: 'chat_compatible', base_url: provider.url, model: 'm-1' },
  });
  const asked = await request(host.url, '/ai/diagnose-stack', {
    body: { question: 'What does stackd stand for?', include_service_config: true },
  });
  t.is(asked.status, 200, asked.text);
  t.regex(asked.body.analysis, /^## Direct Answer/);
  t.truthy(asked.body.bundle.service_configs.Web, 'the response keeps the full bundle');
  const prompt = provider.received.at(-1)?.body ?? '';
  t.true(prompt.includes('service_configs_note'));
  t.false(prompt.includes('long-running'), 'no service config in the prompt');
});
