/** The changed line region of a service-config dry run. */
import test from 'ava';
import { changedLines } from '../../../../plugins/onboarding/service-config/service-config-preview.js';

test('equal texts have no changed region', (t) => {
  t.deepEqual(changedLines('a\nb\n', 'a\nb\n'), {
    old_lines: 3,
    new_lines: 3,
    first_changed: null,
    last_changed: null,
  });
});

test('a change in the middle is the span between the equal head and tail', (t) => {
  t.like(changedLines('a\nb\nc\nd\n', 'a\nB\nC\nd\n'), { first_changed: 2, last_changed: 3 });
});

test('lines added at the end, and lines only removed', (t) => {
  t.like(changedLines('a\n', 'a\nb\nc\n'), { first_changed: 2, last_changed: 3 });
  t.like(changedLines('a\nb\nc\n', 'a\nc\n'), { first_changed: 2, last_changed: null });
});

test('CRLF and LF texts with the same lines are equal; an empty old file is all new', (t) => {
  t.like(changedLines('a\r\nb\r\n', 'a\nb\n'), { first_changed: null });
  t.like(changedLines('', 'x\ny'), {
    old_lines: 0,
    new_lines: 2,
    first_changed: 1,
    last_changed: 2,
  });
});
