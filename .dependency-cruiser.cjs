/**
 * Import boundaries (issue 9): `npm run check:boundaries`, run by `.ci/run`.
 *
 * The library (plugins/cwa) is a stack of layers that import downward only:
 *
 *   commands/                         the operator commands' assembly: their list, Payload's bin entry, the runner
 *   plugin.ts, features.ts,           assembly and front door (may import all of plugins/cwa; of commands/, only
 *   options.ts, index.ts, admin.ts    its list)
 *   server/                           serves the API (Express / Fetch adapters)
 *   features/<feature>/               one folder per feature: its index.ts is what other features import (its
 *                                     public.ts and admin/ are the front door's: index.ts, admin.ts)
 *   session/                          cookies, JWTs, refresh tokens
 *   hydra/                            feature-blind JSON-LD layer, router, OpenAPI builder
 *   core/                             collections, fields, access, utilities, the commands' kit (core/commands/)
 *
 *   client/                           beside the stack: payload-cwa/client, the API's client for browsers and edge
 *                                     runtimes, imports nothing but its own files (no Payload, no Node built-in)
 *   react/                            payload-cwa/react: imports the client and React only

 * Each command is its feature's (features/<f>/commands/, declared in its commands/index.ts with a lazy `load`);
 * the core's own (jobs:work, make:*) are in core/commands/.
 *
 * The reference site (src/, collections/, payload.config.ts, app/, examples/,
 * bench/) sits on top of the library; the library never imports it.
 * Tests (test/) may import anything and are not cruised.
 *
 * Type-only imports count (tsPreCompilationDeps), so `import type` across a
 * boundary is reported like any other import.
 */

const CWA = '^plugins/cwa/'
const FRONT_DOOR = '^plugins/cwa/(plugin|features|options|index|admin|next|express|types|content|client|react)\\.ts$'
const SITE = '^(src|collections|app|migrations|examples|bench)/|^payload\\.config\\.ts$'

/** Everything in the library at the layers above `layer` (layer names from the top down). */
const LAYERS = ['server', 'features', 'session', 'hydra', 'core']
const above = (layer) => LAYERS.slice(0, LAYERS.indexOf(layer))

const layerRule = (layer) => ({
  name: `layer-${layer}`,
  severity: 'error',
  comment:
    `plugins/cwa/${layer} imports downward only (server -> features -> session -> hydra -> core); ` +
    `it may not import ${above(layer).join(', ') || '(nothing above)'} or the front door (plugin.ts, features.ts, options.ts, index.ts, admin.ts).`,
  from: { path: `${CWA}${layer}/` },
  to: {
    path: [...above(layer).map((upper) => `${CWA}${upper}/`), FRONT_DOOR],
  },
})

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...LAYERS.map(layerRule),
    {
      name: 'client-alone',
      severity: 'error',
      comment:
        'payload-cwa/client runs in browsers and edge runtimes: plugins/cwa/client imports only its own files ' +
        '(no Payload, no Node built-in, no other part of the library).',
      from: { path: `${CWA}client/` },
      to: { pathNot: `${CWA}client/` },
    },
    {
      name: 'react-kit-alone',
      severity: 'error',
      comment:
        'payload-cwa/react renders what payload-cwa/client resolved: plugins/cwa/react imports its own files, the ' +
        'client and React only (it runs in any React app, server or browser).',
      from: { path: `${CWA}react/` },
      to: { pathNot: [`${CWA}(react|client)/`, '^node_modules/react/', '^react$'] },
    },
    {
      name: 'next-kit-alone',
      severity: 'error',
      comment:
        'payload-cwa/next is also the kit of Next.js apps on another server than the API: plugins/cwa/nextKit ' +
        'imports its own files, the client, Next.js and React only (no Payload, no other part of the library).',
      from: { path: `${CWA}nextKit/` },
      to: { pathNot: [`${CWA}(nextKit|client)/`, '^node_modules/(next|react)/', '^(next|react)(/|$)'] },
    },
    {
      name: 'commands-on-top',
      severity: 'error',
      comment:
        "The commands' assembly (plugins/cwa/commands: the list, Payload's bin entry, the runner) sits on top of the " +
        "library: nothing in it imports it but the assembly (plugin.ts registers the list in the config's bin).",
      from: { path: CWA, pathNot: [`${CWA}commands/`, FRONT_DOOR] },
      to: { path: `${CWA}commands/` },
    },
    {
      name: 'commands-list-alone',
      severity: 'error',
      comment:
        "The commands' list and Payload's bin entry assemble declarations only: beside the core (its commands' " +
        "declarations) they may import the feature type alone; the runner finds the features' declarations by path.",
      from: { path: `${CWA}commands/(list|bin)\\.ts$` },
      to: { path: CWA, pathNot: [`${CWA}core/`, `${CWA}hydra/feature\\.ts$`, `${CWA}commands/list\\.ts$`] },
    },
    {
      name: 'command-declarations-alone',
      severity: 'error',
      comment:
        "A feature's commands/index.ts (and the core's) declares its commands: it imports their modules only by " +
        '`load` (a dynamic import, when the command runs) and nothing else of the library but the command type, so ' +
        'declaring a command costs the plugin nothing and the runner reads the declarations without the library.',
      from: { path: `${CWA}(features/[^/]+/|session/|core/)commands/index\\.ts$` },
      to: {
        path: CWA,
        pathNot: `${CWA}core/commands/command\\.ts$`,
        dependencyTypesNot: ['dynamic-import'],
      },
    },
    {
      name: 'feature-through-index',
      severity: 'error',
      comment:
        "A feature imports another feature only through that feature's public index.ts " +
        '(plugins/cwa/features/<other>/index.ts), never its internal files.',
      from: { path: `${CWA}features/([^/]+)/` },
      to: {
        path: `${CWA}features/[^/]+/`,
        pathNot: [`${CWA}features/$1/`, `${CWA}features/[^/]+/index\\.ts$`],
      },
    },
    {
      name: 'library-not-to-site',
      severity: 'error',
      comment:
        'The library (plugins/) never imports the reference site ' +
        '(src/, collections/, payload.config.ts, app/, migrations/, examples/, bench/).',
      from: { path: '^plugins/' },
      to: { path: SITE },
    },
    {
      name: 'site-through-package',
      severity: 'error',
      comment:
        'The reference site (collections/, src/, app/, examples/, payload.config.ts) imports the library only ' +
        "by its package name ('payload-cwa', 'payload-cwa/admin', '/next', '/express', '/types': the workspace " +
        'package plugins/cwa, compiled), as any Payload app does, never by a path into plugins/. ' +
        'bench/ is a measuring tool with white-box access, like test/.',
      from: { path: '^(collections|src|app|examples)/|^payload\\.config\\.ts$' },
      to: { path: '^plugins/' },
    },
    {
      name: 'no-feature-cycle',
      severity: 'error',
      scope: 'folder',
      comment:
        'No cycle between feature folders: feature A importing B (through its index.ts) while anything of B, its ' +
        'admin/ views included, imports A. Each import passes feature-through-index, and the modules need not form ' +
        'a cycle, but the features do: move the shared piece down (to core/ or to the feature that owns it).',
      from: { path: `${CWA}features/[^/]+$` },
      to: { path: `${CWA}features/[^/]+$`, circular: true },
    },
    {
      name: 'no-circular-in-library',
      severity: 'error',
      comment: 'No import cycles inside plugins/.',
      from: { path: '^plugins/' },
      to: { path: '^plugins/', circular: true },
    },
    {
      name: 'no-circular-in-site',
      severity: 'error',
      comment:
        'No import cycles in the reference site (a lazy import() counts): payload.config.ts imports src/config/, ' +
        'so nothing there may reach back to the config (src/server/bootstrap.ts loads it).',
      from: { path: SITE },
      to: { path: SITE, circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve to a file or package (a moved file, a typo).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(test|scratch|node_modules|\\.next|\\.data)/|^plugins/cwa/(dist|scripts)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
}
