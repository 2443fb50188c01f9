import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { promisify } from 'node:util'

const generate = promisify(generateKeyPair)

export interface JwtKeys {
  privateKey: KeyObject
  publicKey: KeyObject
}

/** The keys production needs are not configured: the API refuses to serve (server/handler.ts) with this message. */
export class JwtKeysMissingError extends Error {
  override name = 'JwtKeysMissingError'
}

interface KeyPaths {
  privatePath: string
  publicPath: string
  passphrase: string
}

function keyPaths(env: NodeJS.ProcessEnv): KeyPaths & { generatedPassphrasePath: string | null } {
  const dir = resolve(env.CWA_DATA_DIR ?? '.data', 'jwt')
  const passphrasePath = resolve(dir, 'passphrase')
  let passphrase = env.JWT_PASSPHRASE ?? ''
  let generatedPassphrasePath: string | null = null
  // The development passphrase on disk is never a production one.
  if (!env.JWT_PASSPHRASE && env.NODE_ENV !== 'production') {
    generatedPassphrasePath = passphrasePath
    passphrase = existsSync(passphrasePath) ? readFileSync(passphrasePath, 'utf8').trim() : ''
  }
  return {
    privatePath: resolve(env.JWT_SECRET_KEY ?? resolve(dir, 'private.pem')),
    publicPath: resolve(env.JWT_PUBLIC_KEY ?? resolve(dir, 'public.pem')),
    passphrase,
    generatedPassphrasePath,
  }
}

/**
 * The environment that names the key pair `loadJwtKeys(env)` loaded (the development pair under .data/jwt/ when
 * JWT_* is unset outside production). For a process whose other parts read the keys from the environment later,
 * under another NODE_ENV: a Next.js app in the same process runs under production, where only JWT_* names keys.
 */
export function jwtKeyEnvironment(
  env: NodeJS.ProcessEnv = process.env,
): Record<'JWT_SECRET_KEY' | 'JWT_PUBLIC_KEY' | 'JWT_PASSPHRASE', string> {
  const paths = keyPaths(env)
  return { JWT_SECRET_KEY: paths.privatePath, JWT_PUBLIC_KEY: paths.publicPath, JWT_PASSPHRASE: paths.passphrase }
}

/**
 * The RS256 key pair of the session JWT: JWT_SECRET_KEY / JWT_PUBLIC_KEY
 * (PEM paths) and JWT_PASSPHRASE. In development missing files are generated
 * once (RSA 4096, private key encrypted with the passphrase) under
 * .data/jwt/; in production missing keys stop the start.
 */
export async function loadJwtKeys(
  env: NodeJS.ProcessEnv = process.env,
  log: (message: string) => void = () => {},
): Promise<JwtKeys> {
  // In production the keys are the operator's, named by the environment: development keys generated under
  // .data/jwt/ (or CWA_DATA_DIR) may still be on disk, and a session signed with them is no secret.
  const unset = ['JWT_SECRET_KEY', 'JWT_PUBLIC_KEY'].filter((name) => !env[name])
  if (env.NODE_ENV === 'production' && unset.length > 0)
    throw new JwtKeysMissingError(
      `The JSON-LD API is not served: ${unset.join(' and ')} ${unset.length > 1 ? 'are' : 'is'} not set, and production ` +
        '(NODE_ENV=production, as `next start` runs) never uses the development keys. Set JWT_SECRET_KEY and ' +
        'JWT_PUBLIC_KEY (PEM file paths) and JWT_PASSPHRASE (the private key\'s passphrase): docs/adopting.md, "Environment".',
    )
  const paths = keyPaths(env)
  const missing = !existsSync(paths.privatePath) || !existsSync(paths.publicPath)
  if (missing) {
    if (env.NODE_ENV === 'production') {
      throw new JwtKeysMissingError(
        `JWT keys not found (JWT_SECRET_KEY=${paths.privatePath}, JWT_PUBLIC_KEY=${paths.publicPath}). ` +
          'Generate a passphrase-protected RSA 4096 pair and set JWT_SECRET_KEY, JWT_PUBLIC_KEY and JWT_PASSPHRASE.',
      )
    }
    await generateKeys(paths, log)
  }
  const passphrase = keyPaths(env).passphrase
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey({ key: readFileSync(paths.privatePath), format: 'pem', passphrase })
  } catch (error) {
    throw new Error(
      `The JWT private key ${paths.privatePath} could not be read with JWT_PASSPHRASE: ${(error as Error).message}`,
    )
  }
  const publicKey = createPublicKey(readFileSync(paths.publicPath))
  return { privateKey, publicKey }
}

async function generateKeys(paths: ReturnType<typeof keyPaths>, log: (message: string) => void): Promise<void> {
  let passphrase = paths.passphrase
  if (paths.generatedPassphrasePath && !passphrase) {
    passphrase = randomBytes(24).toString('hex')
    mkdirSync(dirname(paths.generatedPassphrasePath), { recursive: true })
    writeFileSync(paths.generatedPassphrasePath, passphrase, { mode: 0o600 })
  }
  const pair = await generate('rsa', {
    modulusLength: 4096,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase },
  })
  mkdirSync(dirname(paths.privatePath), { recursive: true })
  mkdirSync(dirname(paths.publicPath), { recursive: true })
  writeFileSync(paths.privatePath, pair.privateKey, { mode: 0o600 })
  writeFileSync(paths.publicPath, pair.publicKey)
  log(`Generated a development JWT key pair (RSA 4096) in ${dirname(paths.privatePath)}`)
}
