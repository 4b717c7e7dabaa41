import test from 'ava';
import {
  SIGNAL_NAMES,
  classify,
  combineStrength,
  ordersStartup,
  type SignalName,
  type Strength,
} from '../../../../plugins/graph/knowledge/signals.js';
import { knowledge } from '../graph-fixtures.js';

const combinations: [SignalName[], Strength][] = [
  [['core_service_map'], 'hard_runtime'],
  [['core_service_fields'], 'hard_configured'],
  [['documented_integration'], 'soft_linkage'],
  [['zilean_optional_integration', 'documented_integration'], 'soft_linkage'],
  [['documented_integration', 'core_service_fields'], 'hard_configured'],
  [['core_service_fields', 'wait_for_url'], 'hard_runtime'],
  [['documented_integration', 'core_service_fields', 'wait_for_mounts'], 'hard_runtime'],
  [[], 'hard_configured'],
];

for (const [signals, expected] of combinations)
  test(`strength of [${signals.join(', ')}] is ${expected}`, (t) => {
    t.is(combineStrength(signals), expected);
  });

test('classification is linkage only for soft linkage', (t) => {
  t.is(classify('hard_runtime'), 'hard');
  t.is(classify('hard_configured'), 'hard');
  t.is(classify('soft_linkage'), 'linkage');
});

test('the truth table has the 12 signals with their strength, class and a description', (t) => {
  const table = knowledge().truthTable;
  t.deepEqual(Object.keys(table).sort(), [...SIGNAL_NAMES].sort());
  t.is(SIGNAL_NAMES.length, 12);
  t.deepEqual(
    Object.entries(table)
      .filter(([, facts]) => facts.classification === 'linkage')
      .map(([signal]) => signal)
      .sort(),
    ['documented_integration', 'zilean_optional_integration'],
  );
  t.is(table.core_service_fields.strength, 'hard_configured');
  t.is(table.wait_for_url.strength, 'hard_runtime');
  for (const facts of Object.values(table)) t.true(facts.description.length > 10);
});

const ordering: [SignalName[], boolean][] = [
  [['wait_for_url'], true],
  [['conditional_startup_map'], true],
  [['rclone_provider_zurg'], true],
  [['core_service_map'], false],
  [['core_service_fields'], false],
  [['documented_integration'], false],
  [['core_service_map', 'wait_for_dir'], true],
];
for (const [signals, expected] of ordering)
  test(`[${signals.join(', ')}] ${expected ? 'orders' : 'does not order'} the start`, (t) => {
    t.is(ordersStartup(signals), expected);
  });
