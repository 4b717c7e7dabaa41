/** `GET /ai/presets`: prompt presets grouped under service and stack. */
import { defineRoute } from '../../../sdk/index.js';
import { PresetsResponse } from '../schemas.js';

const PRESETS = {
  service: [
    {
      id: 'why_failing',
      label: 'Why is it failing?',
      question: 'Why is this service failing or restarting, and what should I check first?',
    },
    {
      id: 'slow',
      label: 'Why is it slow?',
      question: 'Why is this service slow or using many resources?',
    },
    {
      id: 'recent_change',
      label: 'Did a change break it?',
      question: 'Did a recent configuration change cause this problem?',
    },
  ],
  stack: [
    {
      id: 'health',
      label: 'Stack health',
      question: 'Summarise the health of the stack and the most urgent problem.',
    },
    {
      id: 'dependencies',
      label: 'Dependency problems',
      question: 'Which dependency problems keep services from starting?',
    },
  ],
};

export function presetsRoute() {
  return defineRoute({
    method: 'GET',
    path: '/ai/presets',
    summary: 'Prompt presets grouped under service and stack',
    tags: ['ai'],
    schema: { response: PresetsResponse },
    handler: () => PRESETS,
  });
}
