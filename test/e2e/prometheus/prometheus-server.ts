/**
 * A real `prometheus` server for the fleet test: temp config, rules and TSDB, a free loopback
 * port, a 1 s scrape and evaluation interval; queried through its HTTP API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../helpers/ports.js';
import { tempDir } from '../../helpers/start-host.js';
import { eventually } from '../../helpers/eventually.js';

/** The shipped rules file (`docs/prometheus/alerts.yml` in the repository). */
export const SHIPPED_RULES = fileURLToPath(
  new URL('../../../../docs/prometheus/alerts.yml', import.meta.url),
);

/**
 * The shipped rules with windows a test can wait for: restart storm over 30 s (> 2) pending
 * after 2 s, a host down after 3 s. Everything else as shipped.
 */
export function testRules(): string {
  return readFileSync(SHIPPED_RULES, 'utf8')
    .replace(
      'increase(stackd_process_restarts_total[15m]) > 5\n        for: 1m',
      'increase(stackd_process_restarts_total[30s]) > 2\n        for: 2s',
    )
    .replace('up{job="stackd"} == 0\n        for: 5m', 'up{job="stackd"} == 0\n        for: 3s');
}

/** One scrape target: its address and the scrape token Prometheus sends. */
export interface Target {
  readonly address: string;
  readonly token: string;
}

/** A running Prometheus. */
export interface PrometheusServer {
  readonly url: string;
  query(
    promql: string,
  ): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>;
  alerts(): Promise<Array<{ labels: Record<string, string>; state: string }>>;
  stop(): Promise<void>;
}

function scrapeConfig(targets: readonly Target[], dir: string): string {
  return targets
    .map((target, index) => {
      const tokenFile = join(dir, `token-${index}`);
      writeFileSync(tokenFile, `${target.token}\n`, { mode: 0o600 });
      // One block per host: each host issued its own scrape token.
      return [
        `  - job_name: stackd-${index}`,
        `    metrics_path: /metrics`,
        `    bearer_token_file: ${tokenFile}`,
        `    static_configs: [{ targets: ['${target.address}'] }]`,
        `    relabel_configs: [{ target_label: job, replacement: stackd }]`,
      ].join('\n');
    })
    .join('\n');
}

/** Start Prometheus scraping `targets`; resolves once its API answers. */
export async function startPrometheus(targets: readonly Target[]): Promise<PrometheusServer> {
  const dir = tempDir('stackd-prometheus-');
  writeFileSync(join(dir, 'rules.yml'), testRules());
  writeFileSync(
    join(dir, 'prometheus.yml'),
    `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\nrule_files: [rules.yml]\nscrape_configs:\n${scrapeConfig(targets, dir)}\n`,
  );
  const port = await freePort();
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${url}${path}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`${path}: ${body.error ?? response.status}`);
    return body.data;
  };
  await eventually(() => fetch(`${url}/-/ready`).then((r) => r.ok), {
    what: `prometheus ready (${log})`,
    timeoutMs: 20_000,
    intervalMs: 200,
  });
  return {
    url,
    query: async (promql) =>
      (
        await api<{ result: Array<{ metric: Record<string, string>; value: [number, string] }> }>(
          `/api/v1/query?query=${encodeURIComponent(promql)}`,
        )
      ).result,
    alerts: async () =>
      (
        await api<{ alerts: Array<{ labels: Record<string, string>; state: string }> }>(
          '/api/v1/alerts',
        )
      ).alerts,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
