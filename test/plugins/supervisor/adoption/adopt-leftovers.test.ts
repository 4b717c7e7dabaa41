/** The fingerprint a launch record keeps of its process's block. */
import test from 'ava';
import { blockFingerprint } from '../../../../plugins/supervisor/adoption/adopt-leftovers.js';

const block = {
  enabled: true,
  process_name: 'Web',
  command: ['node', 'server.js'],
  env: { PORT: '8080' },
};

test('the fingerprint is the first half of the SHA-256 hex of the block without `enabled`, as records of earlier builds carry it', (t) => {
  // sha256('{"process_name":"Web","command":["node","server.js"],"env":{"PORT":"8080"}}'), cut to 32
  t.is(blockFingerprint(block), '6f4333fd0a0d8c29a4f1b62091d6fc42');
  t.is(blockFingerprint({ ...block, enabled: false }), blockFingerprint(block));
  t.not(blockFingerprint({ ...block, command: ['node', 'other.js'] }), blockFingerprint(block));
});
