// ESLint flat config: typescript-eslint's type-aware rules over the TypeScript of src/, test/,
// bench/ and scripts/, plain JavaScript rules over the .mjs/.js scripts, and the local layering
// rules (eslint-rules/layering.js) that enforce docs/design.md §1.3 on src/.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layering from './eslint-rules/layering.js';

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'bench/out/**', 'test/cluster/.work/**', 'test/cluster/k8s-bins/**'],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's test() and describe() return promises the runner awaits itself.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', name: ['test', 'describe', 'it', 'suite'], package: 'node:test' },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // An async function without await still returns a promise, which is what its callers
      // (node:test, the loaders' interfaces) expect: not a bug.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
    rules: { 'no-unused-vars': ['error', { caughtErrors: 'none', ignoreRestSiblings: true }] },
  },
  {
    // Tests read the CLI's JSON output and API bodies through JSON.parse (typed any); the fixture
    // generators (scripts/make-*.ts, scripts/lib/fixtures.ts) assemble API objects field by field
    // as loose JSON (`Json`) before the typed builders of test/kube/ check them.
    files: ['test/**/*.ts', 'test/**/*.mts', 'scripts/make-*.ts', 'scripts/lib/fixtures.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The benchmark's generator reads back string fields of objects it built itself
    // (Record<string, unknown>), so String() of them is never '[object Object]'.
    files: ['bench/generate.ts'],
    rules: { '@typescript-eslint/no-base-to-string': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { layering },
    rules: {
      'layering/allowed-imports': 'error',
      'layering/no-cycle': 'error',
    },
  },
);
