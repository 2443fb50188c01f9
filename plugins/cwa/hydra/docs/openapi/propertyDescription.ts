import type { Field } from 'payload'
import type { Resource } from '../../../core/registry.js'
import type { Schema } from './kit.js'

type FieldWithName = Field & { name: string }

/** One property of a resource as the API exposes it. */
export interface PropertyDescription {
  /** JSON property name. */
  json: string
  /** The Payload field behind it; absent for computed properties (id, timestamps, _metadata) and auth's password. */
  field?: FieldWithName
  /** Serialized on read. */
  readable: boolean
  /** Accepted on POST and PATCH. */
  writable: boolean
  /** Needed on POST: required by Payload and without a default value. */
  requiredOnCreate: boolean
  /** Never null in the output (required field, or a list). */
  alwaysSet: boolean
  /** Present in every read. False for a field with field-level read access (left out for a caller who may not read it). */
  alwaysPresent?: boolean
  /** JSON Schema of a value as read (without null). */
  schema: Schema
  /** JSON Schema of a value as written, when it differs from the read one. */
  writeSchema?: Schema
  /** Resources an IRI-valued property points to (relationship, upload, join). */
  targets?: Resource[]
  /** Whether the value is a list. */
  many: boolean
  /** XSD or JSON-LD range for the Hydra documentation. */
  range?: string
  description?: string
}
