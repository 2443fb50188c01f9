/**
 * The plugin options (issue 9, section 5): typed with no escape hatch, an
 * unknown key (in the plugin options or in CWA_CONFIG_FILE) stops the start
 * with an error naming its full path and the closest known key, every
 * default resolves as before. No database, no Payload (the database-free
 * tier); that a refused options file stops `npm start` is
 * test/core/optionsStart.test.ts.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Config } from 'payload'
import { cwaPlugin } from '../../plugins/cwa/dist/index.js'
import { slugRouteGenerator } from '../../plugins/cwa/dist/features/routes/generator.js'
import { checkOptionKeys, type CwaPluginOptions, resolveOptions } from '../../plugins/cwa/dist/options.js'
import { siteOptions } from '../../src/config/siteOptions'

const dir = mkdtempSync(path.join(tmpdir(), 'cwa-options-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Options with keys the type does not have (what a JSON file or an untyped caller can pass). */
const untyped = (options: Record<string, unknown>) => options as CwaPluginOptions

describe('unknown option keys', () => {
  it('an unknown top-level key throws, naming it and the closest known key', () => {
    expect(() => resolveOptions(untyped({ apiPrefx: '/x' }))).toThrow(
      'cwa options: unknown key apiPrefx (did you mean apiPrefix?)',
    )
    expect(() => resolveOptions(untyped({ tablePrefix: 'x_', websitName: 'Typo' }))).toThrow(
      'unknown key websitName (did you mean websiteName?)',
    )
  })

  it('a nested unknown key throws with its full path and the closest key at its level', () => {
    expect(() => resolveOptions(untyped({ user: { emailVerfication: { verifyOnRegister: true } } }))).toThrow(
      'cwa options: unknown key user.emailVerfication (did you mean user.emailVerification?)',
    )
    expect(() => resolveOptions(untyped({ user: { passwordReset: { email: { subjet: 'Reset' } } } }))).toThrow(
      'unknown key user.passwordReset.email.subjet (did you mean user.passwordReset.email.subject?)',
    )
    expect(() => resolveOptions(untyped({ session: { cookiename: 'sid' } }))).toThrow(
      'unknown key session.cookiename (did you mean session.cookieName?)',
    )
    expect(() => resolveOptions(untyped({ httpCache: { maxage: 60 } }))).toThrow(
      'unknown key httpCache.maxage (did you mean httpCache.maxAge?)',
    )
    expect(() => resolveOptions(untyped({ enabledComponents: { colection: false } }))).toThrow(
      'unknown key enabledComponents.colection (did you mean enabledComponents.collection?)',
    )
    expect(() => resolveOptions(untyped({ forms: { type: [] } }))).toThrow(
      'unknown key forms.type (did you mean forms.types?)',
    )
    expect(() => resolveOptions(untyped({ publishable: { permissions: 'ROLE_USER' } }))).toThrow(
      'unknown key publishable.permissions (did you mean publishable.permission?)',
    )
  })

  it('a key at the wrong level is pointed to where it belongs; a key close to nothing lists the known keys', () => {
    expect(() => resolveOptions(untyped({ allowRegistration: true }))).toThrow(
      'unknown key allowRegistration (did you mean users.allowRegistration?)',
    )
    expect(() => resolveOptions(untyped({ user: { emailVerification: { zzz: 1 } } }))).toThrow(
      /unknown key user\.emailVerification\.zzz \(known keys of user\.emailVerification: defaultValue, verifyOnRegister, verifyOnChange, denyUnverifiedLogin, repeatTtlSeconds, requestTimeoutSeconds, email\)/,
    )
  })

  it('names every unknown key at once', () => {
    expect(() => resolveOptions(untyped({ apiPrefx: '/x', user: { emailLink: {} } }))).toThrow(
      'cwa options: unknown keys apiPrefx (did you mean apiPrefix?); user.emailLink (did you mean user.emailLinks?)',
    )
  })

  it('user-defined maps and lists are not checked: role names, form types, route rules', () => {
    const options = resolveOptions({
      roleHierarchy: { ROLE_EDITOR: ['ROLE_USER'], ROLE_ADMIN: ['ROLE_EDITOR'] },
      routeSecurity: [{ route: '/members*', security: 'ROLE_USER' }],
      forms: { types: [], listeners: [] },
      user: { emails: { welcome: { enabled: false } } },
    })
    expect(options.roleHierarchy.ROLE_EDITOR).toEqual(['ROLE_USER'])
    expect(options.user.emails.welcome).toEqual({ enabled: false, subject: 'Welcome to {{ website_name }}' })
  })

  it('checkOptionKeys refuses the same keys without resolving, its message starting with the source it is given', () => {
    expect(() => checkOptionKeys({ apiPrefx: '/x' }, 'options.json')).toThrow(
      'options.json: unknown key apiPrefx (did you mean apiPrefix?)',
    )
    expect(() => checkOptionKeys({ session: { cookiename: 'sid' } })).toThrow(
      'cwa options: unknown key session.cookiename (did you mean session.cookieName?)',
    )
    expect(() => checkOptionKeys({})).not.toThrow()
    expect(() => checkOptionKeys({ apiPrefix: '/x', session: { cookieName: 'sid' } })).not.toThrow()
  })

  it('checkOptionKeys knows the keys of the features the options add, and only with them', () => {
    const feature = { name: 'acme-notes', options: { keys: { notes: { limit: true } }, resolve: () => ({}) } }
    expect(() => checkOptionKeys({ features: [feature], notes: { limit: 3 } })).not.toThrow()
    expect(() => checkOptionKeys({ features: [feature], notes: { limt: 3 } })).toThrow(
      'cwa options: unknown key notes.limt (did you mean notes.limit?)',
    )
    expect(() => checkOptionKeys({ notes: { limit: 3 } })).toThrow(/unknown key notes/)
  })

  it('cwaPlugin refuses an unknown key when the config is built', () => {
    expect(() => cwaPlugin(untyped({ routeSecurty: [] }))({ collections: [] } as unknown as Config)).toThrow(
      'cwa options: unknown key routeSecurty (did you mean routeSecurity?)',
    )
  })
})

describe('CWA_CONFIG_FILE with an unknown key', () => {
  const badFile = () => {
    const file = path.join(dir, `options-${Math.random().toString(36).slice(2)}.json`)
    writeFileSync(file, JSON.stringify({ websiteName: 'Site', user: { emailVerfication: { verifyOnRegister: true } } }))
    return file
  }

  it('is refused by the loader, the message naming the file, the key path and the closest key', () => {
    const file = badFile()
    expect(() => siteOptions({ CWA_CONFIG_FILE: file })).toThrow(
      `CWA_CONFIG_FILE ${file}: unknown key user.emailVerfication (did you mean user.emailVerification?)`,
    )
  })
})

describe('defaults', () => {
  it('resolveOptions({}) gives every documented default, as before the options were split', async () => {
    const { routeGenerator, commands, ...resolved } = resolveOptions({})
    expect(routeGenerator).toBe(slugRouteGenerator)
    // The operator commands: nothing around a command, Payload's own migrate:create for --migration.
    expect(commands.createMigration).toBeNull()
    await expect(commands.environment()).resolves.toEqual({})
    const email = (defaultRedirectPath: string, subject: string) => ({
      defaultRedirectPath,
      redirectPathQuery: null,
      subject,
    })
    expect(resolved).toStrictEqual({
      apiPrefix: '/_api',
      cors: { allowedOrigins: [], maxAge: 3600 },
      compat: null,
      compatIrisWithoutPrefix: false,
      tablePrefix: '_acb_',
      websiteName: 'Website',
      uploads: {
        storage: { local: { adapter: 'local' } },
        filters: {
          thumbnail: { width: 300, height: 300, fit: 'inside', format: 'webp' },
          square: { width: 200, height: 200, fit: 'cover' },
        },
        temporaryUrlTtlSeconds: 259200,
        maxRequestBytes: 21 * 1024 * 1024,
        stagingDirectory: null,
      },
      roleHierarchy: { ROLE_ADMIN: ['ROLE_USER'], ROLE_SUPER_ADMIN: ['ROLE_ADMIN', 'ROLE_ALLOWED_TO_SWITCH'] },
      preparedStatements: true,
      replicaWaitMs: 5000,
      scheduleRecheck: 1,
      users: { allowRegistration: false },
      user: {
        emailLinks: { defaultOrigin: null, allowedOrigins: [] },
        emailVerification: {
          defaultValue: false,
          verifyOnRegister: false,
          verifyOnChange: false,
          denyUnverifiedLogin: false,
          repeatTtlSeconds: 300,
          requestTimeoutSeconds: 86400,
          email: email(
            '/verify-email/{{ username }}/{{ token }}',
            'Please verify your email address for {{ website_name }}',
          ),
        },
        passwordReset: {
          repeatTtlSeconds: 86400,
          requestTimeoutSeconds: 3600,
          concealUnknownUsers: false,
          email: email('/reset-password/{{ username }}/{{ token }}', 'Your password reset link for {{ website_name }}'),
        },
        newEmailConfirmation: {
          repeatTtlSeconds: 300,
          requestTimeoutSeconds: 86400,
          email: email(
            '/confirm-new-email/{{ username }}/{{ new_email }}/{{ token }}',
            'Please confirm your new email address for {{ website_name }}',
          ),
        },
        emails: {
          welcome: { enabled: true, subject: 'Welcome to {{ website_name }}' },
          userEnabled: { enabled: true, subject: 'Your {{ website_name }} account is enabled' },
          usernameChanged: { enabled: true, subject: 'Your {{ website_name }} username has changed' },
          passwordChanged: { enabled: true, subject: 'Your {{ website_name }} password has changed' },
        },
      },
      publishable: { permission: 'ROLE_ADMIN' },
      readModel: { enabled: true, maxEntries: 20000, maxBytes: 67108864, admitVariantsAfter: 2 },
      routeSecurity: [],
      routableSecurity: null,
      httpCache: {
        maxAge: null,
        sharedMaxAge: null,
        purger: 'none',
        varnishUrl: null,
        tagHeader: 'xkey',
        renderedHtmlTag: 'cwa-html',
        revalidateUrl: null,
        revalidateSecret: null,
        purgeTimeout: 5000,
      },
      // Resolved like the others now (it used to be read from the raw options).
      forms: { types: [], listeners: [] },
      enabledComponents: { form: true, collection: true },
      orphanedResources: {
        notify: { recipients: [], adminPagePath: '/_cwa/orphaned', subject: null },
        gracePeriodSeconds: 0,
        scanIn: 'request',
        schedule: null,
      },
      session: {
        cookieName: 'api_component',
        refreshCookieName: 'api_component_refresh',
        sameSite: 'lax',
        tokenTtl: 3600,
        refreshTtl: 604800,
      },
      mercure: {
        url: null,
        publicUrl: null,
        jwtSecret: null,
        topicBase: null,
        coreResources: true,
        cookie: { name: 'mercureAuthorization', sameSite: 'lax', domain: null },
        subscriberTtl: 600,
        retries: 2,
        retryDelay: 250,
        timeout: 5000,
        embedded: false,
        hub: {
          maxSubscribers: 1000,
          history: 1000,
          maxBufferedBytes: 1024 * 1024,
          heartbeat: 15000,
          maxSubscribersPerClient: 50,
          maxSelectors: 20,
          maxSelectorLength: 512,
        },
      },
      // The admin's "View on site" and Live Preview: off until the front end's URL is given.
      frontEndUrl: null,
      previewPath: null,
    })
  })

  it('given values replace the defaults, and the prefix is normalized as before', () => {
    const options = resolveOptions({
      apiPrefix: 'content/',
      session: { cookieName: 'sid' },
      httpCache: { maxAge: 60.7 },
      enabledComponents: { form: false },
    })
    expect(options.apiPrefix).toBe('/content')
    expect(options.session.refreshCookieName).toBe('sid_refresh')
    expect(options.httpCache).toMatchObject({ maxAge: 60, sharedMaxAge: null })
    expect(options.enabledComponents).toEqual({ form: false, collection: true })
    expect(resolveOptions({ apiPrefix: ' / ' }).apiPrefix).toBe('')
  })
})
