import { afterAll, beforeAll } from '@jest/globals'
import type { CwaPluginOptions } from '../../plugins/cwa/dist/options.js'
import { startTestServer, type TestServer } from './server'
import { startSmtpServer, type TestSmtpServer } from './smtp'

/**
 * The setup of every test file about email: a real SMTP server on loopback
 * and the site sending its mail there (test/support/smtp.ts), started in
 * beforeAll and closed in afterAll of the file (or of the describe block
 * it is called in).
 *
 *   const { server, smtp } = useMailSite({ user: { emailLinks: { defaultOrigin: 'https://front.example' } } })
 *   beforeAll(async () => { await server.createUser('jane') })   // runs after the start
 *
 * `server` and `smtp` stand for the two servers once started: use them in
 * hooks and tests, not while the file is being loaded.
 */
export function useMailSite(options: Partial<CwaPluginOptions> = {}): { server: TestServer; smtp: TestSmtpServer } {
  const server = lateBound<TestServer>('the test server')
  const smtp = lateBound<TestSmtpServer>('the SMTP server')
  beforeAll(async () => {
    smtp.set(await startSmtpServer())
    server.set(await startTestServer({ mailerDsn: smtp.value.dsn, options }))
  })
  afterAll(async () => {
    await server.current?.close()
    await smtp.current?.close()
  })
  return { server: server.value, smtp: smtp.value }
}

/** An object that forwards to the one set later (a clear error when used before). */
function lateBound<T extends object>(name: string): { value: T; current: T | undefined; set(target: T): void } {
  let target: T | undefined
  const resolve = (): T => {
    if (!target) throw new Error(`${name} is used before beforeAll started it`)
    return target
  }
  const value = new Proxy({} as T, {
    get: (_stub, key) => Reflect.get(resolve(), key),
    set: (_stub, key, next) => Reflect.set(resolve(), key, next),
    has: (_stub, key) => Reflect.has(resolve(), key),
  })
  return {
    value,
    get current() {
      return target
    },
    set(next) {
      target = next
    },
  }
}
