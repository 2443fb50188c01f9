/**
 * `npm start`: the reference site on one port. The port is taken first (a
 * busy port fails at once; until the site is ready it answers 503 with
 * Retry-After), then the database (embedded when DATABASE_URL is unset),
 * migrations, demo seed, the embedded Mercure hub (MERCURE_URL unset,
 * outside production), JWT keys, then Express with the JSON-LD API and
 * Payload's REST API; the admin panel is prepared (built on the first
 * start) while the APIs already answer, /admin answering a "building" page
 * meanwhile. SIGTERM, SIGINT and SIGHUP stop it cleanly: readiness turns
 * 503 at once; after SIGTERM the port keeps accepting for SHUTDOWN_DELAY_MS
 * (answering as usual, with `Connection: close`), then requests in flight
 * finish, new ones are refused, the pool is closed, the embedded database is
 * shut down, exit 0. `/_health/live` and `/_health/ready` answer a load
 * balancer from the first second (health.ts; readiness asks the database,
 * databaseProbe.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'
import type { Express, Request, Response } from 'express'
import type { Payload } from 'payload'
import { buildSiteConfig } from '../../payload.config'
import { onPoolError } from '../config/databasePool'
import { projectRoot } from '../config/projectRoot'
import {
  closeEmbeddedHub,
  closePayload,
  getOptions,
  jwtKeyEnvironment,
  loadJwtKeys,
  startEmbeddedHub,
} from 'payload-cwa'
import { createApp } from 'payload-cwa/express'
import { seedDemo } from '../seed/demo'
import { startPayload } from './bootstrap'
import { databaseProbe, type DatabaseProbe } from './databaseProbe'
import { answerHealth } from './health'
import { adminWaitPage } from './adminWaitPage'
import { quietDatabaseOutages } from './quietOutages'
import { startupStep } from './startupLock'
import { type DatabaseHandle, ensureDatabase, StartError } from './database'
import { FIRST_REQUEST_WAIT, HEADERS_TIMEOUT, REQUEST_TIMEOUT, SHUTDOWN_DELAY, SHUTDOWN_GRACE } from './timeouts'
import { keptWebsitePages } from './websitePages'

const root = projectRoot(import.meta.url)
const bootLog = {
  info: (message: string) => console.log(`[cwa] ${message}`),
  warn: (message: string) => console.warn(`[cwa] ${message}`),
  error: (message: string) => console.error(`[cwa] ${message}`),
}

function unavailable(res: ServerResponse, message: string, retryAfter = 5): void {
  res.statusCode = 503
  res.setHeader('Retry-After', String(retryAfter))
  res.setHeader('Content-Type', 'text/plain; charset=utf-8')
  res.end(`${message}\n`)
}

async function main(): Promise<void> {
  // Keeps the event loop alive through start-up: on Node 20 a module import
  // pending in the loader thread does not (every import here is static, and
  // this guards what remains: Payload's and Next's own lazy imports).
  const keepAlive = setInterval(() => {}, 60_000)
  process.chdir(root)
  const port = Number(process.env.PORT ?? 3000)
  const host = process.env.HOST ?? '0.0.0.0'

  // The port first: a busy port fails before anything starts, and the port answers from the first second.
  let app: Express | undefined
  let database: DatabaseHandle | undefined
  let readiness: DatabaseProbe | undefined
  /** A stop began: readiness 503, every answer closes its connection. */
  let draining = false
  /** Answers not sent yet (their count is the requests in flight). */
  const open = new Set<ServerResponse>()
  /** Connections accepted whose first request has not arrived yet (when they were accepted). */
  const awaitingRequest = new Map<Socket, number>()
  const server = createServer(
    { requestTimeout: REQUEST_TIMEOUT, connectionsCheckingInterval: 1000 },
    (req: IncomingMessage, res: ServerResponse) => {
      awaitingRequest.delete(req.socket)
      if (answerHealth(req, res, draining ? 'draining' : app ? 'ready' : 'starting', readiness)) return
      if (!app) return unavailable(res, 'The server is starting; retry in a few seconds.')
      // While stopping: answered as usual (it reached this instance before the port closed), and the client
      // opens its next connection elsewhere.
      if (draining) res.setHeader('Connection', 'close')
      open.add(res)
      res.once('close', () => open.delete(res))
      app(req, res)
    },
  )
  server.on('connection', (socket: Socket) => {
    awaitingRequest.set(socket, Date.now())
    socket.once('close', () => awaitingRequest.delete(socket))
  })
  server.headersTimeout = HEADERS_TIMEOUT
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new StartError(
            `Port ${port} is already in use on ${host} (another npm start, or another server): stop it, or start with PORT set to a free port.`,
          ),
        )
      } else if (error.code === 'EACCES') {
        reject(
          new StartError(
            `Not allowed to listen on port ${port} (ports below 1024 need privileges): start with PORT set to a port above 1023.`,
          ),
        )
      } else reject(error)
    })
    server.listen(port, host, () => resolve())
  })

  let payload: Payload | undefined
  let stopAdmin: (() => void) | undefined
  const log = {
    info: (message: string) => (payload ? payload.logger.info(message) : bootLog.info(message)),
    warn: (message: string) => (payload ? payload.logger.warn(message) : bootLog.warn(message)),
    error: (message: string) => (payload ? payload.logger.error(message) : bootLog.error(message)),
  }

  let skipDelay: (() => void) | undefined
  let exitCode = 0
  /** `delay`: how long the port still accepts and answers first (SIGTERM's SHUTDOWN_DELAY; a second stop cuts it short). */
  const stop = async (reason: string, code = 0, delay = 0) => {
    exitCode ||= code // an error during a drain still exits 1
    if (draining) return skipDelay?.()
    draining = true
    clearInterval(keepAlive)
    // Answers in flight close their connections too (those whose headers are not sent yet).
    for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close')
    if (delay > 0 && app) {
      log.info(
        `${reason}: readiness answers 503; requests are still answered for ${delay} ms (with Connection: close), then the server stops`,
      )
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay)
        skipDelay = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
    // A timer runs before the loop's I/O: one more turn of it accepts what waits in the accept queue
    // (closing the port now would reset those connections).
    await new Promise((resolve) => setImmediate(resolve))
    // net's close, not http's: http's also ends the connections without a request in progress, among
    // them those just accepted whose request is not read yet (a reset too).
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()))
    const inFlight = () => open.size
    log.info(
      `${reason}: shutting down${inFlight() ? ` (finishing ${inFlight()} request${inFlight() === 1 ? '' : 's'} in flight; new connections are refused)` : ''}`,
    )
    stopAdmin?.()
    // The embedded hub's event streams are requests that never finish by themselves: end them first.
    if (payload) await closeEmbeddedHub(payload)
    const deadline = Date.now() + SHUTDOWN_GRACE
    // Requests in flight, and those of connections accepted lately whose request is on its way (a loaded client
    // may take a while to write it).
    const silent = () =>
      [...awaitingRequest.values()].filter((acceptedAt) => Date.now() - acceptedAt < FIRST_REQUEST_WAIT)
    while ((inFlight() > 0 || silent().length > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    if (inFlight() > 0)
      log.warn(`${inFlight()} request(s) still running after ${SHUTDOWN_GRACE} ms: closing their connections`)
    if (awaitingRequest.size > 0)
      log.info(`Closing ${awaitingRequest.size} connection(s) that sent no request within ${FIRST_REQUEST_WAIT} ms`)
    server.closeAllConnections()
    await closed
    if (payload) await closePayload(payload)
    if (database) {
      await database
        .stop()
        .catch((error) =>
          log.warn(`Stopping the embedded PostgreSQL server failed: ${error instanceof Error ? error.message : error}`),
        )
      if (database.dataDir) log.info('Embedded PostgreSQL stopped')
    }
    log.info(exitCode === 0 ? 'Stopped' : 'Stopped after an error (exit code 1)')
    process.exit(exitCode)
  }
  // SIGTERM is how a supervisor or orchestrator stops an instance behind a load balancer: it drains first.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => void stop(`${signal} received`, 0, signal === 'SIGTERM' ? SHUTDOWN_DELAY : 0))
  server.on('error', (error) => {
    log.error(`HTTP server error: ${error.message}`)
    void stop('HTTP server error', 1)
  })

  database = await ensureDatabase(process.env, log, {
    onFatal: () => void stop('The embedded database is gone', 1),
  })
  if (draining) return
  // The jobs runner works in this process unless CWA_JOBS_RUNNER=0 (then run `npx payload cwa:jobs:work` elsewhere).
  const started = await startPayload({
    config: buildSiteConfig({ databaseUrl: database.url }),
    cron: process.env.CWA_JOBS_RUNNER !== '0',
    // Under the start-up lock with the migrations: instances starting together seed once.
    setup:
      process.env.SEED_DEMO !== '0'
        ? (payload) =>
            startupStep('the demo seed', () => seedDemo(payload, { apiPrefix: getOptions(payload.config).apiPrefix }))
        : undefined,
  })
  payload = started
  // A connection the database closed (restart, kill): the pool opens a new one; say so once in a while, never while stopping.
  let lastPoolWarning = 0
  onPoolError((error) => {
    if (draining || Date.now() - lastPoolWarning < 5000) return
    lastPoolWarning = Date.now()
    started.logger.warn(
      `Lost a PostgreSQL connection (${error.message}); the next queries open new ones (until the database is back, requests are answered 503)`,
    )
  })
  quietDatabaseOutages(started, () => draining)
  const options = getOptions(started.config)
  // MERCURE_URL unset: the embedded hub (MERCURE_EMBEDDED), refused when the deployment has several instances.
  const hub = await startupStep('the embedded Mercure hub', () => startEmbeddedHub(started))
  if (draining) return
  const keys = await loadJwtKeys(process.env, log.info)
  // The website (Next.js, in this process: it runs under NODE_ENV=production) reads the API through the API's own
  // handler, which takes the keys the environment names: name these.
  Object.assign(process.env, jwtKeyEnvironment(process.env))

  // The admin panel (Next.js), prepared after the APIs answer: until it is ready /admin says so.
  const adminEnabled = process.env.ADMIN_PANEL !== '0'
  let adminHandler: ((req: Request, res: Response) => Promise<void>) | undefined
  let adminProblem: string | undefined
  const admin = adminEnabled
    ? async (req: Request, res: Response) => {
        if (adminHandler) return adminHandler(req, res)
        res.status(503)
        if (!adminProblem) res.set('Retry-After', '10')
        res.type('html').send(adminWaitPage(root, adminProblem))
      }
    : undefined
  // Readiness from now on also asks the database: 503 while it is unreachable (the APIs answer 503 then too).
  readiness = databaseProbe(database.url, (reachable, reason) =>
    reachable
      ? started.logger.info('The database answers again: /_health/ready answers 200')
      : started.logger.warn(
          `The database is unreachable (${reason}): /_health/ready answers 503 until it answers again`,
        ),
  )
  app = createApp({ payload: started, keys, admin })
  if (draining) return
  clearInterval(keepAlive)

  const base = `http://localhost:${port}`
  started.logger.info(`JSON-LD API:      ${base}${options.apiPrefix}/ (docs: ${base}${options.apiPrefix}/docs)`)
  started.logger.info(`Payload REST API: ${base}${started.config.routes.api}`)
  started.logger.info(
    adminEnabled
      ? `Admin panel:      ${base}${started.config.routes.admin} (preparing: answers 503 until it is ready)`
      : 'Admin panel:      disabled (ADMIN_PANEL=0)',
  )
  started.logger.info(
    `Mercure hub:      ${hub ? `${base}/.well-known/mercure (embedded)` : (options.mercure.publicUrl ?? 'off (set MERCURE_URL, or MERCURE_EMBEDDED=1 for one instance)')}`,
  )
  started.logger.info(
    `Database:         ${database.embedded ? (database.dataDir ? `embedded PostgreSQL (data in ${database.dataDir})` : 'embedded PostgreSQL started by another process') : 'DATABASE_URL'}`,
  )
  started.logger.info(`Listening on ${host}:${port}`)

  if (adminEnabled) {
    // The panel reads the config itself: give it the same database. Loaded only when wanted:
    // importing Next.js at module load can stall start-up when the process has no terminal on stdin.
    process.env.DATABASE_URL = database.url
    const adminModule = await import('./admin')
    stopAdmin = adminModule.stopAdminBuild
    try {
      // The website's pages for visitors come from the read model when it holds them (websitePages.ts).
      adminHandler = keptWebsitePages(started, root, await adminModule.createAdminHandler({ dir: root, logger: log }))
    } catch (error) {
      if (draining) return
      adminProblem =
        'The admin panel could not be built: the server log says why (`npm run build:admin` shows the whole output). The APIs work.'
      started.logger.error(`${adminProblem}\n${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

main().catch((error) => {
  if (error instanceof StartError) console.error(`[cwa] ${error.message}`)
  else {
    console.error('[cwa] start failed:', error instanceof Error ? error.message : error)
    if (process.env.DEBUG) console.error(error)
  }
  process.exit(1)
})
