/**
 * The admin's client components talk to the JSON-LD API with the signed-in
 * editor's session cookie (the admin panel and the API share it). A non-2xx
 * answer becomes an Error carrying the Hydra description (or the first
 * violation), which the views show.
 */
export interface ApiViolation {
  propertyPath?: string
  message?: string
  /** The page builder's refusals name the block (its IRI) and the field. */
  block?: string
  field?: string | null
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly violations: ApiViolation[] = [],
  ) {
    super(message)
  }
}

export async function apiFetch<T = Record<string, unknown>>(
  url: string,
  init: { method?: string; body?: unknown; form?: FormData; ifMatch?: string | null } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/ld+json' }
  // The version the editor read: a write over a newer one is refused with a 412 instead of replacing it.
  if (init.ifMatch) headers['if-match'] = `"${init.ifMatch}"`
  let body: BodyInit | undefined
  if (init.form) body = init.form
  else if (init.body !== undefined) {
    // A JSON-LD PATCH is a merge patch (the API refuses any other type with a 415).
    headers['content-type'] = init.method === 'PATCH' ? 'application/merge-patch+json' : 'application/ld+json'
    body = JSON.stringify(init.body)
  }
  const response = await fetch(url, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    credentials: 'same-origin',
  })
  const text = await response.text()
  let json: Record<string, unknown> = {}
  try {
    if (text) json = JSON.parse(text) as Record<string, unknown>
  } catch {
    // Not JSON (a proxy's error page): the status says what happened.
  }
  if (!response.ok) {
    const violations = json.violations as ApiViolation[] | undefined
    const message = violations?.length
      ? violations
          .map((v) => (v.block ? v.message : v.propertyPath ? `${v.propertyPath}: ${v.message}` : v.message))
          .join('; ')
      : String(
          json['hydra:description'] ?? json.detail ?? json.description ?? `${response.status} ${response.statusText}`,
        )
    throw new ApiError(response.status, message, violations ?? [])
  }
  return json as T
}
