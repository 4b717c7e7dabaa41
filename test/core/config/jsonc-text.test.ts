import test from 'ava';
import { parse } from 'jsonc-parser';
import { editConfigText, parseConfigText } from '../../../core/config/jsonc-text.js';

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

test('plain JSON, JSONC and __proto__ keys parse as the JSONC parser reads them', (t) => {
  const jsonc = (text: string): unknown => parse(text, [], { allowTrailingComma: true });
  const texts = [
    '{"a": {"process_name": "A", "command": ["node", "-e", "1"], "port": 80, "x": null}}',
    '{"a": 1, "a": 2, "n": -0.5e3, "s": "tab\\tquote\\" slash\\/"}',
    '{\n  // a comment\n  "a": [1, 2,],\n}\n',
    '{"__proto__": {"polluted": true}, "b": 1}',
    '{"\\u005f_proto__": {"polluted": true}, "c": "\\u00e9"}',
  ];
  for (const text of texts) {
    const parsed = parseConfigText(text, 'stackd.json');
    t.deepEqual(parsed, jsonc(text), text);
    t.deepEqual(Object.getPrototypeOf(parsed), Object.getPrototypeOf(jsonc(text)), text);
  }
  t.throws(() => parseConfigText('[1, 2]', 'stackd.json'), {
    message: /must hold one JSON object/,
  });
  t.throws(() => parseConfigText('{"a": }', 'stackd.json'), {
    message: /JSON syntax error in stackd\.json:1:7/,
  });
});
