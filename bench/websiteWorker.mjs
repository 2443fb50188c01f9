#!/usr/bin/env node
/**
 * The website target's client, in a process of its own (as the cannon's): `connections` GETs at a time for
 * `duration` seconds on each of `urls` in turn, each timed to its first byte (fetch resolves with the headers) and
 * to its last; prints, per URL, answers per second and the p50 and p99 of both, as JSON.
 */
let input = ''
for await (const chunk of process.stdin) input += chunk
const job = JSON.parse(input)

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0

async function load(url) {
  const firstByte = []
  const whole = []
  let failed = null
  const deadline = Date.now() + job.duration * 1000
  await Promise.all(
    Array.from({ length: job.connections }, async () => {
      while (Date.now() < deadline && !failed) {
        const started = performance.now()
        const response = await fetch(url, { headers: job.headers ?? {} })
        const headersAt = performance.now()
        await response.arrayBuffer()
        if (response.status !== 200) failed = `${url}: ${response.status}`
        firstByte.push(headersAt - started)
        whole.push(performance.now() - started)
      }
    }),
  )
  firstByte.sort((a, b) => a - b)
  whole.sort((a, b) => a - b)
  return {
    url,
    failed,
    perSecond: whole.length / job.duration,
    ttfbP50: percentile(firstByte, 50),
    ttfbP99: percentile(firstByte, 99),
    p50: percentile(whole, 50),
    p99: percentile(whole, 99),
  }
}

const results = []
for (const url of job.urls) results.push(await load(url))
process.stdout.write(JSON.stringify(results))
