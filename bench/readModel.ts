/**
 * `npm run bench` (alone: `BENCH_ONLY='read model' npm run bench`): the read
 * model's hits and misses beside Payload's path and the floor, one request
 * at a time on one connection, in one run:
 *
 * - stored: the answer served from the store (a hit);
 * - miss: the first read after the store lost it (the lookup, Payload's path,
 *   the store);
 * - Payload's path: the same read by a second instance on the same database
 *   with the read model off (today's read), timed beside each miss;
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
import { closePayload, loadJwtKeys, readModelSize } from 'payload-cwa'
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
  const pool = (payload.db as unknown as { pool: { query(text: string): Promise<unknown> } }).pool
  const rows = [
    ['read model', 'stored p50', 'miss p50', "Payload's path p50", 'floor p50', 'stored/floor', 'miss/path'],
  ]
  try {
    for (const target of targets.filter((t) => !t.headers)) {
      // The entrypoint and the documentation are not among the public reads the read model keeps.
      if (!(await storedSoon(`${base}${target.path}`))) continue
      const stored = await p50(`${base}${target.path}`)
      // A miss and Payload's path measured side by side, in alternating order, each after the same hits: the
      // same warmth for both (a path read 60 times in a row runs warmer than a miss among hits ever does).
      const missTimes: number[] = []
      const pathTimes: number[] = []
      for (let i = 0; i < MISSES; i++) {
        await pool.query('DELETE FROM _acb_read_model')
        const reads = [
          async () => {
            const miss = await timed(`${base}${target.path}`)
            if (miss.source !== 'miss') throw new Error(`${target.name}: not a miss after emptying the store`)
            missTimes.push(miss.ms)
          },
          async () => pathTimes.push((await timed(`${plainBase}${target.path}`)).ms),
        ]
        for (const read of i % 2 === 0 ? reads : reads.reverse()) await read()
        // Its answer is stored beside the response: let it land before the store is emptied again.
        await storedSoon(`${base}${target.path}`)
      }
      // BENCH_PROFILE=<dir>: a CPU profile of misses alone (each after emptying the store), for what a miss spends.
      await profiled(`read model misses, ${target.name}`, async () => {
        if (!process.env.BENCH_PROFILE) return
        for (let i = 0; i < MISSES; i++) {
          await pool.query('DELETE FROM _acb_read_model')
          await timed(`${base}${target.path}`)
          // Its store lands beside it (in the profile too), before the next miss empties the store.
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      })
      const missed = median(missTimes)
      const path = median(pathTimes)
      const floor = target.floor ? await p50(`${floorBase}${target.floor}`) : null
      rows.push([
        target.name,
        stored.toFixed(2),
        missed.toFixed(2),
        path.toFixed(2),
        floor === null ? '-' : floor.toFixed(2),
        floor === null ? '-' : (stored / floor).toFixed(2),
        (missed / path).toFixed(2),
      ])
    }
    const withModel = (await editAndPublish(base, asAdmin, component)).length
    const without = (await editAndPublish(plainBase, asAdmin, component)).length
    const size = await readModelSize(payload)
    rows.push([
      `a write (edit + publish of a component): ${withModel} statements with the read model, ${without} without; store: ${size.entries} answers, ${(size.bodyBytes / 1024).toFixed(0)} KiB of bodies, ${(size.diskBytes / 1024).toFixed(0)} KiB on disk`,
      '',
      '',
      '',
      '',
      '',
      '',
    ])
  } finally {
    await new Promise((resolve) => plainServer.close(resolve))
    await closePayload(plainPayload)
  }
  return rows
}
