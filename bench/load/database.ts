/** The load run's database server: its own statements, and the databases of killed runs dropped. */
import pg from 'pg'
import { PG } from './settings'

export async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${PG}/postgres` })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

export /** Databases of earlier runs that were killed: their process is gone. */
async function dropLeftovers(): Promise<void> {
  const client = new pg.Client({ connectionString: `${PG}/postgres` })
  await client.connect()
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname ~ '^cwa_load_[0-9]+$'`,
    )
    for (const { datname } of rows) {
      const pid = Number(datname.slice('cwa_load_'.length))
      try {
        process.kill(pid, 0)
        continue
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') continue
      }
      await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
    }
  } finally {
    await client.end()
  }
}
