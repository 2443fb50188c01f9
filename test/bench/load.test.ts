/**
 * `npm run load`, briefly (3 s on 5 connections), as a user runs it: the
 * script itself through scripts/start.mjs, its load generator in a child
 * process, against the test PostgreSQL server. It must exit 0, print the
 * figures and an "ok" line for every invariant, and leave no database behind.
 */
import { describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { INVARIANTS } from '../../bench/load/report'
import { TEST_PG_URL, withAdminClient } from '../support/database'

function runLoad(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['scripts/start.mjs', 'bench/load.ts', ...args], {
    env: { ...process.env, NODE_OPTIONS: '', LOAD_PG_URL: TEST_PG_URL, CWA_DATA_DIR: '.data/load-test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })))
}

describe('npm run load', () => {
  it('runs a short mixed load, checks every invariant, prints the figures and exits 0', async () => {
    const { code, output } = await runLoad({ LOAD_SECONDS: '3', LOAD_CONNECTIONS: '5' })
    expect({ code, tail: output.slice(-3000) }).toEqual({
      code: 0,
      tail: expect.stringContaining('load: every invariant holds'),
    })
    expect(output).toMatch(/npm run load: 3 s, 5 connections, server on http:\/\/127\.0\.0\.1:\d+ \(loopback only\)/)
    expect(output).toMatch(/throughput: \d+ req\/s/)
    expect(output).toMatch(
      /server: [\d.]+ ms CPU per request; RSS \d+ → \d+ MB \(peak \d+ MB\), heap used \d+ → \d+ MB/,
    )
    for (const invariant of INVARIANTS) expect(output).toMatch(new RegExp(`invariant ${invariant}: ok \\(`))
    // Both halves of the mix ran and were checked.
    const mix = /reads (\d+) \(p50 \d+ ms, p99 \d+ ms\), writes (\d+) \(p50 \d+ ms, p99 \d+ ms\)/.exec(output)!
    const reads = Number(mix[1])
    const writes = Number(mix[2])
    expect(reads).toBeGreaterThan(0)
    expect(writes).toBeGreaterThan(0)
    expect(Number(/(\d+) anonymous bodies scanned/.exec(output)![1])).toBe(reads)
    const pid = /cwa_load_(\d+)/.exec(output)?.[1]
    const left = await withAdminClient((c) =>
      c.query(`SELECT datname FROM pg_database WHERE datname = $1`, [`cwa_load_${pid}`]),
    )
    expect(left.rows).toEqual([])
  }, 240_000)

  it('--instances 3: three instances behind a round-robin proxy, one restarted gracefully mid-run, lose nothing', async () => {
    const { code, output } = await runLoad({ LOAD_SECONDS: '8', LOAD_CONNECTIONS: '5' }, ['--instances', '3'])
    expect({ code, tail: output.slice(-3000) }).toEqual({
      code: 0,
      tail: expect.stringContaining('load: every invariant holds'),
    })
    expect(output).toMatch(/3 instances behind a round-robin proxy on http:\/\/127\.0\.0\.1:\d+ \(loopback only\)/)
    expect(output).toMatch(
      /instance 1 restarted gracefully mid-run: out of the rotation, drained in \d+ ms, SIGTERM, exit 0, back in [\d.]+ s/,
    )
    for (const invariant of INVARIANTS) expect(output).toMatch(new RegExp(`invariant ${invariant}: ok \\(`))
  }, 300_000)

  it('refuses an unbounded or malformed size before starting anything', async () => {
    const { code, output } = await runLoad({ LOAD_SECONDS: '0' })
    expect(code).toBe(1)
    expect(output).toContain('LOAD_SECONDS must be a whole number from 1 to 3600 (got "0")')
  }, 60_000)
})
