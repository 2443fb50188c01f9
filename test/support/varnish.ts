import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * A real Varnish (Debian's varnishd with the xkey vmod) on a loopback port,
 * running the VCL of the README with its backend ports pointed at the
 * test's servers. A private work directory (-n) per instance, so runs never
 * share state; as root, varnishd drops to its own users, so the directory
 * and the VCL file are world-readable.
 */

export interface TestVarnish {
  url: string
  port: number
  stop(): Promise<void>
}

// Next to this file's repository root; from the root when bundled (npm run bench).
const README =
  [fileURLToPath(new URL('../../README.md', import.meta.url)), path.resolve(process.cwd(), 'README.md')].find((file) =>
    existsSync(file),
  ) ?? 'README.md'

/** The VCL block of the README. */
export function readmeVcl(): string {
  const match = /```vcl\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))
  if (!match) throw new Error('README.md has no ```vcl block')
  return match[1]!
}

/** A port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`varnishd exited (${child.exitCode}): ${log()}`)
    try {
      const response = await fetch(`http://127.0.0.1:${port}/__varnish_ready`, {
        method: 'PURGE',
        headers: { 'xkey-purge': 'none' },
      })
      await response.arrayBuffer()
      return
    } catch {
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  throw new Error(`varnishd did not answer on ${port}: ${log()}`)
}

export async function startVarnish({
  port,
  servicePort,
  frontendPort,
}: {
  port?: number
  servicePort: number
  frontendPort: number
}): Promise<TestVarnish> {
  const listen = port ?? (await freePort())
  const dir = mkdtempSync(path.join(tmpdir(), 'cwa-varnish-'))
  chmodSync(dir, 0o755)
  const vcl = readmeVcl()
    .replace(/(backend service \{[^}]*\.port = ")\d+(")/, `$1${servicePort}$2`)
    .replace(/(backend frontend \{[^}]*\.port = ")\d+(")/, `$1${frontendPort}$2`)
  const vclFile = path.join(dir, 'default.vcl')
  writeFileSync(vclFile, vcl, { mode: 0o644 })
  const args = [
    '-F',
    '-n',
    path.join(dir, 'work'),
    '-a',
    `127.0.0.1:${listen}`,
    '-f',
    vclFile,
    '-s',
    'malloc,64m',
    '-p',
    'http_resp_hdr_len=65536',
    '-p',
    'http_resp_size=131072',
  ]
  const child = spawn('varnishd', args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  await waitForPort(listen, child, () => output)
  return {
    url: `http://127.0.0.1:${listen}`,
    port: listen,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
