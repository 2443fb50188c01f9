export const DEFAULT_EMBEDDED_PORT = 54329

/** The URL of the embedded server (what the config uses when DATABASE_URL is unset). */
export function embeddedDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return `postgres://postgres:postgres@127.0.0.1:${Number(env.EMBEDDED_POSTGRES_PORT ?? DEFAULT_EMBEDDED_PORT)}/cwa`
}
