/** npm run load's settings, from the environment and its command line (bench/load.ts lists them). */

export const PG = (process.env.LOAD_PG_URL ?? process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(
  /\/+$/,
  '',
)
export const DB = `cwa_load_${process.pid}`

/** A whole number from the environment within bounds: the load is always bounded. */
function bounded(name: string, fallback: number, max: number): number {
  const raw = process.env[name]
  const value = raw === undefined || raw === '' ? fallback : Number(raw)
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new Error(`${name} must be a whole number from 1 to ${max} (got "${raw}")`)
  return value
}

export const SECONDS = bounded('LOAD_SECONDS', 60, 3600)
export const CONNECTIONS = bounded('LOAD_CONNECTIONS', 50, 1000)
/** Seconds a request may take before it counts as unanswered (a violation). */
export const TIMEOUT = bounded('LOAD_TIMEOUT', 10, 600)
/** 0: the site in this process; N: N instances of the start script behind a proxy. */
export const INSTANCES = (() => {
  const flag = process.argv.indexOf('--instances')
  const raw = flag >= 0 ? process.argv[flag + 1] : process.env.LOAD_INSTANCES
  if (raw === undefined || raw === '') return 0
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1 || value > 8)
    throw new Error(`--instances must be a whole number from 1 to 8 (got "${raw}")`)
  return value
})()
