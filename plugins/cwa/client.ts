/** 'payload-cwa/client': a typed client of the JSON-LD API for Node, edge runtimes and browsers. */
export * from './client/index.js'
