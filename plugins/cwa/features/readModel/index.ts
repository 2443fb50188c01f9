/**
 * The read model: anonymous JSON-LD reads stored in PostgreSQL and served
 * in one statement, kept exact by the writes themselves (each drops what it
 * changed in its own transaction, a fence stops a racing fill) and by the
 * scheduled moments ([read model](../../../../docs/read-model.md)).
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { readModelExtension } from './extension.js'
import { invalidateStoredAnswers } from './invalidate.js'
import { installReadModel } from './schema.js'

export { READ_MODEL_HEADER } from './extension.js'
export { emptyStore, storeSize, trim } from './store.js'
export type { ReadModelOptions, ResolvedReadModel } from './options.js'

export const readModelFeature: CwaFeature = {
  name: 'readModel',
  extension: readModelExtension,
  onCommitting: invalidateStoredAnswers,
  onSchemaReady: installReadModel,
}
