/** npm run bench's settings, from the environment (bench/run.ts lists them), and its database. */
import pg from 'pg'

export const PG = (process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, '')
// Per process: two benches (two worktrees) at once must not drop each other's database.
export const DB = `cwa_bench_${process.pid}`
export const DURATION = Number(process.env.BENCH_SECONDS ?? 4)
export const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number)
/** Drafts published per publish variant and connection count (each PATCH publishes a fresh one). */
export const PUBLICATIONS = Number(process.env.BENCH_PUBLICATIONS ?? 200)
export const SCALE = process.argv.includes('--scale')
export const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null

/** One statement on the bench's PostgreSQL server (its own database or `postgres`). */
export async function admin(sql: string, database = 'postgres'): Promise<void> {
  const client = new pg.Client({ connectionString: `${PG}/${database}` })
  await client.connect()
  await client.query(sql)
  await client.end()
}
