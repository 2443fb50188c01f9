export { builder, manifestSite, PAST } from '../../../bench/structureFixtures'

export interface Node {
  iri: string
  children: Node[]
}

/** Every IRI of a manifest node, depth first. */
export function flatten(node: Node): string[] {
  return [node.iri, ...node.children.flatMap(flatten)]
}
