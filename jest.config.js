/** Jest (ESM + swc). Each test file starts its own Payload on its own database (see test/support). */

/**
 * The modules every file shares (Payload, Lexical, the package, the site, the server helpers) load once per worker,
 * natively, in the worker's own realm (test/support/outerRealm), instead of once per file in its sandbox: warm code
 * for every file after the first, a third less time for the database tier. It needs Node's `production` condition in
 * the workers (npm test starts jest with it): under the default `node` condition Lexical resolves to wrappers whose
 * top-level `await import()` Node 20's loader can lose, which left a worker waiting forever (about one short run in
 * four). Without the condition (jest started by hand), or with CWA_TEST_SHARED_MODULES=0, every file loads its own.
 */
const productionCondition = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((flag) =>
  /^(--conditions|-C)=?production$/.test(flag),
)
const sharedModules = process.env.CWA_TEST_SHARED_MODULES !== '0' && productionCondition
// Read by the global setup (test/support/globalSetup.ts), which writes the shims, and by the workers.
process.env.CWA_TEST_SHARED_MODULES = sharedModules ? '1' : '0'

export default {
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
  // Three on the 2-core machine: a file waits on PostgreSQL, its timers and the processes it starts for part of its
  // time, which a third worker fills (measured on 24 database-tier files: 83 s with two workers, 67 to 75 s with three).
  // A fourth does not pay: a fresh clone's whole suite took 763 s with four against 726 s with three (2026-12-06).
  maxWorkers: 3,
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
