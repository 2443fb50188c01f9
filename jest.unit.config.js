/**
 * The database-free tier (`npm run test:unit`): the `*.unit.test.ts` files, which test pure logic and start no
 * Payload, no server and no database. Everything as in jest.config.js but the test preparation (a migrated template
 * database, test/support/globalSetup.ts), which is all the other files need PostgreSQL for.
 */
import base from './jest.config.js'

export default {
  ...base,
  testMatch: ['<rootDir>/test/**/*.unit.test.ts'],
  globalSetup: undefined,
  // Pure logic: no modules worth sharing across files (jest.config.js), so no shims to write first.
  testEnvironment: 'node',
  resolver: undefined,
}
