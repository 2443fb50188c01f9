import { type CwaPageResult, type PageOptions, resolvePage } from './page.js'
import { type CwaResult, failure, success } from './result.js'
import { type CwaClientOptions, Transport } from './transport.js'
import type { CwaCollection, CwaResource } from './types.js'

export interface SubmitOptions {
  /** A partial submit (PATCH): validates only the fields sent, never fires the form's success. */
  partial?: boolean
}

export interface CwaClient {
  /** Resolves a path to everything needed to render its page (payload-cwa/client's page.ts says how). */
  page(path: string, options?: PageOptions): Promise<CwaPageResult>
  /** One resource by IRI. */
  get<T extends CwaResource = CwaResource>(iri: string, headers?: Record<string, string>): Promise<CwaResult<T>>
  /** A collection page: the collection's IRI with its query (`page`, `itemsPerPage`, `search`, `order[...]`). */
  collection<T extends CwaResource = CwaResource>(
    iri: string,
    query?: Record<string, string | number>,
  ): Promise<CwaResult<CwaCollection<T>>>
  /**
   * Submits a Form component's data (its fields' values, by name): the answer is the form (201, or a listener's
   * result), or a failure whose `violations` name each field wrong (422, with the form in `body`).
   */
  submitForm(form: CwaResource, data: Record<string, unknown>, options?: SubmitOptions): Promise<CwaResult<CwaResource>>
  /** The absolute URL of an IRI (or an endpoint path under the prefix). */
  url(iri: string): string
}

/** The form's name, the root key of a submit body (its formView's `vars.name`). */
function formName(form: CwaResource): string | undefined {
  const view = form.formView as { vars?: { name?: unknown; full_name?: unknown } } | undefined
  const name = view?.vars?.full_name ?? view?.vars?.name
  return typeof name === 'string' && name ? name : undefined
}

/**
 * A client of the JSON-LD API for any JavaScript runtime (Node, edge runtimes, browsers): no framework, no
 * dependency, errors as values. `createCwaClient({ apiUrl: 'https://example.com/_api' })`.
 */
export function createCwaClient(options: CwaClientOptions): CwaClient {
  const transport = new Transport(options)
  const read = async <T>(iri: string, headers?: Record<string, string>): Promise<CwaResult<T>> => {
    const answer = await transport.request<T>('GET', iri, headers ? { headers } : {})
    return answer.ok ? success(answer.value.body) : answer
  }
  return {
    page: (path, pageOptions) => resolvePage(transport, path, pageOptions),
    get: (iri, headers) => read(iri, headers),
    collection: (iri, query = {}) => {
      const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString()
      return read(search ? `${iri}${iri.includes('?') ? '&' : '?'}${search}` : iri)
    },
    submitForm: async (form, data, submitOptions = {}) => {
      const name = formName(form)
      if (!name) return failure({ kind: 'invalid', status: 0, message: `${form['@id']} is not a form (no formView)` })
      const answer = await transport.request<CwaResource>(
        submitOptions.partial ? 'PATCH' : 'POST',
        `${form['@id']}/submit`,
        {
          body: { [name]: data },
          contentType: submitOptions.partial ? 'application/merge-patch+json' : 'application/ld+json',
        },
      )
      return answer.ok ? success(answer.value.body) : answer
    },
    url: (iri) => transport.url(iri),
  }
}
