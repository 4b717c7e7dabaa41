/**
 * GET /metrics/filesystems and /metrics/network-interfaces: what a user can choose to monitor
 * (`filesystem_paths`, `network_interfaces`), as DUMB's Metrics settings list them.
 */
import { defineRoute } from '../../../sdk/index.js';
import type { MetricsFeedService } from '../metrics-feed-service.js';
import { interfaceCandidates } from '../system/interface-candidates.js';
import { mountCandidates } from '../system/mount-candidates.js';
import { FilesystemCandidates, InterfaceCandidates } from '../schemas.js';

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
      response: FilesystemCandidates,
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
      response: InterfaceCandidates,
    },
    handler: () => ({ candidates: interfaceCandidates(), selected: [...selected()] }),
  });
}
