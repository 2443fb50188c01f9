import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { Readable } from 'node:stream'
import busboy from 'busboy'
import type { Payload } from 'payload'
import { badRequest, HttpError } from '../../hydra/errors.js'
import { discardRest } from '../../hydra/pipeline/body.js'
import type { ResolvedField } from './options.js'
import { type StagedUpload, stagingFile } from './staging.js'

/** The 413 of a multipart request past the limit (the rest of the body is dropped as it arrives: discardRest). */
export const uploadTooLarge = (limit: number) =>
  new HttpError(413, `Request body too large: an upload request may send at most ${limit / 1024 / 1024} MiB.`)

/**
 * Reads a multipart/form-data body part by part, each file streamed to a
 * staging file as it arrives (never whole in memory). One part per file
 * field, named by its transient property. Past `limit` bytes in all: 413.
 * A file past its field's maxSize stops being written (the field's check
 * turns that into a 422); the rest of it is read and dropped.
 */
export async function readMultipart(
  payload: Payload,
  contentType: string | null,
  body: AsyncIterable<Uint8Array> | null,
  fields: ResolvedField[],
  limit: number,
): Promise<Map<ResolvedField, StagedUpload>> {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new HttpError(415, 'The content-type must be "multipart/form-data" with one part per file property.')
  }
  if (!body) throw badRequest('The upload request has no body.')
  const byName = new Map(fields.map((f) => [f.name, f]))
  const staged = new Map<ResolvedField, StagedUpload>()
  const files: string[] = []
  const outputs: Array<ReturnType<typeof createWriteStream>> = []
  let total = 0
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: { files: fields.length, fields: 20, parts: fields.length + 20 },
    })
  } catch {
    throw badRequest('The multipart body has no boundary.')
  }
  const source = Readable.from(body)
  try {
    await new Promise<void>((resolve, reject) => {
      const writes: Promise<void>[] = []
      let failed = false
      const fail = (error: Error) => {
        if (failed) return
        failed = true
        source.unpipe(parser)
        // The answer goes out while the rest is read and dropped (bounded), so the client can read it.
        source.removeAllListeners('data')
        discardRest(body, source[Symbol.asyncIterator]())
        reject(error)
      }
      source.on('data', (chunk: Buffer) => {
        total += chunk.length
        if (total > limit) {
          fail(uploadTooLarge(limit))
        }
      })
      source.on('error', () => fail(badRequest('The request body was not received completely.')))
      parser.on('file', (name, stream, info) => {
        const field = byName.get(name)
        if (!field || staged.has(field)) {
          stream.resume()
          if (!field)
            fail(
              badRequest(
                `"${name}" is not a file property of this type (expected ${fields.map((f) => f.name).join(', ')}).`,
              ),
            )
          else fail(badRequest(`"${name}" was sent twice.`))
          return
        }
        const file = stagingFile(payload)
        files.push(file)
        const upload: StagedUpload = { file, clientName: info.filename ?? 'file', size: 0 }
        staged.set(field, upload)
        const out = createWriteStream(file)
        outputs.push(out)
        writes.push(
          new Promise<void>((done, error) => {
            out.on('finish', done)
            out.on('error', error)
          }),
        )
        stream.on('data', (chunk: Buffer) => {
          upload.size += chunk.length
          if (field.maxSize !== null && upload.size > field.maxSize) {
            upload.tooLarge = true
            return // keep counting, stop writing
          }
          if (!out.write(chunk)) {
            stream.pause()
            out.once('drain', () => stream.resume())
          }
        })
        stream.on('end', () => out.end())
        stream.on('error', () => out.end())
      })
      parser.on('error', () => fail(badRequest('The multipart body is malformed.')))
      parser.on('partsLimit', () => fail(badRequest('Too many parts in the multipart body.')))
      parser.on('filesLimit', () => fail(badRequest('Too many files in the multipart body.')))
      parser.on('close', () => {
        if (failed) return
        Promise.all(writes).then(() => resolve(), fail)
      })
      source.pipe(parser)
    })
  } catch (error) {
    // Files half written are closed and removed; the rest of the body is being dropped (fail).
    for (const out of outputs) out.destroy()
    for (const file of files) await rm(file, { force: true })
    throw error
  }
  return staged
}
