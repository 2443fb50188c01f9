import { request } from 'node:http'

export interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * A GET sent with its path exactly as given (no client normalizes it: `%2f`, `%30`, `//`, a trailing slash stay)
 * and any headers, `Host` included (fetch refuses to set it).
 */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    const sent = request({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
      response.on('error', reject)
    })
    sent.on('error', reject)
    sent.end()
  })
}
