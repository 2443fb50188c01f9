import type { Payload, PayloadRequest } from 'payload'
import type { ResolvedCwaOptions } from '../../core/options.js'
import type { Resource, ResourceRegistry } from '../../core/registry.js'
import type { HydraContext } from '../context.js'
import type { Endpoint } from '../endpoint.js'
import type {
  AuthenticationRequest,
  CreateFollowUp,
  CrossOriginRequest,
  HydraExtension,
  ResponseInfo,
  StoredRead,
  StoredReadRequest,
} from '../extension.js'
import type { ItemStore } from '../itemStore.js'

/**
 * The one call site of each request hook (extension.ts, RequestHooks): how
 * the hooks of several extensions combine (the first answer decides, any
 * yes allows, each in turn) is said here once, and every stage of the
 * pipeline, the operations and the features asks through these functions.
 */

type Extensions = readonly HydraExtension[]

/** The endpoints every extension adds, in the extensions' order. */
export function extensionEndpoints(
  extensions: Extensions,
  registry: ResourceRegistry,
  options: ResolvedCwaOptions | undefined,
): Endpoint[] {
  return extensions.flatMap((extension) => extension.endpoints?.(registry, options) ?? [])
}

/** The caller, as the first authenticate hook with an answer names it (null: anonymous). */
export async function authenticateCaller(
  extensions: Extensions,
  request: AuthenticationRequest,
): Promise<PayloadRequest['user'] | null> {
  for (const extension of extensions) {
    if (!extension.authenticate) continue
    const user = await extension.authenticate(request)
    if (user !== undefined) return user
  }
  return null
}

/** The first extension's stored answer (or fill) for a GET or HEAD. */
export async function storedAnswer(extensions: Extensions, request: StoredReadRequest): Promise<StoredRead | null> {
  for (const extension of extensions) {
    const found = await extension.answerStored?.(request)
    if (found) return found
  }
  return null
}

/** Whether an extension names this origin as one of the site's own front ends. */
export function allowsOrigin(extensions: Extensions, origin: string, payload: Payload): boolean {
  return extensions.some((extension) => extension.allowsOrigin?.(origin, payload) === true)
}

/** Every extension's cross-origin headers on an answer. */
export function addCrossOriginHeaders(extensions: Extensions, request: CrossOriginRequest, headers: Headers): void {
  for (const extension of extensions) extension.crossOrigin?.(request, headers)
}

/** A request body as the extensions read it (a profile's IRIs in another shape), each in turn. */
export async function rewrittenInput(extensions: Extensions, body: unknown, ctx: HydraContext): Promise<unknown> {
  let input = body
  for (const extension of extensions)
    if (extension.rewriteInput && input !== undefined) input = await extension.rewriteInput(input, ctx)
  return input
}

/** Lets every extension refuse an item read (throws) before the record is served. */
export async function beforeItemRead(resource: Resource, id: string, ctx: HydraContext): Promise<void> {
  for (const extension of ctx.extensions) await extension.beforeItemRead?.(resource, id, ctx)
}

/** Whether an extension opens the resource's create to anyone (publicCreate: registration). */
export function isPublicCreate(resource: Resource, extensions: Extensions): boolean {
  return extensions.some((extension) => extension.publicCreate?.(resource) === true)
}

/** The writes the extensions plan with a create (planCreate), its body checked by each before anything is written. */
export async function plannedFollowUps(
  resource: Resource,
  body: unknown,
  ctx: HydraContext,
): Promise<CreateFollowUp[]> {
  const followUps: CreateFollowUp[] = []
  for (const extension of ctx.extensions) {
    const followUp = await extension.planCreate?.(resource, body, ctx)
    if (followUp) followUps.push(followUp)
  }
  return followUps
}

/** Whether the resource's collection filters apply to its item requests (any extension may turn that off). */
export function itemFiltersApply(ctx: HydraContext): boolean {
  return !ctx.extensions.some((extension) => extension.itemFilters?.(ctx) === false)
}

/** Lets every extension adjust an answer's headers after its handler ran, in turn. */
export async function decorateResponse(extensions: Extensions, response: ResponseInfo): Promise<void> {
  for (const extension of extensions) await extension.decorateResponse?.(response)
}

/** The store the first extension claims for the resource, or undefined (`fallback` gives each the default store). */
export function claimedStore(resource: Resource, ctx: HydraContext, fallback: () => ItemStore): ItemStore | undefined {
  for (const extension of ctx.extensions) {
    const store = extension.store?.(resource, ctx, fallback())
    if (store) return store
  }
  return undefined
}

/** The record a site path names, as the first extension with an answer resolves it. */
export async function resolvePath(path: string, ctx: HydraContext): Promise<{ slug: string; id: string } | null> {
  for (const extension of ctx.extensions) {
    const found = await extension.resolvePath?.(path, ctx)
    if (found) return found
  }
  return null
}
