/**
 * The diagnostic window and runtime metrics of a bundle, against a real host with the
 * supervisor, metrics history and the ai plugin: samples of the running process, its PID, the
 * baseline of the previous period, and no metrics without the metrics plugin.
 */
import test from 'ava';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { program } from '../../plugins/supervisor/support/processes.js';
import { request } from '../../helpers/http.js';
import { eventually } from '../../helpers/eventually.js';
import { startHost } from '../../helpers/start-host.js';

const service = {
  enabled: true,
  process_name: 'Worker',
  command: ['node', program('long-running')],
};

test('a dry-run diagnose carries the window and the process metrics of both periods', async (t) => {
  const host = await startHost({
    plugins: ['supervisor', 'metrics', 'ai'].map(builtinPlugin),
    config: {
      stackd: {
        supervisor: { start_check_ms: 200 },
        metrics: { interval_ms: 250, history_interval_sec: 0.5 },
      },
      worker: service,
    },
  });
  t.teardown(() => host.stop());
  await eventually(
    async () =>
      (await request(host.url, '/metrics/history?limit=4')).body.items?.some(
        (item: { processes: Record<string, { pid: number | null }> }) =>
          typeof item.processes.Worker?.pid === 'number',
      ),
    { what: 'history with the running process' },
  );
  const answer = await request(host.url, '/ai/diagnose', {
    body: { process_name: 'Worker', dry_run: true, window_hours: 0.25 },
  });
  t.is(answer.status, 200, answer.text);
  const bundle = answer.body.bundle;
  t.is(bundle.diagnostic_window.comparison, 'previous_period');
  const current = bundle.diagnostic_window.current;
  t.is(Date.parse(current.end) - Date.parse(current.start), 15 * 60_000);
  t.is(bundle.diagnostic_window.baseline.end, current.start);
  const metrics = bundle.runtime_metrics;
  t.true(metrics.available, JSON.stringify(metrics));
  t.true(metrics.current.sample_count >= 1, JSON.stringify(metrics.current));
  const status = await request(host.url, '/process/service-status?process_name=Worker');
  t.deepEqual(metrics.current.observed_pids, [status.body.pid], JSON.stringify(metrics.current));
  t.is(metrics.current.restart_indications, 0);
  t.true(metrics.current.rss_bytes.maximum > 0);
  t.is(metrics.baseline.sample_count, 0, 'the host did not run in the previous period');

  t.like(bundle.diagnostic_coverage, {
    status: true,
    metrics_history: true,
    native_collector: false,
  });
  t.true(['low', 'medium', 'high'].includes(bundle.diagnostic_coverage.confidence_hint));
  t.like(bundle.native_diagnostics, { available: false });
  t.true(Array.isArray(bundle.recommendations));

  // Docs excerpts from stackd's own README, about the question asked.
  const docs = await request(host.url, '/ai/diagnose', {
    body: {
      process_name: 'Worker',
      dry_run: true,
      question: 'how do notification webhooks retry?',
    },
  });
  const context = docs.body.bundle.docs_context;
  t.true(context.available, JSON.stringify(context).slice(0, 300));
  t.regex(context.docs_root, /README\.md$/);
  t.true(
    context.sources.some((source: { title: string }) => /notification/i.test(source.title)),
    context.sources.map((source: { title: string }) => source.title).join(', '),
  );

  const none = await request(host.url, '/ai/diagnose', {
    body: { process_name: 'Worker', dry_run: true, comparison: 'none', include_metrics: false },
  });
  t.is(none.body.bundle.diagnostic_window.baseline, null);
  t.false('runtime_metrics' in none.body.bundle);
});

test('without the metrics plugin the bundle says why there are no metrics', async (t) => {
  const host = await startHost({
    plugins: ['supervisor', 'ai'].map(builtinPlugin),
    config: { stackd: { supervisor: { start_check_ms: 200 } }, worker: service },
  });
  t.teardown(() => host.stop());
  const answer = await request(host.url, '/ai/diagnose', {
    body: { process_name: 'Worker', dry_run: true },
  });
  t.like(answer.body.bundle.runtime_metrics, { available: false });
  t.regex(answer.body.bundle.runtime_metrics.reason, /metrics plugin/);
});
