/**
 * `npm run bench` (alone: `BENCH_ONLY='read model' npm run bench`): the read
 * model's hits and misses beside Payload's path and the floor, one request
 * at a time on one connection, in one run:
 *
 * - stored: the answer served from the store (a hit);
 * - miss: the first read after a write of a record the answer names (an
 *   update through the Local API that changes nothing but its time): the
 *   lookup, Payload's path, then the store;
 * - Payload's path: today's read, after the same write, by the same
 *   instance with the read model off for that one request (an instance
 *   keeps a few things until its own next write, e.g. the next scheduled
 *   moment, so only the same instance after the same write compares);
 * - both again after a write through another instance (a second one on the
 *   same database), which this one learns nothing of;
 * - floor: the same rows by hand-written SQL (bench/floor.ts).
 *
 * And what a write pays: the statements of one edit-and-publish through the
 * JSON-LD API with the read model and without, and the store's size.
 * Ratios matter, not milliseconds: the machine is shared.
 */
import type { Server } from 'node:http'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import type { AddressInfo } from 'node:net'
import type { Payload } from 'payload'
import { buildSiteConfig } from '../payload.config'
import { closePayload, getOptions, getRegistry, loadJwtKeys, readModelSize } from 'payload-cwa'
import { createApp } from 'payload-cwa/express'
import { startPayload } from '../src/server/bootstrap'
import { profiled } from './cannon'
import { editAndPublish } from './editAndPublish'
import type { ReadTarget } from './targets'

const ROUNDS = 200
const MISSES = 60

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

// The client runs on a thread of its own (bench/timedClient.mjs): the server's work after an answer (a miss stores
// it then) must not delay the answer's arrival, as it would for a client sharing the server's event loop.
const client = new Worker(path.join(process.cwd(), 'bench', 'timedClient.mjs'))
client.unref()
let nextId = 0
const pending = new Map<number, (reply: { ms: number; status: number; source: string; error?: string }) => void>()
client.on('message', (reply: { id: number; ms: number; status: number; source: string; error?: string }) => {
  pending.get(reply.id)?.(reply)
  pending.delete(reply.id)
})

async function timed(url: string, headers?: Record<string, string>): Promise<{ ms: number; source: string }> {
  const id = nextId++
  const reply = await new Promise<{ ms: number; status: number; source: string; error?: string }>((resolve) => {
    pending.set(id, resolve)
    client.postMessage({ id, url, headers })
  })
  if (reply.error) throw new Error(`${url}: ${reply.error}`)
  if (reply.status !== 200) throw new Error(`${url} answered ${reply.status}`)
  return { ms: reply.ms, source: reply.source }
}

/** Whether the read is served from the store within a second (its fill stores beside the response). */
async function storedSoon(url: string): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if ((await timed(url)).source === 'hit') return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return false
}

/**
 * A write that drops the stored answer of `path` (under the API prefix): an
 * update, through the Local API, of the first record its tags name, which
 * changes nothing but that record's time.
 */
async function writeUnder(payload: Payload, pool: SqlPool, path: string): Promise<(by: Payload) => Promise<void>> {
  const { rows } = await pool.query<{ tags: string[] }>('SELECT tags FROM _acb_read_model WHERE path = $1', [path])
  const registry = getRegistry(payload.config)
  for (const tag of rows[0]?.tags ?? []) {
    const parsed = registry.parseIri(tag)
    if (!parsed?.id) continue
    const { slug } = parsed.resource
    const id = parsed.id
    return async (by) => {
      await by.update({ collection: slug, id, data: {}, overrideAccess: true })
    }
  }
  throw new Error(`${path}: no stored answer naming a record`)
}

/** Long enough for what a write does after its commit (purges, hub updates) to be over. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 25))

interface SqlPool {
  query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }>
}

async function p50(url: string, rounds = ROUNDS): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < rounds; i++) times.push((await timed(url)).ms)
  return median(times)
}

export async function benchReadModel(
  payload: Payload,
  databaseUrl: string,
  base: string,
  floorBase: string,
  targets: ReadTarget[],
  asAdmin: Record<string, string>,
  component: string,
): Promise<string[][]> {
  const plainPayload = await startPayload({
    config: buildSiteConfig({ databaseUrl, options: { readModel: { enabled: false } } }),
    key: 'bench-plain',
    migrate: false,
  })
  const app = createApp({ payload: plainPayload, keys: await loadJwtKeys(process.env) })
  const plainServer: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  const plainBase = `http://127.0.0.1:${(plainServer.address() as AddressInfo).port}`
  const pool: SqlPool = payload.db.pool
  const options = getOptions(payload.config)
  const rows = [
    [
      'read model',
      'stored p50',
      'miss p50',
      "Payload's path p50",
      'miss p50, write elsewhere',
      "Payload's path p50, write elsewhere",
      'floor p50',
      'stored/floor',
      'miss/path',
      'miss/path, write elsewhere',
    ],
  ]
  try {
    for (const target of targets.filter((t) => !t.headers)) {
      // The entrypoint and the documentation are not among the public reads the read model keeps.
      if (!(await storedSoon(`${base}${target.path}`))) continue
      const stored = await p50(`${base}${target.path}`)
      const storedPath = target.path.replace(/^\/_api/, '')
      const write = await writeUnder(payload, pool, storedPath)
      const url = `${base}${target.path}`
      // Each timed read follows the same few stored reads of another path: the same warmth for all (a read after
      // an idle moment is slower than one among others, whatever it is).
      const warmUp = async () => {
        for (let k = 0; k < 3; k++) await timed(`${base}/_api/_/site_config_parameters`)
      }
      /** Today's read: the same instance, in the same state, with the read model off for this one request. */
      const throughPath = async () => {
        options.readModel.enabled = false
        try {
          const read = await timed(url)
          if (read.source !== '') throw new Error(`${target.name}: the read model answered with it off`)
          return read.ms
        } finally {
          options.readModel.enabled = true
        }
      }
      const missed = async (why: string) => {
        const read = await timed(url)
        if (read.source !== 'miss') throw new Error(`${target.name}: not a miss after ${why}`)
        // Its answer is stored beside the response: let it land before the next write drops it.
        await storedSoon(url)
        return read.ms
      }
      /**
       * A write, then one timed read. Here: through this instance (its answer dropped in the write's transaction).
       * Elsewhere: through the other instance, whose
       * read model is off, then the answer dropped in SQL as that instance's write would drop it (this instance
       * knows nothing of it). Each read after what the writes do after their commit (purges, hub updates).
       */
      const after = async (where: 'here' | 'elsewhere', read: () => Promise<number>) => {
        if (where === 'here') await write(payload)
        else {
          await write(plainPayload)
          await pool.query('DELETE FROM _acb_read_model WHERE path = $1', [storedPath])
        }
        await settle()
        await warmUp()
        return read()
      }
      const times = {
        miss: [] as number[],
        path: [] as number[],
        missElsewhere: [] as number[],
        pathElsewhere: [] as number[],
      }
      for (let i = 0; i < MISSES; i++) {
        // In turn first and second: the same conditions for a miss and today's read.
        const pairs: Array<() => Promise<void>> = [
          async () => void times.miss.push(await after('here', () => missed('a write'))),
          async () => void times.path.push(await after('here', throughPath)),
        ]
        const elsewhere: Array<() => Promise<void>> = [
          async () => void times.missElsewhere.push(await after('elsewhere', () => missed('a write elsewhere'))),
          async () => void times.pathElsewhere.push(await after('elsewhere', throughPath)),
        ]
        for (const step of i % 2 === 0 ? pairs : pairs.reverse()) await step()
        await storedSoon(url)
        for (const step of i % 2 === 0 ? elsewhere : elsewhere.reverse()) await step()
        await storedSoon(url)
      }
      // BENCH_PROFILE=<dir>: a CPU profile of misses alone (each after a write), for what a miss spends.
      await profiled(`read model misses, ${target.name}`, async () => {
        if (!process.env.BENCH_PROFILE) return
        for (let i = 0; i < MISSES; i++) await after('here', () => missed('a write'))
      })
      const floor = target.floor ? await p50(`${floorBase}${target.floor}`) : null
      const [miss, path, missElsewhere, pathElsewhere] = [
        times.miss,
        times.path,
        times.missElsewhere,
        times.pathElsewhere,
      ].map(median) as [number, number, number, number]
      rows.push([
        target.name,
        stored.toFixed(2),
        miss.toFixed(2),
        path.toFixed(2),
        missElsewhere.toFixed(2),
        pathElsewhere.toFixed(2),
        floor === null ? '-' : floor.toFixed(2),
        floor === null ? '-' : (stored / floor).toFixed(2),
        (miss / path).toFixed(2),
        (missElsewhere / pathElsewhere).toFixed(2),
      ])
    }
    const withModel = (await editAndPublish(base, asAdmin, component)).length
    const without = (await editAndPublish(plainBase, asAdmin, component)).length
    const size = await readModelSize(payload)
    rows.push([
      `a write (edit + publish of a component): ${withModel} statements with the read model, ${without} without; store: ${size.entries} answers, ${(size.bodyBytes / 1024).toFixed(0)} KiB of bodies, ${(size.diskBytes / 1024).toFixed(0)} KiB on disk`,
      ...new Array<string>(9).fill(''),
    ])
  } finally {
    await new Promise((resolve) => plainServer.close(resolve))
    await closePayload(plainPayload)
  }
  return rows
}
