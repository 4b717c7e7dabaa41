import test from 'ava';
import { request } from '../../helpers/http.js';
import { configOnDisk, freePort, SETUP_HOOK_PLUGIN, startWithTestCatalog } from './support.js';

test('core-services and optional-services come from the catalog (shipped, plugin and file entries)', async (t) => {
  const host = await startWithTestCatalog({}, { plugins: [SETUP_HOOK_PLUGIN] });
  t.teardown(() => host.stop());
  const cores = await request(host.url, '/process/core-services');
  t.is(cores.status, 200);
  const media = cores.body.core_services.find((core: any) => core.key === 'media_core');
  t.deepEqual(media, {
    name: 'Media Core',
    key: 'media_core',
    description: 'A core service needing two templated dependencies.',
    dependencies: ['webdav', 'mounter'],
    debrid_providers: ['RealDebrid'],
    service_options: { media_core: { port: 18000 }, webdav: { port: 18100 }, mounter: {} },
    service_option_descriptions: {
      media_core: { port: 'Port of the core service.' },
      webdav: { port: 'Port of the WebDAV server.' },
      mounter: {},
    },
    supports_instances: false,
  });
  t.true(
    cores.body.core_services.some((core: any) => core.key === 'riven_backend'),
    'shipped',
  );

  const optional = await request(host.url, '/process/optional-services');
  const keys = optional.body.optional_services.map((service: any) => service.key);
  t.true(keys.includes('extra') && keys.includes('plugin_optional') && keys.includes('zilean'));
  t.like(
    optional.body.optional_services.find((service: any) => service.key === 'plugin_optional'),
    { service_options: { log_level: 'WARN' }, start: 'after_core' },
  );
  // Tailored: what a chosen core or optional service needs anyway is left out.
  const tailored = await request(
    host.url,
    '/process/optional-services?core_service=Suite&optional_services=unlisted',
  );
  const tailoredKeys = tailored.body.optional_services.map((service: any) => service.key);
  t.false(tailoredKeys.includes('extra'), 'Suite starts it as a dependency');
  t.true(tailoredKeys.includes('unlisted'));

  const capabilities = await request(host.url, '/process/capabilities');
  t.like(capabilities.body, { optional_only_onboarding: true, optional_service_options: true });
});

test('setup hooks run before start-core-service and start-service launches; their change is saved', async (t) => {
  const host = await startWithTestCatalog({}, { plugins: [SETUP_HOOK_PLUGIN] });
  t.teardown(() => host.stop());
  const started = await request(host.url, '/process/start-core-service', {
    body: {
      core_services: {
        name: 'media_core',
        service_options: { media_core: { port: await freePort() } },
      },
    },
  });
  t.deepEqual(started.body.errors, []);
  t.like(configOnDisk(host).media_core.env, { SETUP_RUNS: '1' });
  const restarted = await request(host.url, '/process/restart-service', {
    body: { process_name: 'Media Core' },
  });
  t.is(restarted.status, 200, restarted.text);
  t.like(configOnDisk(host).media_core.env, { SETUP_RUNS: '2' });
  t.regex(host.output(), /setup hook ran for Media Core/);
});

test('onboarding status, completed and reset are saved in the configuration file', async (t) => {
  const host = await startWithTestCatalog({});
  t.teardown(() => host.stop());
  const initial = await request(host.url, '/config/onboarding-status');
  t.deepEqual(initial.body, { onboarding_completed: false, needs_onboarding: true });
  const done = await request(host.url, '/config/onboarding-completed', { method: 'POST' });
  t.deepEqual(done.body, {
    status: 'Onboarding completed successfully',
    onboarding_completed: true,
    needs_onboarding: false,
  });
  t.is(configOnDisk(host).stackd.onboarding_completed, true);
  t.deepEqual((await request(host.url, '/api/config/onboarding-status')).body, {
    onboarding_completed: true,
    needs_onboarding: false,
  });
  const reset = await request(host.url, '/config/reset-onboarding', { method: 'POST' });
  t.like(reset.body, { onboarding_completed: false, needs_onboarding: true });
  t.is(configOnDisk(host).stackd.onboarding_completed, false);
  t.like(configOnDisk(host).stackd.api_service, { process_name: 'stackd API' });
});
