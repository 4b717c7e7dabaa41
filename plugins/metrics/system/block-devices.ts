/** Which block devices count for disk IO: whole physical disks, each counted once. */
import { readdir } from 'node:fs/promises';

/**
 * Loop and RAM disks are not real IO; device-mapper (LVM, LUKS) and md RAID volumes sit on top of
 * disks whose IO is already counted; optical drives and zram swap are noise.
 */
const NOT_COUNTED = /^(loop|ram|zram|dm-|md|sr|fd)/;

/** Keep the names of whole physical disks. */
export function countedDisks(names: readonly string[]): Set<string> {
  return new Set(names.filter((name) => !NOT_COUNTED.test(name)));
}

/** Disks listed in /sys/block (partitions are not listed there), or empty when unavailable. */
export async function listCountedDisks(sysBlock = '/sys/block'): Promise<Set<string>> {
  try {
    return countedDisks(await readdir(sysBlock));
  } catch {
    return new Set();
  }
}
