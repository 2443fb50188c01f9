import type { CollectionConfig } from 'payload'
import { toWords } from 'payload/shared'
import { getCwaMeta } from '../../core/types.js'
import { toSnakeCase } from '../../core/utils/naming.js'

/** `component_groups` / `HtmlContent` -> `Component groups` / `Html content`. */
export function humanize(name: string): string {
  const words = toSnakeCase(name).replace(/[_-]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * A field as Payload's own forms label it: its label when it is a string, else its name in Payload's words
 * (`htmlContent` -> `Html Content`), so that a message or a builder row names a field as the edit view beside it does.
 */
export function fieldLabel(field: object | undefined, name: string): string {
  const label = field && 'label' in field ? field.label : undefined
  return typeof label === 'string' && label ? label : toWords(name)
}

/** A plural slug's singular, for the collections named by slug only (newsletter_signups -> newsletter signup). */
export function singularOf(plural: string): string {
  if (/ies$/.test(plural)) return `${plural.slice(0, -3)}y`
  if (/(ss|x|z|ch|sh)es$/.test(plural)) return plural.slice(0, -2)
  if (/s$/.test(plural) && !/ss$/.test(plural)) return plural.slice(0, -1)
  return plural
}

/**
 * Singular and plural labels for a collection that has none of its own, or
 * only the class short name defineComponent gave it: from the short name
 * (singular) and the path segment (plural) of an API resource, else from the
 * slug. Labels a collection declared are kept.
 */
export function withReadableLabels(collection: CollectionConfig): CollectionConfig {
  const meta = getCwaMeta(collection)
  const labels = collection.labels as { singular?: unknown; plural?: unknown } | undefined
  const defaulted =
    !labels || (meta !== undefined && labels.singular === meta.shortName && labels.plural === meta.shortName)
  if (!defaulted) return collection
  const singular = meta ? humanize(meta.shortName) : humanize(singularOf(collection.slug))
  const plural = meta ? humanize(meta.segment) : humanize(collection.slug)
  return { ...collection, labels: { singular, plural } }
}
