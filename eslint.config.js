// ESLint flat config, after Payload's conventions (@payloadcms/eslint-config):
// typescript-eslint's recommended rules, react-hooks on the admin's .tsx
// components, unused names allowed only when they start with an underscore.
// Formatting is Prettier's job (.prettierrc.json), so no stylistic rules here.
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * Policy on the endpoint, format in the serializer (issue 28): an endpoint declares its `security` and its
 * `cache` and the pipeline enforces both (hydra/pipeline/invoke.ts, hydra/security.ts); a handler returns data
 * and the serializer adds `@context`, `@id` and `@type` (hydra/serializer.ts). test/hydra/policyRules.test.ts
 * shows each rule failing on a fixture.
 */
const CACHE_HEADER_SET = [
  {
    selector: 'Property[key.value=/^cache-control$/i]:not([value.type="ObjectExpression"])',
    message:
      "No Cache-Control header outside the pipeline: declare the endpoint's `cache` (or return the answer's own `cache`); the pipeline writes the header.",
  },
  {
    selector: 'CallExpression[callee.property.name=/^(set|append)$/][arguments.0.value=/^cache-control$/i]',
    message:
      "No Cache-Control header outside the pipeline: declare the endpoint's `cache` (or return the answer's own `cache`); the pipeline writes the header.",
  },
]
const ACCESS_REFUSAL = [
  {
    selector: 'NewExpression[callee.name="HttpError"]:matches([arguments.0.value=401], [arguments.0.value=403])',
    message:
      "No 401 or 403 built in a feature: declare the endpoint's `security`, or refuse through hydra/security.ts (denyAccessUnlessGranted, accessDenied) when the check depends on the record or the query.",
  },
]
const CONTEXT_LITERAL = {
  selector: "Literal[value='@context']",
  message:
    "No '@context' outside the format layer: return `output: { type, id?, data }` and let the serializer (hydra/serializer.ts) add @context, @id and @type.",
}
/** The pipeline normalizes (hydra/pipeline/format.ts): a feature returns a record, or embeds one (hydra/embedded.ts). */
const NORMALIZER_IMPORT = {
  group: ['**/hydra/normalizer.js', '**/hydra/item.js'],
  message:
    'No normalizer outside the pipeline: return `item: { resource, doc }` or `collection: { resource, page, paginated }`, or embed a record in a node with embedItem / embedCollection (hydra/embedded.ts); the pipeline normalizes it.',
}

export default defineConfig(
  globalIgnores([
    '**/node_modules/**',
    '**/dist/**',
    '**/.next/**',
    '.next-*/**',
    // The shims of the modules test files share (test/support/outerRealm), written at the start of a test run.
    '.jest-outer/**',
    '.data/**',
    'coverage/**',
    'scratch/**',
    'tmp/**',
    'test-results/**',
    '**/next-env.d.ts',
    '**/payload-types.ts',
    // Written by `payload generate:importmap` (the site's, and the fresh-app template's once installed).
    '**/app/(payload)/admin/importMap.js',
    // The app config `npx payload-cwa` bundles beside payload.config.ts while a command runs (gone after).
    '**/.payload-cwa-config-*',
    // Written by `payload migrate:create` (index.ts too); the few hand-written ones are @ts-nocheck SQL.
    'migrations/**',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // A `let` declared before the closures that read it and assigned once later (the server's app, payload)
      // would be in its temporal dead zone as a const when a request arrives during start-up.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Empty interfaces are the option registries features extend by declaration merging (core/options.ts).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'always' }],
      // Beyond the recommended sets: mistakes the type checker lets through (none in the code today).
      eqeqeq: ['error', 'smart'],
      'array-callback-return': 'error',
      'default-case-last': 'error',
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-throw-literal': 'error',
      'no-unreachable-loop': 'error',
      'no-var': 'error',
    },
  },
  {
    files: ['plugins/cwa/**', 'collections/**'],
    ignores: ['plugins/cwa/**/commands/**', 'plugins/cwa/scripts/**'],
    rules: {
      // The library logs through Payload's logger (its level, its format, the app's destination); the operator
      // commands and the build script write to the console on purpose.
      'no-console': 'error',
    },
  },
  {
    files: ['plugins/cwa/features/**'],
    rules: {
      'no-restricted-syntax': ['error', ...CACHE_HEADER_SET, ...ACCESS_REFUSAL, CONTEXT_LITERAL],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/hydra/errors.js'],
              importNames: ['unauthorized', 'forbidden'],
              message: ACCESS_REFUSAL[0].message,
            },
            NORMALIZER_IMPORT,
          ],
        },
      ],
    },
  },
  {
    // The session layer builds its own 401s (wrong credentials, a spent refresh token): no role check among them.
    files: ['plugins/cwa/session/**'],
    rules: {
      'no-restricted-syntax': ['error', ...CACHE_HEADER_SET],
      'no-restricted-imports': ['error', { patterns: [NORMALIZER_IMPORT] }],
    },
  },
  {
    // Small files (issue 38): a source file past 300 lines holds more than one role; split it. Tests are not held to it.
    ignores: ['test/**', 'scratch/**'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  {
    files: ['test/**', 'bench/**'],
    rules: {
      // Tests and the bench read JSON bodies of many shapes; typing each one would only restate the assertions.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      // The admin's components load from the API in an effect (there is no data library); this rule flags that pattern itself.
      'react-hooks/set-state-in-effect': 'off',
      // Payload's convention keeps it a warning; --max-warnings 0 makes it fail the run all the same.
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
)
