import type { Field } from 'payload'
import { dataFields, type Resource } from '../core/registry.js'

export type FieldWithName = Field & { name: string }

/** Payload-managed or computed fields a client never writes. */
const NOT_WRITABLE = new Set(['id', 'createdAt', 'updatedAt', 'hash', 'salt', 'sessions', 'deletedAt'])

/**
 * JSON name -> stored Payload field accepted on write: what the denormalizer
 * reads and what the API documentation describes as writable.
 */
export function writableFields(resource: Resource): Map<string, FieldWithName> {
  const { meta } = resource
  const readOnly = new Set(meta.readOnly ?? [])
  const hidden = new Set(meta.hidden ?? [])
  // A virtual field listed as write-only is a transient input (an upload's file property): accepted, never stored by Payload.
  const writeOnly = new Set(meta.writeOnly ?? [])
  const aliasOf = new Map(Object.entries(meta.aliases ?? {}).map(([json, name]) => [name, json]))
  const byJson = new Map<string, FieldWithName>()
  for (const field of dataFields(resource.collection.fields)) {
    if (NOT_WRITABLE.has(field.name) || readOnly.has(field.name) || hidden.has(field.name)) continue
    if ('virtual' in field && field.virtual && writeOnly.has(field.name)) {
      // (Payload marks every virtual field read-only in the admin panel: that is about the panel, not this input.)
      byJson.set(aliasOf.get(field.name) ?? field.name, field)
      continue
    }
    if (field.type === 'join' || field.type === 'ui' || ('virtual' in field && field.virtual)) continue
    if ('hidden' in field && field.hidden && field.name !== 'password') continue
    if ('admin' in field && field.admin && (field.admin as { readOnly?: boolean }).readOnly) continue
    byJson.set(aliasOf.get(field.name) ?? field.name, field)
  }
  return byJson
}

/** JSON names of auth's password: no stored field, but accepted on write through an alias. */
export function passwordAliases(resource: Resource): string[] {
  if (!resource.collection.auth || !resource.meta.aliases) return []
  return Object.entries(resource.meta.aliases)
    .filter(([, name]) => name === 'password')
    .map(([json]) => json)
}
