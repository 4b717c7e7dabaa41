/** Each destination kind's payload convention. */
import test from 'ava';
import { PAYLOADS } from '../../../../plugins/notifications/delivery/payloads/index.js';

test('payloads follow each receiver convention', (t) => {
  const message = {
    event_id: 'e',
    event_type: 'manual',
    severity: 'critical',
    title: 'Tïtle',
    body: 'Body',
    service_name: 'Web',
    timestamp: 1,
  };
  const discord = JSON.parse(PAYLOADS.discord('https://d/x', message).body);
  t.is(discord.embeds[0].title, 'Tïtle');
  t.is(discord.embeds[0].color, 0xe74c3c);
  const ntfy = PAYLOADS.ntfy('https://ntfy.sh/topic', message);
  t.is(ntfy.body, 'Body');
  t.is(ntfy.headers.priority, '5');
  t.regex(ntfy.headers.title ?? '', /^=\?UTF-8\?B\?/);
  t.like(JSON.parse(PAYLOADS.apprise('http://a/notify/k', message).body), {
    type: 'failure',
    title: 'Tïtle',
  });
  t.like(JSON.parse(PAYLOADS.webhook('http://w', message).body), {
    source: 'stackd',
    severity: 'critical',
  });
});
