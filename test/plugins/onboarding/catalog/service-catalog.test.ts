import test from 'ava';
import { ServiceCatalogRegistry } from '../../../../plugins/onboarding/catalog/service-catalog.js';
import {
  loadCatalogs,
  SHIPPED_CATALOG,
  readCatalogFile,
} from '../../../../plugins/onboarding/catalog/load-catalog.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const entry = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  name: key.toUpperCase(),
  role: 'optional' as const,
  template: { process_name: key },
  ...extra,
});

test('later layers win by key; plugin entries add to the shipped ones', (t) => {
  const catalog = new ServiceCatalogRegistry();
  catalog.addTo('shipped', [entry('a'), entry('b')], 'shipped');
  catalog.addServices([entry('b', { description: 'from a plugin' }), entry('c')]);
  catalog.addTo('file', [entry('a', { description: 'from the file' })], 'file');
  t.deepEqual(
    catalog.services().map((service) => [service.key, service.description ?? '']),
    [
      ['a', 'from the file'],
      ['b', 'from a plugin'],
      ['c', ''],
    ],
  );
});

test('resolve matches key, display name and aliases ignoring case, spaces, - and _', (t) => {
  const catalog = new ServiceCatalogRegistry();
  catalog.addServices([entry('riven_backend', { name: 'Riven Backend', aliases: ['riven'] })]);
  for (const name of ['riven_backend', 'Riven Backend', 'riven-backend', 'RIVEN'])
    t.is(catalog.resolve(name)?.key, 'riven_backend', name);
  t.is(catalog.resolve('sonarr'), undefined);
});

test('an invalid entry is refused with its key and field, and nothing of the batch is added', (t) => {
  const catalog = new ServiceCatalogRegistry();
  const error = t.throws(() =>
    catalog.addServices([entry('good'), { ...entry('bad'), role: 'sidekick' } as never]),
  );
  t.regex(error.message, /'bad'.*role/);
  t.deepEqual(catalog.services(), []);
});

test('setup hooks are kept per key, in order, and can be removed', (t) => {
  const catalog = new ServiceCatalogRegistry();
  const first = () => undefined;
  const second = () => undefined;
  const remove = catalog.addSetupHook('zurg', first);
  catalog.addSetupHook('zurg', second);
  t.deepEqual(catalog.setupHooks('zurg'), [first, second]);
  remove();
  t.deepEqual(catalog.setupHooks('zurg'), [second]);
  t.deepEqual(catalog.setupHooks('rclone'), []);
});

test('the shipped catalog is valid and every dependency it names exists', async (t) => {
  const shipped = await readCatalogFile(SHIPPED_CATALOG);
  const keys = new Set(shipped.services.map((service) => service.key));
  for (const service of shipped.services)
    for (const dependency of service.dependencies ?? []) t.true(keys.has(dependency), dependency);
  t.true(shipped.services.some((service) => service.role === 'core'));
});

test('a broken catalog_file names the file and the field', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
  writeFileSync(join(dir, 'mine.json'), JSON.stringify({ services: [{ key: 'x', name: 'X' }] }));
  const catalog = new ServiceCatalogRegistry();
  const error = await t.throwsAsync(loadCatalogs(catalog, 'mine.json', dir));
  t.regex(error.message, /mine\.json.*services\.0/);
});
