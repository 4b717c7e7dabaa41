/**
 * The snapshot as served over HTTP and /ws/metrics. The API contract leaves its format open, so it follows (docs/decisions.md §27)
 * what DUMB's dashboard reads (docs/decisions.md §27): `timestamp` in epoch seconds, `system.mem`,
 * `system.disk`/`inode` (the first filesystem), `net_io`, `network_interfaces`, and the
 * supervised processes as `dumb_managed[]`. stackd's own fields (`system.memory`,
 * `filesystems[].total_bytes`, `network`, `processes` keyed by name, `taken_at`) stay beside them.
 */
import { Nullable, Type, type Static } from '../../../sdk/index.js';
import {
  FilesystemMetrics,
  NetworkInterfaceMetrics,
  ProcessMetrics,
  SystemMetrics,
  type MetricsSnapshotView,
} from '../../../sdk/contracts/metrics-feed.js';

const Num = Nullable(Type.Number());

const DashboardFilesystem = Type.Object({
  ...FilesystemMetrics.properties,
  mount_point: Type.String({ description: 'The mount holding the configured path' }),
  fs_type: Nullable(Type.String()),
  total: Num,
  used: Num,
  free: Num,
  inode: Type.Object({ total: Num, used: Num, free: Num, percent: Num, path: Type.String() }),
});

const DashboardInterface = Type.Object({
  ...NetworkInterfaceMetrics.properties,
  is_up: Nullable(Type.Boolean()),
  sent_bytes: Type.Number(),
  recv_bytes: Type.Number(),
});

const NetIo = Type.Object({
  sent_bytes: Type.Number(),
  recv_bytes: Type.Number(),
  sent_packets: Type.Number(),
  recv_packets: Type.Number(),
  errors_in: Type.Number(),
  errors_out: Type.Number(),
  drops_in: Type.Number(),
  drops_out: Type.Number(),
});

export const DashboardSystem = Type.Object({
  ...SystemMetrics.properties,
  filesystems: Type.Array(DashboardFilesystem),
  mem: Type.Object({ total: Type.Number(), used: Type.Number(), percent: Type.Number() }),
  swap: Type.Object({
    ...SystemMetrics.properties.swap.properties,
    total: Type.Number(),
    used: Type.Number(),
  }),
  disk: Nullable(DashboardFilesystem),
  inode: Nullable(DashboardFilesystem.properties.inode),
  net_io: Nullable(NetIo),
  network_interfaces: Type.Array(DashboardInterface),
  boot_time: Type.Number({ description: 'Epoch seconds' }),
  container_start_time: Type.Null(),
});

export const ManagedProcess = Type.Object({
  name: Type.String({ description: 'The process name' }),
  pid: Nullable(Type.Integer()),
  status: Type.String(),
  cpu_percent: Type.Number(),
  rss: Type.Number({ description: 'Resident bytes of the process tree' }),
  threads: Type.Null({ description: 'Not collected' }),
  disk_io: Type.Null({ description: 'Not collected' }),
  start_time: Nullable(Type.Number({ description: 'Epoch seconds of the last start' })),
});

export const DashboardSnapshot = Type.Object({
  timestamp: Type.Number({ description: 'Epoch seconds of the sample' }),
  taken_at: Type.String({ format: 'date-time', description: 'The same instant, ISO 8601 UTC' }),
  system: Nullable(DashboardSystem),
  processes: Type.Record(Type.String(), ProcessMetrics, {
    description: 'Supervised processes keyed by process_name',
  }),
  dumb_managed: Type.Array(ManagedProcess, { description: 'The same processes, as a list' }),
  external: Type.Array(ManagedProcess, { description: 'Other processes: not collected (empty)' }),
});
export type DashboardSnapshot = Static<typeof DashboardSnapshot>;

type View = NonNullable<MetricsSnapshotView['system']>;
type Filesystem = View['filesystems'][number];

function filesystem(fs: Filesystem) {
  return {
    ...fs,
    mount_point: fs.mount_point ?? fs.path,
    fs_type: fs.fs_type ?? null,
    total: fs.total_bytes,
    used: fs.used_bytes,
    free: fs.free_bytes,
    inode: {
      total: fs.inodes_total,
      used: fs.inodes_used,
      free: fs.inodes_free,
      percent: fs.inode_percent,
      path: fs.path,
    },
  };
}

function system(view: View, epochSec: number) {
  const filesystems = view.filesystems.map(filesystem);
  const first = filesystems[0] ?? null;
  const network = view.network;
  return {
    ...view,
    filesystems,
    mem: {
      total: view.memory.total_bytes,
      used: view.memory.used_bytes,
      percent: view.memory.percent,
    },
    swap: { ...view.swap, total: view.swap.total_bytes, used: view.swap.used_bytes },
    disk: first,
    inode: first?.inode ?? null,
    net_io:
      network === null
        ? null
        : {
            sent_bytes: network.tx_bytes,
            recv_bytes: network.rx_bytes,
            sent_packets: network.tx_packets,
            recv_packets: network.rx_packets,
            errors_in: network.rx_errors,
            errors_out: network.tx_errors,
            drops_in: network.rx_dropped,
            drops_out: network.tx_dropped,
          },
    network_interfaces: (network?.interfaces ?? []).map((entry) => ({
      ...entry,
      is_up: entry.is_up ?? entry.available,
      sent_bytes: entry.tx_bytes,
      recv_bytes: entry.rx_bytes,
    })),
    boot_time: Math.round(epochSec - view.uptime_sec),
    container_start_time: null,
  };
}

/** The wire snapshot of one feed snapshot. */
export function toDashboardSnapshot(view: MetricsSnapshotView): DashboardSnapshot {
  const epochSec = Date.parse(view.timestamp) / 1000;
  const managed = Object.values(view.processes).map((process) => ({
    name: process.process_name,
    pid: process.pid,
    status: process.status,
    cpu_percent: process.cpu_percent,
    rss: process.rss_bytes,
    threads: null,
    disk_io: null,
    start_time: process.uptime_sec === null ? null : Math.round(epochSec - process.uptime_sec),
  }));
  return {
    timestamp: epochSec,
    taken_at: view.timestamp,
    system: view.system === null ? null : system(view.system, epochSec),
    processes: view.processes,
    dumb_managed: managed,
    external: [],
  };
}
