/**
 * A real PostgreSQL primary with a streaming replica, on loopback, for the
 * read-replica tests: Debian's PostgreSQL binaries make a new cluster (the
 * primary), `pg_basebackup -R` copies it into a second one that follows it
 * as a hot standby, each on its own port. Both run as the `postgres` user
 * when the tests run as root (PostgreSQL refuses root), and are stopped and
 * removed by `stop()`.
 */
import { execFileSync } from 'node:child_process'
import { appendFileSync, chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { freePort } from './site'

/** Where Debian puts the server binaries (the newest installed major version). */
function binDir(): string {
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root)
    ? execFileSync('ls', [root], { encoding: 'utf8' })
        .split('\n')
        .filter((v) => /^\d+$/.test(v) && existsSync(path.join(root, v, 'bin', 'pg_basebackup')))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (versions.length === 0)
    throw new Error(`no PostgreSQL server binaries under ${root} (Debian's postgresql package)`)
  return path.join(root, versions[0]!, 'bin')
}

/** Runs a PostgreSQL program, as the postgres user when this process is root. */
function run(program: string, args: string[]): string {
  const bin = path.join(binDir(), program)
  const asRoot = process.getuid?.() === 0
  return execFileSync(asRoot ? 'runuser' : bin, asRoot ? ['-u', 'postgres', '--', bin, ...args] : args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

export interface Replication {
  /** postgres://...:<port>/<database> of the primary and the replica. */
  primaryUrl(database: string): string
  replicaUrl(database: string): string
  /** A query on the replica (a standby: reads only). */
  onReplica<T extends pg.QueryResultRow>(database: string, text: string): Promise<T[]>
  /** Stops applying the primary's changes on the replica (it keeps receiving them), and starts again. */
  pauseReplay(): Promise<void>
  resumeReplay(): Promise<void>
  stop(): void
}

export async function startReplication(): Promise<Replication> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cwa-replication-'))
  chmodSync(dir, 0o777)
  const primaryData = path.join(dir, 'primary')
  const replicaData = path.join(dir, 'replica')
  const [primaryPort, replicaPort] = [await freePort(), await freePort()]
  const started: string[] = []
  const stop = () => {
    for (const data of started.reverse()) {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop'])
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    run('initdb', ['-D', primaryData, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C'])
    // Streaming replication is on by default (wal_level replica, max_wal_senders 10, replication allowed from
    // loopback with trust); fsync off: a test cluster.
    appendFileSync(
      path.join(primaryData, 'postgresql.conf'),
      `\nlisten_addresses = '127.0.0.1'\nport = ${primaryPort}\nunix_socket_directories = '${dir}'\nfsync = off\n`,
    )
    run('pg_ctl', ['-D', primaryData, '-l', path.join(dir, 'primary.log'), '-w', 'start'])
    started.push(primaryData)
    run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaData, '-R'])
    appendFileSync(path.join(replicaData, 'postgresql.conf'), `\nport = ${replicaPort}\nhot_standby = on\n`)
    run('pg_ctl', ['-D', replicaData, '-l', path.join(dir, 'replica.log'), '-w', 'start'])
    started.push(replicaData)
  } catch (error) {
    stop()
    throw error
  }
  const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`
  const onReplica = async <T extends pg.QueryResultRow>(database: string, text: string) => {
    const client = new pg.Client({ connectionString: url(replicaPort, database) })
    await client.connect()
    try {
      return (await client.query<T>(text)).rows
    } finally {
      await client.end()
    }
  }
  return {
    primaryUrl: (database) => url(primaryPort, database),
    replicaUrl: (database) => url(replicaPort, database),
    onReplica,
    pauseReplay: async () => void (await onReplica('postgres', 'SELECT pg_wal_replay_pause()')),
    resumeReplay: async () => void (await onReplica('postgres', 'SELECT pg_wal_replay_resume()')),
    stop,
  }
}
