import type { CollectionConfig } from 'payload'
import type { ComponentDeclaration, PageDataDeclaration } from '../core/define.js'

/**
 * What an app may change of a content type in the box: every key of defineComponent / definePageData but its
 * fields, which the type owns (its API answers depend on them). `collection` is merged one level deep (labels,
 * admin), and its hooks run after the type's own.
 */
export type ComponentTypeOptions = Partial<Omit<ComponentDeclaration, 'fields'>>
export type PageDataTypeOptions = Partial<Omit<PageDataDeclaration, 'fields'>>

type Declaration = ComponentDeclaration | PageDataDeclaration
type Hooks = NonNullable<CollectionConfig['hooks']>

/** The type's declaration with the app's options over it. */
export function withOptions<D extends Declaration>(defaults: D, options: Partial<Omit<D, 'fields'>>): D {
  const collection = { ...defaults.collection, ...options.collection }
  const hooks: Record<string, unknown[]> = {}
  for (const source of [defaults.collection?.hooks, options.collection?.hooks])
    for (const [key, list] of Object.entries(source ?? {})) hooks[key] = [...(hooks[key] ?? []), ...(list ?? [])]
  if (Object.keys(hooks).length > 0) collection.hooks = hooks as Hooks
  if (defaults.collection?.admin || options.collection?.admin)
    collection.admin = { ...defaults.collection?.admin, ...options.collection?.admin }
  return { ...defaults, ...options, collection }
}
