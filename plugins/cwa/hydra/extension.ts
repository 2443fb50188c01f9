import type { Router } from 'express'
import type { Payload } from 'payload'
import type { HydraContext } from './context'
import type { Resource } from './registry'
import type { OpenApiContribution, OpenApiKit } from './docs/openapi'
import type { Doc, ItemStore } from './store'

export type JsonLdObject = Record<string, unknown>

/**
 * A hook into the JSON-LD pipeline. Plugins (publishable, uploads, routes,
 * realtime...) add behaviour here instead of inside every handler.
 */
export interface HydraExtension {
  name: string
  /**
   * Adjusts a normalized item before it is sent (e.g. `_metadata` entries,
   * dynamic component resolution). Runs for items and collection members.
   */
  normalizeItem?(item: JsonLdObject, doc: Record<string, unknown>, resource: Resource, ctx: HydraContext): void | Promise<void>
  /**
   * Runs once before a batch of documents is normalized (a collection page or
   * one item), so that per-item data can be loaded in one query, not N.
   */
  prepareItems?(docs: Doc[], resource: Resource, ctx: HydraContext): void | Promise<void>
  /** Claims the reads and writes of a resource (return undefined to leave them to others). */
  store?(resource: Resource, ctx: HydraContext, fallback: ItemStore): ItemStore | undefined
  /** Adds routes of its own under the API prefix (before the resource routes). */
  mount?(router: Router, payload: Payload): void
  /** Describes the routes it mounts in the OpenAPI document ({api_prefix}/docs). */
  openApi?(kit: OpenApiKit): OpenApiContribution | undefined
}

/** Extensions registered on the config by plugins (config.custom.cwa.extensions). */
export function configExtensions(config: { custom?: Record<string, unknown> }): HydraExtension[] {
  return ((config.custom as { cwa?: { extensions?: HydraExtension[] } })?.cwa?.extensions ?? []) as HydraExtension[]
}
