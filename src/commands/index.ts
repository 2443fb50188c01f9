import path from 'node:path'
import { fileURLToPath } from 'node:url'

const dir = path.dirname(fileURLToPath(import.meta.url))

/** Operator commands, run as `npx payload cwa:<name>`. */
export const commands = [{ key: 'cwa:user:create', scriptPath: path.resolve(dir, 'userCreate.ts') }]
