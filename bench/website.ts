/**
 * `npm run bench` (alone: `BENCH_ONLY=website npm run bench`): the reference site's own website, served by
 * `npm start`'s process (the Next.js app and the API in one process, the read model on), against the API's own
 * manifest read of the same page, in one run at 10 connections (issue 39's goal: pages/s at least half of the
 * manifest reads/s), with the time to the first byte (p50, p99) of each: the page as visitors get it (kept in the
 * read model, src/server/websitePages.ts) and rendered for each request (a query string is never kept). The client runs in a process of its own
 * (bench/websiteWorker.mjs). Ratios matter, not the machine's figures.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'

const root = process.cwd()

interface Loaded {
  url: string
  failed: string | null
  perSecond: number
  ttfbP50: number
  ttfbP99: number
  p50: number
  p99: number
}

function loadUrls(urls: string[], connections: number, duration: number): Promise<Loaded[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [path.join(root, 'bench', 'websiteWorker.mjs')],
      { maxBuffer: 1 << 20 },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(JSON.parse(out))),
    )
    child.stdin!.end(JSON.stringify({ urls, connections, duration }))
  })
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

async function until(check: () => Promise<boolean>, what: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 300_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the site stopped before ${what}:\n${output().slice(-3000)}`)
    if (await check().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`the site did not serve ${what} in 300 s:\n${output().slice(-3000)}`)
}

export async function benchWebsite(
  databaseUrl: string,
  { duration, idle }: { duration: number; idle: () => Promise<void> },
): Promise<string[][]> {
  if (!existsSync(path.join(root, '.next', 'BUILD_ID')))
    throw new Error('the website is not built: run `npm run build:admin` (npm install builds it)')
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let output = ''
  const child = spawn(process.execPath, ['--enable-source-maps', 'scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), ADMIN_PANEL: '1', CWA_JOBS_RUNNER: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  try {
    await until(
      async () => (await fetch(`${base}/`)).status === 200,
      'its home page',
      child,
      () => output,
    )
    const page = `${base}/`
    // A query string is never kept (src/server/websitePages.ts): the same page rendered for each request.
    const renderedEachTime = `${base}/?rendered=each-time`
    const manifest = `${base}/_api/_/resource_manifest/%2F`
    // Warm: the read model stores an answer at its second miss; the Next.js app compiles nothing at run time.
    await loadUrls([page, renderedEachTime, manifest], 2, 1)
    await idle()
    const [rendered, fresh, read] = await loadUrls([page, renderedEachTime, manifest], 10, duration)
    for (const result of [rendered!, fresh!, read!])
      if (result.failed) throw new Error(`website bench: ${result.failed}`)
    const row = (name: string, result: Loaded) => [
      name,
      '10',
      result.perSecond.toFixed(1),
      result.ttfbP50.toFixed(1),
      result.ttfbP99.toFixed(1),
      result.p50.toFixed(1),
      result.p99.toFixed(1),
    ]
    return [
      ['website (home, npm start)', 'conn', 'per s', 'TTFB p50 ms', 'TTFB p99 ms', 'p50 ms', 'p99 ms'],
      row('page, kept in the read model', rendered!),
      row('page, rendered for each request', fresh!),
      row('its manifest, read from the API', read!),
      ['kept pages/s ÷ manifest reads/s', '', (rendered!.perSecond / read!.perSecond).toFixed(2), '', '', '', ''],
      ['rendered pages/s ÷ manifest reads/s', '', (fresh!.perSecond / read!.perSecond).toFixed(2), '', '', '', ''],
    ]
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))
  }
}
