import type { IncomingMessage, ServerResponse } from 'node:http'
import type { DatabaseProbe } from './databaseProbe'

/** Where an instance is in its life, as its readiness says it. */
export type Phase = 'starting' | 'ready' | 'draining'

const LIVE = '/_health/live'
const READY = '/_health/ready'

/**
 * A load balancer's two questions, answered before anything else (no session,
 * nothing cached):
 * - `GET /_health/live`: 200 while the process runs (an orchestrator restarts
 *   it when this stops answering; a database outage is no reason to: the
 *   site recovers by itself once the database is back);
 * - `GET /_health/ready`: 200 once the APIs answer and while the database
 *   answers (`database`: one shared probe, reused for a second, see
 *   databaseProbe.ts); 503 (`Retry-After: 5`) while the instance starts
 *   (database, migrations, seed), while the database is unreachable
 *   (`unavailable`), and from the moment a stop begins (`draining`).
 * The body names the state only (`{"status":"ready"}`): no version, host or
 * dependency detail. Returns whether it answered (the answer itself may
 * follow once the probe has).
 */
export function answerHealth(
  req: IncomingMessage,
  res: ServerResponse,
  phase: Phase,
  database?: DatabaseProbe,
): boolean {
  const path = (req.url ?? '').split('?')[0]
  if (path !== LIVE && path !== READY) return false
  res.setHeader('Cache-Control', 'no-store')
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.statusCode = 405
    res.setHeader('Allow', 'GET, HEAD')
    res.end()
    return true
  }
  if (path === LIVE) send(req, res, 200, 'alive')
  else if (phase !== 'ready' || !database) send(req, res, phase === 'ready' ? 200 : 503, phase)
  else
    void database
      .reachable()
      .then((reachable) => (reachable ? send(req, res, 200, 'ready') : send(req, res, 503, 'unavailable')))
  return true
}

function send(req: IncomingMessage, res: ServerResponse, status: number, state: string): void {
  if (res.writableEnded || res.destroyed) return
  res.statusCode = status
  if (status === 503) res.setHeader('Retry-After', '5')
  res.setHeader('Content-Type', 'application/json')
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ status: state }))
}
