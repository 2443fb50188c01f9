import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildSiteConfig } from '../../../payload.config'

/**
 * The start-up check of the email options (contract, "Configuration
 * options"): with verifyOnRegister or verifyOnChange the verification email
 * needs defaultRedirectPath or redirectPathQuery, and allowedOrigins must
 * be valid regexes. The site's config (what `npm start` builds) refuses to
 * build otherwise, with a message naming the option.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'cwa-startup-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Builds the site config; a synchronous throw counts as a rejection too (either stops `npm start`). */
const build = async (...args: Parameters<typeof buildSiteConfig>) => buildSiteConfig(...args)

const blankPath = (flags: Record<string, boolean>, query: string | null = null) => ({
  user: { emailVerification: { ...flags, email: { defaultRedirectPath: '', redirectPathQuery: query } } },
})

describe('start-up check of the email options', () => {
  it.each<Record<string, boolean>>([{ verifyOnRegister: true }, { verifyOnChange: true }])(
    'refuses %j without a verification link path',
    async (flags) => {
      await expect(build({ options: blankPath(flags) })).rejects.toThrow(
        /verifyOnRegister \/ verifyOnChange need user\.emailVerification\.email\.defaultRedirectPath or user\.emailVerification\.email\.redirectPathQuery/,
      )
    },
  )

  it('refuses it from the options file of the deployment (CWA_CONFIG_FILE) too', async () => {
    const file = path.join(dir, 'options.json')
    writeFileSync(file, JSON.stringify(blankPath({ verifyOnRegister: true })))
    const previous = process.env.CWA_CONFIG_FILE
    process.env.CWA_CONFIG_FILE = file
    try {
      await expect(build()).rejects.toThrow(/defaultRedirectPath or user\.emailVerification\.email\.redirectPathQuery/)
    } finally {
      if (previous === undefined) delete process.env.CWA_CONFIG_FILE
      else process.env.CWA_CONFIG_FILE = previous
    }
  })

  it('accepts a redirectPathQuery instead of the path, and a blank path while verification is off', async () => {
    await expect(build({ options: blankPath({ verifyOnRegister: true }, 'redirect') })).resolves.toBeTruthy()
    await expect(build({ options: blankPath({}) })).resolves.toBeTruthy()
  })

  it('refuses an allowedOrigins entry that is not a valid regex', async () => {
    await expect(
      build({ options: { user: { emailLinks: { allowedOrigins: ['https://(unclosed'] } } } }),
    ).rejects.toThrow(/allowedOrigins holds an invalid regex/)
  })
})
