import test from 'ava';
import { ServiceCatalogRegistry } from '../../../../plugins/onboarding/catalog/service-catalog.js';
import { applyPlanItem, fillTemplate } from '../../../../plugins/onboarding/start/plan-block.js';
import { buildStartPlan } from '../../../../plugins/onboarding/start/start-plan.js';

function catalog(): ServiceCatalogRegistry {
  const registry = new ServiceCatalogRegistry();
  registry.addServices([
    {
      key: 'riven_backend',
      name: 'Riven',
      role: 'core',
      dependencies: ['zurg', 'postgres'],
      template: { process_name: 'Riven Backend', command: ['riven'], port: 8080 },
    },
    {
      key: 'sonarr',
      name: 'Sonarr',
      role: 'core',
      supports_instances: true,
      template: {
        process_name: 'Sonarr',
        command: ['sonarr'],
        config_dir: '/sonarr/{{instance_slug}}',
      },
    },
    {
      key: 'zurg',
      name: 'Zurg',
      role: 'dependency',
      per_core_instance: true,
      instance_process_name: 'Zurg w/ {{core_name}}',
      debrid_key_field: 'api_key',
      template: {
        process_name: 'Zurg',
        command: ['zurg', '--port', '{port}'],
        config_dir: '/zurg/{{core_name}}',
        port: 9090,
      },
    },
    {
      key: 'postgres',
      name: 'PostgreSQL',
      role: 'dependency',
      template: { process_name: 'PostgreSQL', command: ['postgres'] },
    },
    {
      key: 'zilean',
      name: 'Zilean',
      role: 'optional',
      start: 'before_core',
      dependencies: ['postgres'],
      template: { process_name: 'Zilean', command: ['zilean'] },
    },
    {
      key: 'frontend',
      name: 'Riven Frontend',
      role: 'optional',
      template: { process_name: 'Riven Frontend', command: ['fe'] },
    },
  ]);
  return registry;
}

test('order: before-core optionals with their dependencies, then dependencies and core, then the rest', (t) => {
  const plan = buildStartPlan(
    {
      core_services: { name: 'Riven', debrid_key: 'k', service_options: { zurg: { port: 9100 } } },
      optional_services: ['Riven Frontend', 'zilean'],
    },
    catalog(),
    {},
  );
  t.deepEqual(plan.errors, []);
  t.deepEqual(
    plan.items.map((item) => [item.path.join('.'), item.role]),
    [
      ['postgres', 'dependency'],
      ['zilean', 'optional'],
      ['zurg.instances.Riven', 'dependency'],
      ['riven_backend', 'core'],
      ['frontend', 'optional'],
    ],
  );
  // postgres is planned once, attached to the core service that needs it too.
  t.deepEqual(plan.items[0]?.cores, [{ key: 'riven_backend', name: 'Riven' }]);
  t.deepEqual(plan.items[2]?.options, { port: 9100 });
});

test('unknown names and wrong roles are errors; the rest of the plan stands', (t) => {
  const plan = buildStartPlan(
    {
      core_services: [
        { name: 'nope' },
        { name: 'zilean' },
        { name: 'sonarr', instance_name: 'Anime!' },
      ],
      optional_services: ['zurg', 'ghost'],
    },
    catalog(),
    {},
  );
  t.deepEqual(
    plan.errors.map((error) => [error.service, error.code]),
    [
      ['zurg', 'ONBOARDING_NOT_OPTIONAL_SERVICE'],
      ['ghost', 'ONBOARDING_UNKNOWN_SERVICE'],
      ['nope', 'ONBOARDING_UNKNOWN_SERVICE'],
      ['zilean', 'ONBOARDING_NOT_CORE_SERVICE'],
    ],
  );
  t.deepEqual(
    plan.items.map((item) => item.path.join('.')),
    ['sonarr.instances.Anime'],
  );
});

test('a block is created from the template, attached, given the key and the options', (t) => {
  const document: Record<string, any> = {
    other: { process_name: 'Zurg w/ Riven', command: ['x'] },
  };
  const plan = buildStartPlan(
    {
      core_services: {
        name: 'riven',
        debrid_key: 'secret',
        service_options: { zurg: { log_level: 'DEBUG' } },
      },
    },
    catalog(),
    document,
  );
  const names = plan.items.map((item) => applyPlanItem(document, item));
  t.deepEqual(names, ['Zurg w/ Riven 2', 'PostgreSQL', 'Riven Backend']);
  t.deepEqual(document.zurg.instances.Riven, {
    process_name: 'Zurg w/ Riven 2',
    command: ['zurg', '--port', '{port}'],
    config_dir: '/zurg/Riven',
    port: 9090,
    enabled: true,
    core_service: 'riven_backend',
    api_key: 'secret',
    log_level: 'DEBUG',
  });
  t.deepEqual(document.postgres.core_services, ['riven_backend']);
  t.false('api_key' in document.riven_backend, 'only services declaring debrid_key_field get it');
});

test('an existing block is reused: enabled and overridden, not replaced', (t) => {
  const document: Record<string, any> = {
    sonarr: {
      instances: {
        Default: { process_name: 'My Sonarr', command: ['s'], enabled: false, port: 1 },
      },
    },
  };
  const plan = buildStartPlan(
    { core_services: { name: 'Sonarr', service_options: { sonarr: { port: 2 } } } },
    catalog(),
    document,
  );
  t.is(applyPlanItem(document, plan.items[0] as never), 'My Sonarr');
  t.deepEqual(document.sonarr.instances.Default, {
    process_name: 'My Sonarr',
    command: ['s'],
    enabled: true,
    port: 2,
  });
});

test('fillTemplate replaces only the creation-time placeholders', (t) => {
  t.deepEqual(
    fillTemplate({ a: ['{{core_name}}/{port}', '{{unknown}}'], b: 3 }, { core_name: 'Riven' }),
    { a: ['Riven/{port}', '{{unknown}}'], b: 3 },
  );
});
