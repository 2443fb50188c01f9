import { sql, type PostgresAdapter } from '@payloadcms/db-postgres'
import { commitTransaction, initTransaction, killTransaction, type Payload, type PayloadRequest } from 'payload'

export { sql }
/** A drizzle SQL chunk (what the `sql` tag builds, or an identifier). */
export type SqlChunk = ReturnType<typeof sql> | ReturnType<typeof sql.identifier>
export type Sql = ReturnType<typeof sql>
/** The adapter's node-postgres pool, typed by the adapter's own copy of the `pg` typings (what `payload.db.pool` is). */
export type AdapterPool = PostgresAdapter['pool']

export interface SqlExecutor {
  execute(query: unknown): Promise<{ rows: unknown[] }>
}

interface Adapter {
  drizzle: SqlExecutor
  sessions?: Record<string, { db: unknown }>
}

/**
 * The executor of the request's open transaction when there is one (so raw
 * SQL sees, and commits or rolls back with, the request's own writes), else
 * the pool's.
 */
export async function sqlExecutor(payload: Payload, req?: PayloadRequest): Promise<SqlExecutor> {
  const adapter: Adapter = payload.db
  const transactionID = req ? await req.transactionID : undefined
  const session =
    transactionID !== undefined && transactionID !== null ? adapter.sessions?.[String(transactionID)]?.db : undefined
  // cast: Payload types a session's db as unknown (any adapter); the PostgreSQL adapter's is a drizzle transaction
  return (session as SqlExecutor | undefined) ?? adapter.drizzle
}

/** Runs one statement (in the request's transaction, see sqlExecutor) and returns its rows. */
export async function runSql<T>(payload: Payload, query: Sql, req?: PayloadRequest): Promise<T[]> {
  return (await (await sqlExecutor(payload, req)).execute(query)).rows as T[]
}

/**
 * Runs `fn` in one transaction on `req`: a new one, committed or rolled back
 * here, unless the caller (a hook, a form submit) holds one already. Every
 * Local API call inside must pass `req`.
 */
export async function inTransaction<T>(req: PayloadRequest, fn: () => Promise<T>): Promise<T> {
  let started = false
  try {
    started = await initTransaction(req)
    const result = await fn()
    if (started) await commitTransaction(req)
    return result
  } catch (error) {
    if (started) await killTransaction(req)
    throw error
  }
}

/** A statement's text and parameters, some of them placeholders (`sql.placeholder(name)`) filled at each run. */
export interface BuiltStatement {
  sql: string
  params: unknown[]
}

interface Dialect {
  sqlToQuery(query: Sql): BuiltStatement
}

interface PreparingExecutor {
  session: {
    prepareQuery(
      query: BuiltStatement,
      fields: undefined,
      name: undefined,
      arrayMode: false,
    ): { execute(values: Record<string, unknown>): Promise<{ rows: unknown[] }> }
  }
}

const built = new WeakMap<Payload, Map<string, BuiltStatement>>()
/** Shapes kept per site: keys are meant to be few; past this a new shape is built on each run, never kept. */
const MAX_BUILT = 500

/**
 * A statement whose text depends only on `key` (and the site's schema), built
 * from drizzle's query objects once per process instead of on every request:
 * turning them into text costs more CPU than the rest of a manifest read.
 * Whatever varies between runs goes in as `sql.placeholder(name)`, filled
 * from `values`; runs in the request's transaction like runSql.
 */
export async function runBuiltSql<T>(
  payload: Payload,
  key: string,
  build: () => Sql,
  values: Record<string, unknown>,
  req?: PayloadRequest,
): Promise<T[]> {
  let byKey = built.get(payload)
  if (!byKey) built.set(payload, (byKey = new Map()))
  let statement = byKey.get(key)
  if (!statement) {
    // cast: drizzle's `dialect` is @internal, left out of its published types
    const dialect = (payload.db as unknown as { drizzle: { dialect: Dialect } }).drizzle.dialect
    statement = dialect.sqlToQuery(build())
    if (byKey.size < MAX_BUILT) byKey.set(key, statement)
  }
  // cast: drizzle's `session` (and its prepareQuery) is @internal, left out of its published types
  const executor = (await sqlExecutor(payload, req)) as unknown as PreparingExecutor
  return (await executor.session.prepareQuery(statement, undefined, undefined, false).execute(values)).rows as T[]
}
