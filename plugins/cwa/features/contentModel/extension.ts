import type { HydraExtension } from '../../hydra/extension.js'
import { resolveDynamicPosition } from './dynamicPosition.js'
import { applyPositionsOnCreate, readPositionsOnCreate } from './positionsOnCreate.js'

/**
 * The content model's positions in the JSON-LD pipeline: a position bound
 * to a page data property serves the component of the page data the
 * request names (dynamicPosition.ts), and a component POST may name the
 * positions the new component goes to (positionsOnCreate.ts).
 */
export const contentModelExtension: HydraExtension = {
  name: 'contentModel',
  normalizeItem: resolveDynamicPosition,
  async planCreate(resource, body, ctx) {
    const plan = await readPositionsOnCreate(resource, body, ctx)
    // Written in the transaction of the create: a refused position leaves no orphaned component behind.
    return plan && ((created) => applyPositionsOnCreate(resource, String(created.id), plan, ctx))
  },
}
