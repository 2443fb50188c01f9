import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/**
 * Payload's own secret (admin panel sessions, its REST tokens). From
 * PAYLOAD_SECRET; in development a random one is kept under .data/ so that a
 * fresh machine needs no setup. Production refuses to start without one.
 */
export function payloadSecret(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PAYLOAD_SECRET) return env.PAYLOAD_SECRET
  if (env.NODE_ENV === 'production') {
    throw new Error('PAYLOAD_SECRET must be set when NODE_ENV=production')
  }
  const file = resolve(env.CWA_DATA_DIR ?? '.data', 'payload-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const secret = randomBytes(32).toString('hex')
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}
