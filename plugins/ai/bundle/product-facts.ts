/**
 * What stackd is, stated once: every bundle carries it, and a question about stackd's identity
 * gets this answer whatever the provider says (a provider knows nothing true about stackd, so it must not answer this).
 */
export const PRODUCT_FACTS = {
  name: 'stackd',
  description:
    'A self-hosted process supervisor for media stacks: it runs the processes of one JSON configuration, with a REST and WebSocket API, plugins for auth, dependency graph, symlink repair, request sync, notifications and AI diagnostics.',
  do_not_describe_as: ['a container runtime', 'a media server', 'a downloader'],
} as const;

const IDENTITY = /\bstackd\b/i;
const ASKS_WHAT = /\b(what is|what's|stand for|stands for|define|meaning|full name)\b/i;

/** True for a question asking what stackd is. */
export function isIdentityQuestion(question: string): boolean {
  return IDENTITY.test(question) && ASKS_WHAT.test(question);
}

export const IDENTITY_ANSWER = [
  '## Direct Answer',
  '',
  `stackd is ${PRODUCT_FACTS.description.charAt(0).toLowerCase()}${PRODUCT_FACTS.description.slice(1)}`,
  '',
  '## Why',
  '',
  "This is stackd's own product description; it is not a container runtime, a media server or a downloader.",
].join('\n');
