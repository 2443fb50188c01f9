/** Jest (ESM + swc). Each test file starts its own Payload on its own database (see test/support). */
const sharedModules = process.env.CWA_TEST_SHARED_MODULES === '1'

export default {
  // CWA_TEST_SHARED_MODULES=1: the worker's own realm holds the modules every file shares, loaded once per worker
  // (test/support/outerRealm). Off by default: two short runs of two workers hung at a file's start (not reproduced
  // since, cause unknown; see docs/operations.md).
  ...(sharedModules
    ? {
        testEnvironment: '<rootDir>/test/support/outerRealm/environment.mjs',
        resolver: '<rootDir>/test/support/outerRealm/resolver.cjs',
      }
    : { testEnvironment: 'node' }),
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022' },
        module: { type: 'es6' },
      },
    ],
  },
  // The library is the workspace package `payload-cwa` (plugins/cwa), imported compiled from plugins/cwa/dist as
  // any app imports it (npm test builds it first); tests reach its internals in dist/ too, so one copy is loaded.
  transformIgnorePatterns: ['/node_modules/', '/plugins/cwa/dist/'],
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/globalSetup.ts',
  // Which files start first: test/support/sequencer.mjs.
  testSequencer: '<rootDir>/test/support/sequencer.mjs',
  // The rich-text editor, loaded before the first test of each file (see the file).
  setupFilesAfterEnv: ['<rootDir>/test/support/preloadEditor.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
  // Each test file leaves some 30 MB behind in its worker (measured with jest --logHeapUsage and --expose-gc); over
  // 90 files a worker reached 4 GB and spent the second half of the suite collecting garbage (CI's jest took 41 min
  // instead of 22). A worker past this after a file is replaced by a fresh one.
  workerIdleMemoryLimit: '1200MB',
  watchPathIgnorePatterns: ['<rootDir>/.data/', '<rootDir>/.next/'],
  // Copies of the package elsewhere in the tree (a packed one, the fresh-app example's) would be a second 'payload-cwa'.
  modulePathIgnorePatterns: [
    '<rootDir>/.next/',
    '<rootDir>/scratch/',
    '<rootDir>/.data/',
    '<rootDir>/examples/fresh-app/',
  ],
}
