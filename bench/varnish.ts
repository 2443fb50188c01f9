/**
 * The anonymous JSON-LD reads again through Varnish with the README's VCL
 * (test/support/varnish.ts starts it), each answered from its cache: what a
 * deployment with a shared cache serves, beside the direct reads. Skipped
 * when varnishd is not installed (Debian: varnish, varnish-modules).
 */
import { spawnSync } from 'node:child_process'
import { startVarnish } from '../test/support/varnish'
import { runLoad } from './cannon'
import { logQueries } from './sqlLog'
import type { ReadTarget } from './targets'

export async function benchThroughVarnish(
  base: string,
  targets: ReadTarget[],
  options: { connections: number; duration: number; direct: Map<string, number> },
): Promise<string[][]> {
  if (spawnSync('varnishd', ['-V']).status !== 0) {
    console.log(
      '\nvarnishd not found: the reads through Varnish are skipped (Debian: apt-get install varnish varnish-modules)',
    )
    return []
  }
  const port = Number(new URL(base).port)
  const varnish = await startVarnish({ servicePort: port, frontendPort: port })
  const rows: string[][] = [
    ['target via Varnish (hit)', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'direct req/s', 'x direct', 'SQL during the run'],
  ]
  try {
    for (const target of targets.filter((t) => !t.headers && t.path.startsWith('/_api/') && t.path !== '/_api/')) {
      const url = `${varnish.url}${target.path}`
      await (await fetch(url)).arrayBuffer()
      const warm = await fetch(url)
      await warm.arrayBuffer()
      if ((warm.headers.get('x-varnish') ?? '').trim().split(/\s+/).length !== 2)
        throw new Error(
          `${target.name}: not served from Varnish's cache (Cache-Control: ${warm.headers.get('cache-control')})`,
        )
      const { result, queries } = await logQueries(() =>
        runLoad({ url, connections: options.connections, duration: options.duration }),
      )
      const direct = options.direct.get(target.name)
      rows.push([
        target.name,
        String(options.connections),
        result.rps.toFixed(0),
        String(result.p50),
        String(result.p99),
        direct ? direct.toFixed(0) : '-',
        direct ? (result.rps / direct).toFixed(1) : '-',
        String(queries.length),
      ])
    }
  } finally {
    await varnish.stop()
  }
  return rows
}
