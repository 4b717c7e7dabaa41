/**
 * The stack the dashboard is checked against: the bundled demo programs under the config keys
 * the dashboard gives special pages (a `seerr` service shows the request-sync panel, a
 * `decypharr` service the symlink panel), every plugin on, authentication on with no user yet.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHost, tempDir, type RunningHostProcess } from '../../test/helpers/start-host.js';

const DEMO_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'host', 'demo');

/** A port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function checkStackConfig(
  dataDir: string,
  ports: readonly [number, number],
): Record<string, unknown> {
  const library = join(dataDir, 'library');
  mkdirSync(library, { recursive: true });
  // Each service has a config file, so the service page's config editor has something to load.
  const configFile = (name: string, text: string) => {
    const path = join(dataDir, 'service-configs', name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  const web = (name: string, port: number) => ({
    enabled: true,
    process_name: name,
    command: ['node', join(DEMO_DIR, 'web.js'), '--port', '{port}'],
    port,
    log_file: `logs/${name.toLowerCase().replace(/\s+/g, '_')}.log`,
  });
  return {
    stackd: {
      api_service: { enabled: true, process_name: 'stackd API', log_level: 'INFO' },
      symlinks: { allowed_roots: [library] },
      notifications: { enabled: true },
      sync: { enabled: false },
    },
    seerr: {
      ...web('Seerr', ports[0]),
      config_file: configFile('seerr.json', '{\n  "main": { "applicationTitle": "Seerr" }\n}\n'),
    },
    decypharr: {
      ...web('Decypharr', ports[1]),
      symlink_root: library,
      config_file: configFile('decypharr.yaml', 'debrid:\n  provider: none\nport: 8282\n'),
    },
    demo_worker: {
      enabled: true,
      process_name: 'Demo Worker',
      command: ['node', join(DEMO_DIR, 'worker.js'), '--every-ms', '1000'],
      log_file: 'logs/demo_worker.log',
      config_file: configFile('worker.conf', '[worker]\nevery_ms = 1000\n'),
    },
  };
}

export async function startCheckStack(): Promise<RunningHostProcess> {
  const dataDir = tempDir('stackd-dashboard-');
  const ports = [await freePort(), await freePort()] as const;
  return startHost({ config: checkStackConfig(dataDir, ports), dataDir });
}
