/**
 * The load generator of `npm run load`, run by bench/load.ts as a child
 * process (through scripts/start.mjs) so that sending and checking requests
 * never competes with the server for its event loop. It receives the plan
 * over IPC, runs autocannon with one ClientWorkload per connection (each
 * connection gets its own hooks through setupClient), and sends back the
 * figures, the states the records must end in and the violations it saw.
 */
import autocannon from 'autocannon'
import { LoadRecorder } from './recorder'
import { ClientWorkload, type CannonRequest } from './workload'
import type { LoadOutcome, LoadPlan } from './types'
import { READ_KINDS, WRITE_KINDS } from './types'

/** The parts of autocannon used here (types/autocannon.d.ts declares only the basic call). */
interface CannonClient {
  setRequests(
    requests: Array<{
      setupRequest(request: CannonRequest): CannonRequest
      onResponse(status: number, body: string): void
    }>,
  ): void
}
interface CannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number }
  errors: number
  timeouts: number
}
const cannon = autocannon as unknown as (options: {
  url: string
  connections: number
  duration: number
  timeout: number
  requests: CannonRequest[]
  setupClient(client: CannonClient): void
}) => Promise<CannonResult>

export async function generate(plan: LoadPlan): Promise<LoadOutcome> {
  const recorder = new LoadRecorder()
  for (const record of plan.writable) recorder.startsWith(record.id, record.html)
  const workloads: ClientWorkload[] = []
  const started = performance.now()
  const result = await cannon({
    url: plan.base,
    connections: plan.connections,
    duration: plan.seconds,
    timeout: plan.timeout,
    // Replaced per connection in setupClient (autocannon builds the first request before that).
    requests: [{ method: 'GET', path: '/_api/', headers: {} }],
    setupClient(client) {
      const workload = new ClientWorkload(workloads.length, plan, recorder)
      workloads.push(workload)
      client.setRequests([
        {
          setupRequest: (request) => ({ ...request, ...workload.next(performance.now()) }),
          onResponse: (status, body) => workload.answered(status, body, performance.now()),
        },
      ])
    },
  })
  const seconds = (performance.now() - started) / 1000
  for (const workload of workloads) workload.finish()
  const kinds = Object.fromEntries(
    [...READ_KINDS, ...WRITE_KINDS].map((kind) => [kind, recorder.figures(kind)]),
  ) as LoadOutcome['kinds']
  return {
    seconds,
    cannon: {
      total: result.requests.total,
      average: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors,
      timeouts: result.timeouts,
    },
    kinds,
    reads: recorder.percentiles(READ_KINDS),
    writes: recorder.percentiles(WRITE_KINDS),
    unanswered: recorder.unanswered,
    cutOff: recorder.cutOff,
    acknowledgedWrites: recorder.acknowledgedWrites,
    scannedBodies: recorder.scannedBodies,
    staleChecked: recorder.versions.judged,
    expected: [...recorder.expected],
    violations: recorder.violations.samples,
    violationCounts: Object.fromEntries(recorder.violations.counts),
  }
}

// Run as the child: one plan in, one outcome out.
if (process.send) {
  process.once('message', (plan: LoadPlan) => {
    generate(plan).then(
      (outcome) => process.send!({ outcome }, () => process.exit(0)),
      (error: Error) => process.send!({ error: error.stack ?? String(error) }, () => process.exit(1)),
    )
  })
}
