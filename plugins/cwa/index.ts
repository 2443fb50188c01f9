/** The public front door of the library: everything a Payload app or a plugin author needs. */
export * from './plugin'
