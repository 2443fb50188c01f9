#!/usr/bin/env node
/**
 * The front-end target's page renderer, in a process of its own (as the
 * cannon's): renders the given pages the way the CWA Nuxt module does on
 * the server, anonymously, with `connections` renders at a time for
 * `duration` seconds, and prints what it did as JSON. One render is every
 * request the module sends (docs/front-ends.md): the site configuration
 * twice, then the route's manifest and the route at once, then every IRI of
 * the manifest at once, each with the `path` header and its `preload` hint.
 */
let input = ''
for await (const chunk of process.stdin) input += chunk
const job = JSON.parse(input)
const ACCEPT = 'application/ld+json,application/json'
const ANY = '/componentGroups/*/componentPositions/*/component'

/** The module's preload hints by resource type (only hints: the API may ignore them). */
function preloadOf(iri) {
  if (iri.includes('/_/routes/'))
    return `/page/layout${ANY},/page${ANY},/pageData/page/layout${ANY},/pageData/page${ANY}`
  if (iri.includes('/_/pages/')) return `/layout${ANY},${ANY}`
  if (iri.includes('/_/layouts/')) return ANY
  if (iri.includes('/_/component_groups/')) return '/componentPositions/*/component'
  if (iri.includes('/_/component_positions/')) return '/component'
  return ANY
}

let requests = 0
let failed = null
async function get(url, headers) {
  requests++
  const response = await fetch(url, { headers })
  const text = await response.text()
  if (response.status !== 200) failed ??= `${url}: ${response.status} ${text.slice(0, 200)}`
  return text
}

async function render(path) {
  const headers = { accept: ACCEPT, path }
  const [, , manifest] = await Promise.all([
    get(`${job.base}/_api/_/site_config_parameters`, { accept: ACCEPT }),
    get(`${job.base}/_api/_/site_config_parameters`, { accept: ACCEPT }),
    get(`${job.base}/_api/_/routes_manifest/${path}`, headers),
    get(`${job.base}/_api/_/routes/${path}`, { ...headers, preload: preloadOf('/_/routes/') }),
  ])
  const iris = JSON.parse(manifest).resource_iris.filter((iri) => !iri.includes('/_/routes/'))
  await Promise.all(iris.map((iri) => get(`${job.base}${iri}`, { ...headers, preload: preloadOf(iri) })))
}

const times = []
const deadline = Date.now() + job.duration * 1000
let next = 0
await Promise.all(
  Array.from({ length: job.connections }, async () => {
    while (Date.now() < deadline && !failed) {
      const path = job.pages[next++ % job.pages.length]
      const started = performance.now()
      await render(path)
      times.push(performance.now() - started)
    }
  }),
)
times.sort((a, b) => a - b)
process.stdout.write(
  JSON.stringify({ pages: times.length, requests, p50: times[Math.floor(times.length / 2)] ?? 0, failed }),
)
