/**
 * Issue 39, typed component types: `npx payload-cwa cwa:client-types` writes the app's component and page data
 * types as the JSON-LD API serves them (their OpenAPI read schemas); the reference site's copy
 * (collections/generated/cwaTypes.ts) is what it writes now; and with them, a renderer map that leaves a type out
 * fails the type check (the site's own page, app/(site), is checked so by `npm run typecheck`).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/database'
import { expectExit, runPayloadCommand } from '../support/command'
import { typeErrorsOf } from '../support/typeErrors'

const COMMITTED = path.join(process.cwd(), 'collections', 'generated', 'cwaTypes.ts')
let database: string
let dir: string

beforeAll(async () => {
  database = await createTestDatabase(process.env.CWA_TEST_TEMPLATE!)
  dir = mkdtempSync(path.join(tmpdir(), 'cwa-client-types-'))
})
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  if (database) await dropDatabase(database)
})

/** The type errors of a module written beside the generated types (so that it imports them as the site does). */
const typeErrors = (source: string) =>
  typeErrorsOf(path.join(path.dirname(COMMITTED), `.typecheck-${process.pid}.ts`), source)

describe('cwa:client-types', () => {
  it("writes the app's types, the same as the site's committed copy", async () => {
    const output = path.join(dir, 'cwa-types.ts')
    const run = await runPayloadCommand('cwa:client-types', ['--output', output], {
      DATABASE_URL: databaseUrl(database),
    })
    expectExit(run, 0)
    expect(run.stdout).toContain(`Wrote the component and page data types to ${output}`)
    const written = readFileSync(output, 'utf8')
    // A difference: a type of the site changed; run `npx payload-cwa cwa:client-types -o collections/generated/cwaTypes.ts`.
    expect(written).toBe(readFileSync(COMMITTED, 'utf8'))
    expect(written).toContain("export interface HtmlContent extends CwaComponent {\n  '@type': 'HtmlContent'")
    expect(written).toMatch(
      /export interface CwaComponentTypes \{\n {2}Collection: Collection\n {2}FileDownload: FileDownload\n/,
    )
    expect(written).toContain('  BlogArticleData: BlogArticleData\n')
  })

  it('refuses an argument it does not know, naming its usage', async () => {
    const run = await runPayloadCommand('cwa:client-types', ['--out'], { DATABASE_URL: databaseUrl(database) })
    expectExit(run, 1)
    expect(run.stderr).toContain('Usage: npx payload-cwa cwa:client-types [--output|-o <file>]')
  })

  it('fails the type check of a renderer map that leaves a type out, or gives a type another’s renderer', () => {
    const header = [
      "import { cwaComponents, type CwaBlockProps, type CwaComponentRenderers } from 'payload-cwa/react'",
      "import type { CwaComponentTypes, FileDownload } from './cwaTypes.js'",
      'const Download = ({ component }: CwaBlockProps<FileDownload>) => component.filename ?? null',
    ].join('\n')
    expect(
      typeErrors(
        `${header}\nexport const all: CwaComponentRenderers<CwaComponentTypes> = { ...cwaComponents, FileDownload: Download }\n`,
      ),
    ).toEqual([])
    const [missing] = typeErrors(
      `${header}\nexport const some: CwaComponentRenderers<CwaComponentTypes> = { ...cwaComponents }\n`,
    )
    expect(missing).toMatch(/Property 'FileDownload' is missing/)
    const wrong = typeErrors(
      `${header}\nexport const swapped: CwaComponentRenderers<CwaComponentTypes> = { ...cwaComponents, FileDownload: Download, Image: Download }\n`,
    )
    expect(wrong.join('\n')).toMatch(/Image/)
  })
})
