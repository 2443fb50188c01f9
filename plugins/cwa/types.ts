/** 'payload-cwa/types': the front door's types alone (no run-time code), for plugin authors' type imports. */
export type * from './index.js'
