/** Jest (ESM + swc). Each test file starts its own Payload on its own database (see test/support). */
export default {
  testEnvironment: 'node',
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
  // The library's front door, as a Payload app imports it (tsconfig paths say the same to tsc, esbuild and Next).
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1', '^payload-cwa$': '<rootDir>/plugins/cwa/index.ts', '^payload-cwa/admin$': '<rootDir>/plugins/cwa/admin.ts' },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/globalSetup.ts',
  // Which files start first: test/support/sequencer.mjs.
  testSequencer: '<rootDir>/test/support/sequencer.mjs',
  // The rich-text editor, loaded before the first test of each file (see the file).
  setupFilesAfterEnv: ['<rootDir>/test/support/preloadEditor.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
  watchPathIgnorePatterns: ['<rootDir>/.data/', '<rootDir>/.next/'],
  modulePathIgnorePatterns: ['<rootDir>/.next/', '<rootDir>/scratch/'],
}
