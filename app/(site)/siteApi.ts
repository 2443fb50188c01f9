/*
 * The website's way to the JSON-LD API: its handler in this process (no socket), addressed on SERVER_URL when set,
 * else on the request's Host (the API's own rule for the URLs it writes: images, form actions). Never on
 * X-Forwarded-Host: anyone can send it, and the page would then point its images and its form elsewhere.
 */
import { createCwaHandler, getOptions } from 'payload-cwa'
import { loadConfig } from '../(payload)/loadConfig'

export const apiHandler = createCwaHandler({ config: loadConfig })

/** Calls the API's handler in this process. */
export const inProcessFetch = (input: string, init?: RequestInit) => apiHandler(new Request(input, init))

/** The API's URL with its prefix, as the request's host names the site. */
export async function apiUrlFor(host: string | null): Promise<string> {
  const origin = process.env.SERVER_URL?.replace(/\/+$/, '') || `http://${host ?? 'localhost'}`
  const { apiPrefix } = getOptions(await loadConfig())
  return `${origin}${apiPrefix}`
}
