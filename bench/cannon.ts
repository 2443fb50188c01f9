/**
 * Runs a load (bench/cannonWorker.mjs, a child process) against a server in
 * this process and measures this process's CPU time per answered request.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'
import path from 'node:path'

export interface Load {
  url: string
  connections: number
  duration?: number
  amount?: number
  headers?: Record<string, string>
  method?: string
  body?: string
  /** A name for this run's CPU profile (written only with BENCH_PROFILE=<dir>). */
  label?: string
  /** Sent in turn, each once when `amount` equals their number. */
  requests?: Array<{ method: string; path: string; headers?: Record<string, string>; body?: string }>
}

export interface LoadResult {
  rps: number
  total: number
  p50: number
  p99: number
  /** CPU time (user + system) this process spent per request, in ms: the server's cost, the load generator excluded. */
  cpuMs: number
}

const worker = path.join(process.cwd(), 'bench', 'cannonWorker.mjs')

/**
 * BENCH_PROFILE=<dir>: a CPU profile of this process during each labelled
 * run, `<dir>/<label>.cpuprofile` (open it in Chrome's DevTools). Only the
 * run itself: seeding and the other targets stay out of it.
 */
export async function profiled<T>(label: string | undefined, run: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE
  if (!dir || !label) return run()
  const session = new Session()
  const post = (method: string) =>
    new Promise<{ profile?: unknown }>((resolve, reject) =>
      session.post(method, (error: Error | null, result?: object) =>
        error ? reject(error) : resolve((result ?? {}) as { profile?: unknown }),
      ),
    )
  session.connect()
  await post('Profiler.enable')
  await post('Profiler.start')
  try {
    return await run()
  } finally {
    const { profile } = await post('Profiler.stop')
    mkdirSync(dir, { recursive: true })
    writeFileSync(path.join(dir, `${label.replace(/[^\w.-]+/g, '_')}.cpuprofile`), JSON.stringify(profile))
    session.disconnect()
  }
}

export async function runLoad(load: Load): Promise<LoadResult> {
  return profiled(load.label, () => measure(load))
}

async function measure(load: Load): Promise<LoadResult> {
  const before = process.cpuUsage()
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = execFile(process.execPath, [worker], { maxBuffer: 1 << 20 }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
    )
    child.stdin!.end(JSON.stringify(load))
  })
  const cpu = process.cpuUsage(before)
  const result = JSON.parse(stdout) as {
    rps: number
    total: number
    p50: number
    p99: number
    non2xx: number
    errors: number
  }
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${load.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return {
    rps: result.rps,
    total: result.total,
    p50: result.p50,
    p99: result.p99,
    cpuMs: result.total > 0 ? (cpu.user + cpu.system) / 1000 / result.total : 0,
  }
}
