/**
 * A configuration change as a person reads it: the field diff (secrets only as changed or
 * unchanged, as the host sends them) and, per process, what would happen, why and in which order.
 */
import type {
  ChangePreview,
  FieldChange,
} from '../plugins/supervisor/config-model/config-change-schemas.js';
import type { Static } from '../sdk/index.js';
import { table, type Colour, type Paint } from './output.cjs';

type Field = Static<typeof FieldChange>;
type Effect = ChangePreview['processes'][number];

const ACTION_COLOURS: Record<Effect['action'], Colour> = {
  restart: 'yellow',
  start: 'green',
  stop: 'red',
  reload_free: 'cyan',
  nothing: 'grey',
};

/** Values longer than this are cut (a whole command line or env block is noise in a diff). */
const VALUE_WIDTH = 60;

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > VALUE_WIDTH ? `${text.slice(0, VALUE_WIDTH - 1)}…` : text;
}

/** One line per changed field: `path  old → new`. */
export function diffLines(diff: readonly Field[], paint: Paint): string[] {
  if (diff.length === 0) return [paint('grey', '  (no field changes)')];
  return table(
    diff.map((change) => {
      if (change.secret !== undefined)
        return [`  ${change.path}`, paint('grey', `(secret, ${change.secret})`)];
      const before = 'old' in change ? shown(change.old) : paint('grey', '(absent)');
      const after = 'new' in change ? shown(change.new) : paint('grey', '(removed)');
      return [`  ${change.path}`, `${paint('red', before)} → ${paint('green', after)}`];
    }),
  );
}

/** The steps in order, then the processes changed without a step, then a count of the rest. */
export function planLines(plan: ChangePreview, paint: Paint): string[] {
  const byName = new Map(plan.processes.map((effect) => [effect.process_name, effect]));
  const action = (name: Effect['action']): string => paint(ACTION_COLOURS[name], name);
  const rows = plan.order.map((step, index) => {
    const effect = byName.get(step.process_name);
    return [`  ${index + 1}.`, action(step.action), step.process_name, effect?.reason ?? ''];
  });
  const stepped = new Set(plan.order.map((step) => step.process_name));
  for (const effect of plan.processes)
    if (!stepped.has(effect.process_name) && effect.action !== 'nothing')
      rows.push(['   -', action(effect.action), effect.process_name, effect.reason]);
  const untouched = plan.processes.filter(
    (effect) => !stepped.has(effect.process_name) && effect.action === 'nothing',
  ).length;
  const lines = rows.length === 0 ? [paint('grey', '  no process is affected')] : table(rows);
  if (untouched > 0 && rows.length > 0)
    lines.push(
      paint('grey', `  (${untouched} other process${untouched === 1 ? '' : 'es'}: nothing)`),
    );
  return lines;
}

/** The whole preview: "Changes:" then "Processes (in order):". */
export function previewText(plan: ChangePreview, paint: Paint): string {
  return [
    paint('bold', 'Changes:'),
    ...diffLines(plan.diff, paint),
    paint('bold', 'Processes (in order):'),
    ...planLines(plan, paint),
  ].join('\n');
}
