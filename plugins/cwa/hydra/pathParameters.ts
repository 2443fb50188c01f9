import type { Schema } from './docs/openapi/kit.js'

/**
 * What an endpoint says of one of its path parameters (`Endpoint.paramDocs`),
 * declared once beside its template and its `params` constraints: the
 * OpenAPI parameter object is generated from it (`declaredPathParameters`),
 * so no docs function writes `{ name, in: 'path', ... }` by hand.
 */
export interface PathParameterDoc {
  description?: string
  /** Its JSON Schema; a string by default. */
  schema?: Schema
  /**
   * The name the document gives it, when it is not the template's (its documented path says `{name}`): a
   * `{route+}` documented as the item operation's `{id}`.
   */
  name?: string
  /** A parameter shared by several paths (`components.parameters.<ref>`): documented as a reference to it. */
  ref?: string
}

/** The names of a template's parameters, in their order: `{name}` and `{name+}`. */
export function templateParameterNames(template: string): string[] {
  return [...template.matchAll(/\{([^}+]+)\+?\}/g)].map((match) => match[1]!)
}

/**
 * The OpenAPI path parameters of an endpoint, by name, in the template's
 * order: each required, with the description and schema its `paramDocs`
 * declares. A `paramDocs` entry naming no parameter of the template is a
 * programming error, refused here (the document is built at start-up).
 */
export function declaredPathParameters(endpoint: {
  method: string
  path: string
  paramDocs?: Record<string, PathParameterDoc>
}): Record<string, Schema> {
  const names = templateParameterNames(endpoint.path)
  for (const name of Object.keys(endpoint.paramDocs ?? {}))
    if (!names.includes(name))
      throw new Error(`${endpoint.method} ${endpoint.path} documents a path parameter "${name}" it does not have.`)
  return Object.fromEntries(
    names.map((name) => {
      const declared = endpoint.paramDocs?.[name]
      if (declared?.ref) return [name, { $ref: `#/components/parameters/${declared.ref}` }]
      const parameter: Schema = { name: declared?.name ?? name, in: 'path', required: true }
      if (declared?.description !== undefined) parameter.description = declared.description
      parameter.schema = declared?.schema ?? { type: 'string' }
      return [name, parameter]
    }),
  )
}

/**
 * An endpoint's path as the document writes it: `{name+}` as `{name}`, and a parameter the endpoint documents
 * under another name (`PathParameterDoc.name`) under that one.
 */
export function documentedTemplate(endpoint: { path: string; paramDocs?: Record<string, PathParameterDoc> }): string {
  return endpoint.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => `{${endpoint.paramDocs?.[name]?.name ?? name}}`)
}
