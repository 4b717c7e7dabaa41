/** Hosts for the onboarding e2e tests: the supervisor plugin with the test catalog of fixture programs. */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURES_DIR, tempDir, type RunningHostProcess } from '../../helpers/start-host.js';
import { startSupervisor } from '../supervisor/support.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';

export { fixtureBlock, program, isAlive } from '../supervisor/support.js';

const here = dirname(fileURLToPath(import.meta.url));
/** A compiled test plugin of this folder. */
export const SETUP_HOOK_PLUGIN = join(here, 'setup-hook-plugin.js');

/** Start a host whose data dir holds the test catalog (programs resolved to compiled paths). */
export function startWithTestCatalog(
  services: Record<string, unknown>,
  options: { plugins?: readonly string[]; supervisor?: Record<string, unknown> } = {},
): Promise<RunningHostProcess> {
  const dataDir = tempDir('stackd-onboarding-');
  const catalog = readFileSync(join(FIXTURES_DIR, 'catalog', 'test-catalog.json'), 'utf8');
  writeFileSync(
    join(dataDir, 'test-catalog.json'),
    catalog.replaceAll('__PROGRAMS__', join(FIXTURES_DIR, 'programs')),
  );
  return startSupervisor(services, {
    sections: { onboarding: { catalog_file: 'test-catalog.json' } },
    ...(options.supervisor === undefined ? {} : { supervisor: options.supervisor }),
    plugins: [builtinPlugin('onboarding'), ...(options.plugins ?? [])],
    host: { dataDir },
  });
}

/** The config file as it is on disk now. */
export function configOnDisk(host: RunningHostProcess): Record<string, any> {
  return JSON.parse(readFileSync(host.configPath as string, 'utf8')) as Record<string, any>;
}

/** Lines of the order file the fixtures append to at start: `[name, {port, key}]`. */
export function startRecords(
  host: RunningHostProcess,
): Array<[string, { port: number | null; key: string | null }]> {
  let text = '';
  try {
    text = readFileSync(join(host.dataDir, 'order.log'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const space = line.indexOf(' ');
      return [line.slice(0, space), JSON.parse(line.slice(space + 1))];
    });
}

export { freePort } from '../../helpers/ports.js';
