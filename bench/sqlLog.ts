/**
 * The bench's view of SQL: every query the server sends while a log is open
 * (pg's Client.query, which Payload's adapter and our raw SQL both use), with
 * its text, values and time, so each target reports its query count, and
 * BENCH_SQL / BENCH_EXPLAIN can show the statements and their plans.
 */
import pg from 'pg'

export interface LoggedQuery {
  text: string
  values: unknown[]
  ms: number
}

let open: LoggedQuery[] | null = null
const originalQuery = pg.Client.prototype.query

pg.Client.prototype.query = function loggedQuery(this: pg.Client, ...args: unknown[]) {
  const log = open
  if (!log) return (originalQuery as (...a: unknown[]) => unknown).apply(this, args)
  const config = args[0] as { text?: string; values?: unknown[]; callback?: (...r: unknown[]) => unknown }
  const entry: LoggedQuery = {
    text: String(config?.text ?? config),
    values: (config?.values ?? (Array.isArray(args[1]) ? args[1] : [])) as unknown[],
    ms: 0,
  }
  log.push(entry)
  const started = performance.now()
  const done = () => (entry.ms = performance.now() - started)
  const last = args.length - 1
  if (typeof args[last] === 'function') {
    const callback = args[last] as (...r: unknown[]) => unknown
    args[last] = (...r: unknown[]) => (done(), callback(...r))
  } else if (config && typeof config.callback === 'function') {
    const callback = config.callback
    config.callback = (...r: unknown[]) => (done(), callback(...r))
  }
  const result = (originalQuery as (...a: unknown[]) => unknown).apply(this, args)
  if (result instanceof Promise) void result.then(done, () => {})
  return result
} as typeof pg.Client.prototype.query

/** Logs the queries `fn` makes (nothing else may query meanwhile). */
export async function logQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: LoggedQuery[] }> {
  const queries: LoggedQuery[] = []
  open = queries
  try {
    return { result: await fn(), queries }
  } finally {
    open = null
  }
}

/** EXPLAIN (ANALYZE) of each query on a connection of its own: planning and execution time, and the plan. */
export async function explain(databaseUrl: string, queries: LoggedQuery[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const out: string[] = []
  try {
    for (const query of queries) {
      if (!/^\s*(select|with)\b/i.test(query.text)) continue
      const run = originalQuery as unknown as (
        this: pg.Client,
        text: string,
        values: unknown[],
      ) => Promise<{ rows: Array<{ 'QUERY PLAN': string }> }>
      const { rows } = await run.call(client, `EXPLAIN (ANALYZE, COSTS OFF) ${query.text}`, query.values)
      out.push(rows.map((r) => r['QUERY PLAN']).join('\n'))
    }
  } finally {
    await client.end()
  }
  return out
}
