/**
 * `npm run load -- --instances N`: N instances of the reference site's start script on one database, behind a
 * small round-robin proxy on loopback, as a load balancer runs them: a target leaves the rotation before it is
 * stopped (deregistration), and comes back once `/_health/ready` says 200. One instance is restarted gracefully
 * in the middle of the run (SIGTERM: it drains and exits 0, then starts again), which must cost no request.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { Agent, createServer, request, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createServer as createNetServer } from 'node:net'
import { readFileSync } from 'node:fs'
import path from 'node:path'

/** CPU milliseconds a process has used (Linux /proc: user + system clock ticks, 100 per second). */
export function cpuMsOf(pid: number | undefined): number {
  if (!pid) return 0
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0
  }
}

export interface Instance {
  label: string
  port: number
  child: ChildProcess
  output: () => string
  /** Requests the proxy has sent it and not yet answered. */
  inFlight: number
  inRotation: boolean
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

async function ready(port: number, child: ChildProcess, output: () => string, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`an instance exited with ${child.exitCode} while starting:\n${output()}`)
    const status = await fetch(`http://127.0.0.1:${port}/_health/ready`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status,
      () => 0,
    )
    if (status === 200) return
    if (Date.now() > deadline) throw new Error(`an instance was not ready after ${timeoutMs} ms:\n${output()}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Starts the site's start script (admin panel off, no seed: the caller seeded) and waits until it is ready. */
export async function startInstance(label: string, env: Record<string, string>, port?: number): Promise<Instance> {
  const chosen = port ?? (await freePort())
  let output = ''
  const child = spawn(process.execPath, [path.resolve('scripts', 'start.mjs')], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      HOST: '127.0.0.1',
      PORT: String(chosen),
      ADMIN_PANEL: '0',
      SEED_DEMO: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  await ready(chosen, child, () => output)
  return { label, port: chosen, child, output: () => output, inFlight: 0, inRotation: true }
}

/** SIGTERM, as an orchestrator stops it; resolves with its exit code. */
export function stopInstance(instance: Instance): Promise<number | null> {
  if (instance.child.exitCode !== null) return Promise.resolve(instance.child.exitCode)
  const exited = new Promise<number | null>((resolve) => instance.child.once('exit', (code) => resolve(code)))
  instance.child.kill('SIGTERM')
  return exited
}

export interface Proxy {
  base: string
  /** Requests sent again to another instance after a connection failed before any answer. */
  retried: () => number
  close: () => Promise<void>
}

/**
 * Round robin over the instances in rotation. A request whose connection fails before any answer (an instance
 * that just went away) is sent to the next one, as a load balancer retries an idempotent attempt that never
 * reached the application; its body is buffered for that.
 */
export async function startProxy(instances: Instance[]): Promise<Proxy> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  let next = 0
  let retried = 0
  const pick = (): Instance | undefined => {
    const candidates = instances.filter((i) => i.inRotation)
    if (candidates.length === 0) return undefined
    return candidates[next++ % candidates.length]
  }
  const server: Server = createServer((req, res) => {
    const chunks: Uint8Array[] = []
    req.on('data', (chunk: Uint8Array) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const attempt = (left: number) => {
        const target = pick()
        if (!target) {
          res.writeHead(503, { 'retry-after': '1' }).end('no instance in rotation\n')
          return
        }
        target.inFlight++
        let done = false
        const finish = () => {
          if (!done) {
            done = true
            target.inFlight--
          }
        }
        const upstream = request(
          {
            host: '127.0.0.1',
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, 'content-length': String(body.length) },
            agent,
          },
          (answer: IncomingMessage) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
            answer.once('end', finish)
            answer.once('error', finish)
          },
        )
        upstream.once('error', (error) => {
          finish()
          if (res.headersSent) return res.destroy(error)
          if (left > 0) {
            retried++
            return attempt(left - 1)
          }
          res.writeHead(502).end(`${error.message}\n`)
        })
        upstream.end(body)
      }
      attempt(instances.length)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    retried: () => retried,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      agent.destroy()
    },
  }
}

export interface Restart {
  label: string
  exitCode: number | null
  drainedMs: number
  downMs: number
  /** The CPU the stopped process had used when it was signalled. */
  stoppedCpuMs: number
}

/**
 * A graceful rolling restart of one instance: out of the rotation first, its in-flight requests finished (at most
 * 5 s), SIGTERM, its exit awaited, started again on the same port, back in the rotation once ready.
 */
export async function rollingRestart(instance: Instance, env: Record<string, string>): Promise<Restart> {
  const started = Date.now()
  instance.inRotation = false
  const drainDeadline = Date.now() + 5_000
  while (instance.inFlight > 0 && Date.now() < drainDeadline) await new Promise((r) => setTimeout(r, 20))
  const drainedMs = Date.now() - started
  const stoppedCpuMs = cpuMsOf(instance.child.pid)
  const exitCode = await stopInstance(instance)
  const again = await startInstance(instance.label, env, instance.port)
  Object.assign(instance, { child: again.child, output: again.output, inFlight: 0, inRotation: true })
  return { label: instance.label, exitCode, drainedMs, downMs: Date.now() - started, stoppedCpuMs }
}
