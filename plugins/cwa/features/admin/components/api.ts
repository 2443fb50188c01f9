/**
 * The admin's client components talk to the JSON-LD API with the signed-in
 * editor's session cookie (the admin panel and the API share it). A non-2xx
 * answer becomes an Error carrying the Hydra description (or the first
 * violation), which the views show.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export async function apiFetch<T = Record<string, unknown>>(url: string, init: { method?: string; body?: unknown; form?: FormData } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/ld+json' }
  let body: BodyInit | undefined
  if (init.form) body = init.form
  else if (init.body !== undefined) {
    headers['content-type'] = 'application/ld+json'
    body = JSON.stringify(init.body)
  }
  const response = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, credentials: 'same-origin' })
  const text = await response.text()
  let json: Record<string, unknown> = {}
  try {
    if (text) json = JSON.parse(text) as Record<string, unknown>
  } catch {
    // Not JSON (a proxy's error page): the status says what happened.
  }
  if (!response.ok) {
    const violations = json.violations as Array<{ propertyPath?: string; message?: string }> | undefined
    const message = violations?.length
      ? violations.map((v) => (v.propertyPath ? `${v.propertyPath}: ${v.message}` : v.message)).join('; ')
      : String(json['hydra:description'] ?? json.detail ?? json.description ?? `${response.status} ${response.statusText}`)
    throw new ApiError(response.status, message)
  }
  return json as T
}
