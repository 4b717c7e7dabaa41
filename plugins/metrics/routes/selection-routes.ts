/**
 * GET /metrics/filesystems and /metrics/network-interfaces: what a user can choose to monitor
 * (`filesystem_paths`, `network_interfaces`), as DUMB's Metrics settings list them.
 */
import { Nullable, Type, defineRoute } from '../../../sdk/index.js';
import type { MetricsFeedService } from '../metrics-feed-service.js';
import { interfaceCandidates } from '../system/interface-candidates.js';
import { mountCandidates } from '../system/mount-candidates.js';

const MountCandidate = Type.Object({
  path: Type.String({
    description: 'Mount point, as this process sees it (inside a container: the container path)',
  }),
  fs_type: Type.String(),
  source: Type.String({ description: 'Device or source of the mount' }),
  total_bytes: Nullable(Type.Number()),
  used_bytes: Nullable(Type.Number()),
  free_bytes: Nullable(Type.Number()),
  percent: Nullable(Type.Number({ description: 'Space used, as df computes it' })),
  inode_percent: Nullable(Type.Number()),
});

const InterfaceCandidate = Type.Object({
  name: Type.String(),
  is_up: Type.Boolean(),
  loopback: Type.Boolean({ description: 'Not counted by "all"' }),
  speed_mbps: Nullable(Type.Number()),
  mtu: Nullable(Type.Number()),
  rx_bytes: Type.Number(),
  tx_bytes: Type.Number(),
});

export function filesystemCandidatesRoute(feed: MetricsFeedService) {
  return defineRoute({
    method: 'GET',
    path: '/metrics/filesystems',
    summary: 'Mounted filesystems that can be monitored, and the paths monitored now',
    description:
      'Kernel pseudo filesystems, mounts under /proc, /sys, /dev and /run and single-file bind ' +
      'mounts are left out. `selected` includes the data dir, which is always monitored.',
    tags: ['metrics'],
    schema: {
      response: Type.Object({
        candidates: Type.Array(MountCandidate),
        selected: Type.Array(Type.String()),
      }),
    },
    handler: async () => ({
      candidates: await mountCandidates(),
      selected: [...feed.filesystemPaths()],
    }),
  });
}

export function interfaceCandidatesRoute(selected: () => readonly string[]) {
  return defineRoute({
    method: 'GET',
    path: '/metrics/network-interfaces',
    summary: 'Network interfaces that can be monitored, and the selection now',
    description: '`selected` is `["all"]` (every interface but loopback) or the chosen names.',
    tags: ['metrics'],
    schema: {
      response: Type.Object({
        candidates: Type.Array(InterfaceCandidate),
        selected: Type.Array(Type.String()),
      }),
    },
    handler: () => ({ candidates: interfaceCandidates(), selected: [...selected()] }),
  });
}
