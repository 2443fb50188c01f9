import type { JsonLdOutput } from './endpoint.js'

/** Hydra's own context (a Hydra `Status` node). */
const HYDRA_CONTEXT = 'http://www.w3.org/ns/hydra/context.jsonld'

/**
 * The IRI of a context the API serves (`GET {prefix}/contexts/{name}`): a
 * resource class's, the entrypoint's, an error's. The one place it is built.
 */
export function contextIri(apiPrefix: string, name: string): string {
  return `${apiPrefix}/contexts/${name}`
}

/**
 * The JSON-LD node of what a handler returned (`EndpointResult.output`):
 * `@context`, `@id` (when it has one) and `@type` first, then its data in
 * its own order. Handlers return data; the format is added here.
 */
export function serialize(apiPrefix: string, output: JsonLdOutput): Record<string, unknown> {
  const context = output.context ?? { name: 'Entrypoint' }
  return {
    '@context':
      context === 'hydra' ? HYDRA_CONTEXT : 'terms' in context ? context.terms : contextIri(apiPrefix, context.name),
    ...(output.id === undefined ? {} : { '@id': output.id }),
    '@type': output.type,
    ...output.data,
  }
}
