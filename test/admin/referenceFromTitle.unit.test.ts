import { describe, expect, it } from '@jest/globals'
import { referenceFromTitle } from '../../plugins/cwa/dist/features/admin/components/referenceFromTitle.js'

/** Issue 40: a new page's reference comes from its title (ReferenceFromTitleField), in the field's own characters. */
describe('referenceFromTitle', () => {
  it.each([
    ['About our team', 'about-our-team'],
    ['  Café & Crème brûlée!  ', 'cafe-creme-brulee'],
    ['2026: the year', '2026-the-year'],
    ['---', ''],
    ['Ünïcödé — Straße', 'unicode-strasse'],
  ])('%s → %s', (title, reference) => {
    expect(referenceFromTitle(title)).toBe(reference)
  })

  it('keeps to the letters, digits and dashes the field accepts, and to 80 characters', () => {
    const long = referenceFromTitle('A very long title '.repeat(10))
    expect(long.length).toBeLessThanOrEqual(80)
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  })
})
