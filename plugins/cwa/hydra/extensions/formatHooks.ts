import type { ResolvedCwaOptions } from '../../core/options.js'
import type { Resource, ResourceRegistry } from '../../core/registry.js'
import type { HydraContext } from '../context.js'
import type { OpenApiDocument, OpenApiKit, Schema } from '../docs/openapi/kit.js'
import type { PropertyDescription } from '../docs/openapi/propertyDescription.js'
import type { HydraExtension, JsonLdObject } from '../extension.js'
import type { Doc } from '../itemStore.js'
import type { OutputProfile, ProfileScope } from '../profile.js'

/**
 * The one call site of each format hook (extension.ts, FormatHooks): the
 * normalizer, the pipeline's writer and the documentation builders ask
 * through these functions, never a hook directly.
 */

type Extensions = readonly HydraExtension[]

/** Lets every extension load what it needs for a batch of documents in one go. */
export async function prepareItems(docs: Doc[], resource: Resource, ctx: HydraContext): Promise<void> {
  for (const extension of ctx.extensions) await extension.prepareItems?.(docs, resource, ctx)
}

/** Lets every extension adjust a normalized item, in turn. */
export async function completeItem(item: JsonLdObject, doc: Doc, resource: Resource, ctx: HydraContext): Promise<void> {
  for (const extension of ctx.extensions) await extension.normalizeItem?.(item, doc, resource, ctx)
}

/** The profiles that write this answer, in the extensions' order (none: the service's own shapes). */
export function outputProfiles(extensions: Extensions, scope: ProfileScope): OutputProfile[] {
  const profiles: OutputProfile[] = []
  for (const extension of extensions) {
    const profile = extension.profile?.(scope)
    if (profile) profiles.push(profile)
  }
  return profiles
}

/** Lets every extension amend a resource's context terms. */
export function describeContext(extensions: Extensions, resource: Resource, terms: JsonLdObject): void {
  for (const extension of extensions) extension.describeContext?.(resource, terms)
}

/** Lets every extension amend the properties a resource documents. */
export function describeProperties(
  extensions: Extensions,
  resource: Resource,
  properties: PropertyDescription[],
  registry: ResourceRegistry,
): void {
  for (const extension of extensions) extension.describeProperties?.(resource, properties, registry)
}

/** The OpenAPI document's security schemes, every extension's (a later one's scheme of the same name wins). */
export function securitySchemes(extensions: Extensions, options: ResolvedCwaOptions): Record<string, Schema> {
  return Object.assign({}, ...extensions.map((extension) => extension.securitySchemes?.(options) ?? {}))
}

/** Lets every extension amend the OpenAPI document once it is built. */
export function amendOpenApi(extensions: Extensions, document: OpenApiDocument, kit: OpenApiKit): void {
  for (const extension of extensions) extension.openApi?.(document, kit)
}
