/** Space and inode usage of the configured paths via statfs(2): no `df` child process. */
import { statfs } from 'node:fs/promises';
import type { FilesystemMetrics } from '../../../sdk/contracts/metrics-feed.js';

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** Usage of the filesystem holding `path`; `available: false` when it cannot be read. */
export async function filesystemUsage(path: string): Promise<FilesystemMetrics> {
  try {
    const stats = await statfs(path);
    const used = (stats.blocks - stats.bfree) * stats.bsize;
    const free = stats.bavail * stats.bsize;
    const inodesUsed = stats.files - stats.ffree;
    // Percent as df computes it: reserved root blocks are neither used nor available.
    return {
      path,
      available: true,
      total_bytes: stats.blocks * stats.bsize,
      used_bytes: used,
      free_bytes: free,
      percent: used + free > 0 ? round2((used / (used + free)) * 100) : 0,
      // Some filesystems (btrfs, FAT, many FUSE mounts) report no inode counts.
      inodes_total: stats.files > 0 ? stats.files : null,
      inodes_used: stats.files > 0 ? inodesUsed : null,
      inodes_free: stats.files > 0 ? stats.ffree : null,
      inode_percent: stats.files > 0 ? round2((inodesUsed / stats.files) * 100) : null,
    };
  } catch {
    return {
      path,
      available: false,
      total_bytes: null,
      used_bytes: null,
      free_bytes: null,
      percent: null,
      inodes_total: null,
      inodes_used: null,
      inodes_free: null,
      inode_percent: null,
    };
  }
}
