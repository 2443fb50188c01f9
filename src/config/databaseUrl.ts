export const DEFAULT_EMBEDDED_PORT = 54329

/** The URL of the embedded server (what the config uses when DATABASE_URL is unset). */
export function embeddedDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return `postgres://postgres:postgres@127.0.0.1:${Number(env.EMBEDDED_POSTGRES_PORT ?? DEFAULT_EMBEDDED_PORT)}/cwa`
}

/**
 * The read replicas of DATABASE_URL (DATABASE_REPLICA_URLS, comma-separated
 * PostgreSQL URLs), for the adapter's `readReplicas`; undefined when unset.
 * Anonymous reads go to them; see docs/scaling.md#read-replicas.
 */
export function replicaUrls(env: Record<string, string | undefined> = process.env): string[] | undefined {
  const raw = env.DATABASE_REPLICA_URLS?.trim()
  if (!raw) return undefined
  if (!env.DATABASE_URL) {
    throw new Error('DATABASE_REPLICA_URLS needs DATABASE_URL (the primary): the embedded database has no replicas')
  }
  return raw.split(',').map((entry, index) => {
    const url = entry.trim()
    let protocol = ''
    try {
      protocol = new URL(url).protocol
    } catch {
      // reported below
    }
    if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
      throw new Error(`DATABASE_REPLICA_URLS: entry ${index + 1} is not a postgres:// URL`)
    }
    return url
  })
}
