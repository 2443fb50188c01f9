import { createHash } from 'node:crypto'
import type { Payload } from 'payload'
import { getOptions } from '../../core/registry.js'
import { FORMS_SLUG } from './submit.js'
import { formTypeRegistry } from './registry.js'
import type { FormTypeDefinition } from './types.js'

/**
 * `cwa:form-cache-purge` in Node. The contract sets each form's modified
 * date to the last change of its form type's file; here a form type is a
 * declaration in code, so its "last change" is a content hash of the
 * declaration (class and form names, attributes, every field and child
 * form, each constraint's code and `options`). Code is not part of it: a
 * function's text depends on how the code was compiled, so a changed
 * handler or custom rule is not seen. Each Form stores the
 * hash of its type when it is written (`formTypeHash`, never served); the
 * command gives every Form whose type's hash changed since a new
 * `modifiedAt` (now) and the new hash, so front ends that cache a Form by
 * its modified date fetch its new formView. A form type nothing declares
 * any more is counted, not touched.
 */

/** Stable text of a declaration: keys sorted; functions only say they are there. */
function stable(value: unknown, seen = new Set<unknown>()): string {
  if (typeof value === 'function') return '"fn"'
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null)
  if (seen.has(value)) return '"[cycle]"'
  seen.add(value)
  const text = Array.isArray(value)
    ? `[${value.map((entry) => stable(entry, seen)).join(',')}]`
    : `{${Object.keys(value as object)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${stable((value as Record<string, unknown>)[key], seen)}`)
        .join(',')}}`
  seen.delete(value)
  return text
}

/** The content hash of a form type declaration (sha256, hex). */
export function formTypeHash(type: FormTypeDefinition): string {
  return createHash('sha256').update(stable(type)).digest('hex')
}

export interface FormCachePurgeResult {
  /** Forms looked at. */
  checked: number
  /** Forms given a new modified date (their type changed). */
  purged: number
  /** Forms whose formType no registered type has (left alone). */
  unknownType: number
}

export async function purgeFormCache(payload: Payload): Promise<FormCachePurgeResult> {
  const { types } = formTypeRegistry(getOptions(payload.config))
  const result: FormCachePurgeResult = { checked: 0, purged: 0, unknownType: 0 }
  const { docs } = await payload.find({
    collection: FORMS_SLUG,
    depth: 0,
    pagination: false,
    overrideAccess: true,
    showHiddenFields: true,
    select: { formType: true, formTypeHash: true },
  })
  for (const doc of docs as Array<{ id: string; formType?: string; formTypeHash?: string | null }>) {
    result.checked++
    const type = doc.formType ? types.get(doc.formType) : undefined
    if (!type) {
      result.unknownType++
      continue
    }
    const hash = formTypeHash(type)
    if (doc.formTypeHash === hash) continue
    await payload.update({
      collection: FORMS_SLUG,
      id: doc.id,
      data: { formTypeHash: hash },
      depth: 0,
      overrideAccess: true,
    })
    result.purged++
  }
  return result
}
