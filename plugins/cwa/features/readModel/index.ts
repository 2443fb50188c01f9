/**
 * The read model: anonymous JSON-LD reads stored in PostgreSQL and served
 * in one statement, kept exact by the writes themselves (each drops what it
 * changed in its own transaction, a fence stops a racing fill) and by the
 * scheduled moments ([read model](../../../../docs/read-model.md)).
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { readModelExtension } from './extension.js'
import { invalidateStoredAnswers } from './invalidate.js'
import { readModelOptions } from './options.js'
import { installReadModel } from './schema.js'
import { commands } from './commands/index.js'

export { emptyStore, storeSize, trim } from './store.js'
export type { ReadModelOptions } from './options.js'

export const readModelFeature = {
  name: 'readModel',
  // Its tags are the HTTP cache's, and the structure walk and the route reach are the routes feature's.
  after: ['httpCache', 'routes'],
  options: readModelOptions,
  extension: readModelExtension,
  onCommitting: invalidateStoredAnswers,
  onSchemaReady: installReadModel,
  ownTables: ({ tablePrefix }) => ['read_model', 'read_model_fence', 'read_model_moments'].map((t) => tablePrefix + t),
  commands,
} satisfies CwaFeature
