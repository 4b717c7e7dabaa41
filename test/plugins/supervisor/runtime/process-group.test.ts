/** Asking the kernel whether a pid exists, and whose it is. */
import test from 'ava';
import { pidPresence } from '../../../../plugins/supervisor/runtime/process-group.js';

test('pidPresence: this process is ours, init is not ours to signal unless root, a pid nobody has is gone', (t) => {
  t.is(pidPresence(process.pid), 'ours');
  t.is(pidPresence(1), process.getuid?.() === 0 ? 'ours' : 'foreign');
  // Above the largest pid_max Linux allows (2^22): never a process.
  t.is(pidPresence(4_194_304 + 12_345), 'gone');
});
