// ESLint: a few rules, each chosen for a failure it prevents (Prettier owns formatting).
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';

const WORKFLOW_SOURCES = ['workflows/**/*.ts'];
const CONSOLE_SOURCES = ['apps/console/**/*.{ts,tsx}'];
const TESTS = ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-test/**',
      'node_modules/**',
      'test-artifacts/**',
      '.data/**',
      'packages/*/dist/**',
      'packages/sdk/src/schema.ts',
      '**/*.d.ts',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  {
    files: ['**/*.ts', ...CONSOLE_SOURCES],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      // A promise nobody awaits loses its error (an unhandled rejection kills the process) and its ordering.
      // (node:test's describe and it return promises the runner itself awaits.)
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
      // A promise where a boolean or a void callback is expected is always truthy, or its rejection is lost.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      // Type-only imports vanish from the output: no module is loaded for a type (workflow bundles stay small).
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Workflow code must replay deterministically: only the workflow SDK, the shared contracts and its own
    // files, no require and no dynamic import (workflows/workflow-imports.test.ts also bundles it).
    files: WORKFLOW_SOURCES,
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!(@temporalio/(workflow|common)|@pylon/contracts|\\./[\\w.-]+(/[\\w.-]+)?|\\.\\./[\\w.-]+)$)',
              message: 'workflow code imports only @temporalio/workflow, @temporalio/common, @pylon/contracts and its own files',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression', message: 'no dynamic import in workflow code' },
        { selector: "CallExpression[callee.name='require']", message: 'no require in workflow code' },
      ],
    },
  },
  {
    // The API's pipes sit on the parameters they check (there are no global pipes): a body or query read
    // through Nest's own decorators would go unvalidated.
    files: ['apps/api/**/*.ts'],
    ignores: [...TESTS, 'apps/api/common/json-body.ts', 'apps/api/common/query-params.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@nestjs/common',
              importNames: ['Body', 'Query'],
              message: 'use @JsonBody() (common/json-body) or @QueryParams() (common/query-params), which validate',
            },
          ],
        },
      ],
    },
  },
  {
    // The console (React): the rules of hooks and React Compiler's checks (react-hooks 7's recommended set:
    // effects, refs, purity, memoization, set-state in render or effect), every hook's dependencies named,
    // and jsx-a11y's recommended checks of labels, roles and keyboard use (axe-core checks the rendered pages).
    files: CONSOLE_SOURCES,
    ...reactHooks.configs.flat.recommended,
    rules: { ...reactHooks.configs.flat.recommended.rules, 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: CONSOLE_SOURCES,
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A region that scrolls (a wide table, the chat log) takes the focus so that the keyboard can scroll it
      // (axe-core's scrollable-region-focusable): tabIndex on a labelled role="region" or role="log" is allowed.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region', 'log'], allowExpressionValues: true }],
    },
  },
  prettier,
);
