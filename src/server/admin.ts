/**
 * Payload's admin panel: a Next.js (app router) application under app/(payload),
 * served by the Express server on its own port through Next's custom-server API.
 *
 * The panel needs a production build (`.next/`, `npm run build:admin`); when there
 * is none, the first start builds it: one to three minutes on 2 cores (140 s
 * measured on a loaded machine), its phases logged as they come and a
 * line every 20 s, while the APIs already answer. The build needs no
 * database: the admin routes are dynamic and import the Payload config only when
 * the first request comes (app/(payload)/loadConfig.ts).
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Request, Response } from 'express'
import { payloadSecret } from '../config/secrets'

export interface AdminLogger {
  info(msg: string): void
  warn(msg: string): void
}

export interface AdminHandlerOptions {
  /** Project root: holds app/, next.config.mjs and .next/. */
  dir: string
  logger: AdminLogger
  /** Build the panel when no build exists (default true). `false`: fail instead. */
  build?: boolean
}

export type AdminHandler = (req: Request, res: Response) => Promise<void>

/** Whether a complete production build of the admin panel exists (`next build` writes BUILD_ID last). */
export function adminBuildExists(dir: string): boolean {
  return existsSync(path.join(dir, '.next', 'BUILD_ID'))
}

/**
 * Builds the admin panel if needed, starts Next.js in production mode and
 * returns a request handler for Express (mount it after the API routes; it
 * answers everything it gets, with Next's 404 page for unknown paths).
 */
export async function createAdminHandler(options: AdminHandlerOptions): Promise<AdminHandler> {
  const dir = path.resolve(options.dir)
  const { logger } = options

  if (!adminBuildExists(dir)) {
    if (options.build === false) {
      throw new Error(
        `The admin panel has not been built (no ${path.join(dir, '.next', 'BUILD_ID')}): run \`npm run build:admin\``,
      )
    }
    await buildAdmin(dir, logger)
  } else {
    const newer = adminSourcesNewerThanBuild(dir)
    if (newer?.length) {
      const names = newer.slice(0, 3).join(', ') + (newer.length > 3 ? ` and ${newer.length - 3} more` : '')
      logger.warn(
        `The admin panel build is older than ${names}: the admin panel runs the code of its last build; \`npm run build:admin\` (or deleting .next/) rebuilds it`,
      )
    }
  }

  // `next` is CommonJS (module.exports = createServer); under tsx and Node's
  // ESM loader the default import is that function, sometimes wrapped once more.
  const nextModule = (await import('next')) as unknown as { default: CreateNext | { default: CreateNext } }
  const createNext: CreateNext =
    typeof nextModule.default === 'function' ? nextModule.default : nextModule.default.default
  // The admin routes import their own (bundled) copy of payload.config.ts on the
  // first request, and next() sets NODE_ENV=production for the whole process when
  // it is unset, after which the config refuses to run without PAYLOAD_SECRET.
  // Hand it the secret this process already uses (PAYLOAD_SECRET or, in
  // development, the one kept under .data/): both copies must agree anyway.
  process.env.PAYLOAD_SECRET ||= payloadSecret()
  const nodeEnv = process.env.NODE_ENV
  const started = Date.now()
  const app = createNext({ dev: false, dir })
  await app.prepare()
  if (process.env.NODE_ENV !== nodeEnv) {
    logger.info(`Next.js set NODE_ENV=${process.env.NODE_ENV} for this process (it was ${nodeEnv ?? 'unset'})`)
  }
  logger.info(`Admin panel ready (Next.js production server, prepared in ${Date.now() - started} ms)`)
  const handle = app.getRequestHandler()

  return async (req: Request, res: Response) => {
    try {
      await handle(req, res)
    } catch (error) {
      logger.warn(
        `Admin panel request ${req.method} ${req.originalUrl} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      )
      if (!res.headersSent) res.status(500).type('text/plain').send('Internal Server Error')
      else res.end()
    }
  }
}

type CreateNext = (options: { dev: boolean; dir: string }) => {
  prepare(): Promise<void>
  getRequestHandler(): (req: Request, res: Response) => Promise<void>
}

let building: Promise<void> | undefined
let buildChild: import('node:child_process').ChildProcess | undefined

/** Stops a `next build` under way (the process is stopping: the build must not outlive it). */
export function stopAdminBuild(): void {
  buildChild?.kill('SIGTERM')
}

/** Runs `next build` in a child process (one at a time per process). */
export function buildAdmin(dir: string, logger: AdminLogger): Promise<void> {
  building ??= runNextBuild(dir, logger).finally(() => {
    building = undefined
  })
  return building
}

async function runNextBuild(dir: string, logger: AdminLogger): Promise<void> {
  const nextBin = createRequire(path.join(dir, 'package.json')).resolve('next/dist/bin/next')
  logger.info(
    'Building the admin panel (next build, first start only: 1 to 3 minutes on 2 cores; the APIs answer meanwhile)...',
  )
  const started = Date.now()
  const output: string[] = []
  const progress = buildProgress(logger, started)
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin, 'build'], {
      cwd: dir,
      // Another NODE_ENV inherited from this process (development, test)
      // would make next build warn and produce a non-standard build.
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    buildChild = child
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split(/\r?\n/)) {
        if (!line.trim()) continue
        output.push(line)
        progress.line(line)
      }
      if (output.length > 400) output.splice(0, output.length - 400)
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    child.on('error', (error) => {
      progress.stop()
      reject(error)
    })
    child.on('close', (exitCode, signal) => {
      progress.stop()
      buildChild = undefined
      resolve(signal ? null : exitCode)
    })
  })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (code !== 0) {
    const tail = output.slice(-60).join('\n')
    throw new Error(
      `Building the admin panel failed after ${seconds} s (next build exited with ${code ?? 'a signal'}). ` +
        `Run \`npm run build:admin\` to see the whole output, or start with ADMIN_PANEL=0 to serve the APIs without it.\n${tail}`,
    )
  }
  const summary = output
    .filter((line) => /Compiled successfully|Generating static pages.*\(\d+\/\d+\) in/.test(line))
    .map((line) => line.trim())
  logger.info(`Admin panel built in ${seconds} s${summary.length ? ` (${summary.join('; ')})` : ''}`)
}

/** Phases of `next build` worth a log line, in the order they come, with the words the log uses. */
export const BUILD_PHASES: Array<[RegExp, string]> = [
  [/Creating an optimized production build/, 'compiling the panel'],
  [/Compiled successfully|Compiled with warnings/, 'compiled; checking types and collecting page data'],
  [/Collecting page data/, 'collecting page data'],
  [/Generating static pages/, 'generating pages'],
  [/Finalizing page optimization/, 'finalizing'],
]

/**
 * Progress of a build in the log: each phase of `next build` once, as it
 * starts (with the seconds so far), and a line every `every` ms while
 * nothing else was said, so a first start that takes minutes never looks
 * stuck.
 */
export function buildProgress(
  logger: AdminLogger,
  started: number,
  every = 20_000,
): { line(text: string): void; stop(): void } {
  const seen = new Set<string>()
  let last = Date.now()
  let phase = 'starting'
  const seconds = () => Math.round((Date.now() - started) / 1000)
  const timer = setInterval(() => {
    if (Date.now() - last < every) return
    last = Date.now()
    logger.info(`Still building the admin panel (${seconds()} s, ${phase}); the APIs answer meanwhile`)
  }, every / 4)
  timer.unref?.()
  return {
    line(text) {
      const found = BUILD_PHASES.find(([pattern]) => pattern.test(text))
      if (!found || seen.has(found[1])) return
      seen.add(found[1])
      phase = found[1]
      last = Date.now()
      logger.info(`Building the admin panel: ${phase} (${seconds()} s)`)
    },
    stop: () => clearInterval(timer),
  }
}

/**
 * The project files bundled into the admin build (the Payload config and all it
 * imports), read from the build's source maps; cached in .next/ per build.
 */
function bundledSources(dir: string): string[] {
  const nextDir = path.join(dir, '.next')
  const buildId = readFileSync(path.join(nextDir, 'BUILD_ID'), 'utf8').trim()
  const cacheFile = path.join(nextDir, 'cwa-admin-sources.json')
  try {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as { buildId: string; files: string[] }
    if (cached.buildId === buildId) return cached.files
  } catch {
    /* no cache yet */
  }
  const files = new Set<string>(['next.config.mjs', 'package-lock.json'])
  const add = (base: string, sources: unknown) => {
    if (!Array.isArray(sources)) return
    for (const source of sources) {
      if (typeof source !== 'string' || source.includes('node_modules') || source.includes('://')) continue
      const relative = path.relative(dir, path.resolve(base, decodeURIComponent(source)))
      if (!relative.startsWith('..') && !relative.startsWith('.next') && !path.isAbsolute(relative)) files.add(relative)
    }
  }
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name)
      if (entry.isDirectory()) walk(file)
      else if (entry.name.endsWith('.map')) {
        try {
          const map = JSON.parse(readFileSync(file, 'utf8')) as {
            sources?: unknown
            sections?: Array<{ map?: { sources?: unknown } }>
          }
          add(folder, map.sources)
          for (const section of map.sections ?? []) add(folder, section.map?.sources)
        } catch {
          /* not a source map we can read */
        }
      }
    }
  }
  walk(path.join(nextDir, 'server'))
  const list = [...files].sort()
  try {
    writeFileSync(cacheFile, JSON.stringify({ buildId, files: list }))
  } catch {
    /* read-only .next: recompute next time */
  }
  return list
}

/** Bundled project files modified after the build (the admin panel would run outdated code); undefined if unknown. */
export function adminSourcesNewerThanBuild(dir: string): string[] | undefined {
  try {
    const built = statSync(path.join(dir, '.next', 'BUILD_ID')).mtimeMs
    return bundledSources(dir).filter((file) => {
      try {
        return statSync(path.join(dir, file)).mtimeMs > built
      } catch {
        return false // deleted since the build: whatever imported it changed too
      }
    })
  } catch {
    return undefined // an unexpected .next layout: skip the check
  }
}
