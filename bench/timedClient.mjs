/**
 * The read model bench's client, on a thread of its own: a request is timed
 * on an event loop the server does not share, as a remote client's would be
 * (work the server does after sending an answer never delays its arrival).
 * Messages: `{ id, url, headers }` in, `{ id, ms, status, source }` out.
 */
import { parentPort } from 'node:worker_threads'

parentPort.on('message', async ({ id, url, headers }) => {
  try {
    const started = performance.now()
    const response = await fetch(url, { headers })
    await response.arrayBuffer()
    const ms = performance.now() - started
    parentPort.postMessage({ id, ms, status: response.status, source: response.headers.get('cwa-read-model') ?? '' })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) })
  }
})
