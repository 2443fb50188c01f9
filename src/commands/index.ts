import path from 'node:path'
import { fileURLToPath } from 'node:url'

const dir = path.dirname(fileURLToPath(import.meta.url))

/** Operator commands, run as `npx payload cwa:<name>`. */
export const commands = [{ key: 'cwa:user:create', scriptPath: path.resolve(dir, 'userCreate.ts') }]

/**
 * Payload's bin loads the config, then the command's script, through tsx's
 * asynchronous loader thread. On Node 20 an import waiting on that thread
 * does not keep the event loop alive, so now and then (about one run in ten)
 * the process exits with code 0 before the command has even started: a
 * silent "success" that did nothing. While running under the bin, hold the
 * loop open; the bin and runCommand always end with process.exit.
 */
export function isPayloadBin(argv1: string | undefined = process.argv[1]): boolean {
  return /[\\/](?:\.bin[\\/]payload|payload[\\/]bin\.js)$/.test(argv1 ?? '')
}

if (isPayloadBin()) setInterval(() => {}, 60_000)
