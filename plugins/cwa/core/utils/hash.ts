import { createHash } from 'node:crypto'

/** SHA-256 of a token, hex: what is stored instead of refresh tokens and emailed tokens. */
export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex')
