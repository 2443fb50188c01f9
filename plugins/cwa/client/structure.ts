import type { CwaResolvedPage } from './page.js'
import type { CwaComponent, CwaComponentGroup, CwaComponentPosition, CwaResource } from './types.js'

/** One block of a group, in order: its position and the component it holds. */
export interface CwaBlock<C extends CwaComponent = CwaComponent> {
  position: CwaComponentPosition
  component: C
}

const resourceOf = <T extends CwaResource>(page: CwaResolvedPage, iri: unknown): T | undefined =>
  typeof iri === 'string' ? (page.resources[iri] as T | undefined) : undefined

/** The groups an owner (a layout, a page, a component) holds, in its order; those that could not be read left out. */
export function groupsOf(page: CwaResolvedPage, owner: CwaResource): CwaComponentGroup[] {
  const iris = Array.isArray(owner.componentGroups) ? owner.componentGroups : []
  return iris.flatMap((iri) => resourceOf<CwaComponentGroup>(page, iri) ?? [])
}

/**
 * The owner's group of this reference: named as a template places it (`primary`), or as the CWA Nuxt module stores
 * it (`primary_<owner IRI>`).
 */
export function groupOf(page: CwaResolvedPage, owner: CwaResource, reference: string): CwaComponentGroup | undefined {
  const scoped = `${reference}_${owner['@id']}`
  return groupsOf(page, owner).find((group) => group.reference === reference || group.reference === scoped)
}

/**
 * A group's blocks in their order (`sortValue`, then as the group lists them): each position with its component.
 * A position whose component is empty or could not be read (a draft the caller may not see) renders nothing.
 */
export function blocksOf(page: CwaResolvedPage, group: CwaComponentGroup | undefined): CwaBlock[] {
  if (!group) return []
  const positions = (group.componentPositions ?? []).flatMap((iri, index) =>
    resourceOf<CwaComponentPosition>(page, iri) ? [{ iri, index }] : [],
  )
  return positions
    .map(({ iri, index }) => ({ position: page.resources[iri] as CwaComponentPosition, index }))
    .sort((a, b) => (a.position.sortValue ?? 0) - (b.position.sortValue ?? 0) || a.index - b.index)
    .flatMap(({ position }) => {
      const component = resourceOf<CwaComponent>(page, position.component)
      return component ? [{ position, component }] : []
    })
}
