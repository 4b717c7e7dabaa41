import test from 'ava';
import { editConfigText } from '../../../core/config/jsonc-text.js';

test('an edit keeps comments, indentation and one-line arrays; new values follow the layout', (t) => {
  const text =
    '{\n    // my web\n    "web": {\n        "process_name": "Web",\n        "command": ["node", "a.js"],\n        "port": 80\n    },\n    "x": [1, 2]\n}\n';
  const edited = editConfigText(text, {
    web: { process_name: 'Web', command: ['node', 'b.js'], port: 81, env: { A: '1' } },
    x: [1, 2],
    added: { process_name: 'New', command: ['true'] },
  });
  t.is(
    edited,
    '{\n    // my web\n    "web": {\n        "process_name": "Web",\n        "command": ["node", "b.js"],\n        "port": 81,\n        "env": {\n            "A": "1"\n        }\n    },\n    "x": [1, 2],\n    "added": {\n        "process_name": "New",\n        "command": ["true"]\n    }\n}\n',
  );
});

test('a removed key goes; a one-line object gets a one-line value', (t) => {
  const text = '{\n  "a": {"process_name": "A", "port": 1},\n  "b": 2\n}\n';
  t.is(
    editConfigText(text, { a: { process_name: 'A', env: { K: 'v' } } }),
    '{\n  "a": {"process_name": "A", "env": {"K": "v"}}\n}\n',
  );
});
