// @ts-check
import { dirname, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Plugins see the world only through the sdk: a relative import from plugins/<a>/ may not
 * resolve into another plugin's folder, core/ or host/. Checked on the resolved path, so
 * `../../other/x.js` is caught however deep the importing file sits.
 */
const boundaries = {
  rules: {
    'plugin-imports': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const root = import.meta.dirname;
        const [area, owner] = relative(root, context.filename).split(sep);
        if (area !== 'plugins') return {};
        const check = (node) => {
          const spec = node.source?.value;
          if (typeof spec !== 'string' || !spec.startsWith('.')) return;
          const [targetArea, targetPlugin] = relative(
            root,
            resolve(dirname(context.filename), spec),
          ).split(sep);
          const crossesPlugin = targetArea === 'plugins' && targetPlugin !== owner;
          if (crossesPlugin || targetArea === 'core' || targetArea === 'host')
            context.report({
              node: node.source,
              message: `plugin '${owner}' imports ${spec}: plugins import only from sdk/ (use a service contract in sdk/contracts for another plugin).`,
            });
        };
        return {
          ImportDeclaration: check,
          ExportAllDeclaration: check,
          ExportNamedDeclaration: check,
        };
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      '*.config.js',
      '**/*.mjs',
      'examples/*/dist/**',
      'examples/*/node_modules/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './examples/hello-plugin/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Plugins see the world only through the sdk.
    files: ['plugins/**/*.ts'],
    plugins: { boundaries },
    rules: {
      'boundaries/plugin-imports': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/core/**', '**/host/**'], message: 'Plugins import only from sdk/.' },
            { group: ['uWebSockets.js'], message: 'uWS lives in core/http and core/ws only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['sdk/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/core/**', '**/host/**', '**/plugins/**'],
              message: 'The sdk stands alone.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['core/**/*.ts', 'host/**/*.ts'],
    ignores: ['core/http/**', 'core/ws/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'uWebSockets.js', message: 'uWS lives in core/http and core/ws only.' }],
        },
      ],
    },
  },
  {
    // The terminal client loads only what a command needs: no host, no uWS, plugins for types only.
    files: ['cli/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'uWebSockets.js', message: 'The client never loads uWS.' }],
          patterns: [
            { group: ['**/host/**'], message: 'The client never loads the host.' },
            {
              group: ['**/plugins/**', '**/sdk/**'],
              allowTypeImports: true,
              message: 'The client imports plugin and sdk code for types only.',
            },
          ],
        },
      ],
    },
  },
  {
    // An example is a separate package: stackd reaches it only as the published `stackd/sdk`.
    files: ['examples/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../*', '**/sdk/*.js'], message: "Import the sdk as 'stackd/sdk'." },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
