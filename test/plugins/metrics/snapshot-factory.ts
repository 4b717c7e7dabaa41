/** Snapshots with chosen values, for history and series tests. */
import type { MetricsSnapshotView } from '../../../sdk/contracts/metrics-feed.js';

export interface SnapshotValues {
  readonly cpu?: number;
  readonly diskRead?: number;
  readonly rx?: number;
  readonly diskPercent?: number;
  readonly processes?: Readonly<Record<string, { cpu: number; rss: number }>>;
}

/** A complete snapshot at `ms` (epoch milliseconds). */
export function snapshotAt(ms: number, values: SnapshotValues = {}): MetricsSnapshotView {
  const rx = values.rx ?? 0;
  return {
    timestamp: new Date(ms).toISOString(),
    system: {
      scope: 'host',
      cpu_percent: values.cpu ?? 10,
      cpu_count: 2,
      load_avg: [0.5, 0.4, 0.3],
      memory: { total_bytes: 1000, used_bytes: 400, available_bytes: 600, percent: 40 },
      swap: { total_bytes: 0, used_bytes: 0, percent: 0 },
      filesystems: [
        {
          path: '/data',
          available: true,
          total_bytes: 100,
          used_bytes: values.diskPercent ?? 45,
          free_bytes: 100 - (values.diskPercent ?? 45),
          percent: values.diskPercent ?? 45,
          inodes_total: 10,
          inodes_used: 1,
          inodes_free: 9,
          inode_percent: 10,
        },
      ],
      disk_io: {
        read_bytes: values.diskRead ?? 0,
        write_bytes: 0,
        read_count: 0,
        write_count: 0,
        read_bytes_per_sec: null,
        write_bytes_per_sec: null,
      },
      network: {
        rx_bytes: rx,
        tx_bytes: 0,
        rx_packets: 0,
        tx_packets: 0,
        rx_errors: 0,
        tx_errors: 0,
        rx_dropped: 0,
        tx_dropped: 0,
        rx_bytes_per_sec: null,
        tx_bytes_per_sec: null,
        interfaces: [
          {
            name: 'eth0',
            available: true,
            rx_bytes: rx,
            tx_bytes: 0,
            rx_packets: 0,
            tx_packets: 0,
            rx_errors: 0,
            tx_errors: 0,
            rx_dropped: 0,
            tx_dropped: 0,
            rx_bytes_per_sec: null,
            tx_bytes_per_sec: null,
          },
        ],
      },
      uptime_sec: 100,
    },
    processes: Object.fromEntries(
      Object.entries(values.processes ?? {}).map(([name, usage]) => [
        name,
        {
          process_name: name,
          status: 'running',
          pid: 42,
          pid_count: 2,
          cpu_percent: usage.cpu,
          rss_bytes: usage.rss,
          uptime_sec: 5,
          restarts: 0,
        },
      ]),
    ),
  };
}
