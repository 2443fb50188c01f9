/**
 * Issue 23, the parts of the editor's admin that are plain functions: the
 * front end's URL option, the route tree's states, ages in words, the
 * admin build's progress lines, the navigation groups and the Advanced
 * section of a form.
 */
import { describe, expect, it, jest } from '@jest/globals'
import { resolveAdminOptions, siteUrl } from '../../plugins/cwa/dist/features/admin/options.js'
import { byNavGroup, navGroup, withAdvancedSection } from '../../plugins/cwa/dist/features/admin/layout.js'
import { typeIconOf } from '../../plugins/cwa/dist/core/admin/typeIcons.js'
import { assertTypeIcon } from '../../plugins/cwa/dist/features/admin/icons.js'
import { routeState } from '../../plugins/cwa/dist/features/routes/admin/routeTree.js'
import { age } from '../../plugins/cwa/dist/core/admin/dates.js'
import { buildProgress } from '../../src/server/admin'

describe('frontEndUrl', () => {
  it('defaults to none and keeps an origin with its base path, without a trailing slash', () => {
    expect(resolveAdminOptions({}).frontEndUrl).toBeNull()
    expect(resolveAdminOptions({ frontEndUrl: 'https://www.example.com/' }).frontEndUrl).toBe('https://www.example.com')
    expect(resolveAdminOptions({ frontEndUrl: 'http://127.0.0.1:3001/site/' }).frontEndUrl).toBe(
      'http://127.0.0.1:3001/site',
    )
    expect(siteUrl('https://www.example.com', '/blog/first')).toBe('https://www.example.com/blog/first')
    expect(siteUrl(null, '/blog')).toBeNull()
    expect(siteUrl('https://www.example.com', null)).toBeNull()
  })

  it('refuses what is not an absolute http(s) URL, saying what it expects', () => {
    expect(() => resolveAdminOptions({ frontEndUrl: 'www.example.com' })).toThrow(
      /frontEndUrl must be an absolute http\(s\) URL/,
    )
    expect(() => resolveAdminOptions({ frontEndUrl: 'javascript:alert(1)' })).toThrow(
      /frontEndUrl must be an http\(s\) URL/,
    )
    expect(() => resolveAdminOptions({ frontEndUrl: 42 as never })).toThrow(/frontEndUrl/)
  })
})

describe('the route tree', () => {
  const now = new Date('2026-11-27T12:00:00Z')
  it('names each route live, scheduled, not live or a redirect', () => {
    expect(routeState({ effectiveLiveAt: '2026-11-27T11:00:00Z' }, now)).toBe('live')
    expect(routeState({ effectiveLiveAt: '2026-11-28T11:00:00Z' }, now)).toBe('scheduled')
    expect(routeState({ effectiveLiveAt: null }, now)).toBe('not-live')
    expect(routeState({ effectiveLiveAt: null, redirect: 'x' }, now)).toBe('redirect')
    // A reader who may not see the date reads live routes only.
    expect(routeState({}, now)).toBe('live')
  })
})

describe('ages', () => {
  const now = Date.parse('2026-11-27T12:00:00Z')
  it('say how long ago, in the language given', () => {
    expect(age('2026-11-24T12:00:00.123456Z', 'en', now)).toBe('3 days ago')
    expect(age('2026-11-27T11:59:40Z', 'en', now)).toBe('this minute')
    expect(age('2026-11-27T14:00:00Z', 'en', now)).toBe('in 2 hours')
    expect(age('2026-11-24T12:00:00Z', 'fr', now)).toBe('il y a 3 jours')
    expect(age(null)).toBe('')
  })
})

describe('the admin build in the log', () => {
  it('logs each phase of next build once, and a line every interval while nothing else was said', () => {
    jest.useFakeTimers()
    try {
      const lines: string[] = []
      const logger = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) }
      const progress = buildProgress(logger, Date.now(), 20_000)
      jest.advanceTimersByTime(20_000)
      progress.line('   ▲ Next.js 16.4.6')
      progress.line(' Creating an optimized production build ...')
      progress.line(' Creating an optimized production build ...')
      jest.advanceTimersByTime(10_000)
      progress.line(' ✓ Compiled successfully in 61s')
      progress.line(' Collecting page data using 1 worker ...')
      jest.advanceTimersByTime(20_000)
      progress.stop()
      jest.advanceTimersByTime(60_000)
      expect(lines).toEqual([
        'Still building the admin panel (20 s, starting); the APIs answer meanwhile',
        'Building the admin panel: compiling the panel (20 s)',
        'Building the admin panel: compiled; checking types and collecting page data (30 s)',
        'Building the admin panel: collecting page data (30 s)',
        'Still building the admin panel (50 s, collecting page data); the APIs answer meanwhile',
      ])
    } finally {
      jest.useRealTimers()
    }
  })
})

describe('forms and navigation', () => {
  const component = (extra: Record<string, unknown> = {}) => ({
    slug: 'notes',
    admin: { group: 'Components' },
    custom: { cwa: { kind: 'component', shortName: 'Note', pathPrefix: '/component', segment: 'notes', ...extra } },
    fields: [
      { name: 'uiComponent', type: 'text' },
      { name: 'uiClassNames', type: 'text', hasMany: true },
      { name: 'body', type: 'textarea' },
      { name: 'componentGroups', type: 'relationship', relationTo: 'component_groups', hasMany: true },
      { name: 'adminTitle', type: 'text', admin: { position: 'sidebar' } },
    ],
  })

  it('puts a type in the navigation group an editor looks in, keeping a group the site chose', () => {
    expect(navGroup(component() as never)).toBe('Pages and content')
    expect(navGroup(component({ uploadable: { file: {} } }) as never)).toBe('Media')
    expect(navGroup({ ...component(), admin: { group: 'Shop' } } as never)).toBe('Shop')
    expect(navGroup({ slug: 'routes', fields: [], custom: { cwa: { kind: 'core' } } } as never)).toBe('Site structure')
  })

  it('leads with the content: technical fields, in their order, in a collapsed Advanced section at the end', () => {
    const out = withAdvancedSection(component() as never)
    expect(out.fields.map((f: any) => f.name ?? `(${f.type}: ${f.label})`)).toEqual([
      'body',
      'adminTitle',
      '(collapsible: Advanced)',
    ])
    const advanced = out.fields[2] as any
    expect(advanced.admin.initCollapsed).toBe(true)
    expect(advanced.fields.map((f: any) => f.name)).toEqual(['uiComponent', 'uiClassNames', 'componentGroups'])
  })
})

describe('the dashboard order', () => {
  it('puts content first and the account last, keeping the declared order within a group and a site group before Settings', () => {
    const c = (slug: string, group?: string | false) => ({ slug, fields: [], admin: { group } })
    const ordered = byNavGroup([
      c('users', 'Users'),
      c('site_config', 'Settings'),
      c('layouts', 'Site structure'),
      c('pages', 'Pages and content'),
      c('images', 'Media'),
      c('routes', 'Site structure'),
      c('html_contents', 'Pages and content'),
      c('newsletter', 'Form submissions'),
      c('hidden', false),
    ])
    expect(ordered.map((x) => x.slug)).toEqual([
      'pages',
      'html_contents',
      'layouts',
      'routes',
      'images',
      'newsletter',
      'hidden',
      'site_config',
      'users',
    ])
  })
})

describe('type icons', () => {
  const meta = (extra: Record<string, unknown>) => ({ kind: 'component', shortName: 'X', ...extra }) as never
  it('take the declared icon, else one from what the type is', () => {
    expect(typeIconOf('x', meta({ adminIcon: 'form' }))).toBe('form')
    expect(typeIconOf('pages', undefined)).toBe('page')
    expect(typeIconOf('layouts', undefined)).toBe('layout')
    expect(typeIconOf('x', meta({ kind: 'pageData' }))).toBe('article')
    expect(typeIconOf('x', meta({ uploadable: { file: { imagineFilters: ['thumbnail'] } } }))).toBe('image')
    expect(typeIconOf('x', meta({ uploadable: { file: {} } }))).toBe('file')
    expect(typeIconOf('x', meta({}))).toBe('block')
  })

  it('refuse an icon outside the set when the config is built, naming the set', () => {
    expect(() => assertTypeIcon('Quote', meta({ adminIcon: 'quote' }))).toThrow(
      /Quote: adminIcon must be one of article, block, .*, got "quote"/,
    )
    expect(() => assertTypeIcon('Quote', meta({ adminIcon: 'text' }))).not.toThrow()
  })
})
