import path from 'node:path'
import { projectRoot } from '../config/projectRoot'

const dir = path.join(projectRoot(import.meta.url), 'src', 'commands')

/** Operator commands, run as `npx payload cwa:<name>`. */
export const commands = [
  { key: 'cwa:user:create', scriptPath: path.resolve(dir, 'userCreate.ts') },
  { key: 'cwa:refresh-tokens:expire', scriptPath: path.resolve(dir, 'refreshTokensExpire.ts') },
  { key: 'cwa:purge-rendered-html', scriptPath: path.resolve(dir, 'purgeRenderedHtml.ts') },
  { key: 'cwa:purge-http-cache', scriptPath: path.resolve(dir, 'purgeHttpCache.ts') },
  { key: 'cwa:scan-orphaned', scriptPath: path.resolve(dir, 'scanOrphaned.ts') },
  { key: 'cwa:clean-orphaned', scriptPath: path.resolve(dir, 'cleanOrphaned.ts') },
  { key: 'cwa:jobs:work', scriptPath: path.resolve(dir, 'jobsWork.ts') },
  { key: 'cwa:generate-fixtures', scriptPath: path.resolve(dir, 'generateFixtures.ts') },
  { key: 'cwa:make:api-component', scriptPath: path.resolve(dir, 'make.ts') },
  { key: 'cwa:make:page-data', scriptPath: path.resolve(dir, 'make.ts') },
  { key: 'cwa:make:cwa-scaffold', scriptPath: path.resolve(dir, 'make.ts') },
  { key: 'cwa:make:rename-component', scriptPath: path.resolve(dir, 'make.ts') },
  { key: 'cwa:form-cache-purge', scriptPath: path.resolve(dir, 'formCachePurge.ts') },
]
