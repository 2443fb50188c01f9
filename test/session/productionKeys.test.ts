/**
 * Issue 37, production keys: `next start` (NODE_ENV=production) without JWT_SECRET_KEY and JWT_PUBLIC_KEY used to
 * sign sessions silently with the development keys left on disk (generated under .data/jwt/ by `next dev`), keys
 * that are no secret. Now production refuses to serve the JSON-LD API, answering 503 with a message that names the
 * variables, even when development keys exist. The attack guarded against: a session forged with a development
 * private key (committed, copied with the app, or readable on the server) accepted by a production site.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createCwaHandler, JwtKeysMissingError, loadJwtKeys } from 'payload-cwa'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

let dataDir: string
let site: MinimalSite

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'cwa-keys-'))
  site = await startMinimalSite()
})
afterAll(async () => {
  await site?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('JWT keys in production', () => {
  it('are never the development keys on disk: without JWT_* the load fails naming the variables', async () => {
    // `next dev` generated a pair here...
    await loadJwtKeys({ NODE_ENV: 'development', CWA_DATA_DIR: dataDir })
    // ...which production does not take.
    const production = loadJwtKeys({ NODE_ENV: 'production', CWA_DATA_DIR: dataDir })
    await expect(production).rejects.toBeInstanceOf(JwtKeysMissingError)
    await expect(production).rejects.toThrow(
      /not served: JWT_SECRET_KEY and JWT_PUBLIC_KEY are not set, .*never uses the development keys/,
    )
    // Named keys still load in production.
    const keys = await loadJwtKeys({
      NODE_ENV: 'production',
      JWT_SECRET_KEY: path.join(dataDir, 'jwt', 'private.pem'),
      JWT_PUBLIC_KEY: path.join(dataDir, 'jwt', 'public.pem'),
      JWT_PASSPHRASE: (await import('node:fs')).readFileSync(path.join(dataDir, 'jwt', 'passphrase'), 'utf8').trim(),
    })
    expect(keys.privateKey.asymmetricKeyType).toBe('rsa')
  })

  it('make the API refuse to serve (503, the variables named) instead of answering with development keys', async () => {
    // The process loaded keys under the test settings first: a later load under other settings does not reuse them.
    expect((await createCwaHandler({ payload: site.payload })(new Request('http://localhost/_api'))).status).toBe(200)
    const saved = { ...process.env }
    Object.assign(process.env, { NODE_ENV: 'production', CWA_DATA_DIR: dataDir })
    delete process.env.JWT_SECRET_KEY
    delete process.env.JWT_PUBLIC_KEY
    delete process.env.JWT_PASSPHRASE
    try {
      const handler = createCwaHandler({ payload: site.payload })
      for (const url of ['/_api', '/_api/_/pages']) {
        const response = await handler(new Request(`http://localhost${url}`))
        expect(response.status).toBe(503)
        expect(await response.text()).toMatch(/^The JSON-LD API is not served: JWT_SECRET_KEY and JWT_PUBLIC_KEY/)
      }
    } finally {
      for (const key of ['NODE_ENV', 'CWA_DATA_DIR', 'JWT_SECRET_KEY', 'JWT_PUBLIC_KEY', 'JWT_PASSPHRASE'])
        if (saved[key] === undefined) delete process.env[key]
        else process.env[key] = saved[key]
    }
  })
})
