/**
 * The network interfaces a user can choose to monitor: those of this network namespace (inside a
 * container, the container's), with state, speed and MTU from /sys/class/net.
 */
import { compareText } from '../../../sdk/index.js';
import { join } from 'node:path';
import { readProcFile } from './read-proc-file.js';
import { parseNetDev } from './proc-parsers.js';

export interface InterfaceCandidate {
  readonly name: string;
  readonly is_up: boolean;
  readonly loopback: boolean;
  readonly speed_mbps: number | null;
  readonly mtu: number | null;
  readonly rx_bytes: number;
  readonly tx_bytes: number;
}

function numberIn(path: string): number | null {
  const value = Number.parseInt(readProcFile(path)?.trim() ?? '', 10);
  return Number.isFinite(value) ? value : null;
}

/** State, loopback flag, speed and MTU of one interface from /sys/class/net. */
export function linkInfo(
  name: string,
  sysNetRoot = '/sys/class/net',
): Pick<InterfaceCandidate, 'is_up' | 'loopback' | 'speed_mbps' | 'mtu'> {
  const dir = join(sysNetRoot, name);
  const state = readProcFile(join(dir, 'operstate'))?.trim() ?? 'unknown';
  const flags = Number.parseInt(readProcFile(join(dir, 'flags'))?.trim() ?? '0', 16);
  const speed = numberIn(join(dir, 'speed'));
  return {
    // Loopback and some virtual links report "unknown" while carrying traffic: IFF_UP decides.
    is_up: state === 'up' || (state === 'unknown' && (flags & 0x1) === 1),
    loopback: name === 'lo' || (flags & 0x8) === 0x8,
    speed_mbps: speed !== null && speed > 0 ? speed : null,
    mtu: numberIn(join(dir, 'mtu')),
  };
}

export function interfaceCandidates(
  procRoot = '/proc',
  sysNetRoot = '/sys/class/net',
): InterfaceCandidate[] {
  const counters = parseNetDev(readProcFile(join(procRoot, 'net', 'dev')) ?? '');
  return [...counters.entries()]
    .map(([name, counter]) => ({
      name,
      ...linkInfo(name, sysNetRoot),
      rx_bytes: counter.rxBytes,
      tx_bytes: counter.txBytes,
    }))
    .sort((a, b) => compareText(a.name, b.name));
}
