/**
 * `npm start`: the reference site on one port. Database (embedded when
 * DATABASE_URL is unset), migrations, demo seed, JWT keys, then Express with
 * the JSON-LD API, Payload's REST API and the admin panel.
 */
import type { Server } from 'node:http'
import path from 'node:path'
import { buildSiteConfig } from '../../payload.config'
import { projectRoot } from '../config/projectRoot'
import { closePayload, createApp, getOptions, loadJwtKeys } from 'payload-cwa'
import { seedDemo } from '../seed/demo'
import { startPayload } from './bootstrap'
import { ensureDatabase } from './database'

const root = projectRoot(import.meta.url)
const bootLog = {
  info: (message: string) => console.log(`[cwa] ${message}`),
  warn: (message: string) => console.warn(`[cwa] ${message}`),
  error: (message: string) => console.error(`[cwa] ${message}`),
}

async function main(): Promise<void> {
  // Keeps the event loop alive through start-up: on Node 20 a module import
  // pending in the loader thread does not (every import here is static, and
  // this guards what remains: Payload's and Next's own lazy imports).
  const keepAlive = setInterval(() => {}, 60_000)
  process.chdir(root)
  const database = await ensureDatabase(process.env, bootLog)
  const payload = await startPayload({ config: buildSiteConfig({ databaseUrl: database.url }) })
  // A database that goes away (shutdown, restart) must not crash the process through an unhandled pool error.
  ;(payload.db as unknown as { pool?: { on(event: 'error', fn: (error: Error) => void): void } }).pool?.on('error', (error) =>
    payload.logger.warn({ err: error.message }, 'PostgreSQL connection error'),
  )
  const log = {
    info: (message: string) => payload.logger.info(message),
    warn: (message: string) => payload.logger.warn(message),
  }
  const options = getOptions(payload.config)
  if (process.env.SEED_DEMO !== '0') await seedDemo(payload, { apiPrefix: options.apiPrefix })
  const keys = await loadJwtKeys(process.env, log.info)

  let admin: Parameters<typeof createApp>[0]['admin']
  if (process.env.ADMIN_PANEL !== '0') {
    // The admin panel (Next.js) reads the config itself: give it the same database.
    process.env.DATABASE_URL = database.url
    // Loaded only when wanted: importing Next.js at module load can stall
    // start-up when the process has no terminal on stdin.
    const { createAdminHandler } = await import('./admin')
    admin = await createAdminHandler({ dir: root, logger: log })
  }
  const app = createApp({ payload, keys, admin })
  const port = Number(process.env.PORT ?? 3000)
  const host = process.env.HOST ?? '0.0.0.0'
  const server: Server = app.listen(port, host, () => {
    clearInterval(keepAlive)
    const base = `http://localhost:${port}`
    payload.logger.info(`JSON-LD API:     ${base}${options.apiPrefix}/ (docs: ${base}${options.apiPrefix}/docs)`)
    payload.logger.info(`Payload REST API: ${base}${payload.config.routes.api}`)
    payload.logger.info(admin ? `Admin panel:     ${base}${payload.config.routes.admin}` : 'Admin panel disabled (ADMIN_PANEL=0)')
    payload.logger.info(`Database:        ${database.embedded ? 'embedded PostgreSQL (.data/postgres)' : 'DATABASE_URL'}`)
  })
  server.on('error', (error) => {
    payload.logger.error({ err: error.message }, `Cannot listen on ${host}:${port}`)
    void stop('listen error', 1)
  })

  let stopping = false
  const stop = async (reason: string, code = 0) => {
    if (stopping) return
    stopping = true
    payload.logger.info(`${reason}: shutting down`)
    server.close()
    await closePayload(payload)
    await database.stop().catch(() => {})
    process.exit(code)
  }
  process.on('SIGINT', () => void stop('SIGINT received'))
  process.on('SIGTERM', () => void stop('SIGTERM received'))
}

main().catch((error) => {
  console.error('[cwa] start failed:', error instanceof Error ? error.message : error)
  if (process.env.DEBUG) console.error(error)
  process.exit(1)
})
