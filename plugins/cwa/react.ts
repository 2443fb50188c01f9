/** 'payload-cwa/react': React components that render a page resolved by payload-cwa/client. */
export * from './react/index.js'
