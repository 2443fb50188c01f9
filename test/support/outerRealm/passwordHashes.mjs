/**
 * A memory of the password hashes a jest worker has already derived: PBKDF2 is a pure function, and a test run
 * derives the same one again and again. Payload hashes a password with 600,000 rounds of PBKDF2-SHA256 (220 ms of CPU
 * on the 2-core machine) when a user is created, and derives it again with the stored salt at every sign-in
 * (Payload's login, the plugin's `/_api/login`, a password check). Over the suite the workers derived 1,081 hashes,
 * about 240 s of CPU, most of them a sign-in repeating its user's creation (`tokenFor`: create, then sign in).
 *
 * Each distinct input is still derived once by node:crypto itself, with its own arguments, so every stored hash and
 * every comparison is the real one; only the repeat is answered from memory, with a copy of the same bytes, as late
 * (asynchronously) as the real call answers. Timing is not asserted by any test (bench/timing.ts measures it).
 * Only string passwords and salts are remembered (what Payload passes); anything else goes to node:crypto untouched.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module'

const crypto = createRequire(import.meta.url)('node:crypto')
const { pbkdf2, pbkdf2Sync } = crypto
/** Enough for a worker's run (about 400 distinct hashes), bounded all the same: the oldest go first. */
const LIMIT = 10_000
const derived = new Map()

function keyOf(password, salt, iterations, keyLength, digest) {
  if (typeof password !== 'string' || typeof salt !== 'string' || typeof digest !== 'string') return null
  return JSON.stringify([password, salt, iterations, keyLength, digest])
}

function remember(key, bytes) {
  if (derived.size >= LIMIT) derived.delete(derived.keys().next().value)
  derived.set(key, Buffer.from(bytes))
}

export function rememberPasswordHashes() {
  crypto.pbkdf2 = function rememberedPbkdf2(password, salt, iterations, keyLength, digest, callback) {
    const key = keyOf(password, salt, iterations, keyLength, digest)
    if (key === null || typeof callback !== 'function') return pbkdf2.apply(this, arguments)
    const known = derived.get(key)
    if (known) return void setImmediate(() => callback(null, Buffer.from(known)))
    pbkdf2.call(this, password, salt, iterations, keyLength, digest, (error, bytes) => {
      if (!error) remember(key, bytes)
      callback(error, bytes)
    })
  }
  crypto.pbkdf2Sync = function rememberedPbkdf2Sync(password, salt, iterations, keyLength, digest) {
    const key = keyOf(password, salt, iterations, keyLength, digest)
    if (key === null) return pbkdf2Sync.apply(this, arguments)
    const known = derived.get(key)
    if (known) return Buffer.from(known)
    const bytes = pbkdf2Sync.call(this, password, salt, iterations, keyLength, digest)
    remember(key, bytes)
    return bytes
  }
  // `import { pbkdf2 } from 'node:crypto'` (the plugin's password check) sees the change too.
  syncBuiltinESMExports()
}
