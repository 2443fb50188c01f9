import type { IncomingMessage, ServerResponse } from 'node:http'

/** Where an instance is in its life, as its readiness says it. */
export type Phase = 'starting' | 'ready' | 'draining'

const LIVE = '/_health/live'
const READY = '/_health/ready'

/**
 * A load balancer's two questions, answered before anything else (no session,
 * no database, nothing cached):
 * - `GET /_health/live`: 200 while the process runs (an orchestrator restarts
 *   it when this stops answering);
 * - `GET /_health/ready`: 200 once the APIs answer, 503 (`Retry-After: 5`)
 *   while the instance starts (database, migrations, seed) and once it drains
 *   after SIGTERM.
 * The body names the state only (`{"status":"ready"}`): no version, host or
 * dependency detail. Returns whether it answered.
 */
export function answerHealth(req: IncomingMessage, res: ServerResponse, phase: Phase): boolean {
  const path = (req.url ?? '').split('?')[0]
  if (path !== LIVE && path !== READY) return false
  res.setHeader('Cache-Control', 'no-store')
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.statusCode = 405
    res.setHeader('Allow', 'GET, HEAD')
    res.end()
    return true
  }
  const ok = path === LIVE || phase === 'ready'
  res.statusCode = ok ? 200 : 503
  if (!ok) res.setHeader('Retry-After', '5')
  res.setHeader('Content-Type', 'application/json')
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ status: path === LIVE ? 'alive' : phase }))
  return true
}
