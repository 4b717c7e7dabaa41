/** Network counters and rates for the selected interfaces. */
import type {
  NetworkInterfaceMetrics,
  NetworkMetrics,
} from '../../../sdk/contracts/metrics-feed.js';
import { ratePerSecond } from '../rates.js';
import type { InterfaceCounters } from './proc-parsers.js';

const ZERO: InterfaceCounters = {
  rxBytes: 0,
  rxPackets: 0,
  rxErrors: 0,
  rxDropped: 0,
  txBytes: 0,
  txPackets: 0,
  txErrors: 0,
  txDropped: 0,
};

/** `["all"]` selects every interface but loopback (local traffic is not network IO). */
export function selectInterfaces(
  configured: readonly string[],
  present: ReadonlyMap<string, InterfaceCounters>,
): string[] {
  if (configured.includes('all')) return [...present.keys()].filter((name) => name !== 'lo');
  return [...configured];
}

/**
 * Build the network section: one entry per selected interface (missing ones marked unavailable)
 * and the sum over the available ones, with rates against the previous reading.
 */
export function networkMetrics(
  configured: readonly string[],
  current: ReadonlyMap<string, InterfaceCounters>,
  previous: ReadonlyMap<string, InterfaceCounters> | undefined,
  elapsedSec: number,
): NetworkMetrics {
  const interfaces: NetworkInterfaceMetrics[] = [];
  const totals = { ...ZERO };
  const previousTotals = { ...ZERO };
  let previousComplete = previous !== undefined;
  for (const name of selectInterfaces(configured, current)) {
    const counters = current.get(name);
    const before = previous?.get(name);
    if (counters === undefined) {
      interfaces.push({ name, available: false, ...wire(ZERO, undefined, 0) });
      continue;
    }
    interfaces.push({ name, available: true, ...wire(counters, before, elapsedSec) });
    for (const key of Object.keys(totals) as (keyof InterfaceCounters)[]) {
      totals[key] += counters[key];
      previousTotals[key] += before?.[key] ?? 0;
    }
    if (before === undefined) previousComplete = false;
  }
  return {
    ...wire(totals, previousComplete ? previousTotals : undefined, elapsedSec),
    interfaces,
  };
}

function wire(
  counters: InterfaceCounters,
  previous: InterfaceCounters | undefined,
  elapsedSec: number,
): Omit<NetworkInterfaceMetrics, 'name' | 'available'> {
  return {
    rx_bytes: counters.rxBytes,
    tx_bytes: counters.txBytes,
    rx_packets: counters.rxPackets,
    tx_packets: counters.txPackets,
    rx_errors: counters.rxErrors,
    tx_errors: counters.txErrors,
    rx_dropped: counters.rxDropped,
    tx_dropped: counters.txDropped,
    rx_bytes_per_sec: ratePerSecond(previous?.rxBytes, counters.rxBytes, elapsedSec),
    tx_bytes_per_sec: ratePerSecond(previous?.txBytes, counters.txBytes, elapsedSec),
  };
}
