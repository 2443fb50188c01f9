import { fileURLToPath } from 'node:url'

/** A Payload `bin` entry: `npx payload <key>` imports `scriptPath` and calls its `script(config)`. */
export interface CommandEntry {
  key: string
  scriptPath: string
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))

/**
 * The operator commands, run as `npx payload cwa:<name>` in any app that adds cwaPlugin(): the plugin puts them in
 * the config's `bin`, pointing at the package's compiled modules beside this one (no TypeScript to transpile).
 */
export function cwaCommands(): CommandEntry[] {
  return [
    { key: 'cwa:user:create', scriptPath: here('./userCreate.js') },
    { key: 'cwa:refresh-tokens:expire', scriptPath: here('./refreshTokensExpire.js') },
    { key: 'cwa:purge-rendered-html', scriptPath: here('./purgeRenderedHtml.js') },
    { key: 'cwa:purge-http-cache', scriptPath: here('./purgeHttpCache.js') },
    { key: 'cwa:scan-orphaned', scriptPath: here('./scanOrphaned.js') },
    { key: 'cwa:clean-orphaned', scriptPath: here('./cleanOrphaned.js') },
    { key: 'cwa:jobs:work', scriptPath: here('./jobsWork.js') },
    { key: 'cwa:generate-fixtures', scriptPath: here('./generateFixtures.js') },
    { key: 'cwa:make:api-component', scriptPath: here('./make.js') },
    { key: 'cwa:make:page-data', scriptPath: here('./make.js') },
    { key: 'cwa:make:cwa-scaffold', scriptPath: here('./make.js') },
    { key: 'cwa:make:rename-component', scriptPath: here('./make.js') },
    { key: 'cwa:form-cache-purge', scriptPath: here('./formCachePurge.js') },
    { key: 'cwa:read-model:empty', scriptPath: here('./readModelEmpty.js') },
  ]
}
