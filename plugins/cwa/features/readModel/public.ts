/** The read model's share of the package's front door (index.ts re-exports it). */
export { READ_MODEL_HEADER } from './extension.js'
export { emptyStore as emptyReadModel, storeSize as readModelSize } from './store.js'
export type { ReadModelOptions } from './options.js'
export { keepOwnAnswer, lookupOwnAnswer, type OwnLookup } from './ownAnswers.js'
export type { StoredAnswer } from './store.js'
