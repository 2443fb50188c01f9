/**
 * React for the tests that render the kit (test/client/react.test.ts), through a shared helper: the worker's own
 * React, the one payload-cwa/react uses (one copy: its hooks need it). A test file importing `react` itself would
 * make `react` a shared package for every file of the worker (outerRealm/manifest.ts), and React's CommonJS
 * files that a file's own JSX loads in its sandbox cannot require a shared ES module.
 */
export { createElement } from 'react'
export { renderToStaticMarkup } from 'react-dom/server'
