#!/usr/bin/env node
/**
 * The bench's load generator, in a process of its own so that it never
 * shares the measured server's event loop (or its CPU time). Reads one job
 * (JSON) from stdin (a few hundred publish bodies overflow argv: E2BIG), runs autocannon and prints its result as JSON.
 * `requests` (optional) are sent in turn, each once: a publish run sends
 * every draft's PATCH exactly once.
 */
import autocannon from 'autocannon'

let input = ''
for await (const chunk of process.stdin) input += chunk
const job = JSON.parse(input)
// Keys left undefined would override autocannon's own defaults.
const options = Object.fromEntries(
  Object.entries({
    url: job.url,
    connections: job.connections,
    headers: job.headers,
    method: job.method,
    body: job.body,
    ...(job.amount ? { amount: job.amount } : { duration: job.duration }),
  }).filter(([, value]) => value !== undefined),
)
if (job.requests) {
  let next = 0
  options.requests = [{ setupRequest: (request) => ({ ...request, ...job.requests[next++ % job.requests.length] }) }]
}
const result = await autocannon(options)
process.stdout.write(
  JSON.stringify({
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }),
)
