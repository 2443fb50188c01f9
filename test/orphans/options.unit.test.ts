import { describe, expect, it } from '@jest/globals'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'
import { adminButtonUrl, hasChanged } from '../../plugins/cwa/dist/features/orphans/alert.js'
import { parseRecipients } from '../../plugins/cwa/dist/features/orphans/options.js'

/** orphanedResources.* (contract: orphan alert rule 1, and this library's own keys) and alert rule 2. */

describe('orphanedResources options', () => {
  it('recipients: a list, or a comma-separated string with bare addresses and Name <address> forms; null or nothing means none', () => {
    expect(parseRecipients('ops@example.com, Ops Team <ops2@example.com>,  "Doe, Jane" <jane@example.com> ,')).toEqual([
      'ops@example.com',
      'Ops Team <ops2@example.com>',
      '"Doe, Jane" <jane@example.com>',
    ])
    expect(parseRecipients(['a@example.com', ' B <b@example.com> ', ''])).toEqual([
      'a@example.com',
      'B <b@example.com>',
    ])
    expect(parseRecipients(null)).toEqual([])
    expect(
      resolveOptions({ orphanedResources: { notify: { recipients: null } } }).orphanedResources.notify.recipients,
    ).toEqual([])
  })

  it('defaults: admin page /_cwa/orphaned, no grace period, scans in the request, no schedule', () => {
    expect(resolveOptions({}).orphanedResources).toEqual({
      notify: { recipients: [], adminPagePath: '/_cwa/orphaned', subject: null },
      gracePeriodSeconds: 0,
      scanIn: 'request',
      schedule: null,
    })
  })

  it("adminPagePath: a path on the default origin, or an absolute URL used as it is (the admin view on the service's origin)", () => {
    expect(
      resolveOptions({ orphanedResources: { notify: { adminPagePath: 'cwa/orphans' } } }).orphanedResources.notify
        .adminPagePath,
    ).toBe('/cwa/orphans')
    const absolute = 'https://cms.example.com/admin/cwa/orphaned'
    expect(
      resolveOptions({ orphanedResources: { notify: { adminPagePath: absolute } } }).orphanedResources.notify
        .adminPagePath,
    ).toBe(absolute)
    expect(adminButtonUrl('/_cwa/orphaned', 'https://front.example/some/path')).toBe(
      'https://front.example/_cwa/orphaned',
    )
    expect(adminButtonUrl(absolute, null)).toBe(absolute)
    expect(adminButtonUrl('/_cwa/orphaned', null)).toBeNull()
    expect(adminButtonUrl('/_cwa/orphaned', 'ftp://front.example')).toBeNull()
  })

  it('refuses an unknown key, a negative grace period and an unknown scanIn', () => {
    expect(() => resolveOptions({ orphanedResources: { notfy: {} } } as never)).toThrow(/orphanedResources.notfy/)
    expect(() => resolveOptions({ orphanedResources: { gracePeriodSeconds: -1 } })).toThrow(/gracePeriodSeconds/)
    expect(() => resolveOptions({ orphanedResources: { scanIn: 'later' as never } })).toThrow(/scanIn/)
  })
})

describe('alert rule 2: changed', () => {
  const lists = (components: string[], componentGroups: string[] = [], componentPositions: string[] = []) => ({
    components,
    componentGroups,
    componentPositions,
  })
  it('with no earlier alert, only when orphans exist', () => {
    expect(hasChanged(lists([]), null)).toBe(false)
    expect(hasChanged(lists(['/a']), null)).toBe(true)
  })
  it('when any list holds other IRIs (order ignored)', () => {
    expect(hasChanged(lists(['/a', '/b']), lists(['/b', '/a']))).toBe(false)
    expect(hasChanged(lists(['/a']), lists(['/a', '/b']))).toBe(true)
    expect(hasChanged(lists(['/a'], ['/g']), lists(['/a']))).toBe(true)
    expect(hasChanged(lists([]), lists([]))).toBe(false)
  })
})
