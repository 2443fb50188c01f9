import path from 'node:path'
import { projectRoot } from '../config/projectRoot'

const dir = path.join(projectRoot(import.meta.url), 'src', 'commands')

/** Operator commands, run as `npx payload cwa:<name>`. */
export const commands = [
  { key: 'cwa:user:create', scriptPath: path.resolve(dir, 'userCreate.ts') },
  { key: 'cwa:refresh-tokens:expire', scriptPath: path.resolve(dir, 'refreshTokensExpire.ts') },
  { key: 'cwa:form-cache-purge', scriptPath: path.resolve(dir, 'formCachePurge.ts') },
]
